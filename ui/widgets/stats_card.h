// SPDX-License-Identifier: Apache-2.0
// StatsCard: the figures of docs/design.md for the selected run (prompt, cached,
// computed and generated tokens; queue, tokenize, prefill, TTFT, TTFT
// visible, decode and end-to-end times; prefill and decode tok/s, TPOT; KV
// and device memory peaks; achieved FLOP/s and bytes/s), with the overlaid
// run's value beside each. Live values while the run goes on. A remote run's
// values say where each was taken (issue 17): "· client" for what kvlens's
// HTTP client measured, "· server" for what the server reported.
#pragma once

#include <QVector>
#include <QWidget>

class QGridLayout;
class QLabel;

namespace kvlens::ui {

class RunRecord;

class StatsCard : public QWidget {
    Q_OBJECT
public:
    explicit StatsCard(QWidget* parent = nullptr);
    void showRuns(const RunRecord* primary, const RunRecord* compare);
    void setPresentation(bool on);
    // The value shown for a figure key ("ttft_ms", ...), for tests.
    QString valueText(const QString& key) const;

    struct Figure {
        QString key;        // "ttft_ms"
        QString name;       // translated
        QString help;       // translated tooltip
    };
    static QVector<Figure> figures();
    // The text of one figure of a run ("—" when not known yet).
    static QString format(const QString& key, const RunRecord& r);
    // Where a figure of `r` came from: "" (kvlens's own engine), "client" or "server".
    static QString source(const QString& key, const RunRecord& r);
    // format() with the source named for a remote run ("812 ms · client").
    static QString labelled(const QString& key, const RunRecord& r);

protected:
    void changeEvent(QEvent* e) override;

private:
    void rebuild();

    QLabel* heading_;
    QGridLayout* grid_;
    QVector<QLabel*> names_;
    QVector<QLabel*> values_;
    QVector<QLabel*> compares_;
    QLabel* primaryHead_;
    QLabel* compareHead_;
    const RunRecord* primary_ = nullptr;
    const RunRecord* compare_ = nullptr;
    bool presentation_ = false;
};

}  // namespace kvlens::ui
