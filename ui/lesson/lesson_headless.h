// SPDX-License-Identifier: Apache-2.0
// `kvlens --headless [REPORT] --lesson --out DIR [--model M] [--lesson-steps a,b]`:
// the lesson without a window. Loads the model, runs the steps (all, or the
// keys given) on REPORT (default: the built-in sample report), and writes a
// slide per step (PNG and SVG), handout.md and lesson.json into DIR.
#pragma once

#include <QString>
#include <QStringList>

namespace kvlens::ui {

class EngineWorker;
struct HeadlessOptions;

// Exit code 0 when every step ran or was skipped for a stated reason; 1 when
// a step failed or a file could not be written; 2 on wrong arguments.
int runLessonHeadless(const HeadlessOptions& options, EngineWorker* worker = nullptr);

// The built-in report the lesson reads when none is given (title, text).
QString lessonBuiltInReportPath();

}  // namespace kvlens::ui
