# SPDX-License-Identifier: Apache-2.0
# Window tests: with a fake engine behind the worker (timed event sequences),
# and with the real engine on the test model when it is there.
kvlens_add_qtest(tst_ui_window tst_ui_window.cpp fake_engine.h fake_engine.cpp
  LIBS kvlens_ui kvlens_ui_test_support)
target_include_directories(tst_ui_window PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
