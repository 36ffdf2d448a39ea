// SPDX-License-Identifier: Apache-2.0
// EventCoalescer: batching events to at most one flush per interval.
#include "ui/model/event_coalescer.h"

#include <algorithm>

namespace kvlens::ui {

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
    const qint64 since = sinceFlush_.isValid() ? sinceFlush_.elapsed() : intervalMs_;
    timer_.start(int(std::max<qint64>(0, intervalMs_ - since)));
}

void EventCoalescer::flushNow()
{
    timer_.stop();
    if (pending_.isEmpty())
        return;
    QVector<RunEvent> batch;
    batch.swap(pending_);
    sinceFlush_.start();
    ++batches_;
    emit batchReady(batch);
}

}  // namespace kvlens::ui
