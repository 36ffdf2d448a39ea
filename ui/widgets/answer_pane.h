// SPDX-License-Identifier: Apache-2.0
// AnswerPane: the answer streaming in, each token optionally tinted by its
// decode latency (green fast, amber, red slow, scaled to the run's own 10th
// and 90th percentiles, shown in a legend), hidden reasoning in grey, a line
// with the run's state, and Copy.
#pragma once

#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QTextBrowser;
class QTextDocument;

namespace kvlens::ui {

class RunRecord;
class LatencyLegend;

class AnswerPane : public QWidget {
    Q_OBJECT
public:
    explicit AnswerPane(QWidget* parent = nullptr);

    void showRun(const RunRecord* run);
    bool flaggedRepetitive() const { return repetitive_; }
    bool tint() const;
    void setTint(bool on);
    void setPresentation(bool on);   // larger text for the back of the room
    QString plainText() const;
    QString statusText() const;
    // Background colour of a latency between lo and hi (fast -> slow).
    static QColor tintColor(double latencyMs, double lo, double hi, bool dark);
    // The scale the shown tints were drawn with (the legend's ends, ms).
    double tintLowMs() const { return shown_.lo; }
    double tintHighMs() const { return shown_.hi; }
    const QTextDocument* document() const;
    // While tokens stream in, new ones are appended on the scale the shown
    // ones were drawn with while the run's percentiles stay within this
    // share of its span; else (and once the run is done) all is drawn again.
    static constexpr double kRescaleShare = 0.03;

signals:
    void tintChanged(bool on);

protected:
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    bool repetitive_ = false;
    bool presentation_ = false;
    void retranslate();
    void render();
    void renderText(double lo, double hi, bool dark);
    void appendTokens(int from, bool dark);
    void fitHeading();   // the heading elided to the pane's width, whole in its tooltip
    QString headingText_;

    const RunRecord* run_ = nullptr;
    // What the document holds now.
    struct Shown {
        int runId = -1;
        int tokens = 0;
        double lo = 0, hi = 0;
        bool tinted = false, dark = false, finished = false, error = false;
    } shown_;
    QLabel* heading_;
    QLabel* status_;
    QTextBrowser* text_;
    QCheckBox* tint_;
    LatencyLegend* legend_;
    QPushButton* copy_;
};

}  // namespace kvlens::ui
