// SPDX-License-Identifier: Apache-2.0
// A run to files: CSV with one row per generated token, and JSON with the
// run's settings, every event (each object has "event" and "request" keys, as
// the CLI's --metrics-json lines) and the figures. Written through QSaveFile,
// so a failed write leaves no half file; errors come back as messages.
#pragma once

#include <QJsonObject>
#include <QString>

#include "ui/model/run_record.h"

namespace kvlens::ui {

// The CSV header line, without the newline.
QString runCsvHeader();
QString runToCsv(const RunRecord& run);
QJsonObject runToJson(const RunRecord& run);
QJsonObject figuresToJson(const RunFigures& f);
QJsonObject eventToJson(const RunEvent& e);

// Return an empty string on success, else the reason.
QString writeRunCsv(const RunRecord& run, const QString& path);
QString writeRunJson(const RunRecord& run, const QString& path);

}  // namespace kvlens::ui
