// SPDX-License-Identifier: Apache-2.0
// DocumentPane.
#include "ui/widgets/document_pane.h"

#include "ui/i18n.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTextBlock>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/widgets/ui_style.h"

namespace kvlens::ui {

DocumentPane::DocumentPane(QWidget* parent) : QWidget(parent)
{
    stack_ = new QStackedWidget(this);
    auto* outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(stack_);

    // Empty state.
    empty_ = new QWidget;
    auto* el = new QVBoxLayout(empty_);
    el->addStretch(2);
    emptyTitle_ = new QLabel;
    style::makeHeading(emptyTitle_, 1.5);
    emptyTitle_->setAlignment(Qt::AlignCenter);
    emptyHint_ = new QLabel;
    emptyHint_->setAlignment(Qt::AlignCenter);
    emptyHint_->setWordWrap(true);
    style::makeSecondary(emptyHint_);
    openButton_ = new QPushButton;
    sampleButton_ = new QPushButton;
    openButton_->setDefault(true);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch();
    buttons->addWidget(openButton_);
    buttons->addWidget(sampleButton_);
    buttons->addStretch();
    el->addWidget(emptyTitle_);
    el->addWidget(emptyHint_);
    el->addSpacing(style::kSpacing * 2);
    el->addLayout(buttons);
    el->addStretch(3);
    stack_->addWidget(empty_);
    connect(openButton_, &QPushButton::clicked, this, &DocumentPane::openRequested);
    connect(sampleButton_, &QPushButton::clicked, this, &DocumentPane::openSampleRequested);

    // Content.
    content_ = new QWidget;
    auto* cl = new QVBoxLayout(content_);
    cl->setContentsMargins(style::kMargin, style::kMargin, style::kMargin, style::kMargin);
    cl->setSpacing(style::kSpacing);
    title_ = new QLabel;
    style::makeHeading(title_, 1.25);
    title_->setWordWrap(true);
    info_ = new QLabel;
    style::makeSecondary(info_);
    info_->setWordWrap(true);
    info_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    warnings_ = new QLabel;
    warnings_->setWordWrap(true);
    warnings_->setStyleSheet(QStringLiteral("QLabel { color: %1; }").arg(style::badgeColor(style::Badge::Warn).darker(130).name()));
    cl->addWidget(title_);
    cl->addWidget(info_);
    cl->addWidget(warnings_);

    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    // Pages: thumbnails and the page.
    auto* split = new QWidget;
    auto* splitLayout = new QHBoxLayout(split);
    splitLayout->setContentsMargins(0, style::kSpacing, 0, 0);
    splitLayout->setSpacing(style::kSpacing);
    thumbs_ = new QListWidget;
    thumbs_->setViewMode(QListView::ListMode);
    thumbs_->setIconSize(QSize(60, 78));
    thumbs_->setFixedWidth(92);
    thumbs_->setSpacing(4);
    thumbs_->setUniformItemSizes(true);
    pageView_ = new QLabel;
    pageView_->setAlignment(Qt::AlignHCenter | Qt::AlignTop);
    pageScroll_ = new QScrollArea;
    pageScroll_->setWidget(pageView_);
    pageScroll_->setWidgetResizable(true);
    pageScroll_->setBackgroundRole(QPalette::Mid);
    pageScroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    pageScroll_->viewport()->installEventFilter(this);
    splitLayout->addWidget(thumbs_);
    splitLayout->addWidget(pageScroll_, 1);
    tabs_->addTab(split, QString());
    connect(thumbs_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            showPage(row + 1);
    });

    // Text and find.
    auto* textTab = new QWidget;
    auto* tl = new QVBoxLayout(textTab);
    tl->setContentsMargins(0, style::kSpacing, 0, 0);
    auto* findRow = new QHBoxLayout;
    findEdit_ = new QLineEdit;
    findEdit_->setClearButtonEnabled(true);
    findPrev_ = new QToolButton;
    findPrev_->setArrowType(Qt::UpArrow);
    findNext_ = new QToolButton;
    findNext_->setArrowType(Qt::DownArrow);
    findCount_ = new QLabel;
    style::makeSecondary(findCount_);
    findRow->addWidget(findEdit_, 1);
    findRow->addWidget(findPrev_);
    findRow->addWidget(findNext_);
    findRow->addWidget(findCount_);
    text_ = new QPlainTextEdit;
    text_->setReadOnly(true);
    tl->addLayout(findRow);
    tl->addWidget(text_);
    tabs_->addTab(textTab, QString());
    connect(findEdit_, &QLineEdit::textChanged, this, [this](const QString& t) {
        text_->moveCursor(QTextCursor::Start);
        find(t);
    });
    connect(findEdit_, &QLineEdit::returnPressed, this, [this] { find(findEdit_->text()); });
    connect(findNext_, &QToolButton::clicked, this, [this] { find(findEdit_->text()); });
    connect(findPrev_, &QToolButton::clicked, this, [this] { find(findEdit_->text(), true); });
    cl->addWidget(tabs_, 1);

    // Page range and token count.
    auto* rangeRow = new QHBoxLayout;
    auto* tokensRow = new QHBoxLayout;
    rangeLabel_ = new QLabel;
    first_ = new QSpinBox;
    last_ = new QSpinBox;
    rangeTo_ = new QLabel;
    for (QSpinBox* s : {first_, last_}) {
        s->setRange(1, 1);
        s->setKeyboardTracking(false);
    }
    tokens_ = new QLabel;
    rangeRow->addWidget(rangeLabel_);
    rangeRow->addWidget(first_);
    rangeRow->addWidget(rangeTo_);
    rangeRow->addWidget(last_);
    rangeRow->addStretch();
    tokensRow->addWidget(tokens_);
    tokensRow->addStretch();
    cl->addLayout(rangeRow);
    cl->addLayout(tokensRow);
    // Too long: the largest range that fits (one click), or map-reduce; one
    // above the other, so that neither is cut in a narrow pane (1280 x 720).
    auto* longRows = new QVBoxLayout;
    fitButton_ = new QPushButton;
    mapReduceButton_ = new QPushButton;
    fitButton_->setVisible(false);
    mapReduceButton_->setVisible(false);
    longRows->addWidget(fitButton_);
    longRows->addWidget(mapReduceButton_);
    cl->addLayout(longRows);
    connect(fitButton_, &QPushButton::clicked, this, [this] {
        if (suggestedLast_ >= firstPage())
            setPageRange(firstPage(), suggestedLast_);
    });
    connect(mapReduceButton_, &QPushButton::clicked, this, &DocumentPane::mapReduceRequested);
    auto rangeChanged = [this] {
        if (last_->value() < first_->value())
            last_->setValue(first_->value());
        emit pageRangeChanged(firstPage(), lastPage());
    };
    connect(first_, &QSpinBox::valueChanged, this, rangeChanged);
    connect(last_, &QSpinBox::valueChanged, this, rangeChanged);
    stack_->addWidget(content_);

    setAcceptDrops(false);  // the main window takes drops
    retranslate();
}

void DocumentPane::setSuggestedLastPage(int last)
{
    suggestedLast_ = last;
    const bool tooLong = !fitsContext();
    fitButton_->setVisible(tooLong && last >= firstPage());
    mapReduceButton_->setVisible(tooLong);
    retranslateSuggestion();
}

void DocumentPane::retranslateSuggestion()
{
    fitButton_->setText(tr("Use pages %1–%2 (the most that fit)").arg(firstPage()).arg(suggestedLast_));
    fitButton_->setToolTip(tr("The largest page range from page %1 whose text fits the context with room for the answer.")
                               .arg(firstPage()));
    mapReduceButton_->setText(tr("Map-reduce all pages"));
    mapReduceButton_->setToolTip(tr("Summarize each part that fits on its own, then the summaries together; "
                                    "every stage is a run in the history, named by its pages."));
}

void DocumentPane::retranslate()
{
    retranslateSuggestion();
    emptyTitle_->setText(tr("Open a report"));
    emptyHint_->setText(tr("Open a PDF with Ctrl+O or drop it here. The text stays on this machine."));
    openButton_->setText(tr("Open…"));
    sampleButton_->setText(tr("Open the sample report"));
    tabs_->setTabText(0, tr("Pages"));
    tabs_->setTabText(1, tr("Text"));
    findEdit_->setPlaceholderText(tr("Find in text"));
    findPrev_->setToolTip(tr("Previous match"));
    findNext_->setToolTip(tr("Next match"));
    rangeLabel_->setText(tr("Pages"));
    rangeTo_->setText(tr("to"));
    if (hasDocument())
        setDocument(doc_);
    if (promptTokens_ >= 0)
        setTokenCount(promptTokens_, contextLength_, answerTokens_);
}

void DocumentPane::changeEvent(QEvent* e)
{
    if (e->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(e);
}

int DocumentPane::firstPage() const { return first_->value(); }
int DocumentPane::lastPage() const { return last_->value(); }

void DocumentPane::setDocument(const OpenedDocument& doc)
{
    const bool same = doc.path == doc_.path;
    doc_ = doc;
    stack_->setCurrentWidget(content_);
    title_->setText(doc.text.title);
    qsizetype chars = 0;
    for (const QString& p : doc.text.pages)
        chars += p.size();
    const QLocale loc;
    info_->setText(tr("%n page(s)", nullptr, doc.text.pageCount()) + QStringLiteral(" · ")
                   + tr("%1 characters").arg(loc.toString(qlonglong(chars))) + QStringLiteral(" · ")
                   + doc.path);
    info_->setToolTip(doc.metadata.join(QLatin1Char('\n')));
    QStringList warnings;
    for (const QString& w : doc.warnings)
        warnings << i18n::pdfWarning(w);
    warnings_->setText(warnings.join(QLatin1Char('\n')));
    warnings_->setVisible(!doc.warnings.isEmpty());
    if (same)
        return;
    text_->setPlainText(doc.text.pages.join(QStringLiteral("\n\n")));
    const int n = std::max(1, doc.text.pageCount());
    const QSignalBlocker b1(first_), b2(last_);
    first_->setRange(1, n);
    last_->setRange(1, n);
    first_->setValue(1);
    last_->setValue(n);
    thumbs_->clear();
    for (int i = 1; i <= doc.text.pageCount(); ++i) {
        auto* item = new QListWidgetItem(QString::number(i));
        item->setTextAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        if (doc.pagesWithoutText.contains(i))
            item->setToolTip(tr("no text layer on this page"));
        thumbs_->addItem(item);
    }
    pageView_->setPixmap(QPixmap());
    pageImage_ = QImage();
    pageView_->setText(doc.isPdf ? tr("Rendering…") : QString());
    currentPage_ = 0;
    tabs_->setCurrentIndex(doc.isPdf ? 0 : 1);
    if (doc.isPdf && doc.text.pageCount() > 0)
        thumbs_->setCurrentRow(0);
}

void DocumentPane::setPageRange(int first, int last)
{
    first_->setValue(first);
    last_->setValue(last);
}

void DocumentPane::setThumbnail(int page, const QImage& image)
{
    if (page < 1 || page > thumbs_->count())
        return;
    thumbs_->item(page - 1)->setIcon(QIcon(QPixmap::fromImage(image)));
}

void DocumentPane::showPage(int page)
{
    if (page == currentPage_)
        return;
    currentPage_ = page;
    emit pageRequested(page);
}

void DocumentPane::setPageImage(int page, const QImage& image)
{
    if (page != currentPage_)
        return;
    pageImage_ = image;
    fitPage();
}

QString DocumentPane::pageViewText() const
{
    return pageView_->text();
}

bool DocumentPane::hasPageImage() const
{
    return !pageImage_.isNull();
}

void DocumentPane::setRenderError(const QString& message)
{
    renderError_ = message;
    if (pageImage_.isNull()) {
        pageView_->setPixmap(QPixmap());
        pageView_->setText(tr("The page could not be rendered: %1").arg(message));
        pageView_->setWordWrap(true);
    }
}

void DocumentPane::fitPage()
{
    if (pageImage_.isNull())
        return;
    // The page fills the width of the view; rendered at about 110 dpi, it is
    // scaled down smoothly, never up.
    const qreal dpr = devicePixelRatioF();
    const int w = std::max(40, pageScroll_->viewport()->width() - 12);
    const int px = std::min(pageImage_.width(), int(w * dpr));
    QPixmap pm = QPixmap::fromImage(pageImage_.scaledToWidth(px, Qt::SmoothTransformation));
    pm.setDevicePixelRatio(dpr);
    pageView_->setPixmap(pm);
}

bool DocumentPane::eventFilter(QObject* o, QEvent* e)
{
    if (o == pageScroll_->viewport() && e->type() == QEvent::Resize)
        fitPage();
    return QWidget::eventFilter(o, e);
}

void DocumentPane::setTokenCountPending()
{
    fitButton_->setVisible(false);
    mapReduceButton_->setVisible(false);
    promptTokens_ = -1;
    tokens_->setText(tr("counting tokens…"));
    tokens_->setStyleSheet(QString());
}

void DocumentPane::setTokenCount(int promptTokens, int contextLength, int answerTokens)
{
    promptTokens_ = promptTokens;
    contextLength_ = contextLength;
    answerTokens_ = answerTokens;
    tokens_->setText(tokenCountText());
    tokens_->setMinimumWidth(tokens_->sizeHint().width());
    const bool fits = promptTokens + answerTokens <= contextLength;
    tokens_->setStyleSheet(style::badgeStyleSheet(fits ? style::Badge::Good : style::Badge::Bad));
    if (fits) {
        fitButton_->setVisible(false);
        mapReduceButton_->setVisible(false);
    }
    tokens_->setToolTip(fits ? tr("The prompt and an answer of %1 tokens fit the context of %2 tokens.")
                                   .arg(answerTokens).arg(contextLength)
                             : tr("Too long: choose fewer pages, use the suggested range, or map-reduce. The prompt and an answer of %1 tokens need "
                                  "more than the context of %2 tokens.")
                                   .arg(answerTokens).arg(contextLength));
}

QString DocumentPane::tokenCountText() const
{
    if (promptTokens_ < 0)
        return {};
    const QLocale loc;
    const bool fits = promptTokens_ + answerTokens_ <= contextLength_;
    return (fits ? tr("%1 tokens · fits %2") : tr("%1 tokens · exceeds %2"))
        .arg(loc.toString(promptTokens_), loc.toString(contextLength_));
}

int DocumentPane::find(const QString& needle, bool backwards)
{
    if (needle.isEmpty()) {
        findCount_->clear();
        return 0;
    }
    QTextDocument::FindFlags flags;
    if (backwards)
        flags |= QTextDocument::FindBackward;
    if (!text_->find(needle, flags)) {
        // Wrap around.
        text_->moveCursor(backwards ? QTextCursor::End : QTextCursor::Start);
        text_->find(needle, flags);
    }
    const int n = int(text_->toPlainText().count(needle, Qt::CaseInsensitive));
    findCount_->setText(n == 0 ? tr("no match") : tr("%n match(es)", nullptr, n));
    return n;
}

void DocumentPane::addTab(QWidget* page, const QString& title)
{
    tabs_->addTab(page, title);
}

}  // namespace kvlens::ui
