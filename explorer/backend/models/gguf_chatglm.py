"""GGUF files of llama.cpp's `chatglm` (GLM-4-9B, GLM-4-9B-Chat, ChatGLM3 as its converter writes them) read as
transformers' GlmForCausalLM (model_type glm, explorer's glm4 family). No Qt.

Sources (ggml-org/llama.cpp):
- conversion/chatglm.py, `ChatGLMModel(TextModel)`, registered for GlmForCausalLM, ChatGLMModel and
  ChatGLMForConditionalGeneration, MODEL_ARCH.CHATGLM. `set_gguf_parameters` writes context_length (seq_length,
  else hidden_size), embedding_length, feed_forward_length, block_count, head_count, head_count_kv
  (multi_query_group_num, else num_key_value_heads), layer_norm_rms_epsilon (layernorm_epsilon, else 1e-5: a
  GlmForCausalLM's rms_norm_eps is not read), rope.dimension_count = int((attention_dim, else hidden_size /
  num_attention_heads) x partial_rotary_factor (a top-level key, else 0.5)) and rope.freq_base = 10,000 x
  rope_ratio (a GlmForCausalLM's rope_theta is not read); no key_length. `modify_tensors` drops `transformer.`
  and rotary_pos_emb.inv_freq and changes no rows (no permutation). gguf-py's tensor_mapping.py: q_proj / k_proj /
  v_proj (and biases) -> attn_q / attn_k / attn_v, o_proj -> attn_output, mlp.gate_up_proj -> ffn_up; a ChatGLM /
  THUDM GLM-4 checkpoint's self_attention.query_key_value (rows q, k, v) and its bias -> attn_qkv.
- src/models/chatglm.cpp (the graph): RMSNorm by attn_norm; q, k, v from attn_qkv (plus its bias when the layer
  has one) viewed at offsets 0, n_embd and n_embd + n_embd_gqa, or from attn_q / attn_k / attn_v, each plus its
  bias when the layer has it; heads of n_embd_head channels; ggml_rope_ext over n_rot channels; attn_output
  without bias, kq_scale 1 / sqrt(n_embd_head); ffn_norm, ffn_up (SwiGLU, gate half first), ffn_down.
  load_hparams (src/llama-model.cpp, LLM_ARCH_CHATGLM) reads the RMS epsilon only.
- src/llama-model.cpp, llama_model_rope_type: LLM_ARCH_CHATGLM is NORM (neighbouring channels (2j, 2j + 1)),
  the first n_rot of a head turning, the rest passed through: GlmForCausalLM's own rotation (modeling_glm.py,
  apply_rotary_pos_emb: cos / sin repeat_interleave'd, rotate_half of neighbour pairs, over the first
  partial_rotary_factor of each head). Nothing to undo.
A file whose heads are not embedding_length / head_count wide is refused: the graph views q by n_embd.
"""

from __future__ import annotations

from explorer.backend.models.config_rope import rotary_fraction
from explorer.backend.models.gguf_archs import meta_int, require_tensor_shapes
from explorer.backend.models.gguf_header import Header
from explorer.backend.models.gguf_layer0 import check_every_qkv, refuse_unloaded
from explorer.errors import require

NAMES = {"chatglm": {"attn_qkv": "self_attn.qkv_proj", "ffn_up": "mlp.gate_up_proj"}}   # GGUF part -> Hugging Face's
TOP = ("token_embd.weight", "output_norm.weight", "output.weight")
LAYER = tuple(f"{p}.weight" for p in ("attn_norm", "attn_output", "ffn_norm", "ffn_up", "ffn_down"))


def chatglm_config(header: Header, config: dict, where: str) -> None:
    """GlmForCausalLM keys of config (in place): the rotated fraction of a head (GLM's default 0.5 otherwise),
    q/k/v biases as the file has them; every layer's attention tensors checked, one layout (attn_qkv, or attn_q /
    attn_k / attn_v) and one bias switch for all, and every tensor named, as llama.cpp's chatglm loads them."""
    fields, tensors = header.fields, header.tensors
    d, heads, hd = config["hidden_size"], config["num_attention_heads"], config["head_dim"]
    require(heads * hd == d, "%1: metadata %2.attention.key_length is %3; llama.cpp's %2 takes embedding_length / "
            "head_count (%4 / %5) channels a head", where, "chatglm", hd, d, heads)
    rot = meta_int(fields, "chatglm.rope.dimension_count", where, default=hd)
    config["partial_rotary_factor"] = rotary_fraction(rot, hd)
    fused = "blk.0.attn_qkv.weight" in tensors
    parts = ("attn_qkv",) if fused else ("attn_q", "attn_k", "attn_v")
    config["attention_bias"] = f"blk.0.{parts[0]}.bias" in tensors
    rows = {"attn_qkv": (heads + 2 * config["num_key_value_heads"]) * hd, "attn_q": heads * hd,
            "attn_k": config["num_key_value_heads"] * hd, "attn_v": config["num_key_value_heads"] * hd}
    n_layers = config["num_hidden_layers"]
    if not fused:
        check_every_qkv(config, tensors, where)
    for il in range(n_layers):
        want = {f"blk.{il}.attn_qkv.weight": (d, rows["attn_qkv"])} if fused else {}
        if config["attention_bias"]:
            want.update({f"blk.{il}.{p}.bias": (rows[p],) for p in parts})
        require_tensor_shapes(header, want, where)
        for p in parts:
            name = f"blk.{il}.{p}.bias"
            require(name not in tensors or config["attention_bias"], "%1: tensor %2 is a bias where layer 0 has "
                    "none; PE Explorer reads one attention_bias for every layer", where, name)
    refuse_unloaded(tensors, TOP, LAYER + tuple(f"{p}.{kind}" for p in parts for kind in ("weight", "bias")),
                    n_layers, "chatglm", where)

