// SPDX-License-Identifier: Apache-2.0
// The one place that turns "cpu" / "cuda" / "auto" into a running backend
// (see backend_choice.h): CUDA first when asked for or "auto", its failure
// kept as a sentence, the CPU after.
#include "engine/runtime/backend_choice.h"

#include <fmt/format.h>

#include "engine/model/model.h"

namespace kvlens {

namespace {

// "2.1 GiB", or below a tenth of a GiB "3.4 MiB".
std::string size_text(std::int64_t b) {
    const double mib = static_cast<double>(b) / (1024.0 * 1024.0);
    return mib >= 102.4 ? fmt::format("{:.1f} GiB", mib / 1024.0) : fmt::format("{:.1f} MiB", mib);
}

// A backend with its KV storage, or the reason it cannot hold the pool.
result<std::unique_ptr<backend>> with_kv(result<std::unique_ptr<backend>> b, const backend_request& r) {
    if (!b) return b;
    if (auto st = (*b)->init_kv(r.kv, r.kv_blocks); !st)
        return make_error(fmt::format("KV pool of {} blocks: {}", r.kv_blocks, st.message()));
    return b;
}

}  // namespace

std::optional<std::string> device_misfit(std::int64_t weight_bytes, std::int64_t kv_bytes, std::int64_t free_bytes,
                                         std::int64_t total_bytes) {
    if (weight_bytes + kv_bytes <= free_bytes) return std::nullopt;
    return fmt::format("{} of weights + {} KV pool do not fit in {} free of {}", size_text(weight_bytes),
                       size_text(kv_bytes), size_text(free_bytes), size_text(total_bytes));
}

result<backend_choice> choose_backend(const model& m, const backend_request& r) {
    if (r.which != "cpu" && r.which != "cuda" && r.which != "auto")
        return make_error(fmt::format("unknown backend '{}' (cpu, cuda or auto)", r.which));
    backend_options o = r.options;
    o.kv_pool_bytes = r.kv.blocks_bytes(r.kv_blocks);
    backend_choice c;
    if (r.which != "cpu") {
#if KVLENS_HAVE_CUDA
        auto b = with_kv(make_cuda_backend(m, o), r);
        if (b) {
            c.chosen = std::move(*b);
            return c;
        }
        c.fallback = fmt::format("cuda: {}; using the CPU", b.message());
#else
        if (r.which == "cuda") c.fallback = "cuda: this build has no CUDA backend (built with KVLENS_CUDA=OFF); using the CPU";
#endif
    }
    auto b = with_kv(make_cpu_backend(m, o), r);
    if (!b) return c.fallback.empty() ? b.err() : make_error(fmt::format("{}; and the CPU: {}", c.fallback, b.message()));
    c.chosen = std::move(*b);
    return c;
}

}  // namespace kvlens
