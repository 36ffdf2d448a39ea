// SPDX-License-Identifier: Apache-2.0
// EngineWorker: the window's side of the engine. A QObject that lives on its
// own QThread and owns the engines (one per set of engine options, at most
// two kept: the run's and an experiment's, e.g. KV mode "off"). Loading a
// model and tokenizing happen on that thread, so the GUI never waits on them.
// Engine events arrive on the engine's own thread and leave as they are (the
// engine's own structs, tagged with the run id in a RunEvent, a registered
// metatype) by a signal, which Qt queues to the GUI thread. cancel() is thread-safe and takes effect within one prefill chunk
// or one decode step.
#pragma once

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QSet>
#include <QVector>
#include <functional>
#include <memory>
#include <string_view>

#include "common/result.h"
#include "ui/model/model_summary.h"
#include "ui/model/prompt_builder.h"
#include "ui/model/run_config.h"
#include "ui/model/run_types.h"

namespace kvlens {
class engine;
struct engine_options;
}

namespace kvlens::ui {

class EngineWorker : public QObject {
    Q_OBJECT
public:
    using Factory = std::function<kvlens::result<std::unique_ptr<kvlens::engine>>(const kvlens::engine_options&)>;
    // `factory` makes engines; empty: kvlens::engine::create (tests pass a fake).
    explicit EngineWorker(Factory factory = {});
    ~EngineWorker() override;

    // Thread-safe. A run not yet submitted is dropped when its turn comes.
    void cancel(int runId);
    void cancelAll();
    int activeRuns() const;

    static kvlens::engine_options toOptions(const EngineSettings& s);

    // Counts a chat's tokens; default: the engine's tokenizer (template,
    // special tokens, BOS). Tests with a fake engine replace it.
    using TokenCounter = std::function<int(const kvlens::engine&, const QVector<ChatTurn>&)>;
    void setTokenCounter(TokenCounter counter) { counter_ = std::move(counter); }
    // Counts the tokens of plain text (no template, no BOS); default: the
    // engine's tokenizer. Tests with a fake engine replace it.
    using TextCounter = std::function<int(const kvlens::engine&, std::string_view)>;
    void setTextCounter(TextCounter counter) { textCounter_ = std::move(counter); }

    // For planning map-reduce (call on the worker thread): a text counter that
    // keeps the engine for `settings` alive, and the tokens of `chat`; an
    // empty function / -1 when the engine cannot be made.
    std::function<int(std::string_view)> textCounterFor(const EngineSettings& settings);
    int chatTokens(const EngineSettings& settings, const QVector<ChatTurn>& chat);

public slots:
    // Loads (or reuses) the engine for `settings`; emits loaded or loadFailed.
    void load(const kvlens::ui::EngineSettings& settings);
    // Submits one run; its events come through runEvent. A failure to load
    // or submit ends the run with a Done event of reason Error.
    void submit(int runId, const kvlens::ui::EngineSettings& settings,
                const QVector<kvlens::ui::ChatTurn>& chat, const kvlens::ui::SamplingSettings& sampling);
    // Counts the tokens of a chat as the model would see it (template,
    // special tokens and BOS included); emits tokenCount.
    void countTokens(quint64 ticket, const kvlens::ui::EngineSettings& settings,
                     const QVector<kvlens::ui::ChatTurn>& chat);
    // Ends every request and drops the engines (called on the worker thread
    // before it stops).
    void shutdown();

signals:
    void loaded(const kvlens::ui::ModelSummary& summary);
    void loadFailed(const QString& message);
    void runEvent(const kvlens::ui::RunEvent& event);   // emitted on the engine's thread
    void memory(int runId, const kvlens::ui::MemorySnapshot& snapshot);
    void tokenCount(quint64 ticket, int tokens, int contextLength);

private:
    struct Slot {
        EngineSettings settings;
        std::shared_ptr<kvlens::engine> engine;
        ModelSummary summary;
    };
    // The engine for `settings`, loading it if needed; null and a message on failure.
    std::shared_ptr<kvlens::engine> engineFor(const EngineSettings& settings, QString* error,
                                              ModelSummary* summary = nullptr);
    void finishWithError(int runId, const QString& message);

    Factory factory_;
    TokenCounter counter_;
    TextCounter textCounter_;
    QVector<Slot> slots_;                       // most recently used last; worker thread only
    mutable QMutex mutex_;                      // guards the three below
    QHash<int, std::pair<std::shared_ptr<kvlens::engine>, quint64>> active_;  // run -> (engine, request id)
    QSet<int> cancelledEarly_;                  // cancelled before submission
};

}  // namespace kvlens::ui
