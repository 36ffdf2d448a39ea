// SPDX-License-Identifier: Apache-2.0
// GGUF reader: a bounds-checked cursor over the mapped file. Every count and
// length is checked against what remains before it is used; every size product
// is checked for overflow; the first problem found is returned as an error.
#include "engine/gguf/gguf_reader.h"

#include "common/printable.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <limits>
#include <set>

#include <fmt/format.h>

namespace kvlens {

namespace {

constexpr std::uint32_t k_magic = 0x46554747;  // "GGUF" little-endian
constexpr int k_max_array_depth = 4;
constexpr std::uint64_t k_max_dims = 4;

// Reads little-endian values from [pos, size); fails instead of reading past the end.
class cursor {
public:
    cursor(const std::uint8_t* base, std::uint64_t size) : base_(base), size_(size) {}

    std::uint64_t pos() const { return pos_; }
    std::uint64_t remaining() const { return size_ - pos_; }

    template <class T>
    bool read(T& out) {
        if (remaining() < sizeof(T)) return false;
        std::memcpy(&out, base_ + pos_, sizeof(T));
        pos_ += sizeof(T);
        return true;
    }
    bool skip(std::uint64_t n) {
        if (remaining() < n) return false;
        pos_ += n;
        return true;
    }
    std::span<const std::uint8_t> span(std::uint64_t from, std::uint64_t n) const {
        return {base_ + from, static_cast<std::size_t>(n)};
    }
    bool read_string(std::string& out, std::string& why) {
        std::string_view v;
        if (!read_view(v, why)) return false;
        out.assign(v);
        return true;
    }
    // A string's bytes as a view into the image.
    bool read_view(std::string_view& out, std::string& why) {
        std::uint64_t len = 0;
        if (!read(len)) {
            why = fmt::format("file truncated at byte {} (string length)", pos_);
            return false;
        }
        if (len > remaining()) {
            why = fmt::format("string length {} at byte {} exceeds the {} bytes left in the file",
                              len, pos_ - 8, remaining());
            return false;
        }
        out = std::string_view(reinterpret_cast<const char*>(base_ + pos_), static_cast<std::size_t>(len));
        pos_ += len;
        return true;
    }

private:
    const std::uint8_t* base_;
    std::uint64_t size_;
    std::uint64_t pos_ = 0;
};

const char* value_type_name(std::uint32_t t) {
    static const char* names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32",
                                  "bool", "string", "array", "u64", "i64", "f64"};
    return t < 13 ? names[t] : "unknown";
}

// Smallest encoded size of one value of a type: bounds array counts up front.
std::uint64_t min_encoded_size(std::uint32_t t) {
    switch (static_cast<gguf_value_type>(t)) {
        case gguf_value_type::u8: case gguf_value_type::i8: case gguf_value_type::boolean: return 1;
        case gguf_value_type::u16: case gguf_value_type::i16: return 2;
        case gguf_value_type::u32: case gguf_value_type::i32: case gguf_value_type::f32: return 4;
        case gguf_value_type::u64: case gguf_value_type::i64: case gguf_value_type::f64: return 8;
        case gguf_value_type::string: return 8;
        case gguf_value_type::array: return 12;
    }
    return 1;
}

// Encoded size of one element of a fixed-size type; 0 for string and array.
std::uint64_t fixed_size(gguf_value_type t) {
    switch (t) {
        case gguf_value_type::string: case gguf_value_type::array: return 0;
        default: return min_encoded_size(static_cast<std::uint32_t>(t));
    }
}

// Checks `count` elements of `elem_type` at the cursor and steps over them,
// allocating nothing (strings: each length checked; arrays: each header and
// its elements, to the depth limit).
bool skip_elements(cursor& c, std::uint32_t elem_type, std::uint64_t count, int depth, std::string& why) {
    const auto t = static_cast<gguf_value_type>(elem_type);
    if (const std::uint64_t size = fixed_size(t); size != 0) {
        if (count > c.remaining() / size) {
            why = fmt::format("array of {} {} values at byte {} exceeds the {} bytes left in the file", count,
                              value_type_name(elem_type), c.pos(), c.remaining());
            return false;
        }
        return c.skip(count * size);
    }
    for (std::uint64_t i = 0; i < count; ++i) {
        if (t == gguf_value_type::string) {
            std::string_view s;
            if (!c.read_view(s, why)) return false;
            continue;
        }
        if (depth >= k_max_array_depth) {
            why = fmt::format("arrays nested deeper than {} at byte {}", k_max_array_depth, c.pos());
            return false;
        }
        std::uint32_t inner_type = 0;
        std::uint64_t inner_count = 0;
        if (!c.read(inner_type) || !c.read(inner_count)) {
            why = fmt::format("file truncated at byte {} (a nested array)", c.pos());
            return false;
        }
        if (inner_type > 12) {
            why = fmt::format("unknown array element type {} at byte {}", inner_type, c.pos() - 12);
            return false;
        }
        if (inner_count > c.remaining() / min_encoded_size(inner_type)) {
            why = fmt::format("array of {} {} values at byte {} exceeds the {} bytes left in the file", inner_count,
                              value_type_name(inner_type), c.pos() - 12, c.remaining());
            return false;
        }
        if (!skip_elements(c, inner_type, inner_count, depth + 1, why)) return false;
    }
    return true;
}

bool read_value(cursor& c, std::uint32_t type, gguf_value& out, std::string& why) {
    if (type > 12) {
        why = fmt::format("unknown metadata value type {} at byte {}", type, c.pos() - 4);
        return false;
    }
    out.type = static_cast<gguf_value_type>(type);
    auto truncated = [&] {
        why = fmt::format("file truncated at byte {} (a {} value)", c.pos(), value_type_name(type));
        return false;
    };
    switch (out.type) {
        case gguf_value_type::u8: { std::uint8_t v; if (!c.read(v)) return truncated(); out.v = std::uint64_t{v}; return true; }
        case gguf_value_type::u16: { std::uint16_t v; if (!c.read(v)) return truncated(); out.v = std::uint64_t{v}; return true; }
        case gguf_value_type::u32: { std::uint32_t v; if (!c.read(v)) return truncated(); out.v = std::uint64_t{v}; return true; }
        case gguf_value_type::u64: { std::uint64_t v; if (!c.read(v)) return truncated(); out.v = v; return true; }
        case gguf_value_type::i8: { std::int8_t v; if (!c.read(v)) return truncated(); out.v = std::int64_t{v}; return true; }
        case gguf_value_type::i16: { std::int16_t v; if (!c.read(v)) return truncated(); out.v = std::int64_t{v}; return true; }
        case gguf_value_type::i32: { std::int32_t v; if (!c.read(v)) return truncated(); out.v = std::int64_t{v}; return true; }
        case gguf_value_type::i64: { std::int64_t v; if (!c.read(v)) return truncated(); out.v = v; return true; }
        case gguf_value_type::f32: { float v; if (!c.read(v)) return truncated(); out.v = double{v}; return true; }
        case gguf_value_type::f64: { double v; if (!c.read(v)) return truncated(); out.v = v; return true; }
        case gguf_value_type::boolean: {
            std::uint8_t v; if (!c.read(v)) return truncated();
            out.v = v != 0;
            return true;
        }
        case gguf_value_type::string: {
            std::string_view s;
            if (!c.read_view(s, why)) return false;
            out.v = std::string(s);
            return true;
        }
        case gguf_value_type::array: {
            std::uint32_t elem_type = 0;
            std::uint64_t count = 0;
            if (!c.read(elem_type) || !c.read(count)) return truncated();
            if (elem_type > 12) {
                why = fmt::format("unknown array element type {} at byte {}", elem_type, c.pos() - 12);
                return false;
            }
            if (count > c.remaining() / min_encoded_size(elem_type)) {
                why = fmt::format("array of {} {} values at byte {} exceeds the {} bytes left in the file",
                                  count, value_type_name(elem_type), c.pos() - 12, c.remaining());
                return false;
            }
            const std::uint64_t from = c.pos();
            if (!skip_elements(c, elem_type, count, 1, why)) return false;
            gguf_array a;
            a.type = static_cast<gguf_value_type>(elem_type);
            a.count = count;
            a.bytes = c.span(from, c.pos() - from);
            out.v = a;
            return true;
        }
    }
    return false;
}

bool mul_overflows(std::int64_t a, std::int64_t b, std::int64_t& out) {
    return __builtin_mul_overflow(a, b, &out);
}

}  // namespace

// ---- gguf_value ----------------------------------------------------------------

bool gguf_value::is_integer() const {
    return std::holds_alternative<std::uint64_t>(v) || std::holds_alternative<std::int64_t>(v);
}
bool gguf_value::is_float() const { return std::holds_alternative<double>(v); }

std::int64_t gguf_value::as_int() const {
    if (auto* u = std::get_if<std::uint64_t>(&v)) return static_cast<std::int64_t>(*u);
    if (auto* i = std::get_if<std::int64_t>(&v)) return *i;
    if (auto* b = std::get_if<bool>(&v)) return *b ? 1 : 0;
    return 0;
}
double gguf_value::as_float() const {
    if (auto* d = std::get_if<double>(&v)) return *d;
    if (is_integer()) return static_cast<double>(as_int());
    return 0;
}
const std::string* gguf_value::as_string() const { return std::get_if<std::string>(&v); }
const gguf_array* gguf_value::as_array() const { return std::get_if<gguf_array>(&v); }

// ---- gguf_array ----------------------------------------------------------------

bool gguf_array::is_integer() const {
    switch (type) {
        case gguf_value_type::u8: case gguf_value_type::i8: case gguf_value_type::u16: case gguf_value_type::i16:
        case gguf_value_type::u32: case gguf_value_type::i32: case gguf_value_type::u64: case gguf_value_type::i64:
        case gguf_value_type::boolean:
            return true;
        default:
            return false;
    }
}
bool gguf_array::is_float() const { return type == gguf_value_type::f32 || type == gguf_value_type::f64; }

namespace {
template <class T>
T load_at(std::span<const std::uint8_t> bytes, std::size_t i) {
    T v;
    std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
    return v;
}
}  // namespace

std::int64_t gguf_array::int_at(std::size_t i) const {
    switch (type) {
        case gguf_value_type::u8: return load_at<std::uint8_t>(bytes, i);
        case gguf_value_type::boolean: return load_at<std::uint8_t>(bytes, i) != 0;
        case gguf_value_type::i8: return load_at<std::int8_t>(bytes, i);
        case gguf_value_type::u16: return load_at<std::uint16_t>(bytes, i);
        case gguf_value_type::i16: return load_at<std::int16_t>(bytes, i);
        case gguf_value_type::u32: return load_at<std::uint32_t>(bytes, i);
        case gguf_value_type::i32: return load_at<std::int32_t>(bytes, i);
        case gguf_value_type::u64: return static_cast<std::int64_t>(load_at<std::uint64_t>(bytes, i));
        case gguf_value_type::i64: return load_at<std::int64_t>(bytes, i);
        default: return 0;
    }
}

double gguf_array::float_at(std::size_t i) const {
    if (type == gguf_value_type::f32) return load_at<float>(bytes, i);
    if (type == gguf_value_type::f64) return load_at<double>(bytes, i);
    return is_integer() ? static_cast<double>(int_at(i)) : 0.0;
}

std::vector<std::string_view> gguf_array::strings() const {
    std::vector<std::string_view> out;
    if (type != gguf_value_type::string) return out;
    out.reserve(size());
    // Validated when the file was read: each length fits in what follows.
    std::size_t pos = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        std::uint64_t len = 0;
        std::memcpy(&len, bytes.data() + pos, sizeof len);
        pos += sizeof len;
        out.emplace_back(reinterpret_cast<const char*>(bytes.data() + pos), static_cast<std::size_t>(len));
        pos += static_cast<std::size_t>(len);
    }
    return out;
}

// ---- gguf_file ----------------------------------------------------------------

gguf_file::~gguf_file() {
    if (map_) munmap(map_, size_);
}

result<std::shared_ptr<gguf_file>> gguf_file::open(const std::string& path) {
    auto f = open_one(path);
    if (!f) return f.err();
    return join_parts(std::move(*f));
}

result<std::shared_ptr<gguf_file>> gguf_file::open_one(const std::string& path) {
    const std::string shown = quoted(path, 1024);
    // The type is checked before open(2): opening a FIFO for reading blocks
    // until a writer comes, and a device (/dev/zero) never ends.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return make_error(fmt::format("cannot open {}: {}", shown, std::strerror(errno)));
    if (!S_ISREG(st.st_mode)) return make_error(fmt::format("{} is not a regular file", shown));
    // O_NONBLOCK: should the path be swapped for a FIFO in between, open does not block.
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return make_error(fmt::format("cannot open {}: {}", shown, std::strerror(errno)));
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return make_error(fmt::format("{} is not a regular file", shown));
    }
    if (st.st_size == 0) {
        ::close(fd);
        return make_error(fmt::format("{} is empty, not a GGUF file", shown));
    }
    void* m = mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
    ::close(fd);
    if (m == MAP_FAILED) return make_error(fmt::format("cannot map {}: {}", shown, std::strerror(errno)));

    std::shared_ptr<gguf_file> f(new gguf_file());
    f->path_ = path;
    f->map_ = m;
    f->size_ = static_cast<std::uint64_t>(st.st_size);
    status s = f->parse_image(static_cast<const std::uint8_t*>(m), f->size_);
    if (!s) return make_error(fmt::format("{}: {}", printable(path, 1024), s.message()));
    return f;
}

result<std::shared_ptr<gguf_file>> gguf_file::parse(std::vector<std::uint8_t> bytes, std::string name) {
    std::shared_ptr<gguf_file> f(new gguf_file());
    f->path_ = std::move(name);
    f->owned_ = std::move(bytes);
    f->size_ = f->owned_.size();
    status s = f->parse_image(f->owned_.data(), f->size_);
    if (!s) return make_error(fmt::format("{}: {}", printable(f->path_, 1024), s.message()));
    return f;
}

status gguf_file::parse_image(const std::uint8_t* base, std::uint64_t size) {
    cursor c(base, size);
    std::uint32_t magic = 0;
    if (!c.read(magic)) return make_error("file too short to be GGUF (no magic)");
    if (magic != k_magic) return make_error(fmt::format("bad magic 0x{:08x}: not a GGUF file", magic));
    if (!c.read(version_)) return make_error("file truncated in the header (version)");
    if (version_ != 2 && version_ != 3)
        return make_error(fmt::format("unsupported GGUF version {} (supported: 2, 3)", version_));
    std::uint64_t n_tensors = 0, n_kv = 0;
    if (!c.read(n_tensors) || !c.read(n_kv)) return make_error("file truncated in the header (counts)");
    // A metadata pair takes at least 8 (key length) + 1 + 4 bytes; a tensor record at least 8+4+8+4+8.
    if (n_kv > c.remaining() / 13)
        return make_error(fmt::format("metadata count {} exceeds what the {}-byte file can hold", n_kv, size));
    if (n_tensors > c.remaining() / 32)
        return make_error(fmt::format("tensor count {} exceeds what the {}-byte file can hold", n_tensors, size));
    if (n_kv > k_gguf_max_metadata)
        return make_error(fmt::format("metadata count {} is over the limit of {}", n_kv, k_gguf_max_metadata));
    if (n_tensors > k_gguf_max_tensors)
        return make_error(fmt::format("tensor count {} is over the limit of {}", n_tensors, k_gguf_max_tensors));

    std::string why;
    for (std::uint64_t i = 0; i < n_kv; ++i) {
        std::string key;
        if (!c.read_string(key, why)) return make_error(fmt::format("metadata key {}: {}", i, why));
        if (key.empty()) return make_error(fmt::format("metadata key {} is empty", i));
        std::uint32_t type = 0;
        if (!c.read(type)) return make_error(fmt::format("file truncated at metadata {}", quoted(key)));
        gguf_value value;
        if (!read_value(c, type, value, why)) return make_error(fmt::format("metadata {}: {}", quoted(key), why));
        if (kv_.count(key)) return make_error(fmt::format("duplicate metadata key {}", quoted(key)));
        kv_.emplace(std::move(key), std::move(value));
    }

    alignment_ = 32;
    if (const gguf_value* a = find("general.alignment")) {
        if (!a->is_integer()) return make_error("general.alignment is not an integer");
        std::int64_t al = a->as_int();
        if (al <= 0 || (al & (al - 1)) != 0)
            return make_error(fmt::format("alignment {} is not a power of two", al));
        alignment_ = static_cast<std::uint64_t>(al);
    }

    tensors_.reserve(n_tensors);
    for (std::uint64_t i = 0; i < n_tensors; ++i) {
        gguf_tensor t;
        if (!c.read_string(t.name, why)) return make_error(fmt::format("tensor {}: {}", i, why));
        if (t.name.empty()) return make_error(fmt::format("tensor {} has an empty name", i));
        std::uint32_t n_dims = 0;
        if (!c.read(n_dims)) return make_error(fmt::format("file truncated at tensor {}", quoted(t.name)));
        if (n_dims == 0 || n_dims > k_max_dims)
            return make_error(fmt::format("tensor {} has {} dimensions (1 to 4 allowed)", quoted(t.name), n_dims));
        t.n_dims = static_cast<int>(n_dims);
        std::int64_t n_elements = 1;
        for (std::uint32_t d = 0; d < n_dims; ++d) {
            std::uint64_t ne = 0;
            if (!c.read(ne)) return make_error(fmt::format("file truncated at tensor {} shape", quoted(t.name)));
            if (ne == 0) return make_error(fmt::format("tensor {} has a zero-sized dimension {}", quoted(t.name), d));
            if (ne > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) ||
                mul_overflows(n_elements, static_cast<std::int64_t>(ne), n_elements))
                return make_error(fmt::format("tensor {} element count overflows", quoted(t.name)));
            t.ne[d] = static_cast<std::int64_t>(ne);
        }
        t.n_elements = n_elements;
        std::uint32_t type = 0;
        if (!c.read(type) || !c.read(t.offset))
            return make_error(fmt::format("file truncated at tensor {} type/offset", quoted(t.name)));
        if (!type_known(type)) return make_error(fmt::format("tensor {} has unknown type {}", quoted(t.name), type));
        t.type = static_cast<ggml_type>(type);
        const type_traits& tr = traits_of(t.type);
        if (t.ne[0] % tr.block_size != 0)
            return make_error(fmt::format("tensor {}: row of {} elements is not a whole number of {} blocks ({})",
                                          quoted(t.name), t.ne[0], tr.name, tr.block_size));
        if (mul_overflows(n_elements / tr.block_size, tr.type_size, t.n_bytes))
            return make_error(fmt::format("tensor {} byte count overflows", quoted(t.name)));
        if (t.offset % alignment_ != 0)
            return make_error(fmt::format("tensor {} data offset {} is not aligned to {}", quoted(t.name), t.offset, alignment_));
        if (tensor_index_.count(t.name)) return make_error(fmt::format("duplicate tensor name {}", quoted(t.name)));
        tensor_index_.emplace(t.name, tensors_.size());
        tensors_.push_back(std::move(t));
    }

    std::uint64_t data_start = (c.pos() + alignment_ - 1) / alignment_ * alignment_;
    if (data_start > size && !tensors_.empty())
        return make_error("file truncated before the tensor data section");
    for (auto& t : tensors_) {
        std::uint64_t bytes = static_cast<std::uint64_t>(t.n_bytes);
        if (t.offset > size || data_start > size - t.offset || bytes > size - data_start - t.offset)
            return make_error(fmt::format("tensor {} data ({} bytes at offset {}) lies outside the {}-byte file (truncated?)",
                                          quoted(t.name), bytes, t.offset, size));
        t.data = base + data_start + t.offset;
        // Kernels load whole fields of a block (an f16 scale, an f32 value): the
        // data must meet the type's own alignment even when general.alignment
        // is smaller (1 is a legal power of two).
        const std::uintptr_t need = type_alignment(t.type);
        if (reinterpret_cast<std::uintptr_t>(t.data) % need != 0)
            return make_error(fmt::format("tensor {} data at byte {} is not aligned to {} bytes, which its type {} needs "
                                          "(general.alignment is {})",
                                          quoted(t.name), data_start + t.offset, need, type_name(t.type), alignment_));
    }
    return {};
}

const gguf_value* gguf_file::find(std::string_view key) const {
    auto it = kv_.find(std::string(key));
    return it == kv_.end() ? nullptr : &it->second;
}

std::string gguf_file::get_string(std::string_view key, std::string fallback) const {
    const gguf_value* v = find(key);
    if (v && v->as_string()) return *v->as_string();
    return fallback;
}
std::int64_t gguf_file::get_int(std::string_view key, std::int64_t fallback) const {
    const gguf_value* v = find(key);
    return v && v->is_integer() ? v->as_int() : fallback;
}
double gguf_file::get_float(std::string_view key, double fallback) const {
    const gguf_value* v = find(key);
    return v && (v->is_float() || v->is_integer()) ? v->as_float() : fallback;
}
bool gguf_file::get_bool(std::string_view key, bool fallback) const {
    const gguf_value* v = find(key);
    if (v && std::holds_alternative<bool>(v->v)) return std::get<bool>(v->v);
    return fallback;
}
std::vector<std::string_view> gguf_file::get_string_array(std::string_view key) const {
    const gguf_value* v = find(key);
    if (!v || !v->as_array()) return {};
    return v->as_array()->strings();
}

result<int> gguf_file::get_int_in(std::string_view key, int fallback, int min, int max) const {
    const gguf_value* v = find(key);
    if (!v) return fallback;
    if (!v->is_integer()) return make_error(fmt::format("metadata {} is not an integer", quoted(key)));
    // Compared as 64-bit (u64 above INT64_MAX counts as out of range), never cut.
    const bool huge = std::holds_alternative<std::uint64_t>(v->v) &&
                      std::get<std::uint64_t>(v->v) > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    const std::int64_t x = v->as_int();
    if (huge || x < min || x > max)
        return make_error(fmt::format("metadata {} = {} is out of range ({} to {})", quoted(key),
                                      huge ? std::to_string(std::get<std::uint64_t>(v->v)) : std::to_string(x), min, max));
    return static_cast<int>(x);
}

const gguf_tensor* gguf_file::tensor(std::string_view name) const {
    auto it = tensor_index_.find(name);
    return it == tensor_index_.end() ? nullptr : &tensors_[it->second];
}

}  // namespace kvlens
