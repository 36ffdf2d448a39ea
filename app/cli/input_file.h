// SPDX-License-Identifier: Apache-2.0
// Reading a file the user names (a prompt, a text to tokenize) without being
// made to hang or to run out of memory: the path's type is checked before it
// is opened (a FIFO blocks open(2); /dev/zero never ends), the file is opened
// non-blocking and checked again, and a file over the limit is refused with
// both sizes in the message, before anything is read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "common/result.h"

namespace kvlens::cli {

// The file's bytes. `what` names it in messages ("prompt file").
result<std::string> read_input_file(const std::string& path, std::size_t max_bytes, std::string_view what);

}  // namespace kvlens::cli
