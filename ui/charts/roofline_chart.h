// SPDX-License-Identifier: Apache-2.0
// The roofline: this machine's measured ceilings (memory read bandwidth, peak
// float and 8-bit integer throughput; engine/metrics/machine_ceilings.h) on
// log-log axes of arithmetic intensity (counted FLOPs per counted byte) and
// achieved FLOP/s, with each run's prefill and decode as points. Prefill sits
// to the right (many tokens per weight read: compute-bound), decode to the
// left under the bandwidth roof (every weight read for one token). Under the
// chart: the decode step's expected time (its counted bytes / the measured
// bandwidth) next to the measured time per token. Painted with QPainter, so
// the widget, PNG and SVG are the same picture.
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

#include "engine/metrics/machine_ceilings.h"

namespace kvlens::ui {

class RunRecord;

struct RooflinePoint {
    QString label;          // "#3 prefill"
    double intensity = 0;   // FLOP per byte
    double flopS = 0;       // achieved FLOP/s
    bool decode = false;
};

// The run's prefill and decode points (none for a phase without counts).
QVector<RooflinePoint> rooflinePoints(const RunRecord& run);
// "decode: 31.0 MiB read per step → ≥ 2.6 ms at 12.1 GB/s; measured 9.8 ms per token"
QString decodeExpectation(const RunRecord& run, const kvlens::machine_ceilings& c);

// The ceilings for this machine: read from the cache folder, else measured
// now (a few seconds) and written there. The cache is keyed by the CPU and
// the thread count (machineIdentity): a file written on another CPU or with
// other threads is measured again, never reused. Invalid and `error` set on
// failure.
kvlens::machine_ceilings cachedMachineCeilings(QString* error = nullptr);
QString machineCeilingsCachePath();
// "AMD EPYC 7B13 · 2 threads": the CPU's model name and the probe's thread count.
QString machineIdentity(int threads);

class RooflineChart : public QWidget {
    Q_OBJECT
public:
    explicit RooflineChart(QWidget* parent = nullptr);
    void setCeilings(const kvlens::machine_ceilings& c);
    const kvlens::machine_ceilings& ceilings() const { return ceilings_; }
    void setPoints(const QVector<RooflinePoint>& points, const QString& note = QString());
    const QVector<RooflinePoint>& points() const { return points_; }
    // Measures the ceilings on a worker thread when none are set (cache first).
    void ensureCeilings();

    void paint(QPainter& p, const QRectF& rect) const;
    QString exportTo(const QString& path, QSize size = QSize(1280, 720)) const;   // .png or .svg

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    kvlens::machine_ceilings ceilings_;
    QVector<RooflinePoint> points_;
    QString note_;
    bool measuring_ = false;
};

}  // namespace kvlens::ui
