// SPDX-License-Identifier: Apache-2.0
// Reads JSON lines {"text": ..., "special": bool} and writes, for each, a JSON
// line {"ids": [...], "roundtrip": bool} from kvlens's tokenizer: the kvlens
// side of compare.py, which checks the ids against llama.cpp.
// Usage: kvlens_tokenizer_dump MODEL.gguf TEXTS.jsonl > IDS.jsonl
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>

#include "engine/gguf/gguf_reader.h"
#include "engine/tokenizer/tokenizer.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: kvlens_tokenizer_dump MODEL.gguf TEXTS.jsonl\n";
        return 2;
    }
    auto file = kvlens::gguf_file::open(argv[1]);
    if (!file) {
        std::cerr << argv[1] << ": " << file.message() << "\n";
        return 1;
    }
    auto tok = kvlens::tokenizer::from_gguf(**file);
    if (!tok) {
        std::cerr << argv[1] << ": " << tok.message() << "\n";
        return 1;
    }
    std::ifstream in(argv[2]);
    std::string line;
    while (std::getline(in, line)) {
        const auto j = nlohmann::json::parse(line, nullptr, false);
        if (j.is_discarded() || !j.contains("text")) {
            std::cerr << "bad input line\n";
            return 1;
        }
        const std::string text = j["text"];
        const auto ids = (*tok)->encode(text, false, j.value("special", false));
        std::cout << nlohmann::json{{"ids", ids}, {"roundtrip", (*tok)->decode(ids) == text}}.dump() << "\n";
    }
    return 0;
}
