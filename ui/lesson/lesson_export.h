// SPDX-License-Identifier: Apache-2.0
// A lesson run as a slide set: one PNG and one SVG per step (caption, plot,
// takeaway), a Markdown handout that lists every step with its caption, the
// measured figures of its runs, its takeaway and its slide, and lesson.json
// with the same figures for tools.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>

#include "ui/lesson/lesson_slide.h"

namespace kvlens::ui {

// "step-03-input-sweep" (no suffix).
QString lessonSlideBaseName(const LessonStep& step);

// Writes the slides of `steps` and handout.md and lesson.json into `dir`;
// the written paths go to `written`. Empty on success, else the reason.
QString exportLesson(const QString& dir, const LessonRunner& runner, const QVector<LessonStepId>& steps,
                     const SlideText& text, QStringList* written = nullptr);

}  // namespace kvlens::ui
