// SPDX-License-Identifier: Apache-2.0
// The JSON form of a PDF's metadata.
#include "pdf/metadata_json.h"

namespace kvlens::pdf {

nlohmann::json metadata_to_json(const metadata& m) {
    return {{"title", m.title},
            {"author", m.author},
            {"subject", m.subject},
            {"keywords", m.keywords},
            {"creator", m.creator},
            {"producer", m.producer},
            {"creation_date", m.creation_date},
            {"modification_date", m.modification_date},
            {"pdf_version", m.pdf_version},
            {"page_count", m.page_count},
            {"encrypted", m.encrypted}};
}

}  // namespace kvlens::pdf
