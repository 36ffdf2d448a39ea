// SPDX-License-Identifier: Apache-2.0
// Hidden reasoning in a token stream: text between <think> and </think> is
// the model's reasoning, not its answer. Tags arrive in pieces (a tokenizer
// may cut "</think>" as "</", "think", ">"), so the tracker reads the text
// stream, not single tokens: a tail that may still begin a tag is held
// undecided until a later piece settles it.
#pragma once

#include <string>
#include <string_view>

namespace kvlens {

class hidden_reasoning {
public:
    // Feeds the next piece of generated text. Returns true when the piece
    // makes answer text appear: characters outside <think>...</think> and
    // outside the tags themselves, including held characters it settles as
    // text ("<th" followed by "e" is answer text, shown by the later piece).
    bool push(std::string_view piece);

    bool inside() const { return inside_; }   // between <think> and </think>

private:
    bool inside_ = false;
    std::string held_;    // a tail of the text so far that is a proper prefix of the next tag
};

}  // namespace kvlens
