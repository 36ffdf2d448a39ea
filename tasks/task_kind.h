// SPDX-License-Identifier: Apache-2.0
// What a reader asks of a document: the task kinds the CLI, the window and
// headless mode offer, with their stable keys ("one-line", ...). Plain C++.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kvlens::tasks {

enum class task_kind { one_line, key_points, detailed, question };

const char* task_key(task_kind t);                          // "one-line", "key-points", "detailed", "question"
std::optional<task_kind> parse_task_key(std::string_view key);

}  // namespace kvlens::tasks
