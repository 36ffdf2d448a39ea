// SPDX-License-Identifier: Apache-2.0
// LessonPane: the lesson in the window. The step list (each with its state),
// one click to run the selected step (or all of them), and the selected
// step's slide: caption, the plot of its runs and the takeaway, exactly as
// the exports draw it. It drives a LessonRunner over the window's run
// controller, so the lesson's runs also appear in the history and charts.
#pragma once

#include <QWidget>

#include "ui/lesson/lesson_runner.h"

class QLabel;
class QListWidget;
class QPushButton;
class QTabWidget;

namespace kvlens::ui {

class RooflineChart;
class RunController;

// The slide of one step, painted to the widget's size.
class LessonSlideView : public QWidget {
    Q_OBJECT
public:
    explicit LessonSlideView(QWidget* parent = nullptr);
    void show(const LessonStep& step, const LessonResult& result, const QString& footer);

protected:
    void paintEvent(QPaintEvent* e) override;

private:
    LessonStep step_;
    LessonResult result_;
    QString footer_;
};

class LessonPane : public QWidget {
    Q_OBJECT
public:
    explicit LessonPane(RunController* controller, QWidget* parent = nullptr);
    LessonRunner* runner() const { return runner_; }
    // The report the lesson reads: the open document's text, else the built-in sample.
    void useOpenDocumentOrSample();
    void selectStep(LessonStepId id);
    LessonStepId selectedStep() const;
    bool runSelected();
    LessonSlideView* slideView() const { return slide_; }
    RooflineChart* roofline() const { return roofline_; }

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void refresh();
    void refreshRoofline();
    void exportDialog();
    QString footer() const;

    RunController* c_;
    LessonRunner* runner_;
    QLabel* reportLabel_;
    QListWidget* steps_;
    QPushButton* runButton_;
    QPushButton* runAllButton_;
    QPushButton* cancelButton_;
    QPushButton* exportButton_;
    LessonSlideView* slide_;
    RooflineChart* roofline_;
    QTabWidget* views_;
};

}  // namespace kvlens::ui
