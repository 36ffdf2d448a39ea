// SPDX-License-Identifier: Apache-2.0
// Time to first token, split into queue, tokenize, prefill and first sample:
// one stacked horizontal bar per recent run, so runs compare side by side
// (a shorter answer does not shorten TTFT; a prefix cache hit does).
#pragma once

#include "ui/charts/chart_panel.h"

class QBarSet;
class QBarCategoryAxis;
class QHorizontalStackedBarSeries;
class QValueAxis;

namespace kvlens::ui {

class TtftChart : public ChartPanel {
    Q_OBJECT
public:
    explicit TtftChart(QWidget* parent = nullptr);
    void plot(const ChartInput& in) override;
    static constexpr int kMaxRuns = 6;

protected:
    void restyle() override;

private:
    QHorizontalStackedBarSeries* series_;
    QBarSet* queue_;
    QBarSet* tokenize_;
    QBarSet* prefill_;
    QBarSet* sample_;
    QBarCategoryAxis* runs_;
    QValueAxis* ms_;
};

}  // namespace kvlens::ui
