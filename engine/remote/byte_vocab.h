// SPDX-License-Identifier: Apache-2.0
// A stand-in tokenizer for a remote model kvlens has no GGUF of: one token per
// UTF-8 byte (an upper bound on a byte-level BPE model's count). See byte_vocab.cpp.
#pragma once

#include "common/result.h"

namespace kvlens {
class tokenizer;
}

namespace kvlens::remote {

// Built on first use and kept for the life of the process.
result<const tokenizer*> byte_level_stand_in();

}  // namespace kvlens::remote
