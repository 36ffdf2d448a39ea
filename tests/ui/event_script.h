// SPDX-License-Identifier: Apache-2.0
// Hand-made event sequences for the UI tests, written as compact text: one
// event per line, "kind key=value ...", e.g.
//   queued prompt=100
//   started queue=2 tokenize=8 t=10
//   chunk done=64 total=100 cached=0 ms=10 t=15 kv=64 bytes=1280 alloc=1280 res=1280
//   first ttft=75 id=7 text=Hello tokenize=8 queue=2 prefill=60 sample=5
//   token i=0 id=7 text=Hello lat=30 t=30 kv=101 bytes=2020 alloc=2240 res=2240
//   token i=1 ... visible=0 local=64 lbytes=640 global=101 gbytes=1010 lalloc=640 galloc=1120
//     (visible=0: hidden reasoning; local/global: a sliding-window model's layer groups)
// In text values "\s" stands for a space and "\n" for a newline. The events
// are the engine's own structs (kvlens::event), tagged with the run id.
#pragma once

#include <QString>
#include <QVector>

#include "ui/model/run_types.h"

namespace kvlens::test {

QVector<kvlens::ui::RunEvent> parseEvents(const QString& script, int runId = 1);

}  // namespace kvlens::test
