// SPDX-License-Identifier: Apache-2.0
// The pre-tokenizer of byte-level BPE: splits text into words before the
// merges run, with the regular expressions a model was trained with (chosen by
// tokenizer.ggml.pre). Each expression is applied in turn to every piece the
// previous one left; text an expression does not match stays a piece of its
// own, so the pieces always concatenate back to the input. PCRE2 (JIT, UTF,
// invalid UTF-8 tolerated: such bytes never match and stay pieces).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"

namespace kvlens {

class pretokenizer {
public:
    // name: a tokenizer.ggml.pre value ("smollm", "llama-bpe", "qwen2",
    // "gpt2", "tekken", "gpt-4o", "deepseek-v3", "default", ..., and the
    // aliases that share their expressions); known_names() lists them all.
    static result<std::unique_ptr<pretokenizer>> create(std::string_view name);
    ~pretokenizer();
    pretokenizer(const pretokenizer&) = delete;
    pretokenizer& operator=(const pretokenizer&) = delete;

    // The pieces of text, in order, as views into it; empty text gives none.
    std::vector<std::string_view> split(std::string_view text) const;

    const std::string& name() const { return name_; }
    // Llama 3 style: a whole word found in the vocabulary skips the merges.
    bool ignore_merges() const { return ignore_merges_; }
    // The names create() accepts, for error messages and tests.
    static std::vector<std::string> known_names();

private:
    struct compiled;
    pretokenizer() = default;

    std::string name_;
    bool ignore_merges_ = false;
    std::vector<std::unique_ptr<compiled>> exprs_;  // applied in order
};

}  // namespace kvlens
