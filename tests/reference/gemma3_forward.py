#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A plain float64 forward pass of a `gemma3` GGUF, in numpy.

The second opinion for Gemma 3 that reference_forward.py is for llama: the
quantized weights are dequantized once (by the `gguf` package from PyPI) and
everything else is computed in float64 with no activation quantization, so
its logits are the exact math of the quantized model.

Gemma 3 as llama.cpp reads it: the embedding times sqrt(n_embd); per layer
RMSNorm before and after attention and before and after the GELU-tanh gated
FFN (the GGUF's norm weights already hold 1 + w); RMSNorm of each query and
key head (QK-norm); RoPE on the two halves of a head (NeoX order), base
10000 on the local layers and gemma3.rope.freq_base on every sixth (global)
layer; local layers see the last gemma3.attention.sliding_window positions;
scores scaled by 1 / sqrt(key_length); output tied to token_embd.
"""

import numpy as np

from reference_forward import DequantizedModel


class Gemma3F64(DequantizedModel):
    LOCAL_ROPE_BASE = 10000.0
    GLOBAL_EVERY = 6   # layers il with il % 6 == 5 attend globally

    def __init__(self, model_path):
        super().__init__(model_path, "gemma3")
        self.head_dim = int(self.hparam("attention.key_length"))
        self.global_rope_base = float(self.hparam("rope.freq_base"))
        self.window = int(self.hparam("attention.sliding_window"))
        self.reset()

    def _rope(self, x, pos, base):
        # x: (n_tok, n_heads, head_dim); rotates pairs (i, i + head_dim / 2) by pos * base^(-2i/head_dim)
        half = self.head_dim // 2
        i = np.arange(half)
        theta = pos[:, None] * base ** (-2.0 * i / self.head_dim)
        cos, sin = np.cos(theta)[:, None, :], np.sin(theta)[:, None, :]
        a, b = x[..., :half], x[..., half:]
        return np.concatenate([a * cos - b * sin, a * sin + b * cos], axis=-1)

    @staticmethod
    def _gelu_tanh(x):
        return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))

    def eval(self, ids):
        """Append tokens; return the logits of the last one, (n_vocab,) float64."""
        n_tok = len(ids)
        pos = np.arange(self.n_past, self.n_past + n_tok, dtype=np.float64)
        n_all = self.n_past + n_tok
        key_pos = np.arange(n_all)[None, :]
        causal = key_pos > pos[:, None]
        local = causal | (key_pos <= pos[:, None] - self.window)
        x = self.w["token_embd.weight"][ids] * np.sqrt(self.n_embd)  # (n_tok, n_embd)
        for il in range(self.n_layer):
            p = f"blk.{il}."
            is_global = il % self.GLOBAL_EVERY == self.GLOBAL_EVERY - 1
            base = self.global_rope_base if is_global else self.LOCAL_ROPE_BASE
            mask = np.where(causal if is_global else local, -np.inf, 0.0)
            h = self._rms_norm(x, self.w[p + "attn_norm.weight"])
            q = (h @ self.w[p + "attn_q.weight"].T).reshape(n_tok, self.n_head, self.head_dim)
            k = (h @ self.w[p + "attn_k.weight"].T).reshape(n_tok, self.n_head_kv, self.head_dim)
            v = (h @ self.w[p + "attn_v.weight"].T).reshape(n_tok, self.n_head_kv, self.head_dim)
            q = self._rope(self._rms_norm(q, self.w[p + "attn_q_norm.weight"]), pos, base)
            k = self._rope(self._rms_norm(k, self.w[p + "attn_k_norm.weight"]), pos, base)
            self.k_cache[il] = np.concatenate([self.k_cache[il], k])
            self.v_cache[il] = np.concatenate([self.v_cache[il], v])
            o = self._attention(q, il, mask).reshape(n_tok, -1) @ self.w[p + "attn_output.weight"].T
            x = x + self._rms_norm(o, self.w[p + "post_attention_norm.weight"])
            h = self._rms_norm(x, self.w[p + "ffn_norm.weight"])
            gate = h @ self.w[p + "ffn_gate.weight"].T
            up = h @ self.w[p + "ffn_up.weight"].T
            ffn = (self._gelu_tanh(gate) * up) @ self.w[p + "ffn_down.weight"].T
            x = x + self._rms_norm(ffn, self.w[p + "post_ffw_norm.weight"])
        self.n_past = n_all
        last = self._rms_norm(x[-1], self.w["output_norm.weight"])
        return self.output @ last
