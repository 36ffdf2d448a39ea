// SPDX-License-Identifier: Apache-2.0
// Per-kernel timings from CUDA events, the profile scripts/gpu-check prints
// where nsys / ncu are absent. With KVLENS_CUDA_PROFILE=FILE in the
// environment the backend marks the stream after every operation of a
// forward pass (CUDA graphs off, so the marks are real launches); the time
// between two marks is the operation that ended at the second. Totals per
// (phase, operation) are written to FILE as a table when the backend closes:
//   phase   operation        calls   total ms   mean us   share
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>

namespace kvlens {

class kernel_timer {
public:
    // The timer KVLENS_CUDA_PROFILE asks for, or nullptr.
    static std::unique_ptr<kernel_timer> from_env();
    explicit kernel_timer(std::string path) : path_(std::move(path)) {}
    ~kernel_timer();   // writes the table
    kernel_timer(const kernel_timer&) = delete;
    kernel_timer& operator=(const kernel_timer&) = delete;

    void begin(const char* phase, cudaStream_t s);   // "prefill" or "decode"; records the first mark
    void mark(const char* op, cudaStream_t s);       // the operation just enqueued ends here
    void end();                                      // after the stream synchronized: adds the intervals
    std::string table() const;

private:
    struct total {
        int calls = 0;
        double ms = 0;
    };
    cudaEvent_t event_at(std::size_t i);
    std::string path_;
    const char* phase_ = "";
    std::vector<cudaEvent_t> events_;   // reused; a step uses the first used_
    std::vector<const char*> ops_;      // (used_) the op ending at each mark; [0] unused
    std::size_t used_ = 0;
    std::map<std::pair<std::string, std::string>, total> totals_;
};

}  // namespace kvlens
