#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Compare kvlens's tokenizer with llama.cpp's on many random texts.

Beyond the golden file (tests/reference/data/tokenize.json, default model
only), this checks every pre-tokenizer and the SentencePiece path: it writes
variants of the default model's GGUF with tokenizer.ggml.pre replaced
(every name in PRE_NAMES) and a synthetic SentencePiece vocabulary
made from the same tokens (scores = -rank, <0xXX> byte tokens, with and
without add_space_prefix), tokenizes random multi-script texts with both
tokenizers, and reports mismatches. Needs llama-cpp-python and the
kvlens_tokenizer_dump target (ninja kvlens_tokenizer_dump).

Usage: compare.py --dump BUILD/tests/tokenizer/kvlens_tokenizer_dump
                  [--model SmolLM2.gguf] [--cases 3000] [--seed 1] [--work /tmp/tokcmp]
                  [--pre tekken,gpt-4o] [--no-spm]
"""

import argparse
import json
import random
import struct
import subprocess
import sys
from pathlib import Path

# ---- GGUF metadata rewriting (tensor data is copied as is)

SCALAR_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}


class Reader:
    def __init__(self, data):
        self.b, self.pos = data, 0

    def take(self, fmt):
        v = struct.unpack_from("<" + fmt, self.b, self.pos)
        self.pos += struct.calcsize("<" + fmt)
        return v[0]

    def string(self):
        n = self.take("Q")
        s = self.b[self.pos:self.pos + n]
        self.pos += n
        return s

    def value(self, t):
        if t == 8:
            return self.string()
        if t == 9:
            at, n = self.take("I"), self.take("Q")
            return [self.value(at) for _ in range(n)]
        raw = self.b[self.pos:self.pos + SCALAR_SIZES[t]]
        self.pos += SCALAR_SIZES[t]
        return raw


def enc_str(s):
    return struct.pack("<Q", len(s)) + s


def kv_string(key, s):
    return enc_str(key) + struct.pack("<I", 8) + enc_str(s)


def kv_array(key, elem_type, items, fmt=None):
    out = enc_str(key) + struct.pack("<IIQ", 9, elem_type, len(items))
    for it in items:
        out += enc_str(it) if elem_type == 8 else struct.pack("<" + fmt, it)
    return out


def rewrite(src, dst, replace):
    """Copies src to dst with tokenizer.* metadata replaced by replace(kvs)."""
    r = Reader(src.read_bytes())
    magic, version, n_tensors, n_kv = r.take("I"), r.take("I"), r.take("Q"), r.take("Q")
    kvs, alignment = [], 32
    for _ in range(n_kv):
        start = r.pos
        key = r.string()
        t = r.take("I")
        v = r.value(t)
        if key == b"general.alignment":
            alignment = struct.unpack("<I", v)[0]
        kvs.append((key, r.b[start:r.pos], v))
    infos_start = r.pos
    for _ in range(n_tensors):
        r.string()
        n_dims = r.take("I")
        r.pos += 8 * n_dims + 4 + 8
    infos = r.b[infos_start:r.pos]
    data_start = (r.pos + alignment - 1) // alignment * alignment
    entries = replace(kvs)
    out = bytearray(struct.pack("<IIQQ", magic, version, n_tensors, len(entries)))
    for e in entries:
        out += e
    out += infos
    out += b"\0" * (-len(out) % alignment)
    out += r.b[data_start:]
    dst.write_bytes(out)


def with_pre(name):
    def replace(kvs):
        return [kv_string(k, name.encode()) if k == b"tokenizer.ggml.pre" else raw for k, raw, _ in kvs]
    return replace


def byte_level_decoder():
    bs = list(range(0x21, 0x7F)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs, n = bs[:], 0
    for x in range(256):
        if x not in bs:
            bs.append(x)
            cs.append(256 + n)
            n += 1
    return {chr(c): x for x, c in zip(bs, cs)}


def as_sentencepiece(add_space_prefix):
    """The same vocabulary as SentencePiece pieces: '▁' for spaces, scores by rank."""
    def replace(kvs):
        tokens = next(v for k, _, v in kvs if k == b"tokenizer.ggml.tokens")
        u2b = byte_level_decoder()
        pieces = [b"<unk>", b"<s>", b"</s>"] + [b"<0x%02X>" % i for i in range(256)]
        types, scores = [2, 3, 3] + [6] * 256, [0.0] * 259
        seen = set(pieces)
        for rank, t in enumerate(tokens):
            try:
                text = bytes(u2b[c] for c in t.decode()).decode()
            except (KeyError, UnicodeDecodeError):
                continue
            piece = text.replace(" ", "\u2581").encode()
            if any(ord(c) < 32 and c not in "\n\t" for c in text) or piece in seen:
                continue
            seen.add(piece)
            pieces.append(piece)
            types.append(1)
            scores.append(-float(rank))
        out = [raw for k, raw, _ in kvs if not k.startswith(b"tokenizer.")]
        out += [kv_string(b"tokenizer.ggml.model", b"llama"), kv_string(b"tokenizer.ggml.pre", b"default"),
                kv_array(b"tokenizer.ggml.tokens", 8, pieces), kv_array(b"tokenizer.ggml.scores", 6, scores, "f"),
                kv_array(b"tokenizer.ggml.token_type", 5, types, "i"),
                enc_str(b"tokenizer.ggml.bos_token_id") + struct.pack("<II", 4, 1),
                enc_str(b"tokenizer.ggml.eos_token_id") + struct.pack("<II", 4, 2),
                enc_str(b"tokenizer.ggml.add_space_prefix") + struct.pack("<IB", 7, int(add_space_prefix))]
        return out
    return replace


# The tokenizer.ggml.pre values checked: one or more per expression family
# in engine/tokenizer/pretokenizer.cpp, and every alias whose llama.cpp
# settings differ (ignore_merges). All are known to llama.cpp in
# llama-cpp-python 0.3.16.
PRE_NAMES = ["llama-bpe", "qwen2", "gpt-2", "default",
             "midm-2.0", "dbrx", "smaug-bpe", "a.x-4.0", "mellum", "trillion",
             "tekken", "gpt-4o", "seed-coder", "deepseek-llm", "deepseek-coder", "deepseek-v3", "viking"]

# ---- random texts

RANGES = [(0x20, 0x7E)] * 3 + [(0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x6FF), (0x900, 0x97F),
                               (0xE00, 0xE7F), (0x3040, 0x30FF), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3),
                               (0x1F300, 0x1F6FF), (0x2000, 0x206F), (0x3000, 0x303F), (0xFF00, 0xFFEF),
                               (0x660, 0x669), (0x2150, 0x218F), (0x1D400, 0x1D7FF)]
SPACES = [" ", "  ", "\n", "\n\n", "\t", "\r\n", "\u00a0", "\u3000", "\u2009", "\u0085", "\u200b", " \n ", "\u2028"]
WORDS = ["don't", "I'M", "it's", "you'll", "we've", "3.14", "1,000", "$100", "12345678", "x²", "½", "Ⅻ",
         "٣٤٥", "e\u0301", "ﬁ", "ß", "İ", "ǅ"]


def random_text(rnd, specials):
    parts = []
    for _ in range(rnd.randint(1, 30)):
        r = rnd.random()
        if r < 0.15:
            parts.append(rnd.choice(SPACES))
        elif r < 0.25:
            parts.append(rnd.choice(WORDS))
        elif r < 0.30:
            parts.append(rnd.choice(specials))
        else:
            lo, hi = rnd.choice(RANGES)
            parts.append("".join(chr(c) for c in (rnd.randint(lo, hi) for _ in range(rnd.randint(1, 8)))
                                 if not 0xD800 <= c <= 0xDFFF))
    return "".join(parts)


def compare(model, dump, cases, work):
    from llama_cpp import Llama  # imported late: only this step needs it
    llm = Llama(model_path=str(model), vocab_only=True, verbose=False)
    texts = work / "texts.jsonl"
    with texts.open("w") as f:
        for text, special in cases:
            f.write(json.dumps({"text": text, "special": special}) + "\n")
    out = subprocess.run([dump, str(model), str(texts)], capture_output=True, text=True, check=True).stdout
    mismatches, no_roundtrip = 0, 0
    for (text, special), line in zip(cases, out.splitlines()):
        got = json.loads(line)
        want = llm.tokenize(text.encode(), add_bos=False, special=special)
        no_roundtrip += not got["roundtrip"]
        if got["ids"] != want:
            mismatches += 1
            if mismatches <= 3:
                print(f"  mismatch (special={special}): {text[:120]!r}\n    llama.cpp {want[:24]}\n    kvlens    {got['ids'][:24]}")
    return mismatches, no_roundtrip


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dump", required=True)
    ap.add_argument("--model", default="models/SmolLM2-135M-Instruct.Q4_1.gguf")
    ap.add_argument("--cases", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default="/tmp/kvlens-tokcmp")
    ap.add_argument("--pre", help="comma-separated tokenizer.ggml.pre values (default: PRE_NAMES and the shipped file)")
    ap.add_argument("--no-spm", action="store_true", help="leave out the SentencePiece variants")
    args = ap.parse_args()
    model, work = Path(args.model), Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    variants = [] if args.pre else [("smollm (as shipped)", model, None)]
    pre_names = args.pre.split(",") if args.pre else PRE_NAMES
    variants += [(f"pre={p}", work / f"pre-{p}.gguf", with_pre(p)) for p in pre_names]
    if not args.no_spm:
        variants += [("sentencepiece", work / "spm.gguf", as_sentencepiece(True)),
                     ("sentencepiece, no space prefix", work / "spm-nopfx.gguf", as_sentencepiece(False))]
    failed = False
    for name, path, replace in variants:
        if replace:
            rewrite(model, path, replace)
        spm = name.startswith("sentencepiece")
        specials = ["<s>", "</s>", "<unk>", "<s", "/s>"] if spm else \
            ["<|im_start|>", "<|im_end|>", "<|endoftext|>", "<file_sep>", "<|im_start", "im_end|>"]
        rnd = random.Random(args.seed)
        cases = [(random_text(rnd, specials), rnd.random() < 0.5) for _ in range(args.cases)]
        mismatches, no_roundtrip = compare(path, args.dump, cases, work)
        print(f"{name:32s} {len(cases)} texts: {mismatches} mismatches, {no_roundtrip} round-trip failures")
        failed |= mismatches > 0 or no_roundtrip > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
