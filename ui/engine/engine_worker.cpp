// SPDX-License-Identifier: Apache-2.0
// EngineWorker: engines on a worker thread, events out by queued signals.
#include "ui/engine/engine_worker.h"

#include <QCoreApplication>
#include <QMutexLocker>
#include <limits>

#include "engine/runtime/engine.h"
#include "engine/tokenizer/tokenizer.h"
#include "ui/engine/remote_connection.h"

namespace kvlens::ui {

namespace {

QString fromStd(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

constexpr int kMaxEngines = 2;
// A run whose submit() has not returned yet.
constexpr quint64 kPendingRequest = ~quint64(0);

std::vector<kvlens::chat_message> toMessages(const QVector<ChatTurn>& chat)
{
    std::vector<kvlens::chat_message> out;
    out.reserve(size_t(chat.size()));
    for (const ChatTurn& t : chat)
        out.push_back({t.role.toStdString(), t.content.toStdString()});
    return out;
}

}  // namespace

EngineWorker::EngineWorker(Factory factory) : factory_(std::move(factory))
{
    if (!factory_)
        factory_ = [](const kvlens::engine_options& o) { return kvlens::engine::create(o); };
    counter_ = [](const kvlens::engine& engine, const QVector<ChatTurn>& chat) {
        const kvlens::tokenizer& vocab = engine.vocab();
        if (!engine.has_chat_template())   // a base model: what submit() sends it
            return int(vocab.encode(completionPrompt(chat).toStdString(), vocab.add_bos(), false).size());
        const auto ids = vocab.encode_chat(toMessages(chat), true);  // message text never becomes control tokens
        return ids ? int(ids->size()) : std::numeric_limits<int>::max();  // over the limit: fits nothing
    };
    textCounter_ = [](const kvlens::engine& engine, std::string_view text) {
        return int(engine.vocab().encode(text, false, false).size());
    };
}

std::function<int(std::string_view)> EngineWorker::textCounterFor(const EngineSettings& settings)
{
    QString error;
    std::shared_ptr<kvlens::engine> engine = engineFor(settings, &error);
    if (!engine)
        return {};
    // The tokenizer is read-only once loaded, so the GUI thread may use it.
    return [engine, count = textCounter_](std::string_view text) { return count(*engine, text); };
}

int EngineWorker::chatTokens(const EngineSettings& settings, const QVector<ChatTurn>& chat)
{
    QString error;
    std::shared_ptr<kvlens::engine> engine = engineFor(settings, &error);
    return engine ? counter_(*engine, chat) : -1;
}

EngineWorker::~EngineWorker()
{
    shutdown();
}

kvlens::engine_options EngineWorker::toOptions(const EngineSettings& s)
{
    kvlens::engine_options o;
    o.model_path = s.modelPath.toStdString();
    o.backend = s.backend.toStdString();
    o.n_threads = s.threads;
    o.n_ctx = s.contextTokens;
    if (s.kvMode == QLatin1String("static"))
        o.kv = kvlens::kv_mode::static_reserve;
    else if (s.kvMode == QLatin1String("off"))
        o.kv = kvlens::kv_mode::off;
    else
        o.kv = kvlens::kv_mode::paged;
    o.kv_type = s.kvDtype == QLatin1String("q8_0") ? kvlens::kv_dtype::q8_0 : kvlens::kv_dtype::f16;
    o.kv_block = s.kvBlock;
    o.chunk = s.chunk;
    o.parallel = s.parallel;
    return o;
}

std::shared_ptr<kvlens::engine> EngineWorker::engineFor(const EngineSettings& settings, QString* error,
                                                         ModelSummary* summary)
{
    for (int i = 0; i < slots_.size(); ++i) {
        if (slots_[i].settings.sameEngine(settings)) {
            slots_.move(i, slots_.size() - 1);
            if (summary)
                *summary = slots_.last().summary;
            return slots_.last().engine;
        }
    }
    if (!settings.isRemote() && settings.modelPath.isEmpty()) {
        *error = tr("no model file chosen (Settings → Model file)");
        return nullptr;
    }
    // A remote server (issue 17) behind the same interface: its runs take the
    // same path below, events, history and charts included.
    auto made = settings.isRemote() ? connectRemote(settings) : factory_(toOptions(settings));
    if (!made.ok()) {
        *error = fromStd(made.message());
        return nullptr;
    }
    std::shared_ptr<kvlens::engine> engine(std::move(made.value()));
    Slot slot;
    slot.settings = settings;
    slot.engine = engine;
    slot.summary = ModelSummary::fromInfo(engine->info());
    slot.summary.path = settings.isRemote() ? settings.remoteUrl : settings.modelPath;   // as asked, so the window can match it
    slot.summary.remote = settings.isRemote();
    slot.summary.backendFallback = fromStd(engine->backend_fallback());
    slot.summary.backend = fromStd(engine->backend_description());
    slot.summary.contextLength = engine->context_length();
    slot.summary.kvPoolBytes = engine->kv_pool_bytes();
    slot.summary.scratchBytes = engine->scratch_bytes();
    slot.summary.weightBytes = engine->weight_bytes() > 0 ? engine->weight_bytes() : slot.summary.weightBytes;
    slot.summary.kvDtype = settings.kvDtype;
    const kvlens::kv_layer_groups groups = engine->layer_groups();
    slot.summary.nLocalLayers = groups.n_local_layers;
    slot.summary.nGlobalLayers = groups.n_global_layers;
    slot.summary.localKvBytesPerToken = groups.local_bytes_per_token;
    slot.summary.globalKvBytesPerToken = groups.global_bytes_per_token;
    slot.summary.localIsConv = groups.local_is_conv;
    if (groups.window > 0 && !groups.local_is_conv)   // LFM2's convolutions keep their taps' rows: no window
        slot.summary.slidingWindow = groups.window;
    if (const kvlens::reasoning_evidence e = engine->hidden_reasoning(); e != kvlens::reasoning_evidence::none)
        slot.summary.hiddenReasoning = QString::fromLatin1(kvlens::to_string(e));
    slot.summary.baseModel = !settings.isRemote() && !engine->has_chat_template();
    // Drop the least recently used engine that has nothing running. Running
    // requests hold their engine through active_, so dropping is safe anyway.
    if (slots_.size() >= kMaxEngines)
        slots_.removeFirst();
    slots_.append(slot);
    if (summary)
        *summary = slot.summary;
    return engine;
}

void EngineWorker::load(const EngineSettings& settings)
{
    QString error;
    ModelSummary summary;
    if (engineFor(settings, &error, &summary))
        emit loaded(summary);
    else
        emit loadFailed(error);
}

void EngineWorker::finishWithError(int runId, const QString& message)
{
    kvlens::event_done done;
    done.reason = kvlens::finish_reason::error;
    done.error = message.toStdString();
    emit runEvent(RunEvent{runId, std::move(done)});
}

void EngineWorker::submit(int runId, const EngineSettings& settings, const QVector<ChatTurn>& chat,
                          const SamplingSettings& sampling)
{
    {
        QMutexLocker lock(&mutex_);
        if (cancelledEarly_.remove(runId)) {
            kvlens::event_done done;
            done.reason = kvlens::finish_reason::cancelled;
            emit runEvent(RunEvent{runId, std::move(done)});
            return;
        }
    }
    QString error;
    ModelSummary summary;
    std::shared_ptr<kvlens::engine> engine = engineFor(settings, &error, &summary);
    if (!engine) {
        finishWithError(runId, error);
        return;
    }
    MemorySnapshot mem;
    mem.weightBytes = summary.weightBytes;
    mem.kvPoolBytes = engine->kv_pool_bytes();
    mem.scratchBytes = engine->scratch_bytes();
    const kvlens::memory_figures dev = engine->device_memory();
    mem.device = fromStd(dev.device);
    mem.onDevice = dev.on_device;
    if (dev.on_device) {
        // The device's own accounting of the backend's parts where it has one.
        mem.weightBytes = dev.weight_bytes > 0 ? dev.weight_bytes : mem.weightBytes;
        mem.kvPoolBytes = dev.kv_bytes > 0 ? dev.kv_bytes : mem.kvPoolBytes;
        mem.scratchBytes = dev.scratch_bytes > 0 ? dev.scratch_bytes : mem.scratchBytes;
        mem.deviceFreeBytes = dev.free_bytes;
        mem.deviceTotalBytes = dev.total_bytes;
    }
    mem.fallback = summary.backendFallback;
    emit memory(runId, mem);

    kvlens::request_params params;
    // A base model has no chat format of its own: the same turns as one text to continue.
    params.chat = !summary.baseModel;
    if (params.chat)
        params.messages = toMessages(chat);
    else
        params.text = completionPrompt(chat).toStdString();
    params.max_tokens = sampling.maxTokens;
    params.sampling.temperature = float(sampling.temperature);
    params.sampling.top_k = sampling.topK;
    params.sampling.top_p = float(sampling.topP);
    params.sampling.min_p = float(sampling.minP);
    params.sampling.repeat_penalty = float(sampling.repeatPenalty);
    params.sampling.seed = sampling.seed;
    params.speculation.draft_tokens = sampling.draftTokens;

    // Mark the run active before submitting: its events (done included) may
    // come before submit() returns. The engine is not called under mutex_, so
    // an engine that holds its own lock while calling back cannot deadlock.
    {
        QMutexLocker lock(&mutex_);
        active_.insert(runId, {engine, kPendingRequest});
    }
    const kvlens::request_id rid = engine->submit(std::move(params), [this, runId](const kvlens::event& ev) {
        // The engine's own struct crosses the thread boundary, tagged with the run.
        RunEvent e{runId, ev};
        if (e.kind() == RunEvent::Kind::Done) {
            QMutexLocker l(&mutex_);
            active_.remove(runId);
            cancelledEarly_.remove(runId);
        }
        emit runEvent(e);
    });
    bool cancelNow = false;
    {
        QMutexLocker lock(&mutex_);
        auto it = active_.find(runId);
        if (it != active_.end()) {
            it->second = rid;
            cancelNow = cancelledEarly_.remove(runId);
        }
    }
    if (cancelNow)
        engine->cancel(rid);
}

void EngineWorker::countTokens(quint64 ticket, const EngineSettings& settings, const QVector<ChatTurn>& chat)
{
    QString error;
    std::shared_ptr<kvlens::engine> engine = engineFor(settings, &error);
    if (!engine) {
        emit tokenCount(ticket, -1, 0);
        return;
    }
    emit tokenCount(ticket, counter_(*engine, chat), engine->context_length());
}

void EngineWorker::cancel(int runId)
{
    QMutexLocker lock(&mutex_);
    auto it = active_.find(runId);
    if (it == active_.end() || it->second == kPendingRequest) {
        cancelledEarly_.insert(runId);  // submit() cancels it as soon as it has an id
        return;
    }
    it->first->cancel(it->second);
}

void EngineWorker::cancelAll()
{
    QMutexLocker lock(&mutex_);
    for (auto it = active_.begin(); it != active_.end(); ++it) {
        if (it->second == kPendingRequest)
            cancelledEarly_.insert(it.key());
        else
            it->first->cancel(it->second);
    }
}

int EngineWorker::activeRuns() const
{
    QMutexLocker lock(&mutex_);
    return int(active_.size());
}

void EngineWorker::shutdown()
{
    QVector<std::shared_ptr<kvlens::engine>> engines;
    {
        QMutexLocker lock(&mutex_);
        for (auto it = active_.begin(); it != active_.end(); ++it) {
            if (it->second != kPendingRequest)
                it->first->cancel(it->second);
            engines.append(it->first);
        }
    }
    for (const Slot& s : slots_)
        engines.append(s.engine);
    // Wait outside the lock: the callbacks take it.
    for (const auto& e : engines) {
        if (e)
            e->wait_idle();
    }
    {
        QMutexLocker lock(&mutex_);
        active_.clear();
        cancelledEarly_.clear();
    }
    slots_.clear();
}

}  // namespace kvlens::ui
