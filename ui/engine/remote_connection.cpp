// SPDX-License-Identifier: Apache-2.0
// Remote engine options, connection and the connection test (see remote_connection.h).
#include "ui/engine/remote_connection.h"

#include <QFile>

#include "engine/remote/http_client.h"
#include "engine/remote/openai_protocol.h"
#include "engine/remote/remote_engine.h"
#include "engine/runtime/engine.h"

namespace kvlens::ui {

namespace {
QString fromStd(const std::string& s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
}  // namespace

kvlens::result<std::string> readApiKey(const QString& file)
{
    QByteArray key;
    if (!file.isEmpty()) {
        QFile f(file);
        if (!f.open(QIODevice::ReadOnly))
            return kvlens::make_error("cannot read the API key file '" + file.toStdString() + "': "
                                      + f.errorString().toStdString());
        key = f.readLine(64 * 1024);
    } else {
        key = qgetenv("KVLENS_API_KEY");
    }
    key = key.trimmed();
    for (const char c : key) {
        if (static_cast<unsigned char>(c) < 0x20)
            return kvlens::make_error("the API key contains a control character");
    }
    return key.toStdString();
}

kvlens::result<kvlens::remote::remote_options> remoteOptionsFor(const EngineSettings& s)
{
    if (s.remoteUrl.trimmed().isEmpty())
        return kvlens::make_error("no server URL (Settings → Engine → Remote server)");
    auto key = readApiKey(s.apiKeyFile);
    if (!key)
        return kvlens::make_error(key.message());
    kvlens::remote::remote_options o;
    o.url = s.remoteUrl.trimmed().toStdString();
    o.api_key = std::move(*key);
    o.model = s.remoteModel.trimmed().toStdString();
    o.parallel = std::max(1, s.parallel);
    o.stall_timeout_s = s.stallTimeoutS > 0 ? s.stallTimeoutS : 60;
    return o;
}

kvlens::result<std::unique_ptr<kvlens::engine>> connectRemote(const EngineSettings& s)
{
    auto o = remoteOptionsFor(s);
    if (!o)
        return kvlens::make_error(o.message());
    return kvlens::remote::connect(*o);
}

ConnectionReport testConnection(const EngineSettings& s)
{
    ConnectionReport r;
    auto o = remoteOptionsFor(s);
    if (!o) {
        r.error = fromStd(o.message());
        return r;
    }
    // The list of models first, without the model check, so that a wrong name
    // still fills the dialog's list.
    std::string base, why;
    if (kvlens::remote::normalize_base_url(o->url, base, why)) {
        kvlens::remote::http_request req;
        req.url = base + "/v1/models";
        if (!o->api_key.empty())
            req.headers.push_back("Authorization: Bearer " + o->api_key);
        req.connect_timeout_s = o->connect_timeout_s;
        req.total_timeout_s = o->connect_timeout_s + 5;
        req.max_bytes = 4u << 20;
        const auto got = kvlens::remote::http_fetch(req);
        if (got.ok()) {
            if (auto listing = kvlens::remote::parse_models(got.body)) {
                for (const std::string& id : listing->ids)
                    r.models.append(fromStd(id));
            }
        }
    }
    o->metrics_poll_s = 0.25;   // so the description says whether /metrics answers
    auto engine = kvlens::remote::connect(*o);
    if (!engine) {
        r.error = fromStd(engine.message());
        return r;
    }
    r.ok = true;
    r.server = fromStd((*engine)->backend_description());
    r.model = fromStd((*engine)->info().name);
    r.contextTokens = (*engine)->context_length();
    return r;
}

}  // namespace kvlens::ui
