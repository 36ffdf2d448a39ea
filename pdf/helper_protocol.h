// SPDX-License-Identifier: Apache-2.0
// What kvlens-pdf-helper writes on stdout and how the caller checks it.
//
// extract: one JSON document:
//   {"protocol":1,"ok":true,"metadata":{...},"first_page":1,
//    "pages":[{"number":1,"text":"..."}...],"warnings":["..."]}
// or on failure {"protocol":1,"ok":false,"error":{"kind":"needs_password","message":"..."}}.
// render: per page one JSON header line
//   {"protocol":1,"ok":true,"page":3,"dpi":96,"width":W,"height":H,"stride":S,"bytes":S*H}
// followed by exactly `bytes` raw RGBA8888 bytes; a failure is one JSON line
// as for extract. Decoding validates every field: a helper that prints
// garbage or half an answer gives a bad_output error, never a crash.
#pragma once

#include "common/result.h"
#include "pdf/document.h"
#include "pdf/page_render.h"
#include "pdf/poppler_reader.h"

#include <string>
#include <string_view>
#include <vector>

namespace kvlens::pdf {

inline constexpr int helper_protocol_version = 1;

std::string encode_failure(failure_kind kind, const std::string& message);
std::string encode_extract_answer(const raw_document& doc);
std::string encode_render_header(const page_image& img);

result<raw_document> decode_extract_answer(std::string_view answer, failure_kind* failure);
result<std::vector<page_image>> decode_render_answer(std::string_view answer, failure_kind* failure);

}  // namespace kvlens::pdf
