// SPDX-License-Identifier: Apache-2.0
// An incremental Server-Sent Events parser (the WHATWG "event stream" format
// that OpenAI-compatible servers stream chat/completions in). Bytes arrive in
// arbitrary chunks from the HTTP client; feed() splits them into lines (LF,
// CRLF or a lone CR, a CRLF split across two chunks counted once), collects
// `data:` fields (several join with '\n'), skips comments (": keep-alive")
// and dispatches an event at each blank line. A line longer than the cap is
// an error, not unbounded memory. Not thread-safe: one parser per stream.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace kvlens::remote {

struct sse_event {
    std::string event;   // the `event:` field; "" means "message"
    std::string data;    // `data:` fields joined with '\n'
    std::string id;      // the `id:` field, if any
};

class sse_parser {
public:
    using handler = std::function<void(const sse_event&)>;

    explicit sse_parser(handler on_event, std::size_t max_line_bytes = 1 << 20);

    // Parses a chunk; false once the stream is malformed (a line over the cap),
    // after which error() says why and further input is ignored.
    bool feed(std::string_view chunk);
    // The stream ended. True when nothing was left half-received: no partial
    // line and no event whose blank line never came (a truncated stream).
    bool finish();

    const std::string& error() const { return error_; }
    std::size_t events() const { return n_events_; }
    bool pending() const { return !line_.empty() || has_fields_; }

private:
    void take_line(std::string_view line);
    void dispatch();

    handler on_event_;
    std::size_t max_line_;
    std::string line_;        // the unfinished line carried to the next chunk
    bool after_cr_ = false;   // the last byte seen was CR: a following LF belongs to it
    bool has_fields_ = false; // a field of the current event arrived
    bool has_data_ = false;   // a data field of the current event arrived
    bool first_line_ = true;  // a UTF-8 BOM may start the stream
    sse_event cur_;
    std::size_t n_events_ = 0;
    std::string error_;
};

}  // namespace kvlens::remote
