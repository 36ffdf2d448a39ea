// SPDX-License-Identifier: Apache-2.0
// The history kept across restarts: each finished run as one JSON file (the
// run.json of the exports: settings, every engine event, the figures) in a
// folder under the application's data folder, the newest `maxRuns` of them
// kept. Reading a file back replays its events into a RunRecord, so a saved
// run draws the same charts as when it ran. A file that cannot be read gives
// a message naming it, never a crash.
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QVector>
#include <memory>

#include "ui/model/run_record.h"

namespace kvlens::ui {

// The run settings of runToJson's "config" object, back as a RunConfig.
RunConfig configFromJson(const QJsonObject& o);
// One event line (event_to_json_line's form) back as the engine's struct;
// false with `error` set when the object is not an event.
bool eventFromJson(const QJsonObject& o, kvlens::event& out, QString& error);
// A whole run.json back as a run with id `id` (its events replayed in order).
// Null with `error` set when the object is not a run.
std::unique_ptr<RunRecord> runFromJson(const QJsonObject& o, int id, QString& error);

class RunStore {
public:
    static constexpr int kDefaultMaxRuns = 40;

    // `folder` is created on the first save.
    explicit RunStore(QString folder, int maxRuns = kDefaultMaxRuns);
    QString folder() const { return folder_; }
    int maxRuns() const { return maxRuns_; }

    // Writes the run (run-<time>-<id>.json), then removes the oldest files
    // beyond maxRuns. "" on success, else the reason.
    QString save(const RunRecord& run);

    struct Loaded {
        QVector<QJsonObject> runs;   // oldest first, at most maxRuns
        QStringList errors;          // "run-...json: not JSON (...)", one per unreadable file
    };
    Loaded load() const;

    // The saved files, oldest first.
    QStringList files() const;

private:
    QString folder_;
    int maxRuns_;
};

}  // namespace kvlens::ui
