// SPDX-License-Identifier: Apache-2.0
// MainWindow's lesson mode: the lesson pane in a dock under the window's
// panes, made on first use.
#include <QDockWidget>

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
        lessonPane_->useOpenDocumentOrSample();
    }
    lessonDock_->show();
    lessonDock_->raise();
}

}  // namespace kvlens::ui
