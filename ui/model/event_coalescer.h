// SPDX-License-Identifier: Apache-2.0
// EventCoalescer: collects run events as they arrive (one queued signal per
// engine event) and hands them on in batches, at most one batch per interval
// (default 33 ms, ~30 redraws a second), so a fast decode never floods the
// charts. With a GUI CPU budget the interval stretches (up to 250 ms) until
// the GUI thread's own CPU time per batch (handling it, then the repaint it
// causes) stays within that share of the time: on 2 cores, 30 redraws a
// second of the window at 1280x720 took about half a core from the engine
// and halved its decode speed. Lives in the GUI thread; no widgets.
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
    // The interval in force now: intervalMs(), or longer under a CPU budget.
    int currentIntervalMs() const;
    // At most this share (0..1) of the time for the GUI thread's work between
    // batches; 0 (the default): always intervalMs().
    void setGuiCpuBudget(double share) { budget_ = share; }
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
    double budget_ = 0;
    double cpuPerBatchMs_ = -1;     // smoothed GUI-thread CPU between batches (-1: not measured yet)
    double cpuAtFlushMs_ = -1;      // the GUI thread's CPU clock at the last flush
    QVector<RunEvent> pending_;
    QTimer timer_;
    QElapsedTimer sinceFlush_;
    int batches_ = 0;
};

}  // namespace kvlens::ui
