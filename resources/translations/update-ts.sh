#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Refreshes the Qt Linguist files from the sources. lupdate 6.4 does not read
# C++17 nested namespaces (namespace kvlens::ui { ... }), so it files class
# contexts as "MainWindow" where Qt looks for "kvlens::ui::MainWindow" at run
# time; the sed below qualifies them. Run from the project root.
set -e
LUPDATE=${LUPDATE:-/usr/lib/qt6/bin/lupdate}
# Back to lupdate's names first, so it keeps the existing translations.
for ts in resources/translations/kvlens_*.ts; do
  sed -i -E 's#<name>kvlens::ui::([A-Za-z]+)</name>#<name>\1</name>#' "$ts"
done
"$LUPDATE" -no-obsolete -locations none ui app/gui \
  -ts resources/translations/kvlens_zh_CN.ts resources/translations/kvlens_en.ts
for ts in resources/translations/kvlens_*.ts; do
  sed -i -E 's#<name>([A-Za-z]+)</name>#<name>kvlens::ui::\1</name>#' "$ts"
done
