// SPDX-License-Identifier: Apache-2.0
// Encoding and validating the helper's answers (JSON with nlohmann_json).
#include "pdf/helper_protocol.h"
#include "pdf/metadata_json.h"

#include <nlohmann/json.hpp>

namespace kvlens::pdf {

namespace {

using json = nlohmann::json;

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

error bad(failure_kind* failure, const std::string& what) {
    if (failure) *failure = failure_kind::bad_output;
    return make_error("the PDF helper gave an invalid answer: " + what);
}

bool get_string(const json& obj, const char* key, std::string& out, bool required) {
    const auto it = obj.find(key);
    if (it == obj.end()) return !required;
    if (!it->is_string()) return false;
    out = it->get<std::string>();
    return true;
}

bool get_int(const json& obj, const char* key, long long lo, long long hi, long long& out) {
    const auto it = obj.find(key);
    if (it == obj.end() || !it->is_number_integer()) return false;
    out = it->get<long long>();
    return out >= lo && out <= hi;
}

// A failure answer ({"ok":false,"error":{...}}) as an error; nullopt when `j` is not one.
std::optional<error> failure_from(const json& j, failure_kind* failure) {
    if (!j.is_object() || !j.contains("ok") || !j["ok"].is_boolean() || j["ok"].get<bool>()) return std::nullopt;
    const auto e = j.find("error");
    std::string kind, message;
    if (e == j.end() || !e->is_object() || !get_string(*e, "kind", kind, true) ||
        !get_string(*e, "message", message, true) || message.empty())
        return bad(failure, "a failure without a kind and message");
    if (failure) *failure = failure_kind_from_name(kind);
    return make_error(message);
}

bool check_header(const json& j, std::string& why) {
    if (!j.is_object()) return why = "not a JSON object", false;
    long long protocol = 0;
    if (!get_int(j, "protocol", 1, 1'000, protocol) || protocol != helper_protocol_version)
        return why = "unknown protocol version", false;
    if (!j.contains("ok") || !j["ok"].is_boolean()) return why = "no 'ok' field", false;
    return true;
}

}  // namespace

std::string encode_failure(failure_kind kind, const std::string& message) {
    json j = {{"protocol", helper_protocol_version},
              {"ok", false},
              {"error", {{"kind", failure_kind_name(kind)}, {"message", message}}}};
    return dump(j);
}

std::string encode_extract_answer(const raw_document& doc) {
    json meta = metadata_to_json(doc.metadata);
    json pages = json::array();
    for (std::size_t i = 0; i < doc.pages.size(); ++i)
        pages.push_back({{"number", doc.first_page + static_cast<int>(i)},
                         {"text", doc.pages[i]},
                         {"width", i < doc.widths_pt.size() ? doc.widths_pt[i] : 0.0},
                         {"height", i < doc.heights_pt.size() ? doc.heights_pt[i] : 0.0}});
    json j = {{"protocol", helper_protocol_version}, {"ok", true},        {"metadata", meta},
              {"first_page", doc.first_page},       {"pages", pages},    {"warnings", doc.warnings}};
    return dump(j);
}

std::string encode_render_header(const page_image& img) {
    json j = {{"protocol", helper_protocol_version},
              {"ok", true},
              {"page", img.page_number},
              {"dpi", img.dpi},
              {"width", img.width},
              {"height", img.height},
              {"stride", img.stride},
              {"bytes", img.pixels.size()}};
    return dump(j);
}

result<raw_document> decode_extract_answer(std::string_view answer, failure_kind* failure) {
    if (answer.empty()) return bad(failure, "no output");
    const json j = json::parse(answer.begin(), answer.end(), nullptr, false);
    if (j.is_discarded()) return bad(failure, "not JSON (" + std::to_string(answer.size()) + " bytes)");
    std::string why;
    if (!check_header(j, why)) return bad(failure, why);
    if (auto e = failure_from(j, failure)) return *e;

    raw_document doc;
    const auto meta = j.find("metadata");
    if (meta == j.end() || !meta->is_object()) return bad(failure, "no metadata");
    metadata& m = doc.metadata;
    long long page_count = 0;
    if (!get_string(*meta, "title", m.title, false) || !get_string(*meta, "author", m.author, false) ||
        !get_string(*meta, "subject", m.subject, false) || !get_string(*meta, "keywords", m.keywords, false) ||
        !get_string(*meta, "creator", m.creator, false) || !get_string(*meta, "producer", m.producer, false) ||
        !get_string(*meta, "creation_date", m.creation_date, false) ||
        !get_string(*meta, "modification_date", m.modification_date, false) ||
        !get_string(*meta, "pdf_version", m.pdf_version, false))
        return bad(failure, "a metadata field is not a string");
    if (!get_int(*meta, "page_count", 1, 10'000'000, page_count)) return bad(failure, "bad page_count");
    m.page_count = static_cast<int>(page_count);
    if (meta->contains("encrypted")) {
        if (!(*meta)["encrypted"].is_boolean()) return bad(failure, "bad 'encrypted'");
        m.encrypted = (*meta)["encrypted"].get<bool>();
    }

    long long first = 0;
    if (!get_int(j, "first_page", 1, page_count, first)) return bad(failure, "bad first_page");
    doc.first_page = static_cast<int>(first);
    const auto pages = j.find("pages");
    if (pages == j.end() || !pages->is_array()) return bad(failure, "no pages");
    if (static_cast<long long>(pages->size()) > page_count - first + 1) return bad(failure, "more pages than the document has");
    long long expect = first;
    for (const json& p : *pages) {
        long long number = 0;
        std::string text;
        if (!p.is_object() || !get_int(p, "number", expect, expect, number) || !get_string(p, "text", text, true))
            return bad(failure, "page " + std::to_string(expect) + " is missing or malformed");
        double size[2] = {0, 0};
        const char* keys[2] = {"width", "height"};
        for (int k = 0; k < 2; ++k) {
            const auto it = p.find(keys[k]);
            if (it == p.end()) continue;
            if (!it->is_number() || !(it->get<double>() >= 0 && it->get<double>() <= 1e6))
                return bad(failure, "page " + std::to_string(expect) + " has a bad size");
            size[k] = it->get<double>();
        }
        doc.pages.push_back(std::move(text));
        doc.widths_pt.push_back(size[0]);
        doc.heights_pt.push_back(size[1]);
        ++expect;
    }
    const auto warnings = j.find("warnings");
    if (warnings != j.end()) {
        if (!warnings->is_array()) return bad(failure, "bad warnings");
        for (const json& w : *warnings) {
            if (!w.is_string()) return bad(failure, "a warning is not a string");
            doc.warnings.push_back(w.get<std::string>());
        }
    }
    return doc;
}

result<std::vector<page_image>> decode_render_answer(std::string_view answer, failure_kind* failure) {
    std::vector<page_image> images;
    std::size_t pos = 0;
    while (pos < answer.size()) {
        const std::size_t eol = answer.find('\n', pos);
        if (eol == std::string_view::npos || eol - pos > 4096) return bad(failure, "a page header without an end");
        const std::string_view line = answer.substr(pos, eol - pos);
        pos = eol + 1;
        const json j = json::parse(line.begin(), line.end(), nullptr, false);
        std::string why;
        if (j.is_discarded()) return bad(failure, "a page header is not JSON");
        if (!check_header(j, why)) return bad(failure, why);
        if (auto e = failure_from(j, failure)) return *e;
        long long page = 0, width = 0, height = 0, stride = 0, bytes = 0;
        if (!get_int(j, "page", 1, 10'000'000, page) || !get_int(j, "width", 1, 1'000'000, width) ||
            !get_int(j, "height", 1, 1'000'000, height) || !get_int(j, "stride", 4 * width, 4 * width + 64, stride) ||
            !get_int(j, "bytes", 0, 1LL << 40, bytes) || !j.contains("dpi") || !j["dpi"].is_number())
            return bad(failure, "a malformed page header");
        if (width * height > max_page_pixels || bytes != stride * height) return bad(failure, "a page of impossible size");
        if (answer.size() - pos < static_cast<std::size_t>(bytes)) return bad(failure, "page " + std::to_string(page) + " is cut short");
        page_image img;
        img.page_number = static_cast<int>(page);
        img.dpi = j["dpi"].get<double>();
        img.width = static_cast<int>(width);
        img.height = static_cast<int>(height);
        img.stride = static_cast<int>(stride);
        img.pixels.assign(answer.begin() + static_cast<std::ptrdiff_t>(pos),
                          answer.begin() + static_cast<std::ptrdiff_t>(pos + static_cast<std::size_t>(bytes)));
        pos += static_cast<std::size_t>(bytes);
        images.push_back(std::move(img));
    }
    if (images.empty()) return bad(failure, "no pages");
    return images;
}

}  // namespace kvlens::pdf
