#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A plain float64 forward pass of a `llama`-architecture GGUF, in numpy.

This is a second opinion next to llama.cpp: the quantized weights are
dequantized once (by the `gguf` package from PyPI) and everything else is
computed in float64 with no activation quantization, so its logits are the
exact math of the quantized model. llama.cpp quantizes activations to 8 bits
inside its matmuls and so differs from this by up to about a logit; a kvlens
kernel that dequantizes and accumulates in f32 should land nearer to this.

Covers what SmolLM2 needs: RMSNorm, RoPE on adjacent pairs (the layout
convert_hf_to_gguf gives llama Q/K weights), grouped-query attention,
SwiGLU FFN, output weight tied to token_embd when `output.weight` is absent.
"""

import numpy as np


def _field(reader, key):
    return reader.fields[key].contents()


class DequantizedModel:
    """A GGUF of one architecture with its weights dequantized to float64 (by
    the gguf package) and what every float64 pass here shares: the
    hyperparameters, the K/V of the positions so far, RMSNorm."""

    def __init__(self, model_path, arch):
        import gguf

        self._reader = gguf.GGUFReader(str(model_path))
        found = _field(self._reader, "general.architecture")
        if found != arch:
            raise ValueError(f"{type(self).__name__} covers {arch} only, not {found}")
        self.arch = arch
        # name -> float64 array, shape (ne1, ne0) = (out, in) for matrices
        self.w = {}
        for t in self._reader.tensors:
            data = gguf.quants.dequantize(t.data, t.tensor_type).astype(np.float64)
            shape = [int(n) for n in reversed(t.shape)]
            self.w[t.name] = data.reshape(shape)
        self.output = self.w.get("output.weight", self.w["token_embd.weight"])
        # the hyperparameters every architecture here has
        self.n_layer = int(self.hparam("block_count"))
        self.n_embd = int(self.hparam("embedding_length"))
        self.n_head = int(self.hparam("attention.head_count"))
        self.n_head_kv = int(self.hparam("attention.head_count_kv"))
        self.eps = float(self.hparam("attention.layer_norm_rms_epsilon"))

    def hparam(self, key):
        """The GGUF field `<arch>.<key>`."""
        return _field(self._reader, f"{self.arch}.{key}")

    def reset(self):
        # per layer: K and V of every position so far, (n_pos, n_head_kv, head_dim)
        self.k_cache = [np.zeros((0, self.n_head_kv, self.head_dim)) for _ in range(self.n_layer)]
        self.v_cache = [np.zeros((0, self.n_head_kv, self.head_dim)) for _ in range(self.n_layer)]
        self.n_past = 0

    def _rms_norm(self, x, weight):
        return x / np.sqrt((x * x).mean(-1, keepdims=True) + self.eps) * weight

    def _attention(self, q, il, mask):
        """q (n_tok, n_head, head_dim) against layer il's cache so far; mask (n_tok, n_pos)
        adds 0 or -inf to the scores, scaled by 1 / sqrt(head_dim). Returns (n_tok, n_head, head_dim)."""
        group = self.n_head // self.n_head_kv
        attn = np.empty((q.shape[0], self.n_head, self.head_dim))
        for h in range(self.n_head):
            kv = h // group
            scores = q[:, h] @ self.k_cache[il][:, kv].T / np.sqrt(self.head_dim) + mask
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            attn[:, h] = scores @ self.v_cache[il][:, kv]
        return attn


class LlamaF64(DequantizedModel):
    def __init__(self, model_path):
        super().__init__(model_path, "llama")
        self.head_dim = self.n_embd // self.n_head
        self.rope_base = float(self.hparam("rope.freq_base"))
        self.reset()

    def _rope(self, x, pos):
        # x: (n_tok, n_heads, head_dim); rotates pairs (2i, 2i+1) by pos * base^(-2i/head_dim)
        i = np.arange(self.head_dim // 2)
        theta = pos[:, None] * self.rope_base ** (-2.0 * i / self.head_dim)
        cos, sin = np.cos(theta)[:, None, :], np.sin(theta)[:, None, :]
        even, odd = x[..., 0::2], x[..., 1::2]
        out = np.empty_like(x)
        out[..., 0::2] = even * cos - odd * sin
        out[..., 1::2] = even * sin + odd * cos
        return out

    def eval(self, ids):
        """Append tokens; return the logits of the last one, (n_vocab,) float64."""
        n_tok = len(ids)
        pos = np.arange(self.n_past, self.n_past + n_tok, dtype=np.float64)
        n_all = self.n_past + n_tok
        # causal mask over (new tokens, all positions): -inf above the diagonal
        mask = np.where(np.arange(n_all)[None, :] > pos[:, None], -np.inf, 0.0)
        x = self.w["token_embd.weight"][ids]  # (n_tok, n_embd)
        for il in range(self.n_layer):
            p = f"blk.{il}."
            attn_norm = self._rms_norm(x, self.w[p + "attn_norm.weight"])
            q = self._rope((attn_norm @ self.w[p + "attn_q.weight"].T)
                           .reshape(n_tok, self.n_head, self.head_dim), pos)
            k = self._rope((attn_norm @ self.w[p + "attn_k.weight"].T)
                           .reshape(n_tok, self.n_head_kv, self.head_dim), pos)
            v = (attn_norm @ self.w[p + "attn_v.weight"].T).reshape(n_tok, self.n_head_kv, self.head_dim)
            self.k_cache[il] = np.concatenate([self.k_cache[il], k])
            self.v_cache[il] = np.concatenate([self.v_cache[il], v])
            attn = self._attention(q, il, mask)
            x = x + attn.reshape(n_tok, -1) @ self.w[p + "attn_output.weight"].T
            ffn_norm = self._rms_norm(x, self.w[p + "ffn_norm.weight"])
            gate = ffn_norm @ self.w[p + "ffn_gate.weight"].T
            up = ffn_norm @ self.w[p + "ffn_up.weight"].T
            x = x + (gate / (1.0 + np.exp(-gate)) * up) @ self.w[p + "ffn_down.weight"].T
        self.n_past = n_all
        last = self._rms_norm(x[-1], self.w["output_norm.weight"])
        return self.output @ last
