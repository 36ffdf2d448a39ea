// SPDX-License-Identifier: Apache-2.0
// The model's per-type checks agree with what the backends can do: a matrix
// type the model accepts is one the CPU backend multiplies (at every kernel
// level this CPU has) and the reverse; a type the CUDA backend claims to
// multiply is one the model accepts; every vector type the model reads, the
// CPU backend can convert to floats.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "engine/backend/cpu/kernels.h"
#include "engine/model/matrix_types.h"
#include "engine/quant/quant_formats.h"
#ifdef KVLENS_HAVE_CUDA
#include "engine/backend/cuda/dequant.h"
#endif

namespace kvlens {
namespace {

std::vector<ggml_type> known_types() {
    std::vector<ggml_type> out;
    for (std::uint32_t id = 0; id < 64; ++id)
        if (type_known(id)) out.push_back(static_cast<ggml_type>(id));
    return out;
}

// Restores the best kernel level when a test changed it.
struct kernel_level_guard {
    std::string level = cpu_kernel_level();
    ~kernel_level_guard() { set_cpu_kernel_level(level.c_str()); }
};

TEST(MatrixTypes, TheModelAcceptsExactlyTheTypesTheCpuBackendMultiplies) {
    kernel_level_guard guard;
    for (const char* level : {"scalar", "avx2", "avx512"}) {
        if (!set_cpu_kernel_level(level)) continue;
        for (ggml_type t : known_types())
            EXPECT_EQ(matrix_type_accepted(t), kernels_for(t) != nullptr)
                << type_name(t) << " at kernel level " << level;
    }
}

TEST(MatrixTypes, TheScalarReferenceTableMultipliesTheSameTypes) {
    for (ggml_type t : known_types())
        EXPECT_EQ(matrix_type_accepted(t), scalar::kernels_for(t) != nullptr) << type_name(t);
}

TEST(MatrixTypes, TheListIsInIdOrderWithoutRepeats) {
    const auto types = accepted_matrix_types();
    ASSERT_FALSE(types.empty());
    for (std::size_t i = 1; i < types.size(); ++i)
        EXPECT_LT(static_cast<std::uint32_t>(types[i - 1]), static_cast<std::uint32_t>(types[i]));
}

TEST(MatrixTypes, EveryVectorTypeTheModelReadsTheCpuBackendConvertsToFloats) {
    for (ggml_type t : known_types()) {
        if (!vector_type_accepted(t)) continue;
        EXPECT_NE(to_float_for(t), nullptr) << type_name(t);
    }
}

TEST(MatrixTypes, EveryAcceptedMatrixTypeCanAlsoBeReadAsRows) {
    // A tied output matrix is also the embedding: its rows are dequantized.
    for (ggml_type t : accepted_matrix_types()) EXPECT_TRUE(vector_type_accepted(t)) << type_name(t);
}

TEST(MatrixTypes, ActivationFormatsOfEveryDotKernelHaveAQuantizer) {
    for (ggml_type t : accepted_matrix_types()) {
        const weight_kernels* k = kernels_for(t);
        ASSERT_NE(k, nullptr) << type_name(t);
        EXPECT_NE(quant::reference_from_float(k->vec_dot_type), nullptr) << type_name(t);
    }
}

#ifdef KVLENS_HAVE_CUDA
TEST(MatrixTypes, EveryTypeTheCudaBackendClaimsTheModelAccepts) {
    for (ggml_type t : known_types())
        if (cuda_weight_supported(t, 256)) EXPECT_TRUE(matrix_type_accepted(t)) << type_name(t);
}
#endif

}  // namespace
}  // namespace kvlens
