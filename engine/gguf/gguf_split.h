// SPDX-License-Identifier: Apache-2.0
// Models in parts, as llama.cpp's gguf-split writes them (Hugging Face keeps
// files under 50 GB, so large models come so): NAME-00001-of-00003.gguf,
// NAME-00002-of-00003.gguf, ... Each part is a whole GGUF file holding some
// of the tensors; the first holds every metadata pair, and each holds
// split.no (0-based), split.count and, in the first, split.tensors.count.
// gguf_file::open joins them (gguf_split.cpp); this header names the parts
// and writes them (tests, `kvlens-cli synth-model --parts`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.h"
#include "engine/gguf/gguf_reader.h"

namespace kvlens {

// The most parts a model may declare (split.count is a u16 in llama.cpp's files).
inline constexpr int k_gguf_max_parts = 65535;

// A part's path taken apart: PREFIX-NNNNN-of-MMMMM.gguf, no and count as written (no 1-based).
struct split_name {
    std::string prefix;
    int no = 0;
    int count = 0;
};

// The parts of `path`'s name; nullopt when it does not end in -NNNNN-of-MMMMM.gguf
// with 1 <= NNNNN <= MMMMM.
std::optional<split_name> parse_split_name(std::string_view path);

// PREFIX-NNNNN-of-MMMMM.gguf (no 1-based), as llama.cpp's llama_split_path.
std::string split_part_path(std::string_view prefix, int no, int count);

// `in` written as n_parts files PREFIX-00001-of-...: every metadata pair and
// split.no, split.count, split.tensors.count in the first; the tensors in
// order, about the same number in each part. paths (if given) gets the files.
status write_split_gguf(const gguf_file& in, int n_parts, const std::string& prefix,
                        std::vector<std::string>* paths = nullptr);

}  // namespace kvlens
