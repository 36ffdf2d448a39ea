// SPDX-License-Identifier: Apache-2.0
// Memory of the engine while a run went on: model weights, the KV this run
// used at its peak, the rest of the KV pool set aside, and scratch buffers,
// one stacked bar per shown run, MiB.
#pragma once

#include "ui/charts/chart_panel.h"

class QBarSet;
class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace kvlens::ui {

class MemoryChart : public ChartPanel {
    Q_OBJECT
public:
    explicit MemoryChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;

protected:
    void restyle() override;

private:
    QHorizontalStackedBarSeries* series_;
    QBarSet* weights_;
    QBarSet* kvUsed_;
    QBarSet* kvFree_;
    QBarSet* scratch_;
    QBarCategoryAxis* runs_;
    QValueAxis* mib_;
};

}  // namespace kvlens::ui
