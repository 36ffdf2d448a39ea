// SPDX-License-Identifier: Apache-2.0
// HistoryPane with a two-line delegate.
#include "ui/widgets/history_pane.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

#include "ui/charts/chart_style.h"
#include "ui/model/run_history_model.h"
#include "ui/widgets/ui_style.h"

namespace kvlens::ui {

namespace {

// Label in the text colour, the summary under it in the placeholder colour,
// a coloured dot for the state.
class RunDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    int* selected = nullptr;
    int* compare = nullptr;

    QSize sizeHint(const QStyleOptionViewItem& opt, const QModelIndex&) const override
    {
        return QSize(200, opt.fontMetrics.height() * 2 + 14);
    }

    void paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& idx) const override
    {
        QStyleOptionViewItem o = opt;
        initStyleOption(&o, idx);
        o.text.clear();
        o.widget->style()->drawControl(QStyle::CE_ItemViewItem, &o, p, o.widget);
        const bool sel = opt.state & QStyle::State_Selected;
        const QPalette& pal = opt.palette;
        const int runId = idx.data(RunHistoryModel::RunIdRole).toInt();
        const auto state = RunRecord::State(idx.data(RunHistoryModel::StateRole).toInt());
        QColor dot = style::badgeColor(state == RunRecord::State::Finished ? style::Badge::Good : style::Badge::Info);
        const QString summary = idx.data(RunHistoryModel::SummaryRole).toString();
        if (summary.contains(QLatin1String("error")) || summary.contains(QStringLiteral("错误")))
            dot = style::badgeColor(style::Badge::Bad);
        if (compare && runId == *compare)
            dot = ChartStyle::colorForRun(runId);
        const QRect r = opt.rect.adjusted(12, 6, -8, -6);
        p->save();
        p->setRenderHint(QPainter::Antialiasing);
        p->setPen(Qt::NoPen);
        p->setBrush(dot);
        const int h = opt.fontMetrics.height();
        p->drawEllipse(QRectF(r.left(), r.top() + h / 2.0 - 4, 8, 8));
        QFont bold = opt.font;
        bold.setWeight(QFont::DemiBold);
        p->setFont(bold);
        p->setPen(pal.color(sel ? QPalette::HighlightedText : QPalette::Text));
        p->drawText(QRect(r.left() + 16, r.top(), r.width() - 16, h), Qt::AlignLeft | Qt::AlignVCenter,
                    opt.fontMetrics.elidedText(idx.data(Qt::DisplayRole).toString(), Qt::ElideRight, r.width() - 16));
        p->setFont(opt.font);
        p->setPen(sel ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::PlaceholderText));
        p->drawText(QRect(r.left() + 16, r.top() + h + 2, r.width() - 16, h), Qt::AlignLeft | Qt::AlignVCenter,
                    opt.fontMetrics.elidedText(summary, Qt::ElideRight, r.width() - 16));
        p->restore();
    }
};

}  // namespace

HistoryPane::HistoryPane(RunHistoryModel* model, QWidget* parent) : QWidget(parent), model_(model)
{
    auto* l = new QVBoxLayout(this);
    l->setContentsMargins(style::kMargin, style::kSpacing, style::kMargin, style::kMargin);
    l->setSpacing(style::kSpacing);
    heading_ = new QLabel;
    style::makeHeading(heading_);
    l->addWidget(heading_);
    list_ = new QListView;
    list_->setModel(model_);
    auto* delegate = new RunDelegate(list_);
    delegate->selected = &selected_;
    delegate->compare = &compare_;
    list_->setItemDelegate(delegate);
    list_->setSelectionMode(QAbstractItemView::SingleSelection);
    list_->setUniformItemSizes(true);
    l->addWidget(list_, 1);
    auto* row = new QHBoxLayout;
    overlayLabel_ = new QLabel;
    overlay_ = new QComboBox;
    overlay_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    overlay_->setMinimumContentsLength(14);
    row->addWidget(overlayLabel_);
    row->addWidget(overlay_, 1);
    l->addLayout(row);

    connect(list_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& idx) {
                const int id = idx.isValid() ? idx.data(RunHistoryModel::RunIdRole).toInt() : 0;
                if (id == selected_)
                    return;
                selected_ = id;
                emit selectionChanged(id);
            });
    connect(overlay_, &QComboBox::activated, this, [this](int i) {
        compare_ = overlay_->itemData(i).toInt();
        list_->viewport()->update();
        emit compareChanged(compare_);
    });
    connect(model_, &QAbstractItemModel::rowsInserted, this, &HistoryPane::rebuildCompare);
    connect(model_, &QAbstractItemModel::modelReset, this, &HistoryPane::rebuildCompare);
    retranslate();
}

void HistoryPane::retranslate()
{
    heading_->setText(tr("History"));
    overlayLabel_->setText(tr("Overlay"));
    overlay_->setToolTip(tr("A second run drawn on the same charts, dashed"));
    rebuildCompare();
}

void HistoryPane::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(e);
}

void HistoryPane::rebuildCompare()
{
    const QSignalBlocker block(overlay_);
    overlay_->clear();
    overlay_->addItem(tr("none"), 0);
    for (int row = model_->rowCount() - 1; row >= 0; --row) {
        const QModelIndex idx = model_->index(row);
        overlay_->addItem(idx.data(Qt::DisplayRole).toString(), idx.data(RunHistoryModel::RunIdRole));
    }
    overlay_->setCurrentIndex(std::max(0, overlay_->findData(compare_)));
}

void HistoryPane::selectRun(int id)
{
    const int row = model_->rowOf(id);
    if (row >= 0)
        list_->setCurrentIndex(model_->index(row));
}

void HistoryPane::setCompareRun(int id)
{
    compare_ = id;
    overlay_->setCurrentIndex(std::max(0, overlay_->findData(id)));
    list_->viewport()->update();
    emit compareChanged(id);
}

}  // namespace kvlens::ui
