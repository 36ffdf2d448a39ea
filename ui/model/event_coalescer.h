// SPDX-License-Identifier: Apache-2.0
// EventCoalescer: collects run events as they arrive (one queued signal per
// engine event) and hands them on in batches, at most one batch per interval
// (default 33 ms, ~30 redraws a second), so a fast decode never floods the
// charts. Lives in the GUI thread; no widgets.
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <QVector>

#include "ui/model/run_types.h"

namespace kvlens::ui {

class EventCoalescer : public QObject {
    Q_OBJECT
public:
    explicit EventCoalescer(QObject* parent = nullptr, int intervalMs = 33);

    int intervalMs() const { return intervalMs_; }
    int pendingCount() const { return int(pending_.size()); }
    int batchesFlushed() const { return batches_; }

public slots:
    void push(const kvlens::ui::RunEvent& e);
    // Hands on whatever is pending now (e.g. before an export).
    void flushNow();

signals:
    void batchReady(const QVector<kvlens::ui::RunEvent>& events);

private:
    int intervalMs_;
    QVector<RunEvent> pending_;
    QTimer timer_;
    QElapsedTimer sinceFlush_;
    int batches_ = 0;
};

}  // namespace kvlens::ui
