#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Record llama.cpp's logits on synthetic models of every architecture and type.

`kvlens-cli synth-model --like check-ARCH --type TYPE` writes a complete GGUF
(random weights, varied norms and biases, a byte-level gpt2 tokenizer) for
each architecture kvlens reads (llama, qwen2, qwen3, gemma, gemma2, gemma3,
phi3, granite, smollm3, olmo2, exaone, internlm2, exaone4, and the mixtures of
experts mixtral, qwen3moe, qwen2moe, olmoe, granitemoe and granitemoeshared;
llama3 is llama with Llama 3.1's RoPE frequency factors, qwen3-yarn qwen3
with YaRN scaling) in each weight
type it multiplies (the 1- to 3-bit types and MXFP4 on six of them,
LOW_BIT_ARCHS). This script runs llama.cpp (llama-cpp-python 0.3.16, plain
CPU kernels: no extra buffer types / repacking, 2 threads) on each file and
writes under tests/reference/data/:

  synth_reference.json  per case: the file's size and checksum (so the test
                        knows it regenerated the same bytes), the prompt's
                        ids as llama.cpp tokenizes it, the recorded
                        positions, and llama.cpp's own noise: the largest
                        difference at those positions between the prompt
                        fed as one batch and fed one token per eval, and
                        between K/V in f16 (recorded) and in f32
  synth_logits.f32      the logits (float32, little-endian) of the batch
                        run at those positions, case after case:
                        (n_cases, n_positions, n_vocab)

tests/model/test_synth_reference.cpp regenerates every file with the same
seed and compares kvlens's logits with these.

Usage: python3 tests/reference/generate_synth_reference.py [--cli PATH] [--out DIR] [--archs A,B]
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_reference as ref  # noqa: E402

# llama3: the llama architecture with Llama 3.1's RoPE factors (rope_freqs.weight); phi3:
# Q, K and V fused, gate and up fused, partial rotation and LongRoPE factors;
# gemma2: every other layer windowed, attention scores and logits soft-capped;
# gemma: Gemma 1; granite: its four scales; smollm3: layer 3 of 4 unrotated;
# olmo2: norms after the blocks and over whole Q and K rows, none before;
# qwen3-yarn: qwen3 with YaRN x4 from an original context of 1024 (the ramp
# between pairs 3 and 12 of 32); exaone: llama with NeoX pairs and Llama 3.1's
# RoPE factors; internlm2: the llama block; mixtral: llama with 4 experts, 2
# per token, weights renormalized; qwen3moe: qwen3 with 8 experts, 2 per token,
# renormalized; qwen2moe: qwen2 with 4 experts, 2 per token, as the softmax
# gave them, and a shared expert gated by a sigmoid; olmoe: 8 experts, 2 per
# token, whole-row Q and K norms; granitemoe: check-granite's scales with 4
# experts, 2 per token, renormalized; granitemoeshared: granitemoe with an
# ungated shared expert of 512 rows; olmo3: olmo2 with windows of 8 in layers
# 0-2 (rotated plainly) and a full layer 3 with YaRN x4 from 1024; exaone4:
# 64 layers (the only depth llama.cpp windows), OLMo 2's norms after the
# blocks with QK norms per head, windows of 8, every 4th layer full and
# unrotated; mistral3 (0.3.36 too): the llama block with YaRN x4 from 16,
# betas 0.5 and 0.125, log multiplier 1, and queries times
# 1 + 0.5 ln(floor(pos / 16) + 1); ernie4_5: the llama block; arcee: the
# llama block with relu(up)^2 and no gate, and Llama 3.1's RoPE factors;
# glm4: norms before and after each block, Q/K/V biases, gate and up fused,
# half of each head rotated; qwen3vl (0.3.36 too): Qwen3-VL's language model,
# its interleaved multimodal RoPE sections 8, 12, 12 and 2 deepstack layers,
# fed text; qwen3vlmoe (0.3.36 too): the same sections over check-qwen3moe's
# experts; lfm2: LFM2's short convolutions of 3 taps in layers 0, 2 and 3
# (kernels N(0, 0.5)), attention with QK norms per head in layer 1; lfm2moe
# (0.3.36 too): lfm2's layers with layer 0 dense and 4 experts of 256 rows,
# 2 per token, chosen by sigmoid plus an expert bias N(0, 0.5) in layers 1-3;
# gpt-oss: 8 heads of 64 over n_embd 256, Q/K/V and output biases, sinks
# N(0.5, 1), windows of 8 in layers 0 and 2, YaRN x4 from 1024, 4 experts of
# 256 rows, 2 per token, the softmax of the chosen router logits (plus the
# router's bias), biases on the experts' products, swiglu_oai; minicpm:
# granite's block with MiniCPM's three scales (embeddings x12, block outputs
# x1.4 / sqrt(2), logits / 2), no attention scale, and LongRoPE (long factors
# past an original context of 32); qwen2vl: qwen2's block with Qwen2-VL's
# multimodal RoPE, sections 8, 12, 12 and none fourth, fed text;
# ernie4_5-moe: ERNIE 4.5's llama block, layer 0 dense, then 4 experts of
# 256 rows, 2 per token, chosen by the softmax plus a bias N(0, 0.5) and
# weighted by the softmax renormalized, and an ungated shared expert of 512;
# hunyuan-dense: the llama block with NeoX pairs and Q and K normed per head
# after RoPE. command-r (Command R, Aya): LayerNorms, attention and the
# feed-forward block side by side from one norm, logits x0.25; cohere2
# (Command R7B): the same with windows of 8 in layers 0-2 and layer 3 full
# and unrotated. gpt2: LayerNorms and every product with biases, GELU without
# a gate, learned positions (no RoPE), fused Q/K/V. gptneox (Pythia): the same
# biases and GELU with NeoX RoPE over 16 of 64 dimensions, blocks side by
# side from their own norms; gptneox-seq: the blocks one after the other.
# phi2: one norm for both blocks side by side, heads of 80 with 32
# dimensions rotated, biases everywhere, the logits' bias. stablelm
# (StableLM 2 1.6B): LayerNorms with biases, Q/K/V biases, a quarter of each
# head rotated, SwiGLU; stablelm-par: no ffn_norm, the blocks side by side.
# nemotron: LayerNorms with biases, relu(up)^2, half of each head rotated,
# every optional bias written. starcoder: gpt2's block with one K/V head;
# starcoder2: gpt2's biases and GELU on apart Q/K/V, NeoX RoPE.
ARCHS = ["llama", "qwen2", "qwen3", "gemma3", "llama3", "phi3", "gemma2", "gemma", "granite", "smollm3",
         "olmo2", "qwen3-yarn", "exaone", "internlm2", "mixtral", "qwen3moe", "qwen2moe", "olmoe",
         "granitemoe", "granitemoeshared", "olmo3", "exaone4", "mistral3", "ernie4_5", "arcee", "glm4", "qwen3vl", "qwen3vlmoe", "lfm2", "lfm2moe", "gpt-oss", "minicpm", "qwen2vl", "ernie4_5-moe", "hunyuan-dense", "command-r", "cohere2", "gpt2", "gptneox", "gptneox-seq", "phi2", "stablelm", "stablelm-par", "nemotron", "starcoder", "starcoder2"]
TYPES = ["F32", "F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1",
         "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K", "IQ4_NL", "IQ4_XS"]
# The 1- to 3-bit types and MXFP4, on the architectures that cover the
# matmul paths they meet (plain, fused Q/K/V, windowed, experts, convolutions).
LOW_BIT_TYPES = ["IQ2_XXS", "IQ2_XS", "IQ2_S", "IQ3_XXS", "IQ3_S", "IQ1_S", "IQ1_M", "TQ1_0", "TQ2_0", "MXFP4"]
LOW_BIT_ARCHS = ["llama", "qwen3", "gemma3", "phi3", "qwen3moe", "lfm2", "gpt-oss"]
SEED = 1


def types_of(arch):
    return TYPES + (LOW_BIT_TYPES if arch in LOW_BIT_ARCHS else [])
# 31 byte-level tokens (the synthetic vocabulary has no merges): longer than
# the gemma3 shape's window of 8, so the local layers' mask is exercised.
PROMPT = "KV cache: 缓存 grows; window=8 tokens."
# First token, one past the window (position 8 sees 0..8 in a global layer
# but only 1..8 in a local one), the middle, the last.
POSITIONS = [0, 8, 17, -1]


def checksum(data):
    """sum over little-endian u64 words w_i of w_i * (2 i + 1), mod 2^64 (zero-padded)."""
    pad = (-len(data)) % 8
    words = np.frombuffer(data + b"\0" * pad, dtype="<u8")
    odd = np.arange(words.size, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    with np.errstate(over="ignore"):
        return int(np.sum(words * odd, dtype=np.uint64))


# llama-cpp-python passes YaRN's betas 32 and 1 to every context unless told
# otherwise; llama.cpp's own tools pass -1 ("the model's": the file's keys,
# else 32 and 1). An architecture whose files carry their betas (mistral3) is
# run the way llama.cpp's tools run it.
FILE_BETAS = {"mistral3": {"yarn_beta_fast": -1.0, "yarn_beta_slow": -1.0}}


def run_case(llama_cpp, cli, arch, type_name, tmp):
    path = Path(tmp) / f"check-{arch}-{type_name}.gguf"
    subprocess.run([str(cli), "synth-model", "--like", f"check-{arch}", "--type", type_name,
                    "--seed", str(SEED), str(path)], check=True, capture_output=True)
    data = path.read_bytes()
    betas = FILE_BETAS.get(arch, {})
    llm = ref.load_llama(llama_cpp, path, **betas)
    ids = llm.tokenize(PROMPT.encode("utf-8"), add_bos=False, special=False)
    positions = [p if p >= 0 else len(ids) + p for p in POSITIONS]

    llm.reset()
    llm.eval(ids)  # the prompt in one batch
    batch = np.array([llm.scores[p] for p in positions], dtype=np.float32)

    llm.reset()
    single = []
    for i, t in enumerate(ids):  # one token per eval: llama.cpp's other path
        llm.eval([t])
        if i in positions:
            single.append(np.array(llm.scores[llm.n_tokens - 1], dtype=np.float32))
    single = np.array(single)
    noise = float(np.max(np.abs(batch.astype(np.float64) - single)))
    del llm

    # The same batch with K/V kept in f32 instead of f16: a change of 2^-11 in
    # the cache's rounding, which every engine may make differently; through
    # the 8-bit activation rounding of the quantized matmuls it moves the
    # logits by what kvlens may differ by without a bug.
    llm = ref.load_llama(llama_cpp, path, type_k=0, type_v=0, **betas)   # GGML_TYPE_F32
    llm.reset()
    llm.eval(ids)
    f32_kv = np.array([llm.scores[p] for p in positions], dtype=np.float32)
    kv_noise = float(np.max(np.abs(batch.astype(np.float64) - f32_kv)))
    entry = {
        "arch": arch,
        "type": type_name,
        "file_bytes": len(data),
        "file_checksum": str(checksum(data)),
        "prompt_ids": ids,
        "positions": positions,
        "n_vocab": llm.n_vocab(),
        "batch_vs_single_max_diff": noise,
        "f32_kv_max_diff": kv_noise,
        "logit_std": float(batch.astype(np.float64).std()),
        "logit_max_abs": float(np.max(np.abs(batch))),
    }
    print(f"{arch:10s} {type_name:7s} std {entry['logit_std']:.3f} self-noise {noise:.2e} f32-kv {kv_noise:.2e}")
    del llm
    path.unlink()
    return entry, batch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=str(ref.REPO_ROOT / "build" / "app" / "cli" / "kvlens-cli"))
    parser.add_argument("--out", default=str(ref.REPO_ROOT / "tests" / "reference" / "data"))
    parser.add_argument("--archs", default="",
                        help="comma-separated: run only these architectures and keep the other cases of the "
                             "existing data as they are (llama.cpp's kernels, and so its last bits, differ "
                             "between CPUs; each case names the CPU features of its run)")
    parser.add_argument("--types", default="",
                        help="comma-separated: with --archs, run only these types of those architectures")
    args = parser.parse_args()
    import llama_cpp

    out = Path(args.out)
    system_info = llama_cpp.llama_print_system_info().decode().strip()
    only = [a for a in args.archs.split(",") if a]
    only_types = [t for t in args.types.split(",") if t]
    if only_types and not only:
        sys.exit("--types needs --archs")
    unknown = [a for a in only if a not in ARCHS]
    if unknown:
        sys.exit(f"unknown architecture(s) {', '.join(unknown)} (known: {', '.join(ARCHS)})")
    kept = {}   # (arch, type) -> (entry, logits) of the existing data
    if only:
        old = json.loads((out / "synth_reference.json").read_text())
        old_logits = np.fromfile(out / "synth_logits.f32", dtype="<f4")
        for e in old["entries"]:
            size = len(e["positions"]) * e["n_vocab"]
            if "llama_cpp_system_info" not in e:   # data from before cases named their CPU
                e["llama_cpp_system_info"] = old["llama_cpp_system_info"]
            if "llama_cpp_version" not in e:   # and their version
                e["llama_cpp_version"] = old["llama_cpp_version"]
            kept[(e["arch"], e["type"])] = (e, old_logits[e["logits_offset"]:e["logits_offset"] + size].reshape(
                len(e["positions"]), e["n_vocab"]))
    entries, logits = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ARCHS:
            for type_name in types_of(arch):
                rerun = not only or (arch in only and (not only_types or type_name in only_types))
                if not rerun and (arch, type_name) not in kept:
                    print(f"{arch:10s} {type_name:7s} not recorded yet (run --archs {arch}): left out")
                    continue
                if not rerun:
                    entry, batch = kept[(arch, type_name)]
                else:
                    entry, batch = run_case(llama_cpp, args.cli, arch, type_name, tmp)
                    entry["llama_cpp_system_info"] = system_info
                    entry["llama_cpp_version"] = llama_cpp.__version__
                entry["logits_offset"] = int(sum(b.size for b in logits))
                entries.append(entry)
                logits.append(batch)
    document = {
        "generator": "tests/reference/generate_synth_reference.py",
        "llama_cpp_version": "per case (llama_cpp_version)",
        "llama_cpp_extra_buffer_types": False,
        "n_threads": ref.N_THREADS,
        "synth_model": "kvlens-cli synth-model --like check-ARCH --type TYPE --seed 1",
        "seed": SEED,
        "prompt": PROMPT,
        "prompt_eval": "no BOS; the prompt in one batch (logits recorded); again one token per eval (noise)",
        "logits_file": "synth_logits.f32",
        "entries": entries,
    }
    ref.write(out / "synth_reference.json", document)
    blob = np.concatenate([b.reshape(-1) for b in logits]).astype("<f4")
    (out / "synth_logits.f32").write_bytes(blob.tobytes())
    print(f"wrote {out / 'synth_logits.f32'} ({blob.nbytes} bytes)")


if __name__ == "__main__":
    main()
