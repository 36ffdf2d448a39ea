// SPDX-License-Identifier: Apache-2.0
// CUDA-event timings per operation (see kernel_timer.h).
#include "engine/backend/cuda/kernel_timer.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

namespace kvlens {

std::unique_ptr<kernel_timer> kernel_timer::from_env() {
    const char* p = std::getenv("KVLENS_CUDA_PROFILE");
    if (!p || !*p) return nullptr;
    return std::make_unique<kernel_timer>(p);
}

kernel_timer::~kernel_timer() {
    if (std::FILE* f = std::fopen(path_.c_str(), "w")) {
        std::fputs(table().c_str(), f);
        std::fclose(f);
    }
    for (cudaEvent_t e : events_) cudaEventDestroy(e);
}

cudaEvent_t kernel_timer::event_at(std::size_t i) {
    while (events_.size() <= i) {
        cudaEvent_t e = nullptr;
        if (cudaEventCreateWithFlags(&e, cudaEventDefault) != cudaSuccess) return nullptr;
        events_.push_back(e);
    }
    return events_[i];
}

void kernel_timer::begin(const char* phase, cudaStream_t s) {
    phase_ = phase;
    used_ = 0;
    ops_.clear();
    mark("", s);
}

void kernel_timer::mark(const char* op, cudaStream_t s) {
    cudaEvent_t e = event_at(used_);
    if (!e || cudaEventRecord(e, s) != cudaSuccess) return;   // a lost mark merges two intervals
    ops_.push_back(op);
    ++used_;
}

void kernel_timer::end() {
    for (std::size_t i = 1; i < used_; ++i) {
        float ms = 0;
        if (cudaEventElapsedTime(&ms, events_[i - 1], events_[i]) != cudaSuccess) continue;
        total& t = totals_[{phase_, ops_[i]}];
        ++t.calls;
        t.ms += ms;
    }
    used_ = 0;
}

std::string kernel_timer::table() const {
    std::string out = fmt::format("{:<8} {:<22} {:>7} {:>10} {:>9} {:>6}\n", "phase", "operation", "calls", "total ms",
                                  "mean us", "share");
    std::map<std::string, double> phase_ms;
    for (const auto& [key, t] : totals_) phase_ms[key.first] += t.ms;
    std::vector<std::pair<std::pair<std::string, std::string>, total>> rows(totals_.begin(), totals_.end());
    std::sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.first.first != b.first.first ? a.first.first > b.first.first : a.second.ms > b.second.ms;
    });
    for (const auto& [key, t] : rows) {
        const double all = phase_ms[key.first];
        out += fmt::format("{:<8} {:<22} {:>7} {:>10.2f} {:>9.1f} {:>5.1f}%\n", key.first, key.second, t.calls, t.ms,
                           1e3 * t.ms / std::max(1, t.calls), all > 0 ? 100.0 * t.ms / all : 0.0);
    }
    return out;
}

}  // namespace kvlens
