#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Record golden data from llama.cpp for Gemma 3 270M (Q4_K_M).

The companion of generate_reference.py (whose helpers it reuses: the loader
without AMX / repacked weights, the greedy loop, the JSON layout) for the
second model, models/gemma-3-270m-q4_k_m.gguf (scripts/fetch-model
gemma3-270m). Writes under tests/reference/data/:

  gemma3_tokenize.json  token ids (no BOS) of the hand-written texts of
                        generate_reference.py plus 1500 generated
                        multilingual texts (Chinese, Japanese, Korean,
                        Arabic, Cyrillic, Latin with accents, code, emoji,
                        whitespace runs), a fixed seed
  gemma3_greedy.json    32 greedy tokens on raw prompts (a base model: no
                        chat template), BOS first, per-step top-2 margins,
                        first-step top-10 and ids 0..31; and, per prompt,
                        llama.cpp's own noise: the first-step logits of the
                        same prompt fed one token per eval instead of one
                        batch (another kernel path), the largest difference
  gemma3_forward_f64.json  the first step of the same prompts through
                        gemma3_forward.py, an exact float64 forward pass
                        (needs the gguf package, about a minute), as a
                        second opinion: its own top 10, ids 0..31 and its
                        logits at llama.cpp's top-10 ids

Usage: python3 tests/reference/generate_gemma3_reference.py [--model PATH] [--out DIR] [--f64-only]
--f64-only writes gemma3_forward_f64.json alone, for the prompts already in
gemma3_greedy.json (no llama.cpp needed).
"""

import argparse
import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_reference as ref  # noqa: E402

MODEL_NAME = "gemma-3-270m-q4_k_m.gguf"
MODEL_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
N_GENERATE = 32
N_GENERATED_TEXTS = 1500

GREEDY_CASES = [
    ("raw_capital", "The capital of France is"),
    ("raw_story", "Once upon a time, in a small village by the sea,"),
    ("raw_code", "def fibonacci(n):\n"),
    ("raw_kv_cache", "In a transformer, the KV cache stores"),
    ("raw_chinese", "大语言模型的推理分为两个阶段："),
    ("raw_list", "Three facts about the Moon:\n1."),
    ("raw_report", "Summary of the annual report. Revenue grew by 12% to"),
    ("raw_german", "Die Hauptstadt von Deutschland ist"),
]

# Fragments the generated texts are drawn from.
FRAGMENTS = [
    "大语言模型", "推理", "预填充", "解码", "缓存具体怎样增长，", "还取决于模型是否使用滑动窗口。",
    "注意力机制", "键和值", "中华人民共和国", "北京市", "。", "，", "（KV cache）",
    "こんにちは", "世界", "カタカナ", "漢字を混ぜます", "안녕하세요", "반갑습니다",
    "مرحبا بالعالم", "كيف حالك؟", "Привет, мир!", "Съешь же ещё этих мягких французских булок.",
    "Café", "crème brûlée", "naïve façade", "Straße", "señor", "ångström", "Ærøskøbing",
    "The quick brown fox", "jumps over the lazy dog.", "Hello", "world", "KV cache", "token",
    "sliding window", "attention", "I'm", "don't", "CAN'T", "it's",
    "def f(x):", "    return x * 2", "#include <stdio.h>", "printf(\"%d\\n\", i);", "{", "}", "[]", "()",
    "🍕", "🚀", "👨‍👩‍👧‍👦", "👍🏽", "🇯🇵", "e\u0301", "\u00e9", "\u200b", "\u00a0",
    "12345", "3.14159", "2026-11-29", "1,000,000", "-0.5e-10", "(42%)",
    "https://example.com/path?q=1", "a.b@c.org", "!!!", "???", "...", "---", "***",
    "# Title", "- item", "**bold**", "_italic_", "<b>", "</b>", "<start_of_turn>", "<eos>",
]
SEPARATORS = [" ", " ", " ", "", "\n", "\n\n", "  ", "   ", "\t", " \n", "\n\n\n", "    "]


def generated_texts(n, seed=20261201):
    rng = random.Random(seed)
    texts = []
    for i in range(n):
        parts = []
        for _ in range(rng.randint(1, 12)):
            parts.append(rng.choice(FRAGMENTS))
            parts.append(rng.choice(SEPARATORS))
        text = "".join(parts)
        if rng.random() < 0.2:
            text = rng.choice(SEPARATORS) + text  # leading whitespace
        if rng.random() < 0.3:
            text = text.rstrip()
        texts.append((f"gen_{i:04d}", text))
    return texts


def tokenize_entries(llm):
    cases = [(name, text) for name, text, special in ref.TOKENIZE_CASES if not special]
    cases += generated_texts(N_GENERATED_TEXTS)
    entries = []
    for name, text in cases:
        ids = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
        entries.append({"name": name, "text": text, "ids": ids})
    return entries


def greedy_entries(llm):
    engine = ref.LlamaCppEngine(llm)
    entries = []
    for name, prompt in GREEDY_CASES:
        prompt_ids = llm.tokenize(prompt.encode("utf-8"), add_bos=True, special=False)
        engine.reset()
        logits = engine.eval(prompt_ids)
        first = logits
        steps, generated = [], []
        for step in range(N_GENERATE):
            top1, top2 = ref.top_k(logits, 2)
            steps.append({"step": step, "id": top1, "top2_ids": [top1, top2],
                          "top2_logits": [float(logits[top1]), float(logits[top2])],
                          "margin": float(logits[top1]) - float(logits[top2])})
            generated.append(top1)
            if step + 1 < N_GENERATE:
                logits = engine.eval([top1])
        # llama.cpp's own noise on this prompt: one token per eval.
        engine.reset()
        for t in prompt_ids:
            single = engine.eval([t])
        entries.append({
            "name": name,
            "kind": "raw",
            "prompt": prompt,
            "prompt_ids": prompt_ids,
            "generated_ids": generated,
            "generated_text": llm.detokenize(generated, special=True).decode("utf-8", errors="replace"),
            "min_margin": min(s["margin"] for s in steps),
            "batch_vs_single_max_diff": float(np.max(np.abs(first.astype(np.float64) - single))),
            "first_step": ref.first_step_record(first),
            "steps": steps,
        })
        print(f"{name}: {entries[-1]['generated_text']!r}", file=sys.stderr)
    return entries


def write_f64(model_path, sha, out):
    """gemma3_forward_f64.json: the recorded prompts' first step through the float64 pass."""
    import json
    from gemma3_forward import Gemma3F64

    greedy = json.loads((out / "gemma3_greedy.json").read_text())
    f64 = Gemma3F64(model_path)
    entries = []
    for e in greedy["entries"]:
        f64.reset()
        logits = f64.eval(e["prompt_ids"])
        record = ref.first_step_record(logits)
        cpp = e["first_step"]
        record["at_llama_cpp_top10"] = [float(logits[i]) for i in cpp["top10_ids"]]
        diffs = [abs(a - b) for a, b in zip(record["at_llama_cpp_top10"], cpp["top10_logits"])]
        diffs += [abs(a - b) for a, b in zip(record["logits_0_31"], cpp["logits_0_31"])]
        entries.append({"name": e["name"], "prompt_ids": e["prompt_ids"], "first_step": record,
                        "first_step_max_abs_diff_vs_llama_cpp": max(diffs)})
        print(f"f64 {e['name']}: first-step max |diff| vs llama.cpp {max(diffs):.3f} "
              f"(recorded logits), argmax {record['argmax']} vs {cpp['argmax']}", file=sys.stderr)
    ref.write(out / "gemma3_forward_f64.json", {
        "generator": "tests/reference/generate_gemma3_reference.py --f64-only",
        "model_file": model_path.name,
        "model_sha256": sha,
        "engine": "tests/reference/gemma3_forward.py: numpy float64, weights dequantized by gguf "
                  + ref.gguf_version() + ", no activation quantization",
        "prompt_eval": "BOS + prompt in one batch, as gemma3_greedy.json",
        "entries": entries,
    })


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default=str(ref.REPO_ROOT / "models" / MODEL_NAME))
    parser.add_argument("--out", default=str(ref.REPO_ROOT / "tests" / "reference" / "data"))
    parser.add_argument("--f64-only", action="store_true",
                        help="write gemma3_forward_f64.json alone (no llama.cpp)")
    args = parser.parse_args()

    model_path = Path(args.model)
    if not model_path.exists():
        sys.exit(f"{model_path} not found; run scripts/fetch-model gemma3-270m")
    sha = ref.sha256_of(model_path)
    if sha != MODEL_SHA256:
        sys.exit(f"{model_path} has SHA-256 {sha}, expected {MODEL_SHA256}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.f64_only:
        write_f64(model_path, sha, out)
        return
    import llama_cpp
    llm = ref.load_llama(llama_cpp, model_path)
    common = ref.header(llama_cpp, llm, model_path, sha)
    ref.write(out / "gemma3_tokenize.json", {**common, "add_bos": False, "special": False,
                                             "entries": tokenize_entries(llm)})
    ref.write(out / "gemma3_greedy.json", {
        **common,
        "n_ctx": ref.N_CTX,
        "n_generate": N_GENERATE,
        "llama_cpp_extra_buffer_types": False,
        "sampling": "greedy argmax of raw logits, ties to the lower id; EOS does not stop generation",
        "prompt_eval": "BOS + prompt in one batch, then one token per eval",
        "entries": greedy_entries(llm),
    })
    write_f64(model_path, sha, out)


if __name__ == "__main__":
    main()
