// SPDX-License-Identifier: Apache-2.0
// make_backend(): which backend runs a model ("cpu", "cuda" or "auto"), and
// why, decided in one place for the engine and the CLI.
#include "engine/backend/backend.h"

#include <fmt/format.h>

namespace kvlens {

result<chosen_backend> make_backend(const model& m, const backend_options& o, const std::string& choice) {
    if (choice != "cpu" && choice != "cuda" && choice != "auto")
        return make_error(fmt::format("unknown backend '{}' (cpu, cuda or auto)", choice));
    chosen_backend out;
    std::string why_not_cuda;
    if (choice != "cpu") {
#if KVLENS_HAVE_CUDA
        auto b = make_cuda_backend(m, o);
        if (b) out.b = std::move(*b);
        else if (choice == "cuda") return make_error(fmt::format("CUDA backend: {}", b.message()));
        else why_not_cuda = b.message();
#else
        if (choice == "cuda") return make_error("this build of kvlens has no CUDA backend (built with KVLENS_CUDA=OFF)");
        why_not_cuda = "built without CUDA";
#endif
    }
    if (!out.b) {
        auto b = make_cpu_backend(m, o);
        if (!b) return b.err();
        out.b = std::move(*b);
    }
    out.description = out.b->description();
    if (choice == "auto" && !why_not_cuda.empty())
        out.description += fmt::format(" (auto: CUDA unavailable: {})", why_not_cuda);
    return out;
}

}  // namespace kvlens
