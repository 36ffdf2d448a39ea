// SPDX-License-Identifier: Apache-2.0
// Choosing the backend: a CUDA backend that cannot run is never an error but
// the CPU with a sentence saying why (the sizes that did not fit), an unknown
// name is an error, and the memory figures the window's chart reads match the
// engine's own byte counts.
#include <QtTest>

#include "engine/backend/backend.h"
#include "engine/runtime/engine.h"
#include "tests/support/tiny_model.h"

using namespace kvlens;

namespace {

constexpr std::int64_t GiB = 1024LL * 1024 * 1024;

result<std::unique_ptr<engine>> make(const std::string& backend) {
    engine_options o;
    o.model_path = test::tiny_model_path();
    o.backend = backend;
    o.n_ctx = 256;
    return engine::create(o);
}

}  // namespace

class BackendChoiceTest : public QObject {
    Q_OBJECT
private slots:
    void aMisfitNamesTheWeightsTheKvPoolAndTheFreeMemory() {
        const auto why = device_misfit(21 * GiB / 10, GiB, GiB / 2, 16 * GiB);
        QVERIFY(why.has_value());
        QCOMPARE(QString::fromStdString(*why),
                 QStringLiteral("2.1 GiB of weights + 1.0 GiB KV pool do not fit in 0.5 GiB free of 16.0 GiB"));
    }

    void weightsAndPoolThatFitExactlyAreNoMisfit() {
        QVERIFY(!device_misfit(3 * GiB, GiB, 4 * GiB, 16 * GiB).has_value());
        QVERIFY(device_misfit(3 * GiB, GiB + 1, 4 * GiB, 16 * GiB).has_value());
    }

    void sizesBelowATenthOfAGibAreInMib() {
        QCOMPARE(QString::fromStdString(*device_misfit(3 << 19, 2 << 20, 1 << 20, 16 * GiB)),
                 QStringLiteral("1.5 MiB of weights + 2.0 MiB KV pool do not fit in 1.0 MiB free of 16.0 GiB"));
    }

    void askingForCudaWhereItCannotRunGivesTheCpuAndTheReason() {
        auto e = make("cuda");
        QVERIFY2(static_cast<bool>(e), e ? "" : e.message().c_str());
        if ((*e)->device_memory().on_device) QSKIP("a CUDA device runs here: nothing to fall back from");
        const QString why = QString::fromStdString((*e)->backend_fallback());
        QVERIFY2(why.startsWith(QStringLiteral("cuda: ")), qPrintable(why));
        QVERIFY2(why.endsWith(QStringLiteral("; using the CPU")), qPrintable(why));
        const QString desc = QString::fromStdString((*e)->backend_description());
        QVERIFY2(desc.startsWith(QStringLiteral("cpu")) && desc.contains(why), qPrintable(desc));
    }

    void theCpuAskedForHasNoFallback() {
        auto e = make("cpu");
        QVERIFY(static_cast<bool>(e));
        QCOMPARE(QString::fromStdString((*e)->backend_fallback()), QString());
    }

    void anUnknownBackendIsAnErrorThatNamesIt() {
        auto e = make("tpu");
        QVERIFY(!static_cast<bool>(e));
        QVERIFY2(QString::fromStdString(e.message()).contains(QStringLiteral("'tpu'")), e.message().c_str());
    }

    void theCpuMemoryFiguresAreTheEnginesByteCountsInHostMemory() {
        auto e = make("cpu");
        QVERIFY(static_cast<bool>(e));
        const memory_figures f = (*e)->device_memory();
        QVERIFY(!f.on_device);
        QCOMPARE(QString::fromStdString(f.device), QStringLiteral("host memory"));
        QVERIFY(f.weight_bytes > 0 && f.kv_bytes > 0);
        QCOMPARE(f.weight_bytes, (*e)->weight_bytes());
        QCOMPARE(f.kv_bytes, (*e)->kv_pool_bytes());
        QCOMPARE(f.scratch_bytes, (*e)->scratch_bytes());
        QCOMPARE(f.free_bytes, std::int64_t{0});
        QCOMPARE(f.total_bytes, std::int64_t{0});
    }
};

QTEST_GUILESS_MAIN(BackendChoiceTest)
#include "test_backend_choice.moc"
