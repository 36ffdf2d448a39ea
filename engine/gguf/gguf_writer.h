// SPDX-License-Identifier: Apache-2.0
// GGUF writer: metadata and tensors in, a valid version-3 file out. Used by
// `kvlens-cli synth-model` (random weights of real shapes) and by the tests'
// tiny models. Tensor bytes come from a buffer or are produced on the fly, so
// multi-GB files stream to disk without being held in memory.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/result.h"
#include "engine/gguf/gguf_reader.h"

namespace kvlens {

class gguf_writer {
public:
    // Fills dst (the tensor's n_bytes) with the tensor's data.
    using tensor_source = std::function<void(std::uint8_t* dst, std::int64_t n_bytes)>;

    void set_u32(const std::string& key, std::uint32_t v);
    void set_i32(const std::string& key, std::int32_t v);
    void set_u64(const std::string& key, std::uint64_t v);
    void set_f32(const std::string& key, float v);
    void set_bool(const std::string& key, bool v);
    void set_string(const std::string& key, const std::string& v);
    void set_string_array(const std::string& key, const std::vector<std::string>& v);
    void set_f32_array(const std::string& key, const std::vector<float>& v);
    void set_i32_array(const std::string& key, const std::vector<std::int32_t>& v);
    void set_bool_array(const std::string& key, const std::vector<bool>& v);   // GGUF type 7, a byte each
    void set_u16(const std::string& key, std::uint16_t v);
    // A value read from a file, written with its own type (arrays as their encoded elements).
    void set_value(const std::string& key, const gguf_value& v);

    // ne: elements per dimension, fastest first (ne[0] = row length).
    void add_tensor(const std::string& name, ggml_type type, std::vector<std::int64_t> ne,
                    std::vector<std::uint8_t> data);
    void add_tensor(const std::string& name, ggml_type type, std::vector<std::int64_t> ne,
                    tensor_source source);

    std::vector<std::uint8_t> to_bytes() const;
    status write_file(const std::string& path) const;

private:
    struct kv_entry {
        std::string key;
        std::vector<std::uint8_t> encoded;   // type tag + value, as stored
    };
    struct tensor_entry {
        std::string name;
        ggml_type type;
        std::vector<std::int64_t> ne;
        std::int64_t n_bytes;
        std::vector<std::uint8_t> data;
        tensor_source source;
    };
    void set_encoded(const std::string& key, std::vector<std::uint8_t> encoded);
    std::vector<std::uint8_t> header_bytes(std::vector<std::uint64_t>& offsets) const;

    std::vector<kv_entry> kv_;
    std::vector<tensor_entry> tensors_;
    std::uint64_t alignment_ = 32;
};

}  // namespace kvlens
