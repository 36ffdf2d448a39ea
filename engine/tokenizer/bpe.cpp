// SPDX-License-Identifier: Apache-2.0
// Merge-rank BPE over a word's bytes (see bpe.h).
#include "engine/tokenizer/bpe.h"

#include <queue>

#include "engine/tokenizer/byte_level.h"

namespace kvlens {

std::int32_t bpe_merger::intern(std::string_view text,
                                std::unordered_map<std::string, std::int32_t>& extra_index) {
    const token_id id = vocab_->find(text);
    if (id >= 0) return id;
    const auto [it, added] = extra_index.try_emplace(std::string(text), 0);
    if (added) {
        it->second = vocab_->size() + static_cast<std::int32_t>(extra_text_.size());
        extra_text_.emplace_back(text);
    }
    return it->second;
}

result<bpe_merger> bpe_merger::build(const vocab_data& vocab, const std::vector<std::string_view>& merges) {
    bpe_merger m;
    m.vocab_ = &vocab;
    m.n_merges_ = static_cast<int>(merges.size());
    std::unordered_map<std::string, std::int32_t> extra_index;
    for (int b = 0; b < 256; ++b)
        m.byte_piece_[b] = m.intern(byte_level::encode(std::string(1, static_cast<char>(b))), extra_index);

    m.rules_.reserve(merges.size() * 2);
    std::string joined;
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const std::string_view rule = merges[rank];
        // The left side cannot be empty, so the separator is searched from 1.
        const std::size_t sp = rule.size() > 1 ? rule.find(' ', 1) : std::string_view::npos;
        if (sp == std::string_view::npos || sp + 1 >= rule.size())
            return make_error("tokenizer.ggml.merges[" + std::to_string(rank) + "] = '" + std::string(rule) +
                              "' is not two pieces separated by a space");
        const std::string_view left = rule.substr(0, sp), right = rule.substr(sp + 1);
        joined.assign(left);
        joined += right;
        const std::int32_t l = m.intern(left, extra_index);
        const std::int32_t r = m.intern(right, extra_index);
        const std::int32_t j = m.intern(joined, extra_index);
        // A pair listed twice keeps its first (lowest) rank.
        m.rules_.try_emplace(key(l, r), merge_rule{static_cast<std::int32_t>(rank), j});
    }
    return m;
}

void bpe_merger::emit(std::int32_t piece, std::vector<token_id>& out) const {
    if (piece < vocab_->size()) {
        out.push_back(piece);
        return;
    }
    // A merged text the vocabulary lacks: keep whatever single bytes of its
    // text are tokens (what llama.cpp does; real vocabularies never get here).
    for (char c : extra_text_[piece - vocab_->size()]) {
        const token_id id = vocab_->find(std::string_view(&c, 1));
        if (id >= 0) out.push_back(id);
    }
}

void bpe_merger::encode_word(std::string_view raw, std::vector<token_id>& out) const {
    const int n = static_cast<int>(raw.size());
    if (n == 0) return;
    if (n == 1) {
        emit(byte_piece_[static_cast<unsigned char>(raw[0])], out);
        return;
    }

    struct symbol {
        std::int32_t piece;  // -1 once merged into its left neighbour
        std::int32_t prev;   // index of the previous live symbol, -1 at the start
        std::int32_t next;   // index of the next live symbol, -1 at the end
    };
    struct candidate {
        std::int32_t rank;
        std::int32_t left;          // symbol index of the pair's left side
        std::int32_t left_piece;    // the two pieces when the pair was seen, to
        std::int32_t right_piece;   // spot pairs that changed since
        std::int32_t result;        // the merged piece
        bool operator>(const candidate& o) const {
            return rank != o.rank ? rank > o.rank : left > o.left;
        }
    };

    std::vector<symbol> sym(n);  // (n) one per byte to begin with
    for (int i = 0; i < n; ++i)
        sym[i] = {byte_piece_[static_cast<unsigned char>(raw[i])], i - 1, i + 1 < n ? i + 1 : -1};

    std::priority_queue<candidate, std::vector<candidate>, std::greater<>> heap;
    const auto consider = [&](std::int32_t left) {
        if (left < 0) return;
        const std::int32_t right = sym[left].next;
        if (right < 0) return;
        const auto it = rules_.find(key(sym[left].piece, sym[right].piece));
        if (it != rules_.end()) heap.push({it->second.rank, left, sym[left].piece, sym[right].piece, it->second.result});
    };
    for (int i = 0; i + 1 < n; ++i) consider(i);

    while (!heap.empty()) {
        const candidate c = heap.top();
        heap.pop();
        symbol& left = sym[c.left];
        // Pieces only grow, so equal piece ids mean the pair is unchanged.
        if (left.piece != c.left_piece || left.next < 0 || sym[left.next].piece != c.right_piece) continue;
        symbol& right = sym[left.next];
        left.piece = c.result;
        right.piece = -1;
        left.next = right.next;
        if (right.next >= 0) sym[right.next].prev = c.left;
        consider(left.prev);
        consider(c.left);
    }
    for (int i = 0; i >= 0; i = sym[i].next) emit(sym[i].piece, out);
}

}  // namespace kvlens
