// SPDX-License-Identifier: Apache-2.0
// EventCoalescer: batching events to at most one flush per interval.
#include "ui/model/event_coalescer.h"

#include <algorithm>

#include <time.h>

namespace kvlens::ui {

namespace {

constexpr int kMaxIntervalMs = 250;   // the slowest redraw a budget may ask for (4 a second)

// CPU time of the calling thread, ms.
double threadCpuMs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

}  // namespace

EventCoalescer::EventCoalescer(QObject* parent, int intervalMs) : QObject(parent), intervalMs_(intervalMs)
{
    timer_.setSingleShot(true);
    connect(&timer_, &QTimer::timeout, this, &EventCoalescer::flushNow);
}

void EventCoalescer::push(const RunEvent& e)
{
    pending_.append(e);
    // A run's end is handed on with the batch it falls in, but never waits
    // longer than one interval, and the first event after a quiet spell goes
    // out at once only if a whole interval has passed since the last flush.
    if (timer_.isActive())
        return;
    const int interval = currentIntervalMs();
    const qint64 since = sinceFlush_.isValid() ? sinceFlush_.elapsed() : interval;
    timer_.start(int(std::max<qint64>(0, interval - since)));
}

int EventCoalescer::currentIntervalMs() const
{
    if (budget_ <= 0 || cpuPerBatchMs_ < 0)
        return intervalMs_;
    return int(std::clamp(cpuPerBatchMs_ / budget_, double(intervalMs_), double(kMaxIntervalMs)));
}

void EventCoalescer::flushNow()
{
    timer_.stop();
    if (pending_.isEmpty())
        return;
    QVector<RunEvent> batch;
    batch.swap(pending_);
    const qint64 wallSinceMs = sinceFlush_.isValid() ? sinceFlush_.elapsed() : -1;
    sinceFlush_.start();
    if (budget_ > 0) {
        // The GUI thread's CPU since the last batch: that batch's handling and
        // repaint, when batches follow each other (after a quiet spell it would
        // count whatever else the window did meanwhile).
        const double now = threadCpuMs();
        if (cpuAtFlushMs_ >= 0 && wallSinceMs >= 0 && wallSinceMs <= 2 * kMaxIntervalMs) {
            const double used = now - cpuAtFlushMs_;
            cpuPerBatchMs_ = cpuPerBatchMs_ < 0 ? used : 0.5 * cpuPerBatchMs_ + 0.5 * used;
        }
        cpuAtFlushMs_ = now;
    }
    ++batches_;
    emit batchReady(batch);
}

}  // namespace kvlens::ui
