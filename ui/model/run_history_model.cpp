// SPDX-License-Identifier: Apache-2.0
// RunHistoryModel.
#include "ui/model/run_history_model.h"

#include "ui/i18n.h"
#include "ui/model/format.h"
#include "ui/model/run_store.h"

#include <QCoreApplication>
#include <QSet>

namespace kvlens::ui {

RunHistoryModel::RunHistoryModel(QObject* parent) : QAbstractListModel(parent) {}

int RunHistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(runs_.size());
}

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() < 0 || index.row() >= int(runs_.size()))
        return {};
    const RunRecord& r = *runs_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole: return r.label();
    case Qt::ToolTipRole: return r.label() + QLatin1Char('\n') + summaryOf(r);
    case RunIdRole: return r.id();
    case StateRole: return int(r.state());
    case SummaryRole: return summaryOf(r);
    default: return {};
    }
}

QHash<int, QByteArray> RunHistoryModel::roleNames() const
{
    auto names = QAbstractListModel::roleNames();
    names[RunIdRole] = "runId";
    names[StateRole] = "state";
    names[SummaryRole] = "summary";
    return names;
}

RunRecord* RunHistoryModel::addRun(const RunConfig& config)
{
    const int row = int(runs_.size());
    beginInsertRows(QModelIndex(), row, row);
    runs_.push_back(std::make_unique<RunRecord>(nextId_++, config));
    endInsertRows();
    return runs_.back().get();
}

RunRecord* RunHistoryModel::run(int id) const
{
    const int row = rowOf(id);
    return row < 0 ? nullptr : runs_[size_t(row)].get();
}

RunRecord* RunHistoryModel::runAt(int row) const
{
    return row < 0 || row >= int(runs_.size()) ? nullptr : runs_[size_t(row)].get();
}

int RunHistoryModel::rowOf(int id) const
{
    for (size_t i = 0; i < runs_.size(); ++i) {
        if (runs_[i]->id() == id)
            return int(i);
    }
    return -1;
}

RunRecord* RunHistoryModel::latest() const
{
    return runs_.empty() ? nullptr : runs_.back().get();
}

void RunHistoryModel::ingest(const QVector<RunEvent>& events)
{
    QSet<int> touched;
    for (const RunEvent& e : events) {
        if (RunRecord* r = run(e.runId)) {
            r->ingest(e);
            touched.insert(e.runId);
        }
    }
    for (int id : touched)
        runChanged(id);
}

void RunHistoryModel::runChanged(int id)
{
    const int row = rowOf(id);
    if (row >= 0)
        emit dataChanged(index(row), index(row));
}

void RunHistoryModel::clear()
{
    beginResetModel();
    runs_.clear();
    endResetModel();
}

QStringList RunHistoryModel::restore(const QVector<QJsonObject>& saved)
{
    QStringList errors;
    QHash<int, int> newIdOf;   // saved run number -> id in this session
    for (QJsonObject o : saved) {
        QJsonObject config = o.value(QLatin1String("config")).toObject();
        if (config.contains(QLatin1String("varies_run"))) {
            const int parent = newIdOf.value(config.value(QLatin1String("varies_run")).toInt(), 0);
            if (parent > 0) {
                config[QLatin1String("varies_run")] = parent;
            } else {
                config.remove(QLatin1String("varies_run"));
                config.remove(QLatin1String("experiment"));
            }
            o[QLatin1String("config")] = config;
        }
        QString error;
        std::unique_ptr<RunRecord> r = runFromJson(o, nextId_, error);
        if (!r) {
            errors << tr("saved run #%1: %2").arg(o.value(QLatin1String("run")).toInt()).arg(error);
            continue;
        }
        newIdOf.insert(o.value(QLatin1String("run")).toInt(), r->id());
        ++nextId_;
        const int row = int(runs_.size());
        beginInsertRows(QModelIndex(), row, row);
        runs_.push_back(std::move(r));
        endInsertRows();
    }
    return errors;
}

QString RunHistoryModel::summaryOf(const RunRecord& r)
{
    switch (r.state()) {
    case RunRecord::State::Waiting: return tr("waiting for the engine");
    case RunRecord::State::Queued: return tr("queued, %n prompt tokens", nullptr, r.promptTokens());
    case RunRecord::State::Prefill:
        return tr("prefill %1%").arg(qRound(r.prefillFraction() * 100));
    case RunRecord::State::Decode:
        return tr("TTFT %1 · %2 tokens").arg(formatMs(r.ttftMs()), formatCount(r.tokens().size()));
    case RunRecord::State::Finished:
        break;
    }
    if (r.finishReason() == FinishReason::Error)
        return tr("error: %1").arg(i18n::engineMessage(r.error()));
    QString s;
    if (r.hasFirstToken())
        s = tr("TTFT %1 · %2").arg(formatMs(r.ttftMs()), formatTokS(r.decodeTokPerSecond()));
    if (r.finishReason() == FinishReason::Cancelled)
        s = s.isEmpty() ? tr("cancelled") : s + QStringLiteral(" · ") + tr("cancelled");
    if (r.cachedTokens() > 0)
        s += QStringLiteral(" · ") + tr("%1 cached").arg(formatCount(r.cachedTokens()));
    return s;
}

}  // namespace kvlens::ui
