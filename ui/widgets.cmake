# SPDX-License-Identifier: Apache-2.0
# kvlens_ui: the widgets, the charts, the engine worker thread, the PDF bridge,
# the headless runner and the translations. Included by ui/CMakeLists.txt.
set(KVLENS_UI_SOURCES
  app_settings.h app_settings.cpp
  pdf_bridge.h pdf_bridge.cpp
  main_window.h main_window.cpp main_window_runs.cpp
  run_controller.h run_controller.cpp
  headless_runner.h headless_runner.cpp
  engine/engine_worker.h engine/engine_worker.cpp
  engine/remote_connection.h engine/remote_connection.cpp
  charts/chart_style.h charts/chart_style.cpp
  charts/chart_export.h charts/chart_export.cpp
  charts/chart_panel.h charts/chart_panel.cpp
  charts/prefill_chart.h charts/prefill_chart.cpp
  charts/ttft_chart.h charts/ttft_chart.cpp
  charts/latency_chart.h charts/latency_chart.cpp
  charts/kv_chart.h charts/kv_chart.cpp
  charts/memory_chart.h charts/memory_chart.cpp
  widgets/ui_style.h widgets/ui_style.cpp
  widgets/document_pane.h widgets/document_pane.cpp
  widgets/task_pane.h widgets/task_pane.cpp
  widgets/answer_pane.h widgets/answer_pane.cpp
  widgets/history_pane.h widgets/history_pane.cpp
  widgets/stats_card.h widgets/stats_card.cpp
  widgets/model_panel.h widgets/model_panel.cpp
  widgets/settings_dialog.h widgets/settings_dialog.cpp
  widgets/remote_server_box.h widgets/remote_server_box.cpp
  widgets/charts_board.h widgets/charts_board.cpp
)
add_library(kvlens_ui STATIC ${KVLENS_UI_SOURCES})
target_include_directories(kvlens_ui PUBLIC ${PROJECT_SOURCE_DIR})
target_link_libraries(kvlens_ui PUBLIC kvlens_ui_model kvlens_engine kvlens_remote
  Qt6::Core Qt6::Gui Qt6::Widgets Qt6::Charts Qt6::Svg)
target_compile_options(kvlens_ui PRIVATE -Wall -Wextra)
if(TARGET kvlens_pdf)
  target_link_libraries(kvlens_ui PUBLIC kvlens_pdf)
  target_compile_definitions(kvlens_ui PRIVATE KVLENS_HAVE_PDF=1)
endif()

# Icons and translations live in the resources of the library, so the window,
# the headless mode and the tests all have them.
qt_add_resources(kvlens_ui kvlens_ui_icons
  PREFIX /icons
  BASE ${PROJECT_SOURCE_DIR}/resources/icons
  FILES ${PROJECT_SOURCE_DIR}/resources/icons/kvlens.svg)
file(GLOB KVLENS_TS_FILES ${PROJECT_SOURCE_DIR}/resources/translations/kvlens_*.ts)
if(KVLENS_TS_FILES)
  qt_add_translations(kvlens_ui
    TS_FILES ${KVLENS_TS_FILES}
    RESOURCE_PREFIX /i18n
    LUPDATE_OPTIONS -no-obsolete)
endif()

# The lesson (issue 13): the runner over the run controller, its slides,
# exports and headless mode, and the built-in report it reads by default.
target_sources(kvlens_ui PRIVATE
  lesson/lesson_runner.h lesson/lesson_runner.cpp
  lesson/lesson_slide.h lesson/lesson_slide.cpp
  lesson/lesson_export.h lesson/lesson_export.cpp
  lesson/lesson_headless.h lesson/lesson_headless.cpp
  lesson/lesson_pane.h lesson/lesson_pane.cpp
  lesson/main_window_lesson.cpp
  charts/roofline_chart.h charts/roofline_chart.cpp
  charts/chart_callouts.h charts/chart_callouts.cpp
)
qt_add_resources(kvlens_ui kvlens_ui_lesson
  PREFIX /lesson
  BASE ${PROJECT_SOURCE_DIR}/resources
  FILES ${PROJECT_SOURCE_DIR}/resources/sample-report.txt)
