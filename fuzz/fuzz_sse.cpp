// SPDX-License-Identifier: Apache-2.0
// Fuzz target: any bytes as a remote server's streamed answer. The first byte
// seeds how the stream is cut into chunks (as the network would); the events
// must be the same as when the whole stream arrives at once, every event's data
// goes through the chat/completions chunk parser, and the same bytes are read
// as an error body, a /v1/models listing, a /props answer and /metrics text.
// Garbage must give an error value, never a crash or unbounded memory.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "engine/remote/openai_protocol.h"
#include "engine/remote/sse_parser.h"

namespace {

struct parsed_stream {
    std::vector<kvlens::remote::sse_event> events;
    bool ok = true;
    bool finished_clean = false;
};

// Feeds `in` in chunks whose lengths follow `cut` (1..64 bytes each, cycling).
parsed_stream parse(std::string_view in, std::uint8_t cut, std::size_t max_line) {
    parsed_stream out;
    kvlens::remote::sse_parser p([&out](const kvlens::remote::sse_event& e) { out.events.push_back(e); }, max_line);
    std::size_t pos = 0;
    std::uint32_t state = cut;
    while (pos < in.size() && out.ok) {
        state = state * 1103515245u + 12345u;
        const std::size_t n = cut == 0 ? in.size() : 1 + (state >> 16) % 64;
        out.ok = p.feed(in.substr(pos, n));
        pos += n;
    }
    if (out.ok) out.finished_clean = p.finish();
    return out;
}

bool same(const kvlens::remote::sse_event& a, const kvlens::remote::sse_event& b) {
    return a.event == b.event && a.data == b.data && a.id == b.id;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::uint8_t cut = data[0];
    const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
    const std::size_t max_line = 4096;

    const parsed_stream whole = parse(in, 0, max_line);
    const parsed_stream pieces = parse(in, cut | 1, max_line);
    // Cutting the stream differently changes nothing a client sees.
    if (whole.ok != pieces.ok) std::abort();
    if (whole.ok) {
        if (whole.finished_clean != pieces.finished_clean) std::abort();
        if (whole.events.size() != pieces.events.size()) std::abort();
        for (std::size_t i = 0; i < whole.events.size(); ++i)
            if (!same(whole.events[i], pieces.events[i])) std::abort();
    }
    for (const auto& e : whole.events) {
        if (e.data.size() > in.size()) std::abort();   // no event is larger than the stream
        if (e.data == "[DONE]") continue;
        auto chunk = kvlens::remote::parse_stream_chunk(e.data);
        (void)chunk;
    }
    const std::string message = kvlens::remote::error_message_from_body(in);
    // At most 300 input bytes, each escaped to at most 6 (\u00NN), and the cut's note.
    if (message.size() > 6 * 300 + 32 || message.find('\x1b') != std::string::npos) std::abort();
    (void)kvlens::remote::parse_models(in);
    (void)kvlens::remote::parse_props(in);
    (void)kvlens::remote::kv_metrics_from(kvlens::remote::parse_prometheus(in));
    return 0;
}
