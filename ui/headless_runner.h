// SPDX-License-Identifier: Apache-2.0
// The window's headless twin: `kvlens --headless REPORT.pdf --out DIR [--model M]
// [--task one-line|key-points|detailed] [--question Q] [--pages A-B]
// [--max-tokens N] [--kv paged|static|off] [--long map-reduce|fit]` drives
// the window's run controller (no window), runs the same request the Run
// button would, and writes summary.txt, every chart as PNG and SVG, run.json
// and run.csv into DIR. Pages that do not fit the context take one of the
// window's two ways: map-reduce over all of them (the default, as
// `kvlens-cli summarize` does; every stage a run, run.json the reduce's and
// stages/ each stage's) or the largest range from the first page that fits.
// Progress goes to stderr; a PDF without text is refused (exit 1).
// With --lesson: the lesson's steps and their slide set (ui/lesson/).
#pragma once

#include <QString>
#include <QStringList>

namespace kvlens::ui {

class EngineWorker;

struct HeadlessOptions {
    QString report;         // the PDF (or .txt)
    QString outDir;
    QString model;          // empty: the settings' model
    QString task = QStringLiteral("one-line");
    QString question;       // non-empty: a question instead of the task
    int maxTokens = 0;      // 0: the settings'
    QString kvMode;         // empty: the settings'
    int draftTokens = -1;   // speculative decoding's draft tokens per step; -1: the settings'
    int firstPage = 0;      // --pages A-B, 1-based inclusive; 0: all pages
    int lastPage = 0;
    bool fitLongReport = false;   // --long fit: the largest range that fits, not map-reduce
    // --lesson: the lesson's steps instead of one run (ui/lesson/lesson_headless.h);
    // REPORT may then be left out. --lesson-steps KEY,KEY: only those steps.
    bool lesson = false;
    QStringList lessonSteps;
};

// Parses the arguments after the program name; false and a message when
// they are wrong. `wanted` says whether --headless was given at all.
bool parseHeadlessArgs(const QStringList& args, HeadlessOptions& out, bool& wanted, QString& error);

// Runs it; returns the exit code (0 on success) after printing the written
// files on stdout, or one line naming the cause on stderr. `worker`: tests
// pass a worker with a fake engine; null: the real engine.
int runHeadless(const HeadlessOptions& options, EngineWorker* worker = nullptr);

// The files a successful run writes into outDir.
QStringList headlessOutputs();

}  // namespace kvlens::ui
