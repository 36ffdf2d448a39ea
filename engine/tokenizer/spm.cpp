// SPDX-License-Identifier: Apache-2.0
// Score-driven SentencePiece merging with byte fallback (see spm.h).
#include "engine/tokenizer/spm.h"

#include <algorithm>
#include <cstdio>
#include <queue>

#include "engine/tokenizer/utf8.h"

namespace kvlens {
namespace {
constexpr std::string_view k_space_mark = "\xE2\x96\x81";  // U+2581 '▁'

std::uint32_t fnv1a(std::string_view s) {
    std::uint32_t h = 2166136261u;
    for (const char c : s) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    return h;
}
}  // namespace

token_id spm_merger::lookup(std::string_view s) const {
    if (s.size() > max_len_) return -1;
    const std::uint32_t h = fnv1a(s);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const token_id id = slots_[i];
        if (id < 0) return -1;
        if (slot_hash_[i] == h && vocab_->text[static_cast<std::size_t>(id)] == s) return id;
    }
}

spm_merger::spm_merger(const vocab_data& vocab) : vocab_(&vocab), unk_(-1) {
    std::size_t cap = 16;
    while (cap < 2 * static_cast<std::size_t>(vocab.size())) cap *= 2;
    slots_.assign(cap, -1);
    slot_hash_.assign(cap, 0);
    for (token_id id = 0; id < vocab.size(); ++id) {
        const std::string& t = vocab.text[static_cast<std::size_t>(id)];
        max_len_ = std::max(max_len_, t.size());
        const std::uint32_t h = fnv1a(t);
        for (std::size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
            const token_id old = slots_[i];
            // A text that occurs twice maps to the later id, as the shared index does.
            if (old < 0 || (slot_hash_[i] == h && vocab.text[static_cast<std::size_t>(old)] == t)) {
                slots_[i] = id;
                slot_hash_[i] = h;
                break;
            }
        }
    }
    for (int b = 0; b < 256; ++b) {
        char name[8];
        std::snprintf(name, sizeof name, "<0x%02X>", b);
        byte_token_[b] = vocab.find(name);
        // Vocabularies without byte tokens may still hold the byte itself.
        if (byte_token_[b] < 0) byte_token_[b] = vocab.find(std::string(1, static_cast<char>(b)));
    }
    for (int i = 0; i < vocab.size(); ++i)
        if (vocab.type[i] == token_type::unknown) {
            unk_ = i;
            break;
        }
}

std::string spm_merger::escape_spaces(std::string_view text) {
    std::string out;
    out.reserve(text.size() + text.size() / 4);
    for (char c : text) {
        if (c == ' ') out += k_space_mark;
        else out += c;
    }
    return out;
}

std::string spm_merger::unescape_spaces(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        if (text.compare(pos, k_space_mark.size(), k_space_mark) == 0) {
            out += ' ';
            pos += k_space_mark.size();
        } else {
            out += text[pos++];
        }
    }
    return out;
}

void spm_merger::encode(std::string_view text, std::vector<token_id>& out) const {
    struct symbol {
        std::uint32_t begin;  // byte offset into text
        std::uint32_t len;    // bytes; 0 once merged into its left neighbour
        std::int32_t prev, next;
    };
    struct candidate {
        float score;
        std::int32_t left, right;
        std::uint32_t len;   // bytes of the joined text when the pair was seen
        token_id id;
        bool operator<(const candidate& o) const {  // max-heap: highest score, then leftmost
            return score != o.score ? score < o.score : left > o.left;
        }
    };

    std::vector<symbol> sym;  // (characters of text)
    sym.reserve(text.size());
    for (std::size_t pos = 0; pos < text.size();) {
        // A character's length from its lead byte; a stray byte is one symbol.
        std::size_t n = static_cast<std::size_t>(utf8::sequence_length(static_cast<unsigned char>(text[pos])));
        if (n == 0) n = 1;
        n = std::min(n, text.size() - pos);
        const auto i = static_cast<std::int32_t>(sym.size());
        sym.push_back({static_cast<std::uint32_t>(pos), static_cast<std::uint32_t>(n), i - 1,
                       pos + n < text.size() ? i + 1 : -1});
        pos += n;
    }
    if (sym.empty()) return;

    std::priority_queue<candidate> heap;
    const auto consider = [&](std::int32_t left, std::int32_t right) {
        if (left < 0 || right < 0) return;
        const std::uint32_t len = sym[left].len + sym[right].len;
        const token_id id = lookup(text.substr(sym[left].begin, len));
        if (id < 0) return;
        heap.push({vocab_->score[id], left, right, len, id});
    };
    for (std::int32_t i = 1; i < static_cast<std::int32_t>(sym.size()); ++i) consider(i - 1, i);

    while (!heap.empty()) {
        const candidate c = heap.top();
        heap.pop();
        symbol& left = sym[c.left];
        symbol& right = sym[c.right];
        // Skip a pair one of whose sides has changed since it was seen.
        if (left.len == 0 || right.len == 0 || left.len + right.len != c.len || left.next != c.right) continue;
        left.len += right.len;
        right.len = 0;
        left.next = right.next;
        if (right.next >= 0) sym[right.next].prev = c.left;
        consider(left.prev, c.left);
        consider(c.left, left.next);
    }

    for (std::int32_t i = 0; i >= 0; i = sym[i].next) {
        const std::string_view piece = text.substr(sym[i].begin, sym[i].len);
        const token_id id = lookup(piece);
        if (id >= 0) {
            out.push_back(id);
            continue;
        }
        for (char c : piece) {  // byte fallback
            const token_id b = byte_token_[static_cast<unsigned char>(c)];
            if (b >= 0) out.push_back(b);
            else if (unk_ >= 0) out.push_back(unk_);
        }
    }
}

}  // namespace kvlens
