// SPDX-License-Identifier: Apache-2.0
// Hand-made event sequences for the UI tests, written as compact text: one
// event per line, "kind key=value ...", e.g.
//   queued prompt=100
//   chunk done=64 total=100 cached=0 ms=10 t=15
//   token i=0 id=7 text=Hello lat=30 t=30 kv=101 bytes=2020 alloc=2240 res=2240
// In text values "\s" stands for a space and "\n" for a newline.
#pragma once

#include <QString>
#include <QVector>

#include "ui/model/run_types.h"

namespace kvlens::test {

QVector<kvlens::ui::RunEvent> parseEvents(const QString& script, int runId = 1);

}  // namespace kvlens::test
