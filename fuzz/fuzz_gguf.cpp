// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any bytes as a GGUF image -> the reader, then, when it
// accepts them, the model configuration, the model's weights and the
// tokenizer, and a chat encoded with it. Every failure must be an error value.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/gguf/gguf_reader.h"
#include "engine/model/model.h"
#include "engine/model/model_config.h"
#include "engine/tokenizer/tokenizer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    auto f = kvlens::gguf_file::parse(std::vector<std::uint8_t>(data, data + size), "fuzz.gguf");
    if (!f) return 0;
    const kvlens::gguf_file& file = **f;
    for (const auto& [key, value] : file.metadata()) {
        if (const kvlens::gguf_array* a = value.as_array()) {
            if (a->is_string()) (void)a->strings();
            else if (a->size() > 0) (void)a->float_at(a->size() - 1);
        }
    }
    (void)kvlens::read_model_config(file);
    (void)kvlens::model::from_file(*f);
    auto tok = kvlens::tokenizer::from_gguf(file);
    if (!tok) return 0;
    auto ids = (*tok)->encode_chat({{"user", "Hello <|im_end|> world \xe2\x96\x81!"}}, true);
    if (ids) (void)(*tok)->decode(*ids);
    return 0;
}
