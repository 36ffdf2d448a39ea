// SPDX-License-Identifier: Apache-2.0
// Page ranges and failure-kind names for the PDF layer's result values.
#include "pdf/document.h"

#include <charconv>

namespace kvlens::pdf {

namespace {

bool parse_int(std::string_view s, int& out) {
    if (s.empty() || s.size() > 9) return false;
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && p == s.data() + s.size() && out >= 1;
}

}  // namespace

std::optional<page_range> parse_page_range(const std::string& text) {
    std::string_view s = text;
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    if (s.empty()) return std::nullopt;
    const auto dash = s.find('-');
    page_range r;
    if (dash == std::string_view::npos) {
        if (!parse_int(s, r.first)) return std::nullopt;
        r.last = r.first;
        return r;
    }
    const std::string_view a = s.substr(0, dash), b = s.substr(dash + 1);
    if (a.empty() && b.empty()) return std::nullopt;
    if (!a.empty() && !parse_int(a, r.first)) return std::nullopt;
    if (!b.empty() && !parse_int(b, r.last)) return std::nullopt;
    if (r.last != 0 && r.last < r.first) return std::nullopt;
    return r;
}

namespace {
struct kind_name {
    failure_kind kind;
    const char* name;
};
constexpr kind_name kind_names[] = {
    {failure_kind::none, "none"},
    {failure_kind::not_found, "not_found"},
    {failure_kind::unreadable, "unreadable"},
    {failure_kind::empty_file, "empty_file"},
    {failure_kind::not_pdf, "not_pdf"},
    {failure_kind::damaged, "damaged"},
    {failure_kind::needs_password, "needs_password"},
    {failure_kind::wrong_password, "wrong_password"},
    {failure_kind::bad_range, "bad_range"},
    {failure_kind::helper_missing, "helper_missing"},
    {failure_kind::helper_crashed, "helper_crashed"},
    {failure_kind::timeout, "timeout"},
    {failure_kind::bad_output, "bad_output"},
    {failure_kind::cancelled, "cancelled"},
};
}  // namespace

const char* failure_kind_name(failure_kind kind) {
    for (const auto& k : kind_names)
        if (k.kind == kind) return k.name;
    return "unknown";
}

failure_kind failure_kind_from_name(const std::string& name) {
    for (const auto& k : kind_names)
        if (name == k.name) return k.kind;
    return failure_kind::bad_output;
}

}  // namespace kvlens::pdf
