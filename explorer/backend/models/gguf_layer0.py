"""A RoPE family's layer-0 tensors, checked in a GGUF header before anything is read: the shapes the config implies
(GGUF ne = (in, out)), and the tensors llama.cpp's loader requires of every layer (gpt-oss, phi2)."""

from __future__ import annotations

from explorer.backend.models.family_tables import FAMILIES, NO_INPUT_NORM
from explorer.backend.models.gguf_archs import require_tensor_shapes
from explorer.backend.models.gguf_header import Header
from explorer.errors import require


def check_rope_layer0(header: Header, config: dict, where: str) -> None:
    """A RoPE family's layer-0 tensors that a view reads exist with the shapes the config implies (GGUF ne =
    (in, out)): Phi-3's fused attn_qkv, Qwen3's and Gemma 3's q/k norms, Gemma 2 / 3's norms after attention
    and MLP, OLMo 2's q/k norms over all heads, StableLM's stacked per-head ones."""
    if config["model_type"] == "deepseek_v2":          # MLA's own tensors (gguf_deepseek.py)
        from explorer.backend.models.gguf_deepseek import check_mla_layer0

        return check_mla_layer0(header, config, where)
    if config["model_type"] == "olmo":                 # no norm tensor at all; every layer checked (gguf_olmo.py)
        return None
    d, hd, kind = config["hidden_size"], config["head_dim"], config["model_type"]
    heads, kv = config["num_attention_heads"], config["num_key_value_heads"]
    want = {"output_norm.weight": (d,)}
    if FAMILIES[kind] not in NO_INPUT_NORM:            # (OLMo 2 and 3, EXAONE 4.0: no norm before attention)
        want["blk.0.attn_norm.weight"] = (d,)
    if kind == "phi3" or (kind in ("phi", "glm") and "blk.0.attn_qkv.weight" in header.tensors):
        want["blk.0.attn_qkv.weight"] = (d, (heads + 2 * kv) * hd)
    else:
        want.update({"blk.0.attn_q.weight": (d, heads * hd), "blk.0.attn_k.weight": (d, kv * hd),
                     "blk.0.attn_v.weight": (d, kv * hd)})
    want["blk.0.attn_output.weight"] = (heads * hd, d)
    if kind in ("gemma2", "gemma3_text"):
        want.update({"blk.0.post_attention_norm.weight": (d,), "blk.0.post_ffw_norm.weight": (d,)})
    if kind == "gpt_oss":                   # q/k biases (llama.cpp's loader requires them); each head's sink
        want.update({"blk.0.attn_q.bias": (heads * hd,), "blk.0.attn_k.bias": (kv * hd,),   # logit, F32 only
                     "blk.0.attn_sinks.weight": (heads,)})
        _check_gpt_oss_layers(header, config["num_hidden_layers"], where)
    # a q bias without a k bias (or the reverse) would be read as none, or as zeros
    q_bias, k_bias = ("blk.0.attn_q.bias" in header.tensors, "blk.0.attn_k.bias" in header.tensors)
    require(q_bias == k_bias, "%1: tensor %2 is missing beside %3", where,
            *(("blk.0.attn_k.bias", "blk.0.attn_q.bias") if q_bias else ("blk.0.attn_q.bias", "blk.0.attn_k.bias")))
    if kind in ("qwen3", "qwen3_moe", "gemma3_text", "qwen3_vl_text", "qwen3_vl_moe_text", "exaone4"):
        want.update({"blk.0.attn_q_norm.weight": (hd,), "blk.0.attn_k_norm.weight": (hd,)})
    if kind == "exaone4":                   # (llama.cpp's exaone4 creates no attn_norm: its loader refuses one)
        require("blk.0.attn_norm.weight" not in header.tensors, "%1: tensor %2 is not part of an exaone4 file "
                "(llama.cpp's exaone4 has none and refuses the file)", where, "blk.0.attn_norm.weight")
    if kind in ("olmo2", "olmo3"):          # their q/k norms span all heads
        want.update({"blk.0.attn_q_norm.weight": (heads * hd,), "blk.0.attn_k_norm.weight": (kv * hd,)})
        for name in ("blk.0.attn_norm.weight", "blk.0.attn_q.bias", "blk.0.attn_k.bias"):
            require(name not in header.tensors, "%1: tensor %2 is not part of an olmo2 file (llama.cpp's olmo2 "
                                                "has none and refuses the file)", where, name)
    if kind in ("hunyuan_v1_dense", "hunyuan_v1_moe"):   # each head's q/k norm after RoPE (llama.cpp requires them)
        from explorer.backend.models.gguf_hunyuan import hunyuan_layer0
        want.update(hunyuan_layer0(config))
    if kind == "glm4_moe":                  # GLM-4.5's per-head q/k norms: both or none
        from explorer.backend.models.gguf_glm import glm_layer0
        want.update(glm_layer0(config))
    if kind == "qwen2_vl_text":             # (transformers' Qwen2-VL attention always reads its q/k biases)
        want.update({"blk.0.attn_q.bias": (heads * hd,), "blk.0.attn_k.bias": (kv * hd,)})
    if kind in ("starcoder2", "nemotron"):  # LayerNorm (its bias required by llama.cpp's loader)
        want["blk.0.attn_norm.bias"] = (d,)
    if kind == "olmoe":                     # q/k norms over all heads; llama.cpp sizes k's by n_embd, so one kv
        require(kv == heads, "%1: %2 kv heads for %3 heads; llama.cpp's olmoe has one kv head per head", where,
                kv, heads)                  # head per head (OLMoE-1B-7B's 16 and 16)
        want.update({"blk.0.attn_q_norm.weight": (heads * hd,), "blk.0.attn_k_norm.weight": (kv * hd,)})
    if kind == "cohere" and config.get("use_qk_norm"):     # Command-R+: a LayerNorm of each head's own
        want.update({"blk.0.attn_q_norm.weight": (hd, heads), "blk.0.attn_k_norm.weight": (hd, kv)})
    if kind == "stablelm":                  # LayerNorm; q and k biases, stacked per-head q and k norms: both or none
        want["blk.0.attn_norm.bias"] = (d,)
        if config.get("use_qkv_bias"):
            want.update({"blk.0.attn_q.bias": (heads * hd,), "blk.0.attn_k.bias": (kv * hd,)})
        if config.get("qk_layernorm"):
            want.update({"blk.0.attn_q_norm.weight": (hd, heads), "blk.0.attn_k_norm.weight": (hd, kv)})
    if kind == "phi":                                               # LayerNorms and q/k biases
        want["blk.0.attn_norm.bias"] = (d,)
        want.update({"blk.0.attn_qkv.bias": ((heads + 2 * kv) * hd,)} if "blk.0.attn_qkv.weight" in want
                    else {"blk.0.attn_q.bias": (heads * hd,), "blk.0.attn_k.bias": (kv * hd,)})
        _check_phi2_layers(header, config["num_hidden_layers"], where)
    require_tensor_shapes(header, want, where)


def _check_gpt_oss_layers(header: Header, n_layers: int, where: str) -> None:
    """Every layer of a gpt-oss file has its q and k biases and F32 sinks (llama.cpp's loader requires each, and
    its attention with sinks reads F32 only)."""
    for layer in range(n_layers):
        for name in (f"blk.{layer}.attn_q.bias", f"blk.{layer}.attn_k.bias", f"blk.{layer}.attn_sinks.weight"):
            require(name in header.tensors, "%1: tensor %2 is missing", where, name)
        require(header.tensors[f"blk.{layer}.attn_sinks.weight"].ggml_type == 0, "%1: tensor %2 must be F32; "
                "llama.cpp's attention with sinks reads no other type", where, f"blk.{layer}.attn_sinks.weight")


def _check_phi2_layers(header: Header, n_layers: int, where: str) -> None:
    """Every layer of a phi2 file has one q/k layout, whole: attn_qkv with its bias, or attn_q and attn_k
    with theirs, and attn_norm's bias (llama.cpp's loader requires each; a later layer's missing bias was
    read as zeros, and a layer with both layouts used its attn_qkv)."""
    for layer in range(n_layers):
        fused, split = (f"blk.{layer}.attn_qkv.weight" in header.tensors,
                        f"blk.{layer}.attn_q.weight" in header.tensors)
        require(not (fused and split), "%1: layer %2 holds both attn_qkv and attn_q / attn_k / attn_v; a phi2 "
                "file has one of the two", where, layer)
        parts = ("attn_qkv",) if fused else ("attn_q", "attn_k")
        for name in [f"blk.{layer}.{p}.{kind}" for p in parts for kind in ("weight", "bias")] + [
                f"blk.{layer}.attn_norm.bias"]:
            require(name in header.tensors, "%1: tensor %2 is missing", where, name)


def check_every_qkv(config: dict, tensors: dict, where: str) -> None:
    """Every layer's separate attn_q / attn_k / attn_v weights are in the file with the config's shapes (GGUF ne =
    (in, out)), as llama.cpp's loader requires of each layer (smollm3, seed_oss)."""
    d, hd, kv = config["hidden_size"], config["head_dim"], config["num_key_value_heads"]
    rows = {"q": config["num_attention_heads"] * hd, "k": kv * hd, "v": kv * hd}
    for il in range(config["num_hidden_layers"]):
        for x, out in rows.items():
            name = f"blk.{il}.attn_{x}.weight"
            info = tensors.get(name)
            require(info is not None, "%1: tensor %2 is missing", where, name)
            require(tuple(info.ne) == (d, out), "%1: tensor %2 has shape %3, expected %4", where, name,
                    list(info.ne), [d, out])


def refuse_unloaded(tensors: dict, top: tuple, layer: tuple, n_layers: int, arch: str, where: str) -> None:
    """Every tensor of the file is one llama.cpp's `arch` loader loads: a `top` name, or blk.{il}.{part} for a part of
    `layer` and il < n_layers (its loader refuses a file with any other, a layer past block_count included)."""
    loaded = set(top) | {f"blk.{il}.{part}" for il in range(n_layers) for part in layer}
    for name in tensors:
        require(name in loaded, "%1: tensor %2 is not one llama.cpp's %3 loads (its loader refuses the file)", where,
                name, arch)


def check_qk_biases(config: dict, tensors: dict, where: str) -> None:
    """Every layer has q and k biases where config's attention_bias (read from layer 0) says so and none where it
    does not: transformers' attention_bias is one switch for all layers (seed_oss, apertus)."""
    for il in range(config["num_hidden_layers"]):
        for x in "qk":
            name = f"blk.{il}.attn_{x}.bias"
            require(name in tensors or not config["attention_bias"], "%1: tensor %2 is missing", where, name)
            require(name not in tensors or config["attention_bias"], "%1: tensor %2 is a bias where layer 0 has "
                    "none; PE Explorer reads one attention_bias for every layer", where, name)
