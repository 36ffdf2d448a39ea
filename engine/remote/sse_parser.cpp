// SPDX-License-Identifier: Apache-2.0
// Server-Sent Events, parsed as the bytes come (see sse_parser.h).
#include "engine/remote/sse_parser.h"

#include <utility>

namespace kvlens::remote {

sse_parser::sse_parser(handler on_event, std::size_t max_line_bytes)
    : on_event_(std::move(on_event)), max_line_(max_line_bytes) {}

bool sse_parser::feed(std::string_view chunk) {
    if (!error_.empty()) return false;
    std::size_t start = 0;
    for (std::size_t i = 0; i < chunk.size(); ++i) {
        const char c = chunk[i];
        if (c != '\n' && c != '\r') {
            after_cr_ = false;
            continue;
        }
        if (c == '\n' && after_cr_ && i == start && line_.empty()) {
            // The LF of a CRLF whose CR ended the previous line.
            after_cr_ = false;
            start = i + 1;
            continue;
        }
        line_.append(chunk.substr(start, i - start));
        if (line_.size() > max_line_) {
            error_ = "an event-stream line longer than " + std::to_string(max_line_) + " bytes";
            return false;
        }
        take_line(line_);
        line_.clear();
        after_cr_ = (c == '\r');
        start = i + 1;
    }
    line_.append(chunk.substr(start));
    if (line_.size() > max_line_) {
        error_ = "an event-stream line longer than " + std::to_string(max_line_) + " bytes";
        return false;
    }
    return true;
}

bool sse_parser::finish() {
    if (!error_.empty()) return false;
    return !pending();
}

void sse_parser::take_line(std::string_view line) {
    if (first_line_) {
        first_line_ = false;
        if (line.substr(0, 3) == "\xEF\xBB\xBF") line.remove_prefix(3);
    }
    if (line.empty()) {
        dispatch();
        return;
    }
    if (line.front() == ':') return;   // a comment (keep-alive)
    std::string_view field = line, value;
    if (const auto colon = line.find(':'); colon != std::string_view::npos) {
        field = line.substr(0, colon);
        value = line.substr(colon + 1);
        if (!value.empty() && value.front() == ' ') value.remove_prefix(1);
    }
    if (field == "data") {
        if (has_data_) cur_.data.push_back('\n');
        cur_.data.append(value);
        has_data_ = true;
        has_fields_ = true;
    } else if (field == "event") {
        cur_.event.assign(value);
        has_fields_ = true;
    } else if (field == "id") {
        cur_.id.assign(value);
        has_fields_ = true;
    }
    // "retry" and unknown fields are ignored, as the format says.
}

void sse_parser::dispatch() {
    // An event without data is dropped (the format's rule), but its fields reset.
    if (has_data_) {
        ++n_events_;
        on_event_(cur_);
    }
    cur_ = sse_event{};
    has_data_ = false;
    has_fields_ = false;
}

}  // namespace kvlens::remote
