// SPDX-License-Identifier: Apache-2.0
// A byte-level GGUF builder for tests of the reader: every field is written
// exactly as asked, so a test can make any malformed file it needs.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kvlens::test {

class gguf_bytes {
public:
    std::vector<std::uint8_t> bytes;

    template <class T>
    gguf_bytes& put(T v) {
        std::uint8_t b[sizeof(T)];
        std::memcpy(b, &v, sizeof(T));
        bytes.insert(bytes.end(), b, b + sizeof(T));
        return *this;
    }
    gguf_bytes& str(const std::string& s) {
        put<std::uint64_t>(s.size());
        bytes.insert(bytes.end(), s.begin(), s.end());
        return *this;
    }
    gguf_bytes& header(std::uint32_t version, std::uint64_t n_tensors, std::uint64_t n_kv) {
        return put<std::uint32_t>(0x46554747).put(version).put(n_tensors).put(n_kv);
    }
    gguf_bytes& kv_u32(const std::string& key, std::uint32_t v) { return str(key).put<std::uint32_t>(4).put(v); }
    gguf_bytes& kv_str(const std::string& key, const std::string& v) { return str(key).put<std::uint32_t>(8).str(v); }
    // A tensor record: name, dims, type, offset.
    gguf_bytes& tensor(const std::string& name, std::vector<std::uint64_t> ne, std::uint32_t type, std::uint64_t offset) {
        str(name).put<std::uint32_t>(static_cast<std::uint32_t>(ne.size()));
        for (auto d : ne) put(d);
        return put(type).put(offset);
    }
    gguf_bytes& align(std::size_t a = 32) {
        while (bytes.size() % a) bytes.push_back(0);
        return *this;
    }
    gguf_bytes& zeros(std::size_t n) {
        bytes.insert(bytes.end(), n, 0);
        return *this;
    }
};

}  // namespace kvlens::test
