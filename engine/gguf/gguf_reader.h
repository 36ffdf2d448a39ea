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

#include "common/result.h"
#include "engine/gguf/gguf_types.h"

namespace kvlens {

enum class gguf_value_type : std::uint32_t {
    u8 = 0, i8 = 1, u16 = 2, i16 = 3, u32 = 4, i32 = 5, f32 = 6, boolean = 7,
    string = 8, array = 9, u64 = 10, i64 = 11, f64 = 12,
};

// Limits on what a file may declare, far above any real model (SmolLM2: 30
// metadata pairs, 272 tensors; the largest published models: a few thousand
// tensors), so that a small file cannot make the reader build millions of records.
inline constexpr std::uint64_t k_gguf_max_metadata = 65536;
inline constexpr std::uint64_t k_gguf_max_tensors = 65536;

// An array value, kept compactly: its elements stay encoded where they lie in
// the file (little-endian, strings as u64 length + bytes) and are decoded on
// access, so an array costs no memory beyond the file's own bytes. Arrays of
// arrays (which the format allows and no model uses) are validated and kept
// as bytes only.
struct gguf_array {
    gguf_value_type type = gguf_value_type::u8;   // element type
    std::uint64_t count = 0;                       // elements
    std::span<const std::uint8_t> bytes;           // (count) encoded elements, into the file image

    std::size_t size() const { return static_cast<std::size_t>(count); }
    bool empty() const { return count == 0; }
    bool is_integer() const;   // u8..i64 and bool elements
    bool is_float() const;     // f32, f64
    bool is_string() const { return type == gguf_value_type::string; }
    // Element i (i < count) as an integer (integer and bool arrays; 0 otherwise).
    std::int64_t int_at(std::size_t i) const;
    // Element i as a double (float and integer arrays; 0 otherwise).
    double float_at(std::size_t i) const;
    // The elements of a string array, in order (empty for other arrays).
    std::vector<std::string_view> strings() const;
};

// One metadata value.
struct gguf_value {
    gguf_value_type type = gguf_value_type::u8;
    std::variant<std::uint64_t, std::int64_t, double, bool, std::string, gguf_array> v;

    bool is_integer() const;
    bool is_float() const;
    std::int64_t as_int() const;      // integers (and bools); 0 otherwise
    double as_float() const;          // floats and integers
    const std::string* as_string() const;              // nullptr unless string
    const gguf_array* as_array() const;                // nullptr unless array
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
    // Maps and validates the file at path. A model in parts (gguf_split.h)
    // opens from any of its parts: every part is mapped and checked, and its
    // tensors join the first part's, which holds the metadata.
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
    std::uint64_t file_size() const { return size_; }   // of this part alone
    int n_parts() const { return 1 + static_cast<int>(parts_.size()); }

    const std::map<std::string, gguf_value>& metadata() const { return kv_; }
    const gguf_value* find(std::string_view key) const;
    // Typed lookups with a fallback; a value of the wrong type counts as absent.
    std::string get_string(std::string_view key, std::string fallback = {}) const;
    std::int64_t get_int(std::string_view key, std::int64_t fallback = 0) const;
    double get_float(std::string_view key, double fallback = 0) const;
    bool get_bool(std::string_view key, bool fallback = false) const;
    // An integer that must fit an int (a count, a size, a token id): absent ->
    // fallback; present but not an integer, or outside [min, max] (a 64-bit
    // value is never cut to 32 bits) -> an error naming the key and the value.
    result<int> get_int_in(std::string_view key, int fallback, int min, int max) const;
    // A string array's elements (tokenizer.ggml.tokens ...); empty if absent.
    std::vector<std::string_view> get_string_array(std::string_view key) const;

    const std::vector<gguf_tensor>& tensors() const { return tensors_; }
    const gguf_tensor* tensor(std::string_view name) const;

private:
    gguf_file() = default;
    status parse_image(const std::uint8_t* base, std::uint64_t size);
    static result<std::shared_ptr<gguf_file>> open_one(const std::string& path);
    // A part of a split model (split.count > 1): the whole model, from its
    // first part with the others joined; any other file as it is (gguf_split.cpp).
    static result<std::shared_ptr<gguf_file>> join_parts(std::shared_ptr<gguf_file> f);

    std::string path_;
    std::uint32_t version_ = 0;
    std::uint64_t alignment_ = 32;
    std::uint64_t size_ = 0;
    void* map_ = nullptr;                 // mmap base, or nullptr for in-memory
    std::vector<std::uint8_t> owned_;     // in-memory image
    std::map<std::string, gguf_value> kv_;
    std::vector<gguf_tensor> tensors_;
    std::map<std::string, std::size_t, std::less<>> tensor_index_;
    std::vector<std::shared_ptr<gguf_file>> parts_;   // a split model's other parts, their mappings kept
};

}  // namespace kvlens
