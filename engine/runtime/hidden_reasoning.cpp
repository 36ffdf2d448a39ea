// SPDX-License-Identifier: Apache-2.0
// hidden_reasoning: find the next tag in held text + piece; what is left at
// the end and could begin the next tag is held for the next piece.
#include "engine/runtime/hidden_reasoning.h"

#include <algorithm>

namespace kvlens {

namespace {

constexpr std::string_view k_open = "<think>";
constexpr std::string_view k_close = "</think>";
// Harmony's markers: a header ends at <|message|>; a content at one of the terminators.
constexpr std::string_view k_message = "<|message|>";
constexpr std::string_view k_channel = "<|channel|>";
constexpr std::string_view k_terminators[] = {"<|end|>", "<|return|>", "<|call|>"};

// Length of the longest suffix of s that is a proper prefix of tag.
std::size_t partial_tag_at_end(std::string_view s, std::string_view tag) {
    for (std::size_t n = std::min(s.size(), tag.size() - 1); n > 0; --n)
        if (s.substr(s.size() - n) == tag.substr(0, n)) return n;
    return 0;
}

}  // namespace

const char* to_string(reasoning_evidence e) {
    switch (e) {
    case reasoning_evidence::vocabulary: return "vocabulary";
    case reasoning_evidence::chat_template: return "chat_template";
    case reasoning_evidence::harmony_channels: return "harmony_channels";
    case reasoning_evidence::none: break;
    }
    return "none";
}

reasoning_evidence reasoning_evidence_of(bool vocab_has_open_tag, bool vocab_has_close_tag,
                                         std::string_view chat_template) {
    if (vocab_has_open_tag && vocab_has_close_tag) return reasoning_evidence::vocabulary;
    if (chat_template.find(k_open) != std::string_view::npos && chat_template.find(k_close) != std::string_view::npos)
        return reasoning_evidence::chat_template;
    return reasoning_evidence::none;
}

// The channel a Harmony header names: the word after <|channel|> (up to a
// space or the next marker), "" when it names none.
std::string_view channel_of(std::string_view header) {
    const std::size_t at = header.rfind(k_channel);
    if (at == std::string_view::npos) return {};
    std::string_view rest = header.substr(at + k_channel.size());
    return rest.substr(0, std::min(rest.find(' '), rest.find('<')));
}

bool hidden_reasoning::push_harmony(std::string_view piece) {
    std::string text = held_;
    text.append(piece);
    held_.clear();
    std::string_view rest = text;
    bool answer = false;
    for (;;) {
        if (!in_content_) {   // a header: hidden, up to <|message|>
            const std::size_t at = rest.find(k_message);
            if (at == std::string_view::npos) {
                const std::size_t keep = partial_tag_at_end(rest, k_message);
                header_.append(rest.substr(0, rest.size() - keep));
                held_.assign(rest.substr(rest.size() - keep));
                return answer;
            }
            header_.append(rest.substr(0, at));
            // A message without a channel is the answer too.
            const std::string_view channel = channel_of(header_);
            final_channel_ = channel.empty() || channel == "final";
            header_.clear();
            in_content_ = true;
            rest.remove_prefix(at + k_message.size());
            continue;
        }
        // Content: up to the first terminator; visible in the final channel.
        std::size_t at = std::string_view::npos, len = 0;
        for (std::string_view t : k_terminators)
            if (const std::size_t p = rest.find(t); p < at) {
                at = p;
                len = t.size();
            }
        if (at == std::string_view::npos) {
            std::size_t keep = 0;
            for (std::string_view t : k_terminators) keep = std::max(keep, partial_tag_at_end(rest, t));
            if (final_channel_ && rest.size() > keep) answer = true;
            held_.assign(rest.substr(rest.size() - keep));
            return answer;
        }
        if (final_channel_ && at > 0) answer = true;
        in_content_ = false;
        rest.remove_prefix(at + len);
    }
}

bool hidden_reasoning::push(std::string_view piece) {
    if (syntax_ == syntax::harmony_channels) return push_harmony(piece);
    std::string text = held_;
    text.append(piece);
    held_.clear();
    std::string_view rest = text;
    bool answer = false;
    for (;;) {
        const std::string_view tag = inside_ ? k_close : k_open;
        const std::size_t at = rest.find(tag);
        if (at == std::string_view::npos) {
            const std::size_t keep = partial_tag_at_end(rest, tag);
            if (!inside_ && rest.size() > keep) answer = true;
            held_.assign(rest.substr(rest.size() - keep));
            return answer;
        }
        if (!inside_ && at > 0) answer = true;
        inside_ = !inside_;
        rest.remove_prefix(at + tag.size());
    }
}

}  // namespace kvlens
