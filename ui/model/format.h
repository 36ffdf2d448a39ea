// SPDX-License-Identifier: Apache-2.0
// Numbers for people, one format everywhere (charts, stats card, history,
// captions): "TTFT 83.8 s", "75,647 tokens", "12.3 MiB". Digit grouping
// follows the current QLocale (so Chinese gets its own); units stay SI/IEC.
#pragma once

#include <QString>

namespace kvlens::ui {

// "12.3 MiB", "850 KiB", "1.20 GiB": bytes for people.
QString formatBytes(double bytes);
// "850 ms", "1.25 s", "83.8 s"
QString formatMs(double ms);
// "75,647"
QString formatCount(qint64 n);
// "48.2 tok/s"
QString formatTokS(double tokPerSecond);

}  // namespace kvlens::ui
