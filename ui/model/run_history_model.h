// SPDX-License-Identifier: Apache-2.0
// RunHistoryModel: the runs of this session, newest last, as a list model for
// the history view. Owns the RunRecords; views and charts read them by id.
#pragma once

#include <QAbstractListModel>
#include <QJsonObject>
#include <memory>
#include <vector>

#include "ui/model/run_record.h"

namespace kvlens::ui {

class RunHistoryModel : public QAbstractListModel {
    Q_OBJECT
public:
    enum Role { RunIdRole = Qt::UserRole + 1, StateRole, SummaryRole };

    explicit RunHistoryModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    QHash<int, QByteArray> roleNames() const override;

    // Adds a run and returns it; its id is the next number (1, 2, ...).
    RunRecord* addRun(const RunConfig& config);
    RunRecord* run(int id) const;
    RunRecord* runAt(int row) const;
    int rowOf(int id) const;
    RunRecord* latest() const;
    int count() const { return int(runs_.size()); }
    // Feeds a batch to the runs it belongs to and refreshes their rows.
    void ingest(const QVector<RunEvent>& events);
    void runChanged(int id);
    void clear();
    // Adds saved runs (run.json objects, oldest first, from RunStore): each
    // gets the next id, and an experiment's parent follows its new id (or is
    // dropped when it was not kept). One message per run that cannot be read.
    QStringList restore(const QVector<QJsonObject>& saved);

    // One line under the label: state, or TTFT and tok/s once known.
    static QString summaryOf(const RunRecord& r);

private:
    std::vector<std::unique_ptr<RunRecord>> runs_;
    int nextId_ = 1;
};

}  // namespace kvlens::ui
