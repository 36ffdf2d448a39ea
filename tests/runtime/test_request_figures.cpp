// SPDX-License-Identifier: Apache-2.0
// figures_of(): every figure of a request from its recorded moments. TTFT's
// four segments are the gaps between consecutive moments, so they add up to
// TTFT; a moment not reached gives 0, never a negative or a remainder.
#include <gtest/gtest.h>

#include "engine/metrics/request_figures.h"

using kvlens::figures_of;
using kvlens::request_figures;
using kvlens::request_timeline;

namespace {

// Arrival at 0; 7.5 ms in the queue, 100 ms prefill (wall), 0.75 ms to
// sample, 200 ms for 10 more tokens.
request_timeline finished_request() {
    return {.tokenized_ms = 2.5, .scheduled_ms = 10.0, .prefill_done_ms = 110.0, .first_token_ms = 110.75,
            .first_visible_ms = 150.0, .last_token_ms = 310.75, .end_ms = 311.0,
            .prompt_tokens = 100, .cached_tokens = 20, .computed_tokens = 80, .generated_tokens = 11,
            .prefill_forward_ms = 80.0, .prefill_flop = 8e9, .decode_bytes = 1e9,
            .prefill_bytes = 4e8, .decode_flop = 2e9};
}

}  // namespace

TEST(RequestFigures, TtftSegmentsAreTheGapsBetweenMomentsAndAddUp) {
    const request_figures f = figures_of(finished_request());
    EXPECT_DOUBLE_EQ(f.tokenize_ms, 2.5);
    EXPECT_DOUBLE_EQ(f.queue_ms, 7.5);   // tokenized -> scheduled: tokenize is not in it
    EXPECT_DOUBLE_EQ(f.prefill_ms, 100.0);
    EXPECT_DOUBLE_EQ(f.first_sample_ms, 0.75);
    EXPECT_DOUBLE_EQ(f.ttft_ms, 110.75);
    EXPECT_DOUBLE_EQ(f.tokenize_ms + f.queue_ms + f.prefill_ms + f.first_sample_ms, f.ttft_ms);
    EXPECT_DOUBLE_EQ(f.ttft_visible_ms, 150.0);
    EXPECT_DOUBLE_EQ(f.e2e_ms, 311.0);
}

TEST(RequestFigures, DecodeRatesCountTheTokensAfterTheFirst) {
    const request_figures f = figures_of(finished_request());
    EXPECT_DOUBLE_EQ(f.decode_ms, 200.0);
    EXPECT_DOUBLE_EQ(f.tpot_ms, 20.0);
    EXPECT_DOUBLE_EQ(f.decode_tok_s, 50.0);
    EXPECT_DOUBLE_EQ(f.decode_bytes_s, 5e9);
    // Prefill throughput over its forward passes, not the wall segment.
    EXPECT_DOUBLE_EQ(f.prefill_tok_s, 1000.0);
    EXPECT_DOUBLE_EQ(f.prefill_flop_s, 1e11);
    // Counted, passed on as recorded (the roofline divides them).
    EXPECT_DOUBLE_EQ(f.prefill_bytes, 4e8);
    EXPECT_DOUBLE_EQ(f.decode_flop, 2e9);
}

TEST(RequestFigures, ARequestCancelledInTheQueueHasOnlyTokenizeAndQueue) {
    request_timeline t;
    t.tokenized_ms = 1.0;
    t.end_ms = 41.0;
    t.prompt_tokens = 5;
    const request_figures f = figures_of(t);
    EXPECT_DOUBLE_EQ(f.tokenize_ms, 1.0);
    EXPECT_DOUBLE_EQ(f.queue_ms, 40.0);   // it waited until it ended
    EXPECT_EQ(f.prefill_ms, 0.0);
    EXPECT_EQ(f.first_sample_ms, 0.0);
    EXPECT_EQ(f.ttft_ms, 0.0);
    EXPECT_EQ(f.decode_ms, 0.0);
    EXPECT_EQ(f.tpot_ms, 0.0);
    EXPECT_DOUBLE_EQ(f.e2e_ms, 41.0);
}

TEST(RequestFigures, OneGeneratedTokenHasNoDecodeRate) {
    request_timeline t = finished_request();
    t.generated_tokens = 1;
    t.last_token_ms = t.first_token_ms;
    const request_figures f = figures_of(t);
    EXPECT_EQ(f.decode_ms, 0.0);
    EXPECT_EQ(f.decode_tok_s, 0.0);
    EXPECT_EQ(f.tpot_ms, 0.0);
}
