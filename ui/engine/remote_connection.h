// SPDX-License-Identifier: Apache-2.0
// The window's side of a remote engine (issue 17): the remote options from the
// engine settings (the API key read from its file or $KVLENS_API_KEY at that
// moment, kept in memory only, never in QSettings, run.json or a message), the
// engine itself, and the Settings dialog's "Test connection": a blocking call
// meant for a worker thread that reports the server, its models, the chosen
// model's context, or the named error.
#pragma once

#include <QString>
#include <QStringList>
#include <memory>

#include "common/result.h"
#include "ui/model/run_config.h"

namespace kvlens {
class engine;
namespace remote {
struct remote_options;
}
}

namespace kvlens::ui {

// The key: the first line of `file` (trimmed); "" file: $KVLENS_API_KEY; none: "".
kvlens::result<std::string> readApiKey(const QString& file);

// Options for remote::connect from the settings (URL, model, key, stall
// timeout, parallel requests; token counts from the engine's byte-level
// stand-in, an upper bound: the local model file may be another model).
// Errors: no URL, an unreadable key file.
kvlens::result<kvlens::remote::remote_options> remoteOptionsFor(const EngineSettings& s);

// remoteOptionsFor + remote::connect.
kvlens::result<std::unique_ptr<kvlens::engine>> connectRemote(const EngineSettings& s);

struct ConnectionReport {
    bool ok = false;
    QString error;          // why not, as the engine names it (refused, 401 with the server's message, ...)
    QString server;         // the engine's description: URL, server kind, /metrics
    QString model;          // the model a run will use
    QStringList models;     // every model /v1/models lists
    int contextTokens = 0;  // per request, 0: the server does not say
};

// Blocks for up to the connect timeout: call it off the GUI thread.
ConnectionReport testConnection(const EngineSettings& s);

}  // namespace kvlens::ui
