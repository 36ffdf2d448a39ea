// SPDX-License-Identifier: Apache-2.0
// DocumentPane: the report. Rendered pages with thumbnails, the extracted
// text with find, the page range a run uses, and the prompt's token count
// against the context (fits or not). An empty state invites opening a file.
#pragma once

#include <QImage>
#include <QWidget>

#include "ui/pdf_bridge.h"

class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QStackedWidget;
class QTabWidget;
class QToolButton;

namespace kvlens::ui {

class DocumentPane : public QWidget {
    Q_OBJECT
public:
    explicit DocumentPane(QWidget* parent = nullptr);

    bool hasDocument() const { return !doc_.path.isEmpty(); }
    const OpenedDocument& document() const { return doc_; }
    int firstPage() const;
    int lastPage() const;
    void setDocument(const OpenedDocument& doc);
    void setPageRange(int first, int last);
    void setThumbnail(int page, const QImage& image);
    void setPageImage(int page, const QImage& image);
    // Rendering failed: the page view says why instead of "Rendering…".
    void setRenderError(const QString& message);
    QString renderError() const { return renderError_; }
    QString pageViewText() const;
    bool hasPageImage() const;
    // The prompt's tokens against the context, with room kept for the answer.
    void setTokenCount(int promptTokens, int contextLength, int answerTokens);
    void setTokenCountPending();
    void addTab(QWidget* page, const QString& title);
    QTabWidget* tabs() const { return tabs_; }
    // Finds `text` in the extracted text; returns the number of matches.
    int find(const QString& text, bool backwards = false);
    QString tokenCountText() const;
    // False when the last count said the prompt and the answer exceed the context.
    bool fitsContext() const { return promptTokens_ < 0 || promptTokens_ + answerTokens_ <= contextLength_; }
    int promptTokens() const { return promptTokens_; }
    // When too long: the last page of the largest range from firstPage()
    // that fits (0: none), offered as a one-click button with map-reduce.
    void setSuggestedLastPage(int last);
    int suggestedLastPage() const { return suggestedLast_; }
    QPushButton* fitButton() const { return fitButton_; }
    QPushButton* mapReduceButton() const { return mapReduceButton_; }
    int contextLength() const { return contextLength_; }

signals:
    void pageRangeChanged(int first, int last);
    void pageRequested(int page);
    void openRequested();
    void openSampleRequested();
    void mapReduceRequested();

protected:
    void changeEvent(QEvent* e) override;
    bool eventFilter(QObject* o, QEvent* e) override;

private:
    void retranslate();
    void retranslateSuggestion();
    void showPage(int page);
    void fitPage();

    OpenedDocument doc_;
    QStackedWidget* stack_;
    QWidget* empty_;
    QLabel* emptyTitle_;
    QLabel* emptyHint_;
    QPushButton* openButton_;
    QPushButton* sampleButton_;
    QWidget* content_;
    QLabel* title_;
    QLabel* info_;
    QLabel* warnings_;
    QTabWidget* tabs_;
    QListWidget* thumbs_;
    QScrollArea* pageScroll_;
    QLabel* pageView_;
    QPlainTextEdit* text_;
    QLineEdit* findEdit_;
    QToolButton* findPrev_;
    QToolButton* findNext_;
    QLabel* findCount_;
    QLabel* rangeLabel_;
    QLabel* rangeTo_;
    QSpinBox* first_;
    QSpinBox* last_;
    QLabel* tokens_;
    QPushButton* fitButton_ = nullptr;
    QPushButton* mapReduceButton_ = nullptr;
    int suggestedLast_ = 0;
    QString renderError_;
    int currentPage_ = 0;
    QImage pageImage_;      // the current page as rendered, before fitting
    int promptTokens_ = -1, contextLength_ = 0, answerTokens_ = 0;
};

}  // namespace kvlens::ui
