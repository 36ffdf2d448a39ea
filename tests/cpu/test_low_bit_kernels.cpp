// SPDX-License-Identifier: Apache-2.0
// The SIMD dot products of the 1- to 3-bit types (IQ2_XXS .. IQ1_M, TQ1_0,
// TQ2_0, against q8_K) and MXFP4 (against q8_0) against the scalar reference
// (quants_scalar_low_bit.cpp), at every SIMD kernel level this CPU has:
//   - on random blocks (every bit of grid indices, signs, sub-scales and
//     trits random; f16 scales small and of either sign; MXFP4 exponents
//     115..130) the table's vec_dot equals the scalar one within
//     n * 2^-24 * sum |w a| (w the scalar dequantized weights, a the
//     dequantized activations);
//   - a block changed in one field (a sign bit, a sub-scale, a grid index
//     bit, a shift, a trit, an exponent) changes the SIMD result as it
//     changes the scalar one, so a kernel that ignores the field fails.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "common/fp16.h"
#include "engine/backend/cpu/kernels.h"
#include "engine/backend/cpu/matmul.h"
#include "engine/backend/cpu/thread_pool.h"
#include "engine/quant/quant_blocks_low_bit.h"
#include "tests/support/attention_run.h"
#include "tests/support/kernel_level_test.h"
#include "tests/support/table_rows.h"

using namespace kvlens;

namespace {

const ggml_type k_types[] = {ggml_type::iq2_xxs, ggml_type::iq2_xs, ggml_type::iq2_s, ggml_type::iq3_xxs,
                             ggml_type::iq3_s,   ggml_type::iq1_s,  ggml_type::iq1_m, ggml_type::tq1_0,
                             ggml_type::tq2_0,   ggml_type::mxfp4};

bool is_mxfp4(ggml_type t) { return t == ggml_type::mxfp4; }
int block_elements(ggml_type t) { return is_mxfp4(t) ? QK_MXFP4 : QK_K; }
std::int64_t block_bytes(ggml_type t) { return row_bytes(t, block_elements(t)); }

void put_half(std::uint8_t* at, float v) {
    const std::uint16_t h = fp32_to_fp16(v);
    std::memcpy(at, &h, 2);
}

// n elements of t: every byte random, then each block's scale made finite and
// small: d an f16 of magnitude 1e-3 .. 2e-2 and either sign (IQ1_M: spread
// over the top nibbles of its scale words), MXFP4's exponent 115..130.
std::vector<std::uint8_t> random_weights(std::mt19937& rng, ggml_type t, std::int64_t n) {
    std::vector<std::uint8_t> w(static_cast<std::size_t>(row_bytes(t, n)));
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& x : w) x = static_cast<std::uint8_t>(byte(rng));
    std::uniform_real_distribution<float> magnitude(1e-3f, 2e-2f);
    std::uniform_int_distribution<int> exponent(115, 130);
    for (std::int64_t b = 0; b < n / block_elements(t); ++b) {
        std::uint8_t* blk = w.data() + b * block_bytes(t);
        const float d = byte(rng) % 2 ? magnitude(rng) : -magnitude(rng);
        switch (t) {
        case ggml_type::mxfp4: blk[offsetof(block_mxfp4, e)] = static_cast<std::uint8_t>(exponent(rng)); break;
        case ggml_type::tq1_0: put_half(blk + offsetof(block_tq1_0, d), d); break;
        case ggml_type::tq2_0: put_half(blk + offsetof(block_tq2_0, d), d); break;
        case ggml_type::iq1_m: {
            const std::uint16_t h = fp32_to_fp16(d);
            std::uint8_t* scales = blk + offsetof(block_iq1_m, scales);
            for (int k = 0; k < 4; ++k)   // word k's top nibble: bits 4 k .. 4 k + 3 of d
                scales[2 * k + 1] = static_cast<std::uint8_t>((scales[2 * k + 1] & 0x0F) | ((h >> (4 * k)) & 0xF) << 4);
            break;
        }
        default: put_half(blk, d); break;   // the i-quants: d leads the block
        }
    }
    return w;
}

// n activations, 10^U(-3, 1) per 32-element block, quantized to act (q8_K or q8_0).
std::vector<std::uint8_t> random_activations(std::mt19937& rng, ggml_type act, std::int64_t n) {
    std::vector<float> x(static_cast<std::size_t>(n));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> expo(-3.0f, 1.0f);
    for (std::int64_t b = 0; b < n / 32; ++b) {
        const float scale = std::pow(10.0f, expo(rng));
        for (int j = 0; j < 32; ++j) x[static_cast<std::size_t>(32 * b + j)] = normal(rng) * scale;
    }
    std::vector<std::uint8_t> a(static_cast<std::size_t>(row_bytes(act, n)));
    scalar::from_float_for(act)(x.data(), a.data(), n);
    return a;
}

// The activation row as floats: d * q per element.
std::vector<float> dequant_activations(ggml_type act, const std::uint8_t* a, std::int64_t n) {
    std::vector<float> y(static_cast<std::size_t>(n));
    if (act == ggml_type::q8_K) {
        auto* b = reinterpret_cast<const block_q8_K*>(a);
        for (std::int64_t i = 0; i < n; ++i) y[i] = b[i / QK_K].d * b[i / QK_K].qs[i % QK_K];
    } else {
        auto* b = reinterpret_cast<const block_q8_0*>(a);
        for (std::int64_t i = 0; i < n; ++i) y[i] = fp16_to_fp32(b[i / 32].d) * b[i / 32].qs[i % 32];
    }
    return y;
}

// The bound on |simd - scalar|: n * 2^-24 * sum |w a|.
double allowed_error(ggml_type t, const std::uint8_t* w, const std::uint8_t* a, std::int64_t n) {
    const weight_kernels* ks = scalar::kernels_for(t);
    std::vector<float> wf(static_cast<std::size_t>(n));
    ks->to_float(w, wf.data(), n);
    const auto af = dequant_activations(ks->vec_dot_type, a, n);
    double s = 0;
    for (std::int64_t i = 0; i < n; ++i) s += std::fabs(static_cast<double>(wf[i]) * af[i]);
    return static_cast<double>(n) * std::ldexp(1.0, -24) * s;
}

// One field of a block changed: the byte at `offset` xor `flip`, after the
// bits `force` were set in it (before either dot: a sign needs a nonzero level).
struct mutation {
    const char* what;
    std::size_t offset;
    std::uint8_t flip;
    std::uint8_t force = 0;
};

// Per type, fields that each change the dot product (where the activations
// are nonzero), in sub-block 3 (elements 96..127) unless said otherwise.
std::vector<mutation> mutations(ggml_type t) {
    switch (t) {
    case ggml_type::iq2_xxs:   // sub-block 3's words: qs[12..13] grid indices, qs[14..15] signs and s
        return {{"sign bit", offsetof(block_iq2_xxs, qs) + 28, 0x01},
                {"sub-scale", offsetof(block_iq2_xxs, qs) + 31, 0x10},
                {"grid index", offsetof(block_iq2_xxs, qs) + 24, 0x01}};
    case ggml_type::iq2_xs:
        return {{"sign bit", offsetof(block_iq2_xs, qs) + 2 * 12 + 1, 0x02},
                {"sub-scale low half", offsetof(block_iq2_xs, scales) + 3, 0x01},
                {"sub-scale high half", offsetof(block_iq2_xs, scales) + 3, 0x10},
                {"grid index bit 8", offsetof(block_iq2_xs, qs) + 2 * 13 + 1, 0x01}};
    case ggml_type::iq2_s:
        return {{"sign bit", offsetof(block_iq2_s, signs) + 13, 0x04},
                {"sub-scale low half", offsetof(block_iq2_s, scales) + 3, 0x02},
                {"sub-scale high half", offsetof(block_iq2_s, scales) + 3, 0x20},
                {"grid index high bits", offsetof(block_iq2_s, qh) + 3, 0x40}};
    case ggml_type::iq3_xxs:
        return {{"sign bit", offsetof(block_iq3_xxs, scales_signs) + 12, 0x01},
                {"sub-scale", offsetof(block_iq3_xxs, scales_signs) + 15, 0x10},
                {"grid index", offsetof(block_iq3_xxs, grid) + 27, 0x01}};
    case ggml_type::iq3_s:
        return {{"sign bit", offsetof(block_iq3_s, signs) + 14, 0x80},
                {"sub-scale", offsetof(block_iq3_s, scales) + 1, 0x20},
                {"grid index bit 8", offsetof(block_iq3_s, qh) + 3, 0x10}};
    case ggml_type::iq1_s:   // qh[3]: bits 12..14 s, bit 15 the shift's sign
        return {{"shift sign", offsetof(block_iq1_s, qh) + 7, 0x80},
                {"sub-scale", offsetof(block_iq1_s, qh) + 7, 0x10},
                {"grid index high bit", offsetof(block_iq1_s, qh) + 6, 0x08}};
    case ggml_type::iq1_m:   // sub-block 3: qh bytes 6, 7; s of its halves: bits 6..11 of scale word 1
        return {{"shift sign of group 1", offsetof(block_iq1_m, qh) + 6, 0x80},
                {"sub-scale low half", offsetof(block_iq1_m, scales) + 2, 0x40},
                {"sub-scale high half", offsetof(block_iq1_m, scales) + 3, 0x02},
                {"grid index high bit", offsetof(block_iq1_m, qh) + 7, 0x01}};
    case ggml_type::tq1_0:
        return {{"trits of qs[5]", offsetof(block_tq1_0, qs) + 5, 0x40},
                {"trits of qs[40]", offsetof(block_tq1_0, qs) + 40, 0x40},
                {"trits of qh[2]", offsetof(block_tq1_0, qh) + 2, 0x40}};
    case ggml_type::tq2_0:
        return {{"trit of element 128 + 96 + 9", offsetof(block_tq2_0, qs) + 32 + 9, 0x80},
                {"trit of element 2", offsetof(block_tq2_0, qs) + 2, 0x01}};
    case ggml_type::mxfp4:
        return {{"sign of element 20", offsetof(block_mxfp4, qs) + 4, 0x80, 0x10},
                {"level of element 3", offsetof(block_mxfp4, qs) + 3, 0x02},
                {"exponent", offsetof(block_mxfp4, e), 0x01}};
    default: return {};
    }
}

}  // namespace

// Runs each test on the levels this CPU has; puts the best level back.
class LowBitKernels : public test::kernel_level_test {
protected:
    void SetUp() override {
        if (test::simd_levels().empty()) GTEST_SKIP() << "this CPU has no SIMD kernel level";
    }
};

struct dot_row {
    std::string tag;
    std::string level;
    ggml_type type;
    std::int64_t n;
};

std::vector<dot_row> dot_rows() {
    std::vector<dot_row> rows;
    for (const std::string& l : test::simd_levels())
        for (ggml_type t : k_types)
            // MXFP4: every tail of the AVX-512 kernel's 8-block loop (4, 2, 1 blocks left).
            for (int blocks : is_mxfp4(t) ? std::vector<int>{1, 3, 12, 49, 90} : std::vector<int>{1, 6}) {
                const std::int64_t n = std::int64_t{blocks} * block_elements(t);
                rows.push_back({l + " " + type_name(t) + " n=" + std::to_string(n), l, t, n});
            }
    return rows;
}

TEST_F(LowBitKernels, dotEqualsTheScalarReferenceWithinRounding) {
    test::for_each_row(dot_rows(), [](const dot_row& r) {
        ASSERT_TRUE(set_cpu_kernel_level(r.level.c_str()));
        const weight_kernels* k = kernels_for(r.type);
        const weight_kernels* ks = scalar::kernels_for(r.type);
        ASSERT_TRUE(k && ks);
        ASSERT_EQ(k->vec_dot_type, ks->vec_dot_type);
        EXPECT_NE(k->vec_dot, ks->vec_dot) << "no SIMD kernel at this level";
        std::mt19937 rng(1000 + 7 * static_cast<int>(r.type) + static_cast<int>(r.n));
        int bit_equal = 0;
        const int n_rows = 24;
        for (int row = 0; row < n_rows; ++row) {
            const auto w = random_weights(rng, r.type, r.n);
            const auto a = random_activations(rng, ks->vec_dot_type, r.n);
            const float simd = k->vec_dot(r.n, w.data(), a.data());
            const float ref = ks->vec_dot(r.n, w.data(), a.data());
            ASSERT_TRUE(std::isfinite(ref)) << "row " << row;
            const double bound = allowed_error(r.type, w.data(), a.data(), r.n);
            ASSERT_GT(bound, 0) << "row " << row;
            ASSERT_LE(std::fabs(static_cast<double>(simd) - ref), bound)
                << "row " << row << ": simd " << simd << ", scalar " << ref;
            bit_equal += std::memcmp(&simd, &ref, sizeof simd) == 0;
        }
        std::printf("%-28s %2d of %d rows bit-equal\n", r.tag.c_str(), bit_equal, n_rows);
    });
}

struct mutation_row {
    std::string tag;
    std::string level;
    ggml_type type;
    mutation change;
};

std::vector<mutation_row> mutation_rows() {
    std::vector<mutation_row> rows;
    for (const std::string& l : test::simd_levels())
        for (ggml_type t : k_types)
            for (const mutation& m : mutations(t))
                rows.push_back({l + " " + type_name(t) + " " + m.what, l, t, m});
    return rows;
}

// Rows of 3 blocks (MXFP4: 6, so the change lands in a group of 4 the kernel
// takes together), block 1 changed, against activations of magnitudes
// 0.5 .. 1 (every q nonzero, so every field counts).
TEST_F(LowBitKernels, aChangedFieldChangesTheSimdDotAsTheScalarOne) {
    const auto rows = mutation_rows();
    ASSERT_FALSE(rows.empty());
    test::for_each_row(rows, [](const mutation_row& r) {
        ASSERT_TRUE(set_cpu_kernel_level(r.level.c_str()));
        const weight_kernels* k = kernels_for(r.type);
        const weight_kernels* ks = scalar::kernels_for(r.type);
        ASSERT_TRUE(k && ks);
        const std::int64_t n = (is_mxfp4(r.type) ? 6 : 3) * block_elements(r.type);
        std::mt19937 rng(99 + static_cast<int>(r.type));
        auto w = random_weights(rng, r.type, n);
        std::vector<float> x(static_cast<std::size_t>(n));
        std::uniform_real_distribution<float> magnitude(0.5f, 1.0f);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % 3 ? magnitude(rng) : -magnitude(rng);
        std::vector<std::uint8_t> a(static_cast<std::size_t>(row_bytes(ks->vec_dot_type, n)));
        scalar::from_float_for(ks->vec_dot_type)(x.data(), a.data(), n);

        std::uint8_t& field = w[static_cast<std::size_t>(block_bytes(r.type)) + r.change.offset];
        field |= r.change.force;
        const float simd = k->vec_dot(n, w.data(), a.data());
        const float ref = ks->vec_dot(n, w.data(), a.data());
        field ^= r.change.flip;
        const float simd_changed = k->vec_dot(n, w.data(), a.data());
        const float ref_changed = ks->vec_dot(n, w.data(), a.data());
        ASSERT_NE(ref_changed, ref) << "the change does not move the scalar dot";
        const double bound = allowed_error(r.type, w.data(), a.data(), n);
        EXPECT_LE(std::fabs(static_cast<double>(simd) - ref), bound);
        EXPECT_LE(std::fabs(static_cast<double>(simd_changed) - ref_changed), bound)
            << "simd " << simd << " -> " << simd_changed << ", scalar " << ref << " -> " << ref_changed;
        EXPECT_NE(simd_changed, simd);
    });
}

// Prefill's product of these types (matmul_dequant.cpp): rows decoded to f16
// (MXFP4: bf16, exact) once per chunk, the activations rounded to q8_K (MXFP4:
// q8_0) as vec_dot rounds them, the float tiles. Each output is the exact
// product of the decoded weights and those activations within the weights'
// f16 rounding (2^-11 of each; none for MXFP4) and f32 summation (n 2^-24),
// of sum |w a|; decode (one token) keeps the dot per pair, bit for bit.
struct prefill_row {
    std::string tag;
    std::string level;
    ggml_type type;
};

std::vector<prefill_row> prefill_rows() {
    std::vector<prefill_row> rows;
    for (const std::string& l : test::simd_levels())
        for (ggml_type t : k_types)
            if (dequant_prefill_type(t)) rows.push_back({l + " " + type_name(t), l, t});
    return rows;
}

TEST_F(LowBitKernels, prefillDecodesRowsOnceAndMultipliesWithinTheirF16Rounding) {
    const auto rows = prefill_rows();
    ASSERT_EQ(rows.size(), 9u * test::simd_levels().size());   // every type but TQ2_0
    thread_pool pool(2);
    test::for_each_row(rows, [&](const prefill_row& r) {
        ASSERT_TRUE(set_cpu_kernel_level(r.level.c_str()));
        const weight_kernels* ks = scalar::kernels_for(r.type);
        const std::int64_t n_in = 2 * QK_K, n_out = 37, n_tok = 13;   // rows and tokens past whole tiles
        const ggml_type act = ks->vec_dot_type;   // q8_K, q8_0 for MXFP4
        const double stored_rounding = r.type == ggml_type::mxfp4 ? 0.0 : std::ldexp(1.0, -11);
        std::mt19937 rng(77 + static_cast<int>(r.type));
        std::vector<std::uint8_t> wbytes;
        for (std::int64_t o = 0; o < n_out; ++o) {
            auto row = random_weights(rng, r.type, n_in);
            // MXFP4 scales far outside f16's range (2^-47, 2^43): bf16 holds them, f16 would not.
            if (r.type == ggml_type::mxfp4)
                for (std::int64_t b = o % 3; b < n_in / QK_MXFP4; b += 3)
                    row[static_cast<std::size_t>(b * block_bytes(r.type) + offsetof(block_mxfp4, e))] = b % 2 ? 80 : 170;
            wbytes.insert(wbytes.end(), row.begin(), row.end());
        }
        weight_view w;
        w.type = r.type;
        w.data = wbytes.data();
        w.n_in = n_in;
        w.n_out = n_out;
        w.row_bytes = row_bytes(r.type, n_in);
        std::vector<float> x(static_cast<std::size_t>(n_tok * n_in));
        std::normal_distribution<float> normal(0.0f, 1.0f);
        for (float& v : x) v = normal(rng);
        std::vector<float> y(static_cast<std::size_t>(n_tok * n_out), NAN);
        matmul_scratch scratch;
        ASSERT_TRUE(matmul_dequant(w, x.data(), n_tok, y.data(), pool, scratch)) << "the path is not taken";
        std::vector<std::uint8_t> a(static_cast<std::size_t>(row_bytes(act, n_in)));
        std::vector<float> wf(static_cast<std::size_t>(n_in));
        for (std::int64_t t = 0; t < n_tok; ++t) {
            from_float_for(act)(x.data() + t * n_in, a.data(), n_in);
            const auto af = dequant_activations(act, a.data(), n_in);
            for (std::int64_t o = 0; o < n_out; ++o) {
                ks->to_float(w.data + o * w.row_bytes, wf.data(), n_in);
                double exact = 0, magnitude = 0;
                for (std::int64_t i = 0; i < n_in; ++i) {
                    exact += static_cast<double>(wf[i]) * af[i];
                    magnitude += std::fabs(static_cast<double>(wf[i]) * af[i]);
                }
                const double bound = (stored_rounding + n_in * std::ldexp(1.0, -24)) * magnitude;
                ASSERT_LE(std::fabs(y[t * n_out + o] - exact), bound) << "token " << t << ", row " << o;
            }
        }
        // Decode's class keeps the dot per pair.
        std::vector<float> y1(static_cast<std::size_t>(n_out));
        matmul(w, x.data(), 1, y1.data(), pool, scratch, 1);
        from_float_for(act)(x.data(), a.data(), n_in);
        for (std::int64_t o = 0; o < n_out; ++o)
            ASSERT_EQ(y1[o], kernels_for(r.type)->vec_dot(n_in, w.data + o * w.row_bytes, a.data())) << "row " << o;
    });
}
