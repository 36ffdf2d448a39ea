// SPDX-License-Identifier: Apache-2.0
// MainWindow's lesson mode: the lesson pane in a dock under the window's
// panes, made on first use; alone in a window too short for both.
#include <QDockWidget>
#include <QMenuBar>
#include <QResizeEvent>
#include <QSplitter>
#include <QStatusBar>
#include <algorithm>

#include "ui/lesson/lesson_pane.h"
#include "ui/main_window.h"

namespace kvlens::ui {

void MainWindow::showLesson()
{
    if (!lessonDock_) {
        lessonDock_ = new QDockWidget(tr("Lesson"), this);
        lessonDock_->setObjectName(QStringLiteral("lessonDock"));
        lessonPane_ = new LessonPane(controller_, lessonDock_);
        lessonDock_->setWidget(lessonPane_);
        addDockWidget(Qt::BottomDockWidgetArea, lessonDock_);
        connect(lessonDock_, &QDockWidget::visibilityChanged, this, &MainWindow::fitLessonToHeight);
        connect(lessonDock_, &QDockWidget::topLevelChanged, this, &MainWindow::fitLessonToHeight);
        lessonPane_->useOpenDocumentOrSample();
    }
    // Decided before the dock shows: beside the panes it would make the
    // window taller than the screen (their minimum heights add up).
    split_->setVisible(!lessonCrowdsPanes());
    lessonDock_->show();
    lessonDock_->raise();
    fitLessonToHeight();
}

bool MainWindow::lessonCrowdsPanes() const
{
    const int chrome = menuBar()->sizeHint().height() + statusBar()->sizeHint().height();
    const int both = split_->minimumSizeHint().height() + lessonDock_->minimumSizeHint().height() + chrome;
    return height() < std::max(both, kLessonBesidePanesHeight);
}

bool MainWindow::panesShown() const
{
    return !split_->isHidden();
}

void MainWindow::fitLessonToHeight()
{
    if (!layout())
        return;   // the window is being taken down (its dock hides on the way)
    const bool lessonDocked = lessonDock_ && !lessonDock_->isHidden() && !lessonDock_->isFloating();
    split_->setVisible(!(lessonDocked && lessonCrowdsPanes()));
}

void MainWindow::resizeEvent(QResizeEvent* e)
{
    QMainWindow::resizeEvent(e);
    if (lessonDock_)
        fitLessonToHeight();
}

}  // namespace kvlens::ui
