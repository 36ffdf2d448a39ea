# SPDX-License-Identifier: Apache-2.0
# Window tests: with a fake engine behind the worker (timed event sequences),
# and with the real engine on the test model when it is there.
kvlens_add_qtest(tst_ui_window tst_ui_window.cpp fake_engine.h fake_engine.cpp
  LIBS kvlens_ui kvlens_ui_test_support)
target_include_directories(tst_ui_window PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})

# The headless twin with the fake engine: its arguments, files and long reports.
kvlens_add_qtest(tst_headless tst_headless.cpp fake_engine.h fake_engine.cpp
  LIBS kvlens_ui kvlens_ui_test_support)
target_include_directories(tst_headless PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})

# The charts on hand-made event sequences: layer groups, hidden reasoning, callouts.
kvlens_add_qtest(tst_ui_charts tst_ui_charts.cpp LIBS kvlens_ui kvlens_ui_test_support)
target_include_directories(tst_ui_charts PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})

# The answer pane on hand-made sequences: streamed tints against the whole answer.
kvlens_add_qtest(tst_answer_pane tst_answer_pane.cpp LIBS kvlens_ui kvlens_ui_test_support)
target_include_directories(tst_answer_pane PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})

kvlens_add_qtest(tst_ui_engine tst_ui_engine.cpp LIBS kvlens_ui)
target_include_directories(tst_ui_engine PRIVATE ${PROJECT_SOURCE_DIR})
# It checks the sign of measured timings (half the document cold: lower TTFT):
# run alone, not beside another suite that takes the CPU.
set_tests_properties(tst_ui_engine PROPERTIES RUN_SERIAL TRUE)
if(TARGET kvlens-pdf-helper)
  add_dependencies(tst_ui_engine kvlens-pdf-helper)
  target_compile_definitions(tst_ui_engine PRIVATE KVLENS_PDF_HELPER_PATH="$<TARGET_FILE:kvlens-pdf-helper>")
else()
  target_compile_definitions(tst_ui_engine PRIVATE KVLENS_PDF_HELPER_PATH="")
endif()

# Installs into a temporary root and builds the .deb; needs the CLI, the PDF
# helper and the window built (a normal full build).
if(TARGET kvlens-cli AND TARGET kvlens-pdf-helper AND TARGET kvlens)
  kvlens_add_qtest(tst_packaging tst_packaging.cpp LIBS Qt6::Gui)
  target_compile_definitions(tst_packaging PRIVATE
    KVLENS_BUILD_DIR="${CMAKE_BINARY_DIR}" KVLENS_CMAKE="${CMAKE_COMMAND}" KVLENS_CPACK="${CMAKE_CPACK_COMMAND}")
  target_include_directories(tst_packaging PRIVATE ${PROJECT_SOURCE_DIR})
endif()

# The window on a remote engine: the scripted HTTP server of tests/remote
# (shared, not copied) and llama.cpp's llama-server when it is built.
kvlens_add_qtest(tst_remote_window tst_remote_window.cpp fake_engine.h fake_engine.cpp
  ${PROJECT_SOURCE_DIR}/tests/remote/fake_http_server.cpp LIBS kvlens_ui)
target_include_directories(tst_remote_window PRIVATE ${CMAKE_CURRENT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/tests/remote)
set_tests_properties(tst_remote_window PROPERTIES LABELS remote)

# The lesson headless on the default model (issue 13). It measures timings:
# alone, like tst_ui_engine.
kvlens_add_qtest(tst_lesson tst_lesson.cpp LIBS kvlens_ui)
target_include_directories(tst_lesson PRIVATE ${PROJECT_SOURCE_DIR})
# KVLENS_LONG_TESTS=1 runs the whole lesson: tens of minutes on a loaded 2-core CPU.
set_tests_properties(tst_lesson PROPERTIES RUN_SERIAL TRUE TIMEOUT 3600)
