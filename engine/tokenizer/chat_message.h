// SPDX-License-Identifier: Apache-2.0
// One turn of a conversation, as the chat templates and the engine's requests
// carry it. Kept apart so that engine.h and the tokenizer share it cheaply.
#pragma once

#include <string>

namespace kvlens {

struct chat_message {
    std::string role;               // "system", "user", "assistant"
    std::string content;
};

}  // namespace kvlens
