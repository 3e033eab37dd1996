"""GGUF files of llama.cpp's `chatglm` (GLM-4 of 2024) against the transformers GlmForCausalLM they came from.

Each tiny random model is saved with save_pretrained and written as conversion/chatglm.py's ChatGLMModel writes it
(`_write_chatglm`, from the saved config.json: rope.dimension_count = int(hidden / heads x 0.5), freq_base 10,000,
RMS epsilon 1e-5, no key_length; q/k/v and their biases as Hugging Face has them, gate_up_proj as ffn_up), or, as
from a THUDM checkpoint, with q, k and v as one attn_qkv (rows q, k, v; bias likewise). llama.cpp runs chatglm with
NORM RoPE (neighbouring pairs) over the first n_rot channels: GlmForCausalLM's own rotation. The model is built with
the base and epsilon the file holds (the converter reads neither rope_theta nor rms_norm_eps). F16 files hold the
float16-rounded model exactly; Q8_0 files are checked against the model holding the stored blocks' values. Damaged
files give one-line InputErrors, in Chinese too.
"""

from __future__ import annotations

import copy
import dataclasses
import json

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from tests import gguf_arch_writer as aw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh
from tests.test_gguf_smollm3 import _layer_inputs, _reshaped, _with, _without, close, damaged, refused_in_one_line

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
# the file's base and epsilon (ChatGLMModel writes 10,000 x rope_ratio and layernorm_epsilon, else 1e-5)
SETTINGS = dict(mh.FAMILIES["glm"], num_hidden_layers=3, rope_theta=10000.0, rms_norm_eps=1e-5)
BLOCK = {"input_layernorm": "attn_norm", "self_attn.q_proj": "attn_q", "self_attn.k_proj": "attn_k",
         "self_attn.v_proj": "attn_v", "self_attn.o_proj": "attn_output", "post_attention_layernorm": "ffn_norm",
         "mlp.gate_up_proj": "ffn_up", "mlp.down_proj": "ffn_down"}     # (gguf-py's tensor_mapping.py)


def _write_chatglm(path, model, hparams: dict, qtype: str, fused: bool, pre: str = "chatglm-bpe",
                   add_bos: bool = False) -> dict:
    """model written as ChatGLMModel writes it (hparams: the config.json it reads); fused: q, k, v (and biases) as
    one attn_qkv, as a ChatGLM checkpoint's query_key_value; pre: the tokenizer.ggml.pre get_vocab_base finds
    (GLM-4-9B's "chatglm-bpe"), over tests/gguf_fixtures.py's byte-level vocabulary; add_bos: add_bos_token true and
    bos_token_id 1 (the converter writes false). The stored arrays by GGUF name."""
    w = gguf.GGUFWriter(str(path), "chatglm")
    n_embed, n_head = hparams["hidden_size"], hparams["num_attention_heads"]
    w.add_context_length(hparams.get("seq_length", n_embed))
    w.add_embedding_length(n_embed)
    w.add_feed_forward_length(hparams.get("ffn_hidden_size", hparams.get("intermediate_size", 4 * n_embed)))
    w.add_block_count(hparams["num_hidden_layers"])
    w.add_head_count(n_head)
    w.add_head_count_kv(hparams.get("multi_query_group_num", hparams.get("num_key_value_heads", n_head)))
    w.add_layer_norm_rms_eps(hparams.get("layernorm_epsilon", 1e-5))
    rope_dim = hparams.get("attention_dim", n_embed // n_head)
    w.add_rope_dimension_count(int(rope_dim * hparams.get("partial_rotary_factor", 0.5)))
    w.add_add_bos_token(add_bos)
    if add_bos:
        w.add_bos_token_id(1)
    w.add_rope_freq_base(10000 * hparams.get("rope_ratio", 1))
    fx.add_byte_vocabulary(w, pre=pre)
    weights, stored = fx.hf_weights(model), {}
    for hf, arr in weights.items():
        if hf in fx.GGUF_NAMES:
            stored[fx.GGUF_NAMES[hf]] = fx.add_weight(w, fx.GGUF_NAMES[hf], arr, qtype)
            continue
        _, layer, rest = hf.split(".", 2)
        base, kind = rest.rsplit(".", 1)
        if fused and base in ("self_attn.q_proj", "self_attn.k_proj", "self_attn.v_proj"):
            if base.endswith("q_proj"):
                qkv = np.concatenate([weights[f"layers.{layer}.self_attn.{x}_proj.{kind}"] for x in "qkv"])
                stored[f"blk.{layer}.attn_qkv.{kind}"] = fx.add_weight(w, f"blk.{layer}.attn_qkv.{kind}", qkv, qtype)
            continue
        name = f"blk.{layer}.{BLOCK[base]}.{kind}"
        stored[name] = fx.add_weight(w, name, arr, qtype)
    return fx.finish_file(w, stored)


def _write(folder, qtype="F16", seed=31, fused=False, top_level=None, **settings):
    """A random GlmForCausalLM saved into folder/hf and written as folder/m.gguf (top_level: keys the converter reads
    at the top of config.json, as an older transformers saved them); (torch model, stored arrays)."""
    torch_model = aw.fp16_random_model("glm", folder / "hf", seed, dict(SETTINGS, **settings))
    torch_model.save_pretrained(folder / "hf")
    hparams = dict(json.loads((folder / "hf" / "config.json").read_text()), **(top_level or {}))
    return torch_model, _write_chatglm(folder / "m.gguf", torch_model, hparams, qtype, fused)


def _held(torch_model, stored: dict):
    """The torch model holding the values the file holds (attn_qkv's rows split back into q, k, v)."""
    held, cfg = copy.deepcopy(torch_model), torch_model.config
    sizes = [cfg.num_attention_heads * cfg.head_dim] + 2 * [cfg.num_key_value_heads * cfg.head_dim]
    back = {v: k for k, v in fx.GGUF_NAMES.items()}
    values = {}
    for name, arr in stored.items():
        if name in back:
            values[back[name]] = arr
            continue
        _, layer, part, kind = name.split(".")
        if part == "attn_qkv":
            for x, piece in zip("qkv", np.split(arr, np.cumsum(sizes)[:2])):
                values[f"layers.{layer}.self_attn.{x}_proj.{kind}"] = piece
        else:
            values[f"layers.{layer}.{next(k for k, v in BLOCK.items() if v == part)}.{kind}"] = arr
    state = {k: torch.from_numpy(np.ascontiguousarray(values[k.removeprefix("model.")]))
             for k in held.state_dict() if k.removeprefix("model.") in values}
    held.load_state_dict(state, strict=False)
    return held


@pytest.fixture(scope="module", params=[("F16", False), ("Q8_0", False), ("F16", True), ("Q8_0", True)],
                ids=["F16", "Q8_0", "F16-fused", "Q8_0-fused"])
def written(request, tmp_path_factory):
    qtype, fused = request.param
    folder = tmp_path_factory.mktemp(f"chatglm-{qtype}-{fused}")
    torch_model, stored = _write(folder, qtype, fused=fused)
    with open_model(str(folder / "m.gguf")) as model:
        yield _held(torch_model, stored), model, torch_model, folder, qtype, fused


def test_the_file_reads_as_glm(written):
    """model type glm (the glm4 family), the folder's heads and head_dim, half of each head turning in neighbouring
    pairs at the file's base, q/k/v biases; the names: ffn_up is gate_up_proj, attn_qkv a qkv_proj."""
    _, model, torch_model, folder, _, fused = written
    cfg, hf = model.config, torch_model.config
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads) == ("glm", "glm4", 3, 4, 2)
    assert (cfg.head_dim, cfg.rope_dim, cfg.qk_bias, cfg.rope_interleaved) == (8, 4, True, True)
    assert cfg.rope_base == pytest.approx(10000.0) and cfg.norm_eps == pytest.approx(1e-5)
    names = set(model.tensors.names())
    assert "layers.2.mlp.gate_up_proj.weight" in names
    assert ("layers.1.self_attn.qkv_proj.bias" in names) == fused == ("layers.1.self_attn.q_proj.bias" not in names)
    with open_model(str(folder / "hf")) as from_folder:
        f = from_folder.config
        assert (f.head_dim, f.rope_dim, f.qk_bias, f.rope_interleaved) == (cfg.head_dim, cfg.rope_dim, True, True)
        assert f.rope_base == pytest.approx(hf.rope_parameters["rope_theta"])


def test_x_each_layers_qk_and_attention_equal_transformers(written):
    """X, layer 0's rotated q and k and its attention equal GlmForCausalLM's own; given each layer's real input,
    every layer's causal softmax equals transformers'; F16: the folder gives the same q and k."""
    held, model, torch_model, folder, qtype, _ = written
    mh.assert_layer0_as_transformers(model, held, "glm", IDS)
    qk = model.layer0_qk(IDS)
    assert not np.allclose(qk.q_rot, qk.q)
    inputs, attentions = _layer_inputs(held, IDS)
    for il in (1, 2):
        close(mh.attention_of(model.layer0_qk(inputs[il], layer=il)), attentions[il])
    if qtype == "F16":
        with open_model(str(folder / "hf")) as from_folder:
            ref = from_folder.layer0_qk(IDS)
            close(qk.q_rot, ref.q_rot)
            close(qk.k_rot, ref.k_rot)


def test_a_permuted_reading_would_differ(tmp_path, monkeypatch):
    """The q_proj rows as stored are transformers' own (ChatGLMModel does not permute; NORM RoPE, GLM's pairs): read
    as a llama file's (LlamaModel.permute undone), q after RoPE would not be GlmForCausalLM's."""
    from explorer.backend.models import gguf_archs

    torch_model, _ = _write(tmp_path)
    folder, ref = tmp_path, mh.capture(torch_model, "glm", IDS)
    monkeypatch.setitem(gguf_archs.ARCHS, "chatglm", dataclasses.replace(gguf_archs.ARCHS["chatglm"],
                                                                          permuted_qk=True))
    with open_model(str(folder / "m.gguf")) as model:
        assert not np.allclose(model.layer0_qk(IDS).q_rot, ref["q_rot"], atol=1e-3)


# llama.cpp's LLAMA_VOCAB_PRE_TYPE_CHATGLM4 regex (src/llama-vocab.cpp), for tokenizer.ggml.pre "chatglm-bpe" and "glm4"
CHATGLM4_RE = (r"(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| "
               r"?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")


@pytest.mark.parametrize("pre", ["chatglm-bpe", "glm4"])
def test_glm_4s_pre_tokenizer_splits_as_llama_cpp(tmp_path, pre):
    """GLM-4-9B's "chatglm-bpe" (and GLM-4-0414's "glm4"): digits in runs of up to three, as llama.cpp's CHATGLM4
    regex splits the text (a plain-Python reference BPE over it)."""
    torch_model = aw.fp16_random_model("glm", tmp_path / "hf", 31, SETTINGS)
    hparams = json.loads((tmp_path / "hf" / "config.json").read_text())
    _write_chatglm(tmp_path / "m.gguf", torch_model, hparams, "F16", False, pre=pre)
    tokens, _, merges = fx.vocabulary()
    with open_model(str(tmp_path / "m.gguf")) as model:
        for text in ("GLM-4 read 1234567 tokens in 2024, it's 12.5%!\n\n  ok", "x=123456789;  y = 42\r\n"):
            assert model.tokenize(text).ids.tolist() == fx.reference_encode(text, [CHATGLM4_RE], tokens, merges), text


@pytest.mark.parametrize("pre, bos", [("chatglm-bpe", False), ("glm4", False), ("smollm", True)])
def test_glm_4s_vocabulary_puts_no_bos_before_the_text(tmp_path, pre, bos):
    """llama.cpp loads a "chatglm-bpe" or "glm4" vocabulary with special_bos_id = LLAMA_TOKEN_NULL: even a file
    whose tokenizer.ggml.add_bos_token is true gets no BOS before its text (another pre-tokenizer does)."""
    torch_model = aw.fp16_random_model("glm", tmp_path / "hf", 31, SETTINGS)
    hparams = json.loads((tmp_path / "hf" / "config.json").read_text())
    _write_chatglm(tmp_path / "m.gguf", torch_model, hparams, "F16", False, pre=pre, add_bos=True)
    tokens, _, merges = fx.vocabulary()
    plain = fx.reference_encode("the cat", [CHATGLM4_RE], tokens, merges)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.tokenize("the cat").ids.tolist() == ([1] if bos else []) + plain


def test_a_glm_checkpoints_own_base_and_epsilon_are_not_in_the_file(tmp_path):
    """ChatGLMModel writes freq_base 10,000 (x rope_ratio) and epsilon 1e-5 whatever GlmForCausalLM's rope_theta and
    rms_norm_eps say: the file reads as llama.cpp runs it."""
    _write(tmp_path, rope_theta=600.0, rms_norm_eps=1.5625e-07)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.rope_base == pytest.approx(10000.0) and model.config.norm_eps == pytest.approx(1e-5)


def test_a_whole_head_rotation_reads_as_one(tmp_path):
    """partial_rotary_factor 1 (a top-level key the converter reads): every channel turns, not GLM's default half."""
    torch_model, _ = _write(tmp_path, partial_rotary_factor=1.0, top_level={"partial_rotary_factor": 1.0})
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert (model.config.rope_dim, model.config.head_dim) == (8, 8)
        mh.assert_layer0_as_transformers(model, torch_model, "glm", IDS)


def test_a_checkpoint_without_biases_reads_without(tmp_path):
    _write(tmp_path, attention_bias=False)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.qk_bias is False and "layers.0.self_attn.q_proj.bias" not in model.tensors.names()


def _header(tmp_path, fused=False):
    _write(tmp_path, fused=fused)
    return fx.header_of(tmp_path / "m.gguf")


@pytest.mark.parametrize("fused, fields, tensors, says", [
    (False, {}, lambda h: _without(h, "blk.2.attn_k.weight"), r"tensor blk\.2\.attn_k\.weight is missing"),
    (False, {}, lambda h: _without(h, "blk.1.attn_v.bias"), r"tensor blk\.1\.attn_v\.bias is missing"),
    (True, {}, lambda h: _reshaped(h, "blk.1.attn_qkv.weight", (32, 24)),
     r"tensor blk\.1\.attn_qkv\.weight has shape \[32, 24\], expected \[32, 64\]"),
    (True, {}, lambda h: _without(h, "blk.2.attn_qkv.bias"), r"tensor blk\.2\.attn_qkv\.bias is missing"),
    (True, {}, lambda h: _with(h, "blk.1.attn_q.weight", "blk.1.attn_qkv.weight"),
     r"tensor blk\.1\.attn_q\.weight is not one llama\.cpp's chatglm loads"),
    (False, {}, lambda h: _with(h, "blk.0.attn_output.bias", "blk.0.attn_norm.weight"),
     r"tensor blk\.0\.attn_output\.bias is not one llama\.cpp's chatglm loads"),
    (False, {"chatglm.block_count": 2}, None, r"tensor blk\.2\.\S+ is not one llama\.cpp's chatglm loads"),
    (False, {"chatglm.attention.key_length": 16}, None,
     r"chatglm\.attention\.key_length is 16; llama\.cpp's chatglm takes embedding_length / head_count \(32 / 4\)"),
    (False, {"chatglm.attention.head_count_kv": 3}, None, r"4 attention heads cannot share 3 key/value heads"),
])
def test_damaged_files_are_refused_in_one_line(tmp_path, fused, fields, tensors, says):
    """Missing or misshapen q / k / v (or attn_qkv) or biases in any layer, both layouts in one layer, a tensor
    llama.cpp's chatglm does not load, a block count that is not the file's, heads not embedding_length / head_count
    wide: one line naming the file, in English and in Chinese."""
    from explorer.backend.models.gguf_config import config_from_metadata

    header = _header(tmp_path, fused)
    bad = damaged(header, fields, tensors)
    refused_in_one_line(lambda: config_from_metadata(bad, "m.gguf"), says)


def test_a_later_layers_bias_without_layer_0s_is_refused(tmp_path):
    from explorer.backend.models.gguf_config import config_from_metadata

    _write(tmp_path, attention_bias=False)
    header = fx.header_of(tmp_path / "m.gguf")
    bad = dataclasses.replace(header, tensors=_with(header, "blk.1.attn_k.bias", "blk.1.attn_norm.weight"))
    refused_in_one_line(lambda: config_from_metadata(bad, "m.gguf"),
                        r"tensor blk\.1\.attn_k\.bias is a bias where layer 0 has none")



# THUDM/glm-4-9b-chat's published config.json (model_type chatglm, as a LLaMA-Factory log quotes it): what
# ChatGLMModel reads of it
GLM_4_9B_CHAT = {"hidden_size": 4096, "num_attention_heads": 32, "multi_query_group_num": 2, "num_layers": 40,
                 "ffn_hidden_size": 13696, "layernorm_epsilon": 1.5625e-07, "padded_vocab_size": 151552,
                 "rope_ratio": 500, "seq_length": 131072}


def test_glm_4_9b_chats_file_reads_as_published(tmp_path):
    """The header ChatGLMModel writes for THUDM/glm-4-9b-chat (fused attn_qkv with its bias, 40 layers of 32 heads of
    128, 2 kv heads, 64 channels turning at base 10,000 x 500) reads as GlmForCausalLM with those numbers."""
    from explorer.backend.models.config import model_config
    from explorer.backend.models.gguf_config import config_from_metadata
    from explorer.backend.models.gguf_header import TensorInfo
    from explorer.backend.models.gguf_layer0 import check_rope_layer0

    p = GLM_4_9B_CHAT
    d, ff, rows = p["hidden_size"], p["ffn_hidden_size"], (32 + 2 * 2) * 128
    fields = {"general.architecture": "chatglm", "chatglm.context_length": p["seq_length"],
              "chatglm.embedding_length": d, "chatglm.feed_forward_length": ff, "chatglm.block_count": p["num_layers"],
              "chatglm.attention.head_count": 32, "chatglm.attention.head_count_kv": p["multi_query_group_num"],
              "chatglm.attention.layer_norm_rms_epsilon": p["layernorm_epsilon"],
              "chatglm.rope.dimension_count": int(d // 32 * 0.5), "chatglm.rope.freq_base": 10000.0 * p["rope_ratio"]}
    shapes = {"token_embd.weight": (d, p["padded_vocab_size"]), "output_norm.weight": (d,),
              "output.weight": (d, p["padded_vocab_size"])}
    for il in range(p["num_layers"]):
        shapes.update({f"blk.{il}.attn_norm.weight": (d,), f"blk.{il}.attn_qkv.weight": (d, rows),
                       f"blk.{il}.attn_qkv.bias": (rows,), f"blk.{il}.attn_output.weight": (d, d),
                       f"blk.{il}.ffn_norm.weight": (d,), f"blk.{il}.ffn_up.weight": (d, 2 * ff),
                       f"blk.{il}.ffn_down.weight": (ff, d)})
    header = dataclasses.replace(_header(tmp_path), fields=fields,
                                 tensors={n: TensorInfo(n, ne, 1, 0, 0) for n, ne in shapes.items()})
    config = config_from_metadata(header, "m.gguf")
    check_rope_layer0(header, config, "m.gguf")
    cfg = model_config(config)
    assert (cfg.model_type, cfg.family, cfg.n_layers, cfg.n_heads, cfg.n_kv_heads, cfg.head_dim) == (
        "glm", "glm4", 40, 32, 2, 128)
    assert (cfg.rope_dim, cfg.rope_interleaved, cfg.qk_bias) == (64, True, True)
    assert cfg.rope_base == pytest.approx(5_000_000.0) and cfg.norm_eps == pytest.approx(1.5625e-07)
    assert config["max_position_embeddings"] == 131072
