// SPDX-License-Identifier: Apache-2.0
// KvChart.
#include "ui/charts/kv_chart.h"

#include <QChart>
#include <QLineSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QToolButton>
#include <QValueAxis>
#include <algorithm>

#include "ui/charts/chart_callouts.h"
#include "ui/charts/chart_setters.h"
#include "ui/model/run_record.h"
#include "ui/model/run_types.h"

namespace kvlens::ui {

namespace {

bool remote(const RunRecord* r) { return r && r->config().engine.isRemote(); }
// A local run in KV mode "off"; remote runs have no bytes to draw either.
bool kvOff(const RunRecord* r) { return r && (r->config().engine.kvMode == QLatin1String("off") || remote(r)); }

// (token index, the server's KV usage in %) from the token events that carry one.
QList<QPointF> serverKvPoints(const RunRecord* r)
{
    QList<QPointF> out;
    if (!r)
        return out;
    for (const RunEvent& e : r->events()) {
        if (const auto* t = e.as<kvlens::event_token>(); t && t->server_kv_usage >= 0)
            out.append(QPointF(t->index, 100.0 * t->server_kv_usage));
    }
    return out;
}

}  // namespace

KvChart::KvChart(QWidget* parent) : ChartPanel(QStringLiteral("kv"), parent)
{
    callouts_ = addCallouts();
    formula_ = new QLineSeries;
    reserved_ = new QLineSeries;
    allocated_ = new QLineSeries;
    logical_ = new QLineSeries;
    local_ = new QLineSeries;
    global_ = new QLineSeries;
    compareAllocated_ = new QLineSeries;
    compareLogical_ = new QLineSeries;
    recomputed_ = new QLineSeries;
    compareRecomputed_ = new QLineSeries;
    x_ = new QValueAxis;
    y_ = new QValueAxis;
    chart_->addAxis(x_, Qt::AlignBottom);
    chart_->addAxis(y_, Qt::AlignLeft);
    for (QLineSeries* s : {formula_, reserved_, compareAllocated_, compareLogical_, allocated_, logical_, local_,
                           global_, compareRecomputed_, recomputed_}) {
        chart_->addSeries(s);
        s->attachAxis(x_);
        s->attachAxis(y_);
    }
    x_->setRange(0, 100);
    y_->setRange(0, 1);
    zoomButton_ = addHeaderToggle(tr("Zoom to decode"));
    zoomButton_->setToolTip(tr("Show only the decode steps, where the block staircase is visible"));
    connect(zoomButton_, &QToolButton::toggled, this, &KvChart::setDecodeZoom);
    setHeader(tr("KV cache"), QString());
    setStyle(style_);
}

void KvChart::setDecodeZoom(bool on)
{
    zoom_ = on;
    if (zoomButton_->isChecked() != on)
        zoomButton_->setChecked(on);
    plot(last_);
}

void KvChart::restyle()
{
    callouts_->setEnabled(style_.presentation);
    // Axis titles depend on the data (KiB or MiB, KV off): plot() sets them.
    style_.applyTo(x_, tr("tokens held"));
    style_.applyTo(y_, tr("KV (MiB)"));
    QPen formula = style_.linePen(ChartStyle::formulaColor(), Qt::DotLine);
    formula_->setPen(formula);
    reserved_->setPen(style_.linePen(ChartStyle::kvReservedColor(), Qt::DashLine));
    allocated_->setPen(style_.linePen(ChartStyle::kvAllocatedColor()));
    logical_->setPen(style_.linePen(ChartStyle::kvLogicalColor()));
    local_->setPen(style_.linePen(ChartStyle::kvLocalColor()));
    global_->setPen(style_.linePen(ChartStyle::kvLogicalColor()));
    compareAllocated_->setPen(style_.linePen(ChartStyle::runColor(1).lighter(120), Qt::DashDotLine));
    compareLogical_->setPen(style_.linePen(ChartStyle::runColor(1), Qt::DashLine));
    recomputed_->setPen(style_.linePen(ChartStyle::runColor(0)));
    compareRecomputed_->setPen(style_.linePen(ChartStyle::runColor(1), Qt::DashLine));
    if (!xTitle_.isEmpty())
        x_->setTitleText(xTitle_);
    if (!yTitle_.isEmpty())
        y_->setTitleText(yTitle_);
}

void KvChart::plotServerKv(const ChartInput& in)
{
    const RunRecord* p = in.primary;
    const RunRecord* c = remote(in.compare) ? in.compare : nullptr;   // same units only
    for (QLineSeries* s : {formula_, reserved_, allocated_, logical_, local_, global_, compareAllocated_,
                           compareLogical_}) {
        chart_set::points(s, QList<QPointF>());
        chart_set::visible(s, false);
    }
    double maxX = 8, maxY = 1;
    auto fill = [&](const RunRecord* r, QLineSeries* s) {
        const QList<QPointF> pts = serverKvPoints(r);
        for (const QPointF& pt : pts) {
            maxX = std::max(maxX, pt.x());
            maxY = std::max(maxY, pt.y());
        }
        chart_set::points(s, pts);
        chart_set::visible(s, !pts.isEmpty());
        return pts;
    };
    const QList<QPointF> mine = fill(p, recomputed_);
    fill(c, compareRecomputed_);
    chart_set::name(recomputed_, tr("%1 server KV").arg(runName(p)));
    chart_set::name(compareRecomputed_, tr("%1 server KV").arg(runName(c)));
    xTitle_ = tr("token");
    yTitle_ = tr("server KV cache in use (%)");
    chart_set::title(x_, xTitle_);
    chart_set::title(y_, yTitle_);
    setNiceRange(x_, maxX * 1.02, 5);
    setNiceRange(y_, std::min(100.0, maxY * 1.15), 5);
    setHeader(tr("KV cache"),
              mine.isEmpty() ? tr("%1: the server does not report its KV cache").arg(runName(p))
                             : tr("%1: the server's whole KV cache, %2% in use (server /metrics)")
                                   .arg(runName(p)).arg(mine.last().y(), 0, 'f', 1));
}

QList<QPointF> KvChart::staircase(const QVector<QPointF>& pts, double scale)
{
    QList<QPointF> out;
    out.reserve(pts.size() * 2);
    for (int i = 0; i < pts.size(); ++i) {
        if (i > 0 && pts[i].y() != pts[i - 1].y())
            out.append(QPointF(pts[i].x(), pts[i - 1].y() * scale));
        out.append(QPointF(pts[i].x(), pts[i].y() * scale));
    }
    return out;
}


void KvChart::plot(const ChartInput& in)
{
    last_ = in;
    const RunRecord* p = in.primary;
    const RunRecord* c = in.compare;
    // The compared run in its own colour; the primary's lines keep the KV kinds' colours.
    chart_set::pen(compareAllocated_, style_.linePen(colorOf(c, 1).lighter(110), Qt::DashDotLine));
    chart_set::pen(compareLogical_, style_.linePen(colorOf(c, 1), Qt::DashLine));
    chart_set::pen(recomputed_, style_.linePen(colorOf(p, 0)));
    chart_set::pen(compareRecomputed_, style_.linePen(colorOf(c, 1), Qt::DashLine));
    if (remote(p)) {
        callouts_->show({});
        plotServerKv(in);
        return;
    }
    // KV off keeps no cache: nothing to draw as bytes, but every step ran
    // the whole sequence again; that count is what the chart shows.
    if (kvOff(p)) {
        callouts_->show({});
        for (QLineSeries* s : {formula_, reserved_, allocated_, logical_, local_, global_, compareAllocated_,
                               compareLogical_}) {
            chart_set::points(s, QList<QPointF>());
            chart_set::visible(s, false);
        }
        double maxX = 8, maxY = 16;
        auto fill = [&](const RunRecord* r, QLineSeries* s) {
            QList<QPointF> pts;
            if (r) {
                for (const QPointF& pt : r->recomputedPoints()) {
                    pts.append(pt);
                    maxX = std::max(maxX, pt.x());
                    maxY = std::max(maxY, pt.y());
                }
            }
            chart_set::points(s, pts);
            chart_set::visible(s, r != nullptr);
        };
        fill(p, recomputed_);
        fill(kvOff(c) && !remote(c) ? c : nullptr, compareRecomputed_);
        chart_set::name(recomputed_, tr("%1 recomputed").arg(runName(p)));
        chart_set::name(compareRecomputed_, tr("%1 recomputed").arg(runName(c)));
        xTitle_ = tr("decode step");
        yTitle_ = tr("recomputed");
        chart_set::title(x_, xTitle_);
        chart_set::title(y_, yTitle_);
        setNiceRange(x_, maxX * 1.02, 5);
        setNiceRange(y_, maxY * 1.08, 5);
        const auto pts = p->recomputedPoints();
        setHeader(tr("KV cache"), pts.isEmpty() ? tr("%1: KV off, no cache kept").arg(runName(p))
                                                : tr("%1: KV off, no cache kept; step %2 recomputed %3 tokens")
                                                      .arg(runName(p)).arg(int(pts.last().x()))
                                                      .arg(formatCount(qint64(pts.last().y()))));
        return;
    }
    xTitle_ = tr("tokens held");
    chart_set::title(x_, xTitle_);
    // The axes start at 0 (the cache grows from nothing through the prefill);
    // zoomed, they cover the decode steps only, so the block staircase shows.
    double minTokens = -1, maxTokens = 16, minBytes = -1, maxBytes = 1024;
    for (const RunRecord* r : {p, c}) {
        if (!r || kvOff(r))
            continue;
        for (RunRecord::KvKind k : {RunRecord::KvKind::Logical, RunRecord::KvKind::Allocated,
                                    RunRecord::KvKind::Reserved}) {
            for (const QPointF& pt : r->kvPoints(k, zoom_)) {
                maxTokens = std::max(maxTokens, pt.x());
                maxBytes = std::max(maxBytes, pt.y());
                minTokens = minTokens < 0 ? pt.x() : std::min(minTokens, pt.x());
                if (pt.y() > 0)
                    minBytes = minBytes < 0 ? pt.y() : std::min(minBytes, pt.y());
            }
        }
    }
    if (minTokens < 0) {
        for (const RunRecord* r : {p, c}) {
            if (r)
                maxTokens = std::max<double>(maxTokens, r->promptTokens());
        }
        minTokens = 0;
    }
    if (!zoom_)
        minTokens = 0, minBytes = 0;
    if (minBytes < 0)
        minBytes = 0;
    // KiB for tiny models, MiB otherwise.
    const bool mib = maxBytes >= 1024.0 * 1024.0;
    const double unit = mib ? 1024.0 * 1024.0 : 1024.0;
    const double scale = 1.0 / unit;
    yTitle_ = mib ? tr("KV (MiB)") : tr("KV (KiB)");
    chart_set::title(y_, yTitle_);

    auto series = [&](const RunRecord* r, RunRecord::KvKind k) {
        return r && !kvOff(r) ? staircase(r->kvPoints(k, zoom_), scale) : QList<QPointF>();
    };
    // Logical bytes grow by one token's worth each token: a straight line;
    // blocks and reservations move in steps.
    auto scaled = [&](RunRecord::KvKind k) {
        QList<QPointF> out;
        if (p) {
            for (const QPointF& pt : p->kvPoints(k, zoom_))
                out.append(QPointF(pt.x(), pt.y() * scale));
        }
        return out;
    };
    // A sliding-window model: the local layers' line and the global layers'
    // line in place of their sum (docs/design.md, "Sliding-window layers").
    const bool groups = p && p->hasKvGroups();
    const QList<QPointF> logical = scaled(RunRecord::KvKind::Logical);
    const QList<QPointF> local = groups ? scaled(RunRecord::KvKind::LocalLogical) : QList<QPointF>();
    const QList<QPointF> global = groups ? scaled(RunRecord::KvKind::GlobalLogical) : QList<QPointF>();
    chart_set::points(logical_, groups ? QList<QPointF>() : logical);
    chart_set::points(local_, local);
    chart_set::points(global_, global);
    chart_set::points(allocated_, series(p, RunRecord::KvKind::Allocated));
    chart_set::points(reserved_, series(p, RunRecord::KvKind::Reserved));
    chart_set::points(compareLogical_, QList<QPointF>());   // the compared run: its blocks only, to keep the chart readable
    chart_set::points(compareAllocated_, series(c, RunRecord::KvKind::Allocated));

    setNiceRange(x_, minTokens, maxTokens + std::max(1.0, (maxTokens - minTokens) * 0.02), 5);
    const double xMin = x_->min(), xMax = x_->max();
    const qint64 perToken = p ? p->kvBytesPerToken() : 0;
    chart_set::points(formula_, perToken > 0 ? QList<QPointF>{{xMin, xMin * perToken * scale},
                                                              {xMax, xMax * perToken * scale}}
                                             : QList<QPointF>());
    const QString pn = runName(p), cn = runName(c);
    // The shown run's lines by kind (its name is in the heading); the compared run's by name.
    Q_UNUSED(pn);
    chart_set::name(logical_, tr("logical"));
    chart_set::name(allocated_, tr("blocks"));
    chart_set::name(reserved_, tr("reserved"));
    chart_set::name(compareLogical_, tr("%1 logical").arg(cn));
    chart_set::name(compareAllocated_, cn);   // the compared run's blocks, by its name
    // The formula line is every layer × every token: not what a model with a window holds.
    chart_set::visible(formula_, perToken > 0 && !groups);
    chart_set::visible(allocated_, p != nullptr);
    chart_set::visible(logical_, p != nullptr && !groups);
    chart_set::visible(local_, groups);
    chart_set::visible(global_, groups);
    // LFM2: the local group is its convolutions' state, the global one its attention layers' K/V.
    const bool conv = p && p->kvLocalIsConv();
    chart_set::name(local_, conv ? tr("convolution state") : tr("local layers"));
    chart_set::name(global_, conv ? tr("attention layers") : tr("global layers"));
    for (QLineSeries* s : {recomputed_, compareRecomputed_}) {
        chart_set::points(s, QList<QPointF>());
        chart_set::visible(s, false);
    }
    // Reserved is drawn when it says something: static mode's flat line.
    bool reservedDiffers = false;
    if (p) {
        for (const TokenStep& t : p->tokens())
            reservedDiffers = reservedDiffers || t.kv.reservedBytes != t.kv.allocatedBytes;
        for (const PrefillProgress& pp : p->prefill())
            reservedDiffers = reservedDiffers || pp.kv.reservedBytes != pp.kv.allocatedBytes;
    }
    chart_set::visible(reserved_, reservedDiffers);
    chart_set::visible(compareLogical_, false);
    chart_set::visible(compareAllocated_, c != nullptr && !kvOff(c));
    const double span = std::max((maxBytes - minBytes) * scale, 1.0 / 64);
    setNiceRange(y_, std::max(0.0, minBytes * scale - (zoom_ ? span * 0.05 : 0)), maxBytes * scale + span * 0.08, 5);

    // The latest KV figures: the last token's, or during the prefill the last chunk's.
    QString fig;
    const KvSnapshot* kv = nullptr;
    if (p && !p->tokens().isEmpty())
        kv = &p->tokens().last().kv;
    else if (p && !p->prefill().isEmpty() && p->prefill().last().kv.tokens > 0)
        kv = &p->prefill().last().kv;
    if (kv && groups && p->kvLocalIsConv()) {   // LFM2
        fig = tr("%1 at %2 tokens: convolutions %3 (%4 tokens) · attention %5 · %6 allocated")
                  .arg(runName(p), formatCount(kv->tokens), formatBytes(double(kv->localBytes)),
                       formatCount(kv->localTokens), formatBytes(double(kv->globalBytes)),
                       formatBytes(double(kv->allocatedBytes)));
    } else if (kv && groups) {
        fig = tr("%1 at %2 tokens: local %3 (%4 tokens) · global %5 · %6 allocated")
                  .arg(runName(p), formatCount(kv->tokens), formatBytes(double(kv->localBytes)),
                       formatCount(kv->localTokens), formatBytes(double(kv->globalBytes)),
                       formatBytes(double(kv->allocatedBytes)));
    } else if (kv) {
        fig = tr("%1 at %2 tokens: %3 logical · %4 allocated · %5 reserved")
                  .arg(runName(p), formatCount(kv->tokens), formatBytes(double(kv->logicalBytes)),
                       formatBytes(double(kv->allocatedBytes)), formatBytes(double(kv->reservedBytes)));
    } else if (!in.kvFormula.isEmpty()) {
        fig = in.kvFormula;
    }
    setHeader(tr("KV cache"), fig);
    // The callout at the end of the logical line: its bytes as tokens × the
    // formula's bytes per token when they agree exactly, else as measured.
    if (kv && groups) {
        callouts_->show(groupCallouts(p, local, global, p->kvLocalIsConv()));
    } else if (kv && !logical.isEmpty()) {
        const QString text = perToken > 0 && kv->logicalBytes == kv->tokens * perToken
                                 ? tr("%1 = %2 tokens × %3 B").arg(formatBytes(double(kv->logicalBytes)),
                                                                   formatCount(kv->tokens), formatCount(perToken))
                                 : tr("%1 held at %2 tokens").arg(formatBytes(double(kv->logicalBytes)),
                                                                  formatCount(kv->tokens));
        callouts_->show({{text, logical_, logical.last(), QVector<QPointF>(logical.begin(), logical.end())}});
    } else {
        callouts_->show({});
    }
    chart_set::name(formula_, tr("formula"));
    // In front of a class the legend keeps what differs; the formula line is
    // named in the tooltip and the heading.
    for (QLegendMarker* m : chart_->legend()->markers(formula_))
        showLegendEntry(m, !style_.presentation && perToken > 0 && !groups);
    chart_->setToolTip(in.kvGroupFormula.isEmpty() ? in.kvFormula
                                                   : in.kvFormula + QLatin1Char('\n') + in.kvGroupFormula);
}

// "local 7.5 MiB = 512 tokens × 15,360 B" and "global 6.1 MiB = 2,079 tokens ×
// 3,072 B" at the ends of the two lines: each group's bytes per token from its
// own figures, written as a product only when it divides exactly.
QVector<ChartCallouts::Callout> KvChart::groupCallouts(const RunRecord* p, const QList<QPointF>& local,
                                                     const QList<QPointF>& global, bool localIsConv)
{
    const KvSnapshot& kv = !p->tokens().isEmpty() ? p->tokens().last().kv : p->prefill().last().kv;
    const qint64 globalTokens = kv.tokens;
    auto text = [this](const QString& group, qint64 bytes, qint64 tokens) {
        if (tokens > 0 && bytes % tokens == 0)
            return tr("%1 %2 = %3 tokens × %4 B").arg(group, formatBytes(double(bytes)), formatCount(tokens),
                                                      formatCount(bytes / tokens));
        return tr("%1 %2 held at %3 tokens").arg(group, formatBytes(double(bytes)), formatCount(tokens));
    };
    QVector<QPointF> avoid(local.begin(), local.end());
    avoid += QVector<QPointF>(global.begin(), global.end());
    QVector<ChartCallouts::Callout> out;
    if (!global.isEmpty())
        out.append({text(localIsConv ? tr("attention") : tr("global"), kv.globalBytes, globalTokens), global_,
                    global.last(), avoid});
    if (!local.isEmpty())
        out.append({text(localIsConv ? tr("convolutions") : tr("local"), kv.localBytes, kv.localTokens), local_,
                    local.last(), avoid});
    return out;
}

}  // namespace kvlens::ui
