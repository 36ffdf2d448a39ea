#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Writes the seed corpora of the fuzz targets (fuzz/corpus/<target>/): a few
# small valid inputs of each kind, from which libFuzzer mutates. Run from the
# repository root; the output is committed.
import json, os, struct

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")

def put(target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())

# ---- GGUF
def gstr(s):
    b = s.encode() if isinstance(s, str) else s
    return struct.pack("<Q", len(b)) + b

def kv(key, vtype, payload):
    return gstr(key) + struct.pack("<I", vtype) + payload

def kv_u32(k, v): return kv(k, 4, struct.pack("<I", v))
def kv_f32(k, v): return kv(k, 6, struct.pack("<f", v))
def kv_bool(k, v): return kv(k, 7, struct.pack("<B", v))
def kv_str(k, v): return kv(k, 8, gstr(v))
def kv_arr(k, etype, items, enc):
    return kv(k, 9, struct.pack("<IQ", etype, len(items)) + b"".join(enc(x) for x in items))

def gguf(kvs, tensors, alignment=32):
    # tensors: (name, ne list, type, bytes)
    head = struct.pack("<IIQQ", 0x46554747, 3, len(tensors), len(kvs)) + b"".join(kvs)
    infos, data, off = b"", b"", 0
    for name, ne, ttype, payload in tensors:
        infos += gstr(name) + struct.pack("<I", len(ne)) + b"".join(struct.pack("<Q", n) for n in ne)
        infos += struct.pack("<IQ", ttype, off)
        pad = (-len(payload)) % alignment
        data += payload + b"\0" * pad
        off += len(payload) + pad
    out = head + infos
    out += b"\0" * ((-len(out)) % alignment)
    return out + data

def byte_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b); cs.append(256 + n); n += 1
    return {b: chr(c) for b, c in zip(bs, cs)}

bu = byte_unicode()
tokens = [bu[b] for b in range(256)] + ["Ġt", "he", "Ġthe", "<|im_start|>", "<|im_end|>"]
types = [1] * 259 + [3, 3]
merges = ["Ġ t", "h e", "Ġt he"]
chatml = ("{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}"
          "{{ '<|im_start|>system\nYou are helpful.<|im_end|>\n' }}{% endif %}"
          "{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}"
          "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}")
tok_kvs = [kv_str("tokenizer.ggml.model", "gpt2"), kv_str("tokenizer.ggml.pre", "smollm"),
           kv_arr("tokenizer.ggml.tokens", 8, tokens, gstr),
           kv_arr("tokenizer.ggml.token_type", 5, types, lambda x: struct.pack("<i", x)),
           kv_arr("tokenizer.ggml.merges", 8, merges, gstr),
           kv_u32("tokenizer.ggml.eos_token_id", 260), kv_str("tokenizer.chat_template", chatml)]
put("fuzz_gguf", "one-tensor.gguf", gguf([kv_str("general.architecture", "llama")], [("w", [8], 0, b"\0" * 32)]))
put("fuzz_gguf", "tokenizer.gguf", gguf(tok_kvs, []))

# A whole one-layer llama model, F32, 16 wide.
E, F, H, V = 16, 32, 2, len(tokens)
def f32(n): return struct.pack("<%df" % n, *[((i * 37) % 17 - 8) / 64.0 for i in range(n)])
model_kvs = [kv_str("general.architecture", "llama"), kv_u32("llama.block_count", 1), kv_u32("llama.embedding_length", E),
             kv_u32("llama.feed_forward_length", F), kv_u32("llama.attention.head_count", H),
             kv_u32("llama.attention.head_count_kv", 1), kv_u32("llama.context_length", 64),
             kv_f32("llama.attention.layer_norm_rms_epsilon", 1e-5)] + tok_kvs
kvdim = E // H
tensors = [("token_embd.weight", [E, V], 0, f32(E * V)), ("output_norm.weight", [E], 0, f32(E)),
           ("blk.0.attn_norm.weight", [E], 0, f32(E)), ("blk.0.attn_q.weight", [E, E], 0, f32(E * E)),
           ("blk.0.attn_k.weight", [E, kvdim], 0, f32(E * kvdim)), ("blk.0.attn_v.weight", [E, kvdim], 0, f32(E * kvdim)),
           ("blk.0.attn_output.weight", [E, E], 0, f32(E * E)), ("blk.0.ffn_norm.weight", [E], 0, f32(E)),
           ("blk.0.ffn_gate.weight", [E, F], 0, f32(E * F)), ("blk.0.ffn_up.weight", [E, F], 0, f32(E * F)),
           ("blk.0.ffn_down.weight", [F, E], 0, f32(F * E))]
put("fuzz_gguf", "one-layer-model.gguf", gguf(model_kvs, tensors))

# ---- tokenizer texts
for i, t in enumerate(["Hello world", "the  theme\tthere\n\n", "<|im_start|>user\nhi<|im_end|>\n<tool>x",
                       "caf\u00e9 \u4e2d\u6587 \U0001F600 \u2581the", "\xff\xfe\x80 invalid \xc3"]):
    put("fuzz_tokenizer", "text%d" % i, t.encode("utf-8", "surrogateescape") if isinstance(t, str) else t)
put("fuzz_tokenizer", "bytes", bytes([0xff, 0xfe, 0x80, 0x41, 0xc3, 0x28, 0xe2, 0x82]))

# ---- chat templates + messages
qwen = ("{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}"
        "{%- else %}{{- '<|im_start|>system\\nYou are Qwen.<|im_end|>\\n' }}{%- endif %}"
        "{%- for message in messages %}{{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>\\n' }}{%- endfor %}")
llama3 = ("{{- bos_token }}{{- \"<|start_header_id|>system<|end_header_id|>\\n\\n\" }}{{- \"Cutting Knowledge Date: December 2023\\n\" }}"
          "{% for m in messages %}{{ '<|start_header_id|>' + m['role'] + '<|end_header_id|>\\n\\n' + m['content'] | trim + '<|eot_id|>' }}{% endfor %}")
gemma = "{{ bos_token }}{%- for message in loop_messages -%}{{ '<start_of_turn>' + role + '\\n' }}{{ message['content'] | trim }}{{ '<end_of_turn>\\n' }}{%- endfor -%}"
deepseek = ("{{bos_token}}{{ns.system_prompt}}{%- for message in messages %}{%- if message['role'] == 'user' %}"
            "{{'<\uff5cUser\uff5c>' + message['content']}}{%- endif %}{%- if message['role'] == 'assistant' %}"
            "{{'<\uff5cAssistant\uff5c>' + content + '<\uff5cend\u2581of\u2581sentence\uff5c>'}}{%- endif %}{%- endfor -%}"
            "{% if add_generation_prompt %}{{'<\uff5cAssistant\uff5c><think>\\n'}}{% endif %}")
phi3 = ("{% for message in messages %}{% if message['role'] == 'system' and message['content'] %}{{'<|system|>\n' + message['content'] + '<|end|>\n'}}"
        "{% elif message['role'] == 'user' %}{{'<|user|>\n' + message['content'] + '<|end|>\n'}}"
        "{% elif message['role'] == 'assistant' %}{{'<|assistant|>\n' + message['content'] + '<|end|>\n'}}{% endif %}{% endfor %}"
        "{% if add_generation_prompt %}{{ '<|assistant|>\n' }}{% else %}{{ eos_token }}{% endif %}")
phi4_mini = ("{% for message in messages %}{{ '<|' + message['role'] + '|>' + message['content'] + '<|end|>' }}{% endfor %}"
             "{% if add_generation_prompt %}{{ '<|assistant|>' }}{% else %}{{ eos_token }}{% endif %}")
mistral_v1 = ("{%- if messages[0]['role'] == 'system' %}{%- set system_message = messages[0]['content'] %}{%- endif %}"
              "{%- if loop.first and system_message is defined %}{{- ' [INST] ' + system_message + '\\n\\n' + message['content'] + ' [/INST]' }}"
              "{%- elif message['role'] == 'assistant' %}{{- ' ' + message['content'] + eos_token}}{%- endif %}")
mistral_nemo = ("{%- if loop.last and system_message is defined %}{{- \"[INST]\" + system_message + \"\\n\\n\" + message[\"content\"] + \"[/INST]\" }}"
                "{%- elif message[\"role\"] == \"assistant\" %}{{- message[\"content\"] + eos_token}}{%- endif %}")
mistral_small = ("{%- set default_system_message = \"You are Mistral Small 3.\" %}{{- '[SYSTEM_PROMPT]' + system_message + '[/SYSTEM_PROMPT]' }}"
                 "{%- if message['role'] == 'user' %}{{- '[INST]' + message['content'] + '[/INST]' }}{%- endif %}")
phi4 = ("{% for message in messages %}{% if (message['role'] == 'user') %}{{'<|im_start|>user<|im_sep|>' + message['content'] + '<|im_end|>'}}"
        "{% endif %}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant<|im_sep|>' }}{% endif %}")
for name, t in [("chatml", chatml), ("qwen", qwen), ("llama3", llama3), ("gemma", gemma), ("deepseek", deepseek),
                ("phi3", phi3), ("phi4-mini", phi4_mini), ("phi4", phi4), ("mistral-v1", mistral_v1), ("mistral-nemo", mistral_nemo),
                ("mistral-small", mistral_small), ("none", "{{ messages }}")]:
    # Marker text in the messages must stay text: ChatML's and DeepSeek's, and
    # for the newer seeds Phi-3's and Mistral's.
    said = ("Hi <|im_end|> there\0Hello!</think>Bye" if name in ("chatml", "qwen", "llama3", "gemma", "deepseek", "none")
            else "Hi <|im_sep|><|im_end|> there\0Hello!<|im_sep|>Bye" if name == "phi4"
            else "Hi [/INST]<|end|> there\0Hello!</s>[INST]Bye")
    put("fuzz_chat_template", name, (t + "\0Be brief.\0" + said + "\0Bye").encode("utf-8"))

# ---- PDF helper answers
meta = {"title": "T", "author": "", "subject": "", "keywords": "", "creator": "", "producer": "", "creation_date": "",
        "modification_date": "", "page_count": 2, "encrypted": False, "pdf_version": "1.7"}
ok = {"protocol": 1, "ok": True, "metadata": meta, "first_page": 1,
      "pages": [{"number": 1, "text": "Hello", "width": 612, "height": 792},
                {"number": 2, "text": "World\n", "width": 612, "height": 792}], "warnings": ["w"]}
put("fuzz_pdf_protocol", "extract-ok.json", json.dumps(ok))
put("fuzz_pdf_protocol", "failure.json", json.dumps({"protocol": 1, "ok": False, "error": {"kind": "needs_password", "message": "m"}}))
hdr = {"protocol": 1, "ok": True, "page": 1, "dpi": 72, "width": 2, "height": 2, "stride": 8, "bytes": 16}
put("fuzz_pdf_protocol", "render.bin", (json.dumps(hdr) + "\n").encode() + bytes(range(16)))

# ---- remote server answers (first byte: how the stream is cut)
def chunk(delta, **extra):
    d = {"id": "c1", "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": None}]}
    d.update(extra)
    return "data: " + json.dumps(d) + "\n\n"
llama_stream = (": keep-alive\n\n"
                + "data: " + json.dumps({"choices": [], "prompt_progress": {"total": 40, "cache": 8, "processed": 24, "time_ms": 12.5}}) + "\n\n"
                + chunk({"role": "assistant", "content": "Hel"}) + chunk({"content": "lo"})
                + chunk({}, usage={"prompt_tokens": 40, "completion_tokens": 2, "prompt_tokens_details": {"cached_tokens": 8}},
                        timings={"prompt_n": 32, "cache_n": 8, "prompt_ms": 20.0, "predicted_n": 2, "predicted_ms": 9.0})
                + "data: [DONE]\n\n")
put("fuzz_sse", "llama-stream.sse", b"\x07" + llama_stream.encode())
put("fuzz_sse", "crlf-stream.sse", b"\x02" + llama_stream.replace("\n", "\r\n").encode())
put("fuzz_sse", "error-event.sse", b"\x05" + b'event: error\ndata: {"error":{"message":"out of memory","code":500}}\n\n')
put("fuzz_sse", "models.json", b"\x00" + json.dumps({"object": "list", "data": [{"id": "m.gguf", "owned_by": "llamacpp",
    "meta": {"n_ctx": 4096, "n_ctx_train": 8192, "n_vocab": 49152}}]}).encode())
put("fuzz_sse", "props.json", b"\x00" + json.dumps({"default_generation_settings": {"n_ctx": 4096}, "total_slots": 1,
    "model_path": "/m.gguf", "build_info": "b1"}).encode())
put("fuzz_sse", "metrics.txt", b"\x00" + b"# HELP vllm:gpu_cache_usage_perc KV\nvllm:gpu_cache_usage_perc{model_name=\"m\"} 0.25\n"
    b"vllm:prefix_cache_queries_total 100\nvllm:prefix_cache_hits_total 40\nvllm:num_requests_running 1\n")
