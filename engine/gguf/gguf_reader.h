// SPDX-License-Identifier: Apache-2.0
// GGUF reader: maps a file, validates every header field, metadata value and
// tensor record against what the file holds, and gives typed access. A
// malformed file yields an error naming the problem; nothing is read unchecked.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/common/result.h"
#include "engine/gguf/gguf_types.h"

namespace kvlens {

enum class gguf_value_type : std::uint32_t {
    u8 = 0, i8 = 1, u16 = 2, i16 = 3, u32 = 4, i32 = 5, f32 = 6, boolean = 7,
    string = 8, array = 9, u64 = 10, i64 = 11, f64 = 12,
};

// One metadata value. Arrays hold their element type and their elements;
// nested arrays are allowed by the format and kept.
struct gguf_value {
    gguf_value_type type = gguf_value_type::u8;
    gguf_value_type array_type = gguf_value_type::u8;   // element type when type == array
    std::variant<std::uint64_t, std::int64_t, double, bool, std::string,
                 std::vector<gguf_value>> v;

    bool is_integer() const;
    bool is_float() const;
    std::int64_t as_int() const;      // integers (and bools); 0 otherwise
    double as_float() const;          // floats and integers
    const std::string* as_string() const;              // nullptr unless string
    const std::vector<gguf_value>* as_array() const;   // nullptr unless array
};

struct gguf_tensor {
    std::string name;
    ggml_type type = ggml_type::f32;
    int n_dims = 0;
    std::int64_t ne[4] = {1, 1, 1, 1};   // elements per dimension, ne[0] fastest
    std::int64_t n_elements = 0;
    std::int64_t n_bytes = 0;
    std::uint64_t offset = 0;            // from the start of the data section
    const std::uint8_t* data = nullptr;  // into the mapping
};

class gguf_file {
public:
    // Maps and validates the file at path.
    static result<std::shared_ptr<gguf_file>> open(const std::string& path);
    // Validates an in-memory image (tests); the bytes are copied.
    static result<std::shared_ptr<gguf_file>> parse(std::vector<std::uint8_t> bytes,
                                                     std::string name = "<memory>");
    ~gguf_file();
    gguf_file(const gguf_file&) = delete;
    gguf_file& operator=(const gguf_file&) = delete;

    std::uint32_t version() const { return version_; }
    std::uint64_t alignment() const { return alignment_; }
    const std::string& path() const { return path_; }
    std::uint64_t file_size() const { return size_; }

    const std::map<std::string, gguf_value>& metadata() const { return kv_; }
    const gguf_value* find(std::string_view key) const;
    // Typed lookups with a fallback; a value of the wrong type counts as absent.
    std::string get_string(std::string_view key, std::string fallback = {}) const;
    std::int64_t get_int(std::string_view key, std::int64_t fallback = 0) const;
    double get_float(std::string_view key, double fallback = 0) const;
    bool get_bool(std::string_view key, bool fallback = false) const;
    // A string array's elements (tokenizer.ggml.tokens ...); empty if absent.
    std::vector<std::string_view> get_string_array(std::string_view key) const;

    const std::vector<gguf_tensor>& tensors() const { return tensors_; }
    const gguf_tensor* tensor(std::string_view name) const;

private:
    gguf_file() = default;
    status parse_image(const std::uint8_t* base, std::uint64_t size);

    std::string path_;
    std::uint32_t version_ = 0;
    std::uint64_t alignment_ = 32;
    std::uint64_t size_ = 0;
    void* map_ = nullptr;                 // mmap base, or nullptr for in-memory
    std::vector<std::uint8_t> owned_;     // in-memory image
    std::map<std::string, gguf_value> kv_;
    std::vector<gguf_tensor> tensors_;
    std::map<std::string, std::size_t, std::less<>> tensor_index_;
};

}  // namespace kvlens
