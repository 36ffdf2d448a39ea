// SPDX-License-Identifier: Apache-2.0
// The one-line caption after an experiment: what changed and the measured
// effect, with numbers ("TTFT 83.8 s → 0.9 s: 4,496 of 4,525 prompt tokens
// came from the prefix cache"). Only figures the engine measured; empty
// until both runs are finished.
#pragma once

#include <QString>
#include <QVector>

namespace kvlens::ui {

class RunRecord;

// `run` varies `parent`; `siblings` are the other copies of a concurrent
// experiment (empty otherwise).
QString experimentCaption(const RunRecord& run, const RunRecord& parent,
                          const QVector<const RunRecord*>& siblings = {});

}  // namespace kvlens::ui
