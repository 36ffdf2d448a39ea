// SPDX-License-Identifier: Apache-2.0
// GGUF writer: encodes metadata and tensor records, pads the data section to
// the alignment, and streams tensor data to a file.
#include "engine/gguf/gguf_writer.h"

#include <cstdio>
#include <cstring>
#include <memory>

#include <fmt/format.h>

namespace kvlens {

namespace {

template <class T>
void put(std::vector<std::uint8_t>& out, T v) {
    std::uint8_t b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.insert(out.end(), b, b + sizeof(T));
}

void put_string(std::vector<std::uint8_t>& out, const std::string& s) {
    put<std::uint64_t>(out, s.size());
    out.insert(out.end(), s.begin(), s.end());
}

std::int64_t tensor_bytes(ggml_type type, const std::vector<std::int64_t>& ne) {
    std::int64_t n = 1;
    for (auto d : ne) n *= d;
    const type_traits& tr = traits_of(type);
    return n / tr.block_size * tr.type_size;
}

}  // namespace

void gguf_writer::set_encoded(const std::string& key, std::vector<std::uint8_t> encoded) {
    for (auto& e : kv_)
        if (e.key == key) { e.encoded = std::move(encoded); return; }
    kv_.push_back({key, std::move(encoded)});
}

void gguf_writer::set_u32(const std::string& key, std::uint32_t v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 4); put(e, v); set_encoded(key, std::move(e));
}
void gguf_writer::set_i32(const std::string& key, std::int32_t v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 5); put(e, v); set_encoded(key, std::move(e));
}
void gguf_writer::set_u64(const std::string& key, std::uint64_t v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 10); put(e, v); set_encoded(key, std::move(e));
}
void gguf_writer::set_f32(const std::string& key, float v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 6); put(e, v); set_encoded(key, std::move(e));
}
void gguf_writer::set_bool(const std::string& key, bool v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 7); put<std::uint8_t>(e, v ? 1 : 0);
    set_encoded(key, std::move(e));
}
void gguf_writer::set_string(const std::string& key, const std::string& v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 8); put_string(e, v); set_encoded(key, std::move(e));
}
void gguf_writer::set_string_array(const std::string& key, const std::vector<std::string>& v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 9); put<std::uint32_t>(e, 8); put<std::uint64_t>(e, v.size());
    for (const auto& s : v) put_string(e, s);
    set_encoded(key, std::move(e));
}
void gguf_writer::set_f32_array(const std::string& key, const std::vector<float>& v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 9); put<std::uint32_t>(e, 6); put<std::uint64_t>(e, v.size());
    for (float x : v) put(e, x);
    set_encoded(key, std::move(e));
}
void gguf_writer::set_i32_array(const std::string& key, const std::vector<std::int32_t>& v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 9); put<std::uint32_t>(e, 5); put<std::uint64_t>(e, v.size());
    for (auto x : v) put(e, x);
    set_encoded(key, std::move(e));
}

void gguf_writer::set_u16(const std::string& key, std::uint16_t v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 2); put(e, v); set_encoded(key, std::move(e));
}

void gguf_writer::set_value(const std::string& key, const gguf_value& v) {
    std::vector<std::uint8_t> e;
    put<std::uint32_t>(e, static_cast<std::uint32_t>(v.type));
    const auto u = [&] { return std::get<std::uint64_t>(v.v); };
    const auto i = [&] { return std::get<std::int64_t>(v.v); };
    switch (v.type) {
        case gguf_value_type::u8: put(e, static_cast<std::uint8_t>(u())); break;
        case gguf_value_type::u16: put(e, static_cast<std::uint16_t>(u())); break;
        case gguf_value_type::u32: put(e, static_cast<std::uint32_t>(u())); break;
        case gguf_value_type::u64: put(e, u()); break;
        case gguf_value_type::i8: put(e, static_cast<std::int8_t>(i())); break;
        case gguf_value_type::i16: put(e, static_cast<std::int16_t>(i())); break;
        case gguf_value_type::i32: put(e, static_cast<std::int32_t>(i())); break;
        case gguf_value_type::i64: put(e, i()); break;
        case gguf_value_type::f32: put(e, static_cast<float>(std::get<double>(v.v))); break;   // exact: read from an f32
        case gguf_value_type::f64: put(e, std::get<double>(v.v)); break;
        case gguf_value_type::boolean: put<std::uint8_t>(e, std::get<bool>(v.v) ? 1 : 0); break;
        case gguf_value_type::string: put_string(e, std::get<std::string>(v.v)); break;
        case gguf_value_type::array: {
            const gguf_array& a = std::get<gguf_array>(v.v);
            put<std::uint32_t>(e, static_cast<std::uint32_t>(a.type));
            put<std::uint64_t>(e, a.count);
            e.insert(e.end(), a.bytes.begin(), a.bytes.end());
            break;
        }
    }
    set_encoded(key, std::move(e));
}

void gguf_writer::set_bool_array(const std::string& key, const std::vector<bool>& v) {
    std::vector<std::uint8_t> e; put<std::uint32_t>(e, 9); put<std::uint32_t>(e, 7); put<std::uint64_t>(e, v.size());
    for (const bool x : v) e.push_back(x ? 1 : 0);
    set_encoded(key, std::move(e));
}

void gguf_writer::add_tensor(const std::string& name, ggml_type type, std::vector<std::int64_t> ne,
                             std::vector<std::uint8_t> data) {
    std::int64_t n = tensor_bytes(type, ne);
    data.resize(static_cast<std::size_t>(n));
    tensors_.push_back({name, type, std::move(ne), n, std::move(data), {}});
}

void gguf_writer::add_tensor(const std::string& name, ggml_type type, std::vector<std::int64_t> ne,
                             tensor_source source) {
    std::int64_t n = tensor_bytes(type, ne);
    tensors_.push_back({name, type, std::move(ne), n, {}, std::move(source)});
}

std::vector<std::uint8_t> gguf_writer::header_bytes(std::vector<std::uint64_t>& offsets) const {
    std::vector<std::uint8_t> out;
    put<std::uint32_t>(out, 0x46554747);
    put<std::uint32_t>(out, 3);
    put<std::uint64_t>(out, tensors_.size());
    put<std::uint64_t>(out, kv_.size());
    for (const auto& e : kv_) {
        put_string(out, e.key);
        out.insert(out.end(), e.encoded.begin(), e.encoded.end());
    }
    std::uint64_t offset = 0;
    offsets.clear();
    for (const auto& t : tensors_) {
        put_string(out, t.name);
        put<std::uint32_t>(out, static_cast<std::uint32_t>(t.ne.size()));
        for (auto d : t.ne) put<std::uint64_t>(out, static_cast<std::uint64_t>(d));
        put<std::uint32_t>(out, static_cast<std::uint32_t>(t.type));
        put<std::uint64_t>(out, offset);
        offsets.push_back(offset);
        offset += (static_cast<std::uint64_t>(t.n_bytes) + alignment_ - 1) / alignment_ * alignment_;
    }
    out.resize((out.size() + alignment_ - 1) / alignment_ * alignment_, 0);
    return out;
}

std::vector<std::uint8_t> gguf_writer::to_bytes() const {
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint8_t> out = header_bytes(offsets);
    std::size_t data_start = out.size();
    for (std::size_t i = 0; i < tensors_.size(); ++i) {
        const auto& t = tensors_[i];
        out.resize(data_start + offsets[i], 0);
        std::size_t at = out.size();
        out.resize(at + static_cast<std::size_t>(t.n_bytes), 0);
        if (t.source) t.source(out.data() + at, t.n_bytes);
        else std::memcpy(out.data() + at, t.data.data(), static_cast<std::size_t>(t.n_bytes));
    }
    out.resize((out.size() + alignment_ - 1) / alignment_ * alignment_, 0);
    return out;
}

status gguf_writer::write_file(const std::string& path) const {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!f) return make_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    std::vector<std::uint64_t> offsets;
    std::vector<std::uint8_t> header = header_bytes(offsets);
    if (std::fwrite(header.data(), 1, header.size(), f.get()) != header.size())
        return make_error(fmt::format("write to '{}' failed", path));
    std::vector<std::uint8_t> buf;
    for (const auto& t : tensors_) {
        std::uint64_t padded = (static_cast<std::uint64_t>(t.n_bytes) + alignment_ - 1) / alignment_ * alignment_;
        buf.assign(static_cast<std::size_t>(padded), 0);
        if (t.source) t.source(buf.data(), t.n_bytes);
        else std::memcpy(buf.data(), t.data.data(), static_cast<std::size_t>(t.n_bytes));
        if (std::fwrite(buf.data(), 1, buf.size(), f.get()) != buf.size())
            return make_error(fmt::format("write to '{}' failed (disk full?)", path));
    }
    return {};
}

}  // namespace kvlens
