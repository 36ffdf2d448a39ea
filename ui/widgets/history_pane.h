// SPDX-License-Identifier: Apache-2.0
// HistoryPane: the runs of this session, newest first on screen, each with
// its state or its TTFT and tok/s; the selected run drives the answer, the
// charts and the stats card, and "Overlay" picks a second run drawn on the
// same charts (an experiment's run overlays the run it varies by itself).
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QListView;

namespace kvlens::ui {

class RunHistoryModel;

class HistoryPane : public QWidget {
    Q_OBJECT
public:
    HistoryPane(RunHistoryModel* model, QWidget* parent = nullptr);

    int selectedRun() const { return selected_; }
    int compareRun() const { return compare_; }
    void selectRun(int id);
    void setCompareRun(int id);    // 0: none

signals:
    void selectionChanged(int runId);
    void compareChanged(int runId);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void rebuildCompare();

    RunHistoryModel* model_;
    QLabel* heading_;
    QListView* list_;
    QLabel* overlayLabel_;
    QComboBox* overlay_;
    int selected_ = 0;
    int compare_ = 0;
};

}  // namespace kvlens::ui
