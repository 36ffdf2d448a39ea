// SPDX-License-Identifier: Apache-2.0
// Element-wise kernels: residual add, bias add, SwiGLU (silu(gate) * up),
// GeGLU (gelu_tanh(gate) * up), GPT-2's gelu, Arcee's relu(up)^2, scaling, soft-capping,
// and Ministral 3's query temperature.
#include "engine/backend/cuda/cuda_check.h"
#include "engine/backend/cuda/norm_rope.h"

namespace kvlens {

namespace {

constexpr int threads = 256;

unsigned grid_for(std::int64_t n) { return static_cast<unsigned>((n + threads - 1) / threads); }

__global__ void add_kernel(float* y, const float* x, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i];
}

__global__ void add_bias_kernel(float* x, const float* b, std::int64_t total, int n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < total) x[i] += b[i % n];
}

__global__ void silu_mul_kernel(const float* gate, const float* up, float* y, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const float g = gate[i];
        y[i] = g / (1.0f + expf(-g)) * up[i];
    }
}

// gelu_tanh(g) * up, g * sigmoid(2u) * up with u = sqrt(2/pi) (g + 0.044715
// g^3): the CPU's form (cpu_backend.cpp gelu_tanh_mul), z = 2u = s g, then
// silu(z) * (up / s).
__device__ float gelu_tanh_times(float g, float up) {
    constexpr float c = 0.7978845608028654f;   // sqrt(2 / pi)
    const float s = 2.0f * c * (1.0f + 0.044715f * g * g);
    const float z = s * g;
    return z / (1.0f + expf(-z)) * (up / s);
}

__global__ void gelu_tanh_mul_kernel(const float* gate, const float* up, float* y, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) y[i] = gelu_tanh_times(gate[i], up[i]);
}

// GPT-2's gelu_tanh(x) in place: the same with an up of 1.
__global__ void gelu_kernel(float* x, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) x[i] = gelu_tanh_times(x[i], 1.0f);
}

__global__ void relu_sqr_kernel(float* x, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const float r = x[i] > 0.0f ? x[i] : 0.0f;
        x[i] = r * r;
    }
}

// q (n_tokens, nq): token t's row times 1 + scale ln(floor(pos_t / floor) + 1),
// in float as the CPU computes it (model_config::attn_temperature).
__global__ void attn_temperature_kernel(float* q, const std::int32_t* positions, int nq, std::int64_t n, float scale,
                                        float floor_tokens) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) {
        const float pos = static_cast<float>(positions[i / nq]);
        q[i] *= 1.0f + scale * logf(floorf(pos / floor_tokens) + 1.0f);
    }
}

__global__ void scale_kernel(float* x, float a, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= a;
}

__global__ void soft_cap_kernel(float* x, float cap, std::int64_t n) {
    const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i < n) x[i] = cap * tanhf(x[i] / cap);
}

}  // namespace

status launch_gelu_tanh_mul(const float* gate, const float* up, float* y, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    gelu_tanh_mul_kernel<<<grid_for(count), threads, 0, s>>>(gate, up, y, count);
    CUDA_CHECK_LAUNCH("gelu_tanh_mul_kernel");
    return {};
}

status launch_gelu(float* x, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    gelu_kernel<<<grid_for(count), threads, 0, s>>>(x, count);
    CUDA_CHECK_LAUNCH("gelu_kernel");
    return {};
}

status launch_relu_sqr(float* x, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    relu_sqr_kernel<<<grid_for(count), threads, 0, s>>>(x, count);
    CUDA_CHECK_LAUNCH("relu_sqr_kernel");
    return {};
}

status launch_attn_temperature(float* q, const std::int32_t* positions, int n_tokens, int nq, float scale,
                               int floor_tokens, cudaStream_t s) {
    const std::int64_t count = static_cast<std::int64_t>(n_tokens) * nq;
    if (count == 0) return {};
    attn_temperature_kernel<<<grid_for(count), threads, 0, s>>>(q, positions, nq, count, scale,
                                                                 static_cast<float>(floor_tokens));
    CUDA_CHECK_LAUNCH("attn_temperature_kernel");
    return {};
}

status launch_scale(float* x, float a, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    scale_kernel<<<grid_for(count), threads, 0, s>>>(x, a, count);
    CUDA_CHECK_LAUNCH("scale_kernel");
    return {};
}

status launch_soft_cap(float* x, float cap, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    soft_cap_kernel<<<grid_for(count), threads, 0, s>>>(x, cap, count);
    CUDA_CHECK_LAUNCH("soft_cap_kernel");
    return {};
}

status launch_add(float* y, const float* x, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    add_kernel<<<grid_for(count), threads, 0, s>>>(y, x, count);
    CUDA_CHECK_LAUNCH("add_kernel");
    return {};
}

status launch_add_bias(float* x, const float* b, int n_rows, int n, cudaStream_t s) {
    const std::int64_t total = static_cast<std::int64_t>(n_rows) * n;
    if (total == 0) return {};
    add_bias_kernel<<<grid_for(total), threads, 0, s>>>(x, b, total, n);
    CUDA_CHECK_LAUNCH("add_bias_kernel");
    return {};
}

status launch_silu_mul(const float* gate, const float* up, float* y, std::int64_t count, cudaStream_t s) {
    if (count == 0) return {};
    silu_mul_kernel<<<grid_for(count), threads, 0, s>>>(gate, up, y, count);
    CUDA_CHECK_LAUNCH("silu_mul_kernel");
    return {};
}

}  // namespace kvlens
