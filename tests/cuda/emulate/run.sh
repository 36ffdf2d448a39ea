#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/cuda/emulate/run.sh [CUDA_BUILD_DIR]: runs the CUDA backend's kernels on
# the CPU, without a GPU. Compiles every engine/backend/cuda/*.cu as C++ under
# emu.h (threads for CUDA threads), links them with fake_cuda.cpp instead of
# libcudart/libcublas and with the host code of a KVLENS_CUDA=ON build
# (default build-cuda, already built: kvlens-cli), then runs the emulator's own
# tensor-core check (test_emu_wmma), the GPU kernel test
# and `kvlens-cli verify` on tiny synthetic models, llama, gemma3, llama
# with Llama 3.1's RoPE factors and the others below (prefill
# through the cuBLAS path, decode through graph capture and replay). Needs g++ >= 12 and the CUDA
# headers. Slow (several minutes) and heavy: a block runs as up to 256 threads at
# once, so use a machine with cores to spare. Not a CTest test: a kernel-lab tool.
# EMU_SKIP_KERNEL_TEST=1 skips the kernel test (the slow part) for a rerun of the rest.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
build="$(cd "${1:-$root/build-cuda}" && pwd)"
out="$build/cuda-emulate"
mkdir -p "$out"
cuda_inc="${CUDA_HOME:-/usr/local/cuda}/include"
cxx=(g++ -std=c++20 -O1 -g -w -I"$root" -I"$cuda_inc" -I"$here")
[[ -f "$build/engine/libkvlens_engine.a" ]] || { echo "run.sh: build kvlens-cli in $build first (KVLENS_CUDA=ON)" >&2; exit 1; }

objs=()
for cu in "$root"/engine/backend/cuda/*.cu; do
  name="$(basename "$cu" .cu)"
  python3 "$here/transform.py" "$cu" "$out/$name.emu.cpp"
  "${cxx[@]}" -include emu.h -x c++ -c "$out/$name.emu.cpp" -o "$out/$name.o"
  objs+=("$out/$name.o")
done
"${cxx[@]}" -c "$here/fake_cuda.cpp" -o "$out/fake_cuda.o"
"${cxx[@]}" -include emu.h -c "$root/tests/cuda/test_cuda_kernels.cpp" -o "$out/test_cuda_kernels.o"
# The CLI's libraries as CMake links them (engine, remote, engine again, common).
libs=("$build/engine/libkvlens_engine.a" "$build/engine/remote/libkvlens_remote.a" "$build/engine/libkvlens_engine.a"
      "$build/common/libkvlens_common.a" -lfmt -lpcre2-8 -lxxhash -lcurl -lpthread -ldl)
# A build with the PDF layer (the CLI's extract and summarize) links it and the tasks too.
if [[ -f "$build/tasks/libkvlens_tasks.a" ]]; then
  libs=("$build/tasks/libkvlens_tasks.a" "$build/pdf/libkvlens_pdf.a" "$build/pdf/libkvlens_pdf_poppler.a" "${libs[@]}"
        -lpoppler-cpp)
fi
"${cxx[@]}" -o "$out/test_cuda_kernels" "$out/test_cuda_kernels.o" "${objs[@]}" "$out/fake_cuda.o" "${libs[@]}"
"${cxx[@]}" -o "$out/kvlens-cli" "$build"/app/cli/CMakeFiles/kvlens-cli.dir/*.o "${objs[@]}" "$out/fake_cuda.o" "${libs[@]}"

"${cxx[@]}" -include emu.h -o "$out/test_emu_wmma" "$here/test_emu_wmma.cpp"

cd "$root"
"$out/test_emu_wmma"
[[ "${EMU_SKIP_KERNEL_TEST:-0}" == 1 ]] || "$out/test_cuda_kernels"
# Each synthetic model against the CPU: a prompt long enough (>= 32 tokens: 64
# query rows of the tiny model's group of 2) for the tensor-core prefill
# attention, and a short one for split-K. SHAPE TYPE STEPS, what it covers:
#   tiny          the llama path;
#   tiny-gemma3   post-norms, GeGLU, per-layer RoPE bases, a window of 8 the long prompt passes;
#   check-llama3  Llama 3.1's RoPE frequency factors (rope_freqs.weight);
#   check-phi3    fused Q/K/V and gate/up, 48 of 64 dimensions rotated, LongRoPE's factors and attention factor;
#   check-gemma2  attention scores soft-capped (0.1) in both kernels, windows on even layers;
#   check-granite embedding, score, residual and logit scales;
#   check-smollm3 the last of 4 layers unrotated (NoPE);
#   check-olmo2   no norm before the blocks, norms after them and over whole Q and K rows;
#   check-qwen3-yarn  YaRN x4 from an original 1024: the ramp between pairs 3 and 12, the magnitude scale;
#   check-olmo3   windows of 8 in 3 of 4 layers, rotated without the YaRN the full layer takes;
#   check-exaone4 64 layers, norms after the blocks, QK norms per head, windows, unrotated full layers
#                 (F32: its 64 post-normed layers amplify an 8-bit activation rounding to 4 % of a
#                 logit in Q8_0, where llama.cpp's own f16/f32 KV change moves them by 13 %);
#   check-mistral3  YaRN with the file's betas and log multiplier, queries scaled past position 16;
#   check-arcee   relu(up)^2 without a gate;
#   check-glm4    norms before and after, Q/K/V biases, fused gate/up, half of each head rotated;
#   check-qwen3vl Qwen3-VL's language model fed text;
#   check-lfm2    LFM2's short convolutions in 3 of 4 layers (their B*X rows f32 in the pool), attention in 1;
#   check-minicpm granite's scales with MiniCPM's, LongRoPE's long factors without an attention factor;
#   check-qwen2vl Qwen2-VL's language model fed text (NeoX pairs, Q/K/V biases);
#   check-hunyuan-dense  Q and K normed per head after RoPE;
#   check-command-r  LayerNorms, attention and the feed-forward block side by side, logits x0.25;
#   check-cohere2 the same with windows of 8 in 3 of 4 layers, the full one unrotated;
#   check-gpt2    LayerNorms and products with biases, GELU, learned positions (no RoPE);
#   check-gptneox the same biases and GELU, NeoX RoPE over 16 of 64 dimensions, blocks side by side from their own norms;
#   check-phi2    heads of 80 with 32 dimensions rotated, one norm for both blocks side by side, the logits' bias;
#   check-stablelm-par  LayerNorms with biases, a quarter of each head rotated, blocks side by side, (attention + x) + ffn;
#   check-nemotron relu(up)^2 with its bias, half of each head rotated, every optional bias;
#   check-starcoder  GPT-2's block with one K/V head for 4 query heads (multi-query);
#   check-starcoder2 apart Q/K/V with biases, GELU with biases, NeoX RoPE.
while read -r shape type steps; do
  "$out/kvlens-cli" synth-model --like "$shape" --type "$type" "$out/$shape.gguf"
  "$out/kvlens-cli" verify --model "$out/$shape.gguf" --steps "$steps" --prompt "$(printf 'tensor cores %.0s' {1..12})" \
    --prompt "The key-value cache stores"
done <<'MODELS'
tiny Q4_1 4
tiny-gemma3 Q8_0 3
check-llama3 Q8_0 3
check-phi3 Q8_0 3
check-gemma2 Q8_0 3
check-granite Q8_0 3
check-smollm3 Q8_0 3
check-olmo2 Q8_0 3
check-qwen3-yarn Q8_0 3
check-olmo3 Q8_0 3
check-exaone4 F32 3
check-mistral3 Q8_0 3
check-arcee Q8_0 3
check-glm4 Q8_0 3
check-qwen3vl Q8_0 3
check-lfm2 Q8_0 3
check-minicpm Q8_0 3
check-qwen2vl Q8_0 3
check-hunyuan-dense Q8_0 3
check-command-r Q8_0 3
check-cohere2 Q8_0 3
check-gpt2 Q8_0 3
check-gptneox Q8_0 3
check-phi2 Q8_0 3
check-stablelm-par Q8_0 3
check-nemotron Q8_0 3
check-starcoder Q8_0 3
check-starcoder2 Q8_0 3
MODELS
# Out of device memory is a fallback, not an error: 1 MiB free for a 2 MiB KV pool.
fit="$(KVLENS_EMU_FREE_MIB=1 "$out/kvlens-cli" generate --model "$out/tiny.gguf" --prompt "kv" --max-tokens 2 --temp 0 \
  --backend cuda --kv-budget 2 2>&1 > /dev/null | grep '^kvlens:')"
echo "$fit"
[[ "$fit" == *"MiB KV pool do not fit in 1.0 MiB free of 16.0 GiB; using the CPU"* ]] || { echo "FAIL: no CPU fallback with its sizes" >&2; exit 1; }
echo "ok   out of device memory: the CPU runs, the sizes named"
