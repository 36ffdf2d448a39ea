#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Golden data for tests/quant: random blocks of each quantized tensor type and
their values as the `gguf` PyPI package (gguf-py, llama.cpp's own Python
reference, gguf.quants) dequantizes them.

Each file data/<TYPE>.bin is the raw blocks followed by the f32 values
(little-endian); the test derives the block count from the file size.
The quant bytes are uniformly random; every f16 scale field is overwritten
with a finite random f16 (normal, sd 0.05; dmin fields too; IQ1_M's d, split
over its scale words, likewise; MXFP4's byte exponent drawn from 115..130),
so no block decodes to inf or NaN. Run: pip install gguf==<version below>; python3 this.

Reproducible: fixed seed per type. Written with gguf 0.19.0.
"""
import pathlib

import numpy as np
from gguf import GGMLQuantizationType as T
from gguf.quants import dequantize

# type: (elements per block, bytes per block, byte offsets of f16 fields, blocks)
TYPES = {
    "Q4_0": (T.Q4_0, 32, 18, [0], 128),
    "Q4_1": (T.Q4_1, 32, 20, [0, 2], 128),
    "Q5_0": (T.Q5_0, 32, 22, [0], 128),
    "Q5_1": (T.Q5_1, 32, 24, [0, 2], 128),
    "Q8_0": (T.Q8_0, 32, 34, [0], 128),
    "Q2_K": (T.Q2_K, 256, 84, [80, 82], 16),
    "Q3_K": (T.Q3_K, 256, 110, [108], 16),
    "Q4_K": (T.Q4_K, 256, 144, [0, 2], 16),
    "Q5_K": (T.Q5_K, 256, 176, [0, 2], 16),
    "Q6_K": (T.Q6_K, 256, 210, [208], 16),
    "IQ4_NL": (T.IQ4_NL, 32, 18, [0], 128),
    "IQ4_XS": (T.IQ4_XS, 256, 136, [0], 16),
    "IQ2_XXS": (T.IQ2_XXS, 256, 66, [0], 16),
    "IQ2_XS": (T.IQ2_XS, 256, 74, [0], 16),
    "IQ2_S": (T.IQ2_S, 256, 82, [0], 16),
    "IQ3_XXS": (T.IQ3_XXS, 256, 98, [0], 16),
    "IQ3_S": (T.IQ3_S, 256, 110, [0], 16),
    "IQ1_S": (T.IQ1_S, 256, 50, [0], 16),
    "IQ1_M": (T.IQ1_M, 256, 56, [], 16),     # d: the top nibbles of the scale words (below)
    "TQ1_0": (T.TQ1_0, 256, 54, [52], 16),
    "TQ2_0": (T.TQ2_0, 256, 66, [64], 16),
    "MXFP4": (T.MXFP4, 32, 17, [], 128),     # e: a power of two (below)
}


def main() -> None:
    out_dir = pathlib.Path(__file__).resolve().parent / "data"
    out_dir.mkdir(exist_ok=True)
    for i, (name, (qtype, block, size, f16_offsets, n_blocks)) in enumerate(TYPES.items()):
        rng = np.random.default_rng(1000 + i)
        raw = rng.integers(0, 256, size=(n_blocks, size), dtype=np.uint8)
        for off in f16_offsets:
            scales = (rng.standard_normal(n_blocks) * 0.05).astype(np.float16)
            raw[:, off:off + 2] = scales.view(np.uint8).reshape(n_blocks, 2)
        if name == "IQ1_M":   # d as an f16 split over the four scale words' top nibbles
            h = (rng.standard_normal(n_blocks) * 0.05).astype(np.float16).view(np.uint16)
            words = raw[:, 48:56].copy().view(np.uint16)
            for k in range(4):
                words[:, k] = (words[:, k] & 0x0FFF) | (((h >> (4 * k)) & 0xF) << 12)
            raw[:, 48:56] = words.view(np.uint8)
        if name == "MXFP4":   # scales 2^-12 .. 2^3: every value finite and normal
            raw[:, 0] = rng.integers(115, 131, size=n_blocks, dtype=np.uint8)
        values = dequantize(raw.reshape(-1), qtype).astype(np.float32).reshape(-1)
        assert values.size == n_blocks * block and np.all(np.isfinite(values))
        (out_dir / f"{name}.bin").write_bytes(raw.tobytes() + values.astype("<f4").tobytes())
        print(f"{name}: {n_blocks} blocks, {values.size} values")


if __name__ == "__main__":
    main()
