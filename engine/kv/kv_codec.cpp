// SPDX-License-Identifier: Apache-2.0
// Row codecs of the KV cache (see kv_codec.h): f16, q8_0 and f32, portable code,
// with an F16C path for f16 on x86 CPUs that have it (checked at run time).
#include "engine/kv/kv_codec.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/fp16.h"

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define KVLENS_KV_F16C 1   // an F16C path, chosen at run time when the CPU has it
#endif

namespace kvlens {

namespace {

void store_f16_portable(const float* src, std::uint8_t* dst, int n)
{
    for (int i = 0; i < n; ++i) {
        const std::uint16_t h = fp32_to_fp16(src[i]);
        std::memcpy(dst + 2 * i, &h, 2);
    }
}

void load_f16_portable(const std::uint8_t* src, float* dst, int n)
{
    for (int i = 0; i < n; ++i) {
        std::uint16_t h;
        std::memcpy(&h, src + 2 * i, 2);
        dst[i] = fp16_to_fp32(h);
    }
}

#ifdef KVLENS_KV_F16C
// Same results as the portable code (both round to nearest even), 8 at a time.
__attribute__((target("avx,f16c"))) void store_f16_f16c(const float* src, std::uint8_t* dst, int n)
{
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + 2 * i), h);
    }
    store_f16_portable(src + i, dst + 2 * i, n - i);
}

__attribute__((target("avx,f16c"))) void load_f16_f16c(const std::uint8_t* src, float* dst, int n)
{
    int i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * i));
        _mm256_storeu_ps(dst + i, _mm256_cvtph_ps(h));
    }
    load_f16_portable(src + 2 * i, dst + i, n - i);
}

bool cpu_has_f16c()
{
#if defined(__clang__) && __clang_major__ < 15
    static const bool has = false;  // clang 14 (the fuzz build) cannot ask for f16c: the portable path serves
#else
    static const bool has = __builtin_cpu_supports("avx") && __builtin_cpu_supports("f16c");
#endif
    return has;
}
#endif

void store_f16(const float* src, std::uint8_t* dst, int n)
{
#ifdef KVLENS_KV_F16C
    if (cpu_has_f16c())
        return store_f16_f16c(src, dst, n);
#endif
    store_f16_portable(src, dst, n);
}

void load_f16(const std::uint8_t* src, float* dst, int n)
{
#ifdef KVLENS_KV_F16C
    if (cpu_has_f16c())
        return load_f16_f16c(src, dst, n);
#endif
    load_f16_portable(src, dst, n);
}

// roundf() for |v| <= 2^23 (here |v| <= ~127.1), without a libm call: v - trunc(v) is exact.
inline std::int32_t round_half_away(float v)
{
    const std::int32_t i = static_cast<std::int32_t>(v);
    const float frac = v - static_cast<float>(i);
    return i + static_cast<std::int32_t>(frac >= 0.5f) - static_cast<std::int32_t>(frac <= -0.5f);  // no branch: data is random
}

// One q8_0 block: 32 floats -> 34 bytes.
void store_q8_0_block(const float* x, std::uint8_t* out)
{
    // Eight running maxima: independent chains the compiler can keep in one vector.
    float m[8] = {};
    for (int j = 0; j < q8_0_block_elems; j += 8)
        for (int k = 0; k < 8; ++k)
            m[k] = std::max(m[k], std::fabs(x[j + k]));
    float amax = 0.0f;
    for (float v : m)
        amax = std::max(amax, v);
    // The scale is stored as f16, so quantize against the stored value: the
    // reconstruction error is then bounded by half the scale actually used.
    const float d = std::min(amax / 127.0f, 65504.0f);
    const std::uint16_t d16 = fp32_to_fp16(d);
    const float dq = fp16_to_fp32(d16);
    const float id = dq != 0.0f ? 1.0f / dq : 0.0f;
    std::memcpy(out, &d16, 2);
    for (int j = 0; j < q8_0_block_elems; ++j) {
        const std::int32_t q = std::clamp(round_half_away(x[j] * id), -127, 127);
        out[2 + j] = static_cast<std::uint8_t>(static_cast<std::int8_t>(q));
    }
}

void load_q8_0_block(const std::uint8_t* in, float* y)
{
    std::uint16_t d16;
    std::memcpy(&d16, in, 2);
    const float d = fp16_to_fp32(d16);
    for (int j = 0; j < q8_0_block_elems; ++j)
        y[j] = d * static_cast<float>(static_cast<std::int8_t>(in[2 + j]));
}

}  // namespace

bool row_elems_valid(kv_dtype dtype, int n)
{
    if (n <= 0)
        return false;
    return dtype != kv_dtype::q8_0 || n % q8_0_block_elems == 0;
}

std::int64_t row_bytes(kv_dtype dtype, int n)
{
    if (dtype == kv_dtype::q8_0)
        return static_cast<std::int64_t>(n / q8_0_block_elems) * q8_0_block_bytes;
    return static_cast<std::int64_t>(n) * (dtype == kv_dtype::f32 ? 4 : 2);
}

bool store_row(kv_dtype dtype, const float* src, std::uint8_t* dst, int n)
{
    if (!row_elems_valid(dtype, n))
        return false;
    if (dtype == kv_dtype::f16) {
        store_f16(src, dst, n);
        return true;
    }
    if (dtype == kv_dtype::f32) {
        std::memcpy(dst, src, static_cast<std::size_t>(n) * 4);
        return true;
    }
    for (int b = 0; b < n / q8_0_block_elems; ++b)
        store_q8_0_block(src + b * q8_0_block_elems, dst + b * q8_0_block_bytes);
    return true;
}

bool load_row(kv_dtype dtype, const std::uint8_t* src, float* dst, int n)
{
    if (!row_elems_valid(dtype, n))
        return false;
    if (dtype == kv_dtype::f16) {
        load_f16(src, dst, n);
        return true;
    }
    if (dtype == kv_dtype::f32) {
        std::memcpy(dst, src, static_cast<std::size_t>(n) * 4);
        return true;
    }
    for (int b = 0; b < n / q8_0_block_elems; ++b)
        load_q8_0_block(src + b * q8_0_block_bytes, dst + b * q8_0_block_elems);
    return true;
}

}  // namespace kvlens
