// SPDX-License-Identifier: Apache-2.0
// Split GGUF models (gguf_split.h): their parts found by name, each mapped and
// checked (its place, the count, no tensor twice), their tensors joined to
// the first part's; and the writer that makes such parts.
#include "engine/gguf/gguf_split.h"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "common/printable.h"
#include "engine/gguf/gguf_writer.h"

namespace kvlens {

namespace {

constexpr std::string_view k_suffix = ".gguf";
constexpr std::size_t k_digits = 5;   // -NNNNN-of-MMMMM

bool all_digits(std::string_view s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int to_int(std::string_view digits) {
    int v = 0;
    for (char c : digits) v = v * 10 + (c - '0');
    return v;
}

// split.no / split.count of a part: -1 when absent; an error when not an integer in range.
result<int> split_field(const gguf_file& f, std::string_view key, int least) {
    if (!f.find(key)) return -1;
    return f.get_int_in(key, -1, least, k_gguf_max_parts);
}

}  // namespace

std::optional<split_name> parse_split_name(std::string_view path) {
    // PREFIX-NNNNN-of-MMMMM.gguf: 1 + 5 + 4 + 5 + 5 characters after the prefix.
    constexpr std::size_t tail = 1 + k_digits + 4 + k_digits + k_suffix.size();
    if (path.size() <= tail || path.substr(path.size() - k_suffix.size()) != k_suffix) return std::nullopt;
    const std::string_view t = path.substr(path.size() - tail);
    const std::string_view no = t.substr(1, k_digits), count = t.substr(1 + k_digits + 4, k_digits);
    if (t[0] != '-' || t.substr(1 + k_digits, 4) != "-of-" || !all_digits(no) || !all_digits(count)) return std::nullopt;
    split_name s{std::string(path.substr(0, path.size() - tail)), to_int(no), to_int(count)};
    if (s.no < 1 || s.no > s.count || s.count > k_gguf_max_parts) return std::nullopt;
    return s;
}

std::string split_part_path(std::string_view prefix, int no, int count) {
    return fmt::format("{}-{:05d}-of-{:05d}.gguf", prefix, no, count);
}

result<std::shared_ptr<gguf_file>> gguf_file::join_parts(std::shared_ptr<gguf_file> f) {
    const std::string shown = quoted(f->path_, 1024);
    auto no = split_field(*f, "split.no", 0);
    if (!no) return make_error(fmt::format("{}: {}", shown, no.message()));
    auto count = split_field(*f, "split.count", 1);
    if (!count) return make_error(fmt::format("{}: {}", shown, count.message()));
    if (*count <= 1 && *no <= 0) return f;   // a whole model in one file
    if (*count < 1 || *no < 0 || *no >= *count)
        return make_error(fmt::format("{} says it is part {} of {} of a split model", shown, *no + 1, *count));
    const auto name = parse_split_name(f->path_);
    if (!name || name->count != *count || name->no != *no + 1)
        return make_error(fmt::format("{} is part {} of {} of a split model, but its name does not end in "
                                      "-{:05d}-of-{:05d}.gguf as the parts' names do, so kvlens cannot find the others",
                                      shown, *no + 1, *count, *no + 1, *count));
    if (*no != 0) {   // opened from another part: the first holds the metadata
        auto first = open_one(split_part_path(name->prefix, 1, *count));
        if (!first)
            return make_error(fmt::format("{} is part {} of {}; its first part: {}", shown, *no + 1, *count,
                                          first.message()));
        return join_parts(std::move(*first));
    }
    f->parts_.reserve(static_cast<std::size_t>(*count - 1));
    for (int i = 1; i < *count; ++i) {
        const std::string path = split_part_path(name->prefix, i + 1, *count);
        auto part = open_one(path);
        if (!part)
            return make_error(fmt::format("part {} of {} of {}: {}", i + 1, *count, shown, part.message()));
        const gguf_file& p = **part;
        auto p_no = split_field(p, "split.no", 0);
        auto p_count = split_field(p, "split.count", 1);
        if (!p_no || !p_count || *p_no != i || *p_count != *count)
            return make_error(fmt::format("{} should be part {} of {} but says it is part {} of {}", quoted(path, 1024),
                                          i + 1, *count, p_no ? *p_no + 1 : 0, p_count ? *p_count : 0));
        if (f->tensors_.size() + p.tensors_.size() > k_gguf_max_tensors)
            return make_error(fmt::format("{}: its parts hold more than {} tensors", shown, k_gguf_max_tensors));
        for (const gguf_tensor& t : p.tensors_) {
            if (f->tensor_index_.count(t.name))
                return make_error(fmt::format("tensor {} is in two parts of {} (again in part {})", quoted(t.name), shown,
                                              i + 1));
            f->tensor_index_.emplace(t.name, f->tensors_.size());
            f->tensors_.push_back(t);   // its data stays in the part's mapping, which parts_ keeps
        }
        f->parts_.push_back(std::move(*part));
    }
    if (const gguf_value* n = f->find("split.tensors.count");
        n && (!n->is_integer() || n->as_int() != static_cast<std::int64_t>(f->tensors_.size())))
        return make_error(fmt::format("{}: split.tensors.count says {} tensors, its {} parts hold {}", shown,
                                      n->is_integer() ? n->as_int() : -1, *count, f->tensors_.size()));
    return f;
}

status write_split_gguf(const gguf_file& in, int n_parts, const std::string& prefix, std::vector<std::string>* paths) {
    const auto& tensors = in.tensors();
    if (n_parts < 1 || n_parts > k_gguf_max_parts || static_cast<std::size_t>(n_parts) > std::max<std::size_t>(tensors.size(), 1))
        return make_error(fmt::format("cannot write {} tensors as {} parts", tensors.size(), n_parts));
    for (int part = 0; part < n_parts; ++part) {
        gguf_writer w;
        if (part == 0)
            for (const auto& [key, value] : in.metadata())
                if (key.rfind("split.", 0) != 0) w.set_value(key, value);
        w.set_u16("split.no", static_cast<std::uint16_t>(part));
        w.set_u16("split.count", static_cast<std::uint16_t>(n_parts));
        if (part == 0) w.set_i32("split.tensors.count", static_cast<std::int32_t>(tensors.size()));
        const std::size_t begin = tensors.size() * static_cast<std::size_t>(part) / static_cast<std::size_t>(n_parts);
        const std::size_t end = tensors.size() * static_cast<std::size_t>(part + 1) / static_cast<std::size_t>(n_parts);
        for (std::size_t i = begin; i < end; ++i) {
            const gguf_tensor& t = tensors[i];
            w.add_tensor(t.name, t.type, std::vector<std::int64_t>(t.ne, t.ne + t.n_dims),
                         [&t](std::uint8_t* dst, std::int64_t n) { std::memcpy(dst, t.data, static_cast<std::size_t>(n)); });
        }
        const std::string path = split_part_path(prefix, part + 1, n_parts);
        if (auto st = w.write_file(path); !st) return st;
        if (paths) paths->push_back(path);
    }
    return {};
}

}  // namespace kvlens
