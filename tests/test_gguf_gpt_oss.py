"""GGUF files of GPT-OSS (llama.cpp's `gpt-oss`) against transformers' GptOssForCausalLM and llama.cpp's rules.

Written as llama.cpp's converter writes them (tests/gguf_converter_writer.py: the sinks as attn_sinks, the
experts in MXFP4, YaRN as rope.scaling.*, the sliding window), they read as llama.cpp runs them
(explorer/backend/models/gguf_gpt_oss.py): even layers sliding, each head's sink logit, and YaRN with the
ramp's ends rounded (ggml_rope_yarn_corr_dims), which is transformers' truncate=True. A model built with
truncate=True is the reference for X, rotated q / k and the softmax with its sinks; the published config's
truncate=False is compared with ggml's formula itself.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer.backend.models.gguf_file import open_gguf
from explorer.backend.models.hf_folder import open_model
from explorer.backend.rope_scaling import inv_frequencies
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

pytest.importorskip("gguf")
tf = pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]      # 12 tokens: more than the 6-token window
YARN = {"rope_type": "yarn", "rope_theta": 150000.0, "factor": 32.0, "beta_fast": 32.0, "beta_slow": 1.0,
        "original_max_position_embeddings": 4096}


def _model(tmp_path, seed: int = 5, **settings):
    # (an expert feed-forward of 64: MXFP4 packs whole 32-value blocks)
    return aw.fp16_random_model("gpt_oss", tmp_path / "hf", seed,
                                {**mh.FAMILIES["gpt_oss"], "intermediate_size": 64, **settings})


def ggml_yarn_inv_freq(n_dims: int, base: float, factor: float, original: int, fast: float = 32.0,
                       slow: float = 1.0) -> np.ndarray:
    """ggml's YaRN frequencies (ggml.c ggml_rope_yarn_corr_dims, ggml-cpu/ops.cpp rope_yarn and
    rope_yarn_ramp, ext_factor 1): theta = interp (1 - ramp) + extrap ramp, the ramp's ends floored and
    ceiled; (n_dims / 2,)."""
    def corr_dim(n_rot: float) -> float:
        return n_dims * math.log(original / (n_rot * 2 * math.pi)) / (2 * math.log(base))

    low, high = max(0.0, math.floor(corr_dim(fast))), min(n_dims - 1.0, math.ceil(corr_dim(slow)))
    i = np.arange(n_dims // 2)
    extrap = base ** (-2.0 * i / n_dims)
    ramp = 1 - np.clip((i - low) / max(0.001, high - low), 0, 1)
    return extrap / factor * (1 - ramp) + extrap * ramp


def test_a_gpt_oss_file_reads_as_transformers_runs_it(tmp_path):
    """Sinks, a sliding layer 0 of 6 tokens, q/k biases and YaRN (rounded, as llama.cpp rounds it) with MXFP4
    experts in the file: X, rotated q / k and the softmax over the window plus the sink equal the model's."""
    torch_model = _model(tmp_path, rope_parameters={**YARN, "truncate": True})
    stored = gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss")
    assert "blk.0.attn_sinks.weight" in stored and stored["blk.0.ffn_gate_exps.weight"].ndim == 3
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.attention_sinks, cfg.qk_bias) == ("gpt_oss", True, True)
        assert [cfg.window_of(i) for i in range(2)] == [6, None]
        assert (cfg.rope_scaling.rope_type, cfg.rope_scaling.truncate in (None, True)) == ("yarn", True)
        assert not any("exps" in name or "gate_inp" in name for name in model.tensors.names())
        mh.assert_layer0_as_transformers(model, torch_model, "gpt_oss", IDS)
        qk = model.layer0_qk(IDS)
        np.testing.assert_array_equal(qk.sinks, stored["blk.0.attn_sinks.weight"])
        assert qk.window == 6


def test_the_published_yarn_is_rounded_as_ggml_rounds_it(tmp_path):
    """GptOssConfig's YaRN says truncate false; a GGUF of it turns as ggml does, the ramp's ends floored and
    ceiled: at gpt-oss-20b's 64 channels a head, 8.09 and 17.40 become 8 and 18. The frequencies equal
    ggml's formula and transformers' truncate=True, and differ from the checkpoint's own."""
    torch_model = _model(tmp_path, head_dim=64, rope_parameters={**YARN, "truncate": False})
    gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss", expert_qtype="F16")
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        ours = inv_frequencies(cfg.head_dim, cfg.rope_base, cfg.rope_scaling).inv_freq           # (32,)
    np.testing.assert_allclose(ours, ggml_yarn_inv_freq(64, 150000.0, 32.0, 4096), rtol=1e-12)
    rounded = tf.GptOssConfig(head_dim=64, rope_parameters={**YARN, "truncate": True})
    reference, _ = tf.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"](rounded, "cpu")
    np.testing.assert_allclose(ours, reference.double().numpy(), rtol=1e-6)
    own, _ = tf.modeling_rope_utils.ROPE_INIT_FUNCTIONS["yarn"](torch_model.config, "cpu")
    assert np.abs(ours / own.double().numpy() - 1).max() > 0.05          # pairs 9 .. 17 turn otherwise
    dims = [64 * math.log(4096 / (b * 2 * math.pi)) / (2 * math.log(150000.0)) for b in (32.0, 1.0)]
    assert [round(d, 2) for d in dims] == [8.09, 17.40] and [math.floor(dims[0]), math.ceil(dims[1])] == [8, 18]


def test_a_file_without_rope_scaling_turns_plain_rope(tmp_path):
    """No rope.scaling keys: llama.cpp turns plain RoPE, not GptOssConfig's default YaRN."""
    torch_model = _model(tmp_path, rope_parameters={"rope_type": "default", "rope_theta": 150000.0})
    gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss")
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.rope_scaling.rope_type == "default"
        mh.assert_layer0_as_transformers(model, torch_model, "gpt_oss", IDS)


def test_the_betas_in_the_metadata_are_llama_cpps_defaults(tmp_path):
    """rope.scaling.yarn_beta_fast / _slow are written but not read by llama.cpp's gpt-oss (its common loader
    leaves them at 32 and 1): a file claiming 4 and 2 turns as transformers' 32 and 1."""
    torch_model = _model(tmp_path, rope_parameters={**YARN, "truncate": True})

    def betas(w, stored):
        for beta, value in (("fast", 4.0), ("slow", 2.0)):
            fx.drop_keys(w, f"gpt-oss.rope.scaling.yarn_beta_{beta}")
            getattr(w, f"add_rope_scaling_yarn_beta_{beta}")(value)

    gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss", edit=betas)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.rope_scaling.yarn_betas == (32.0, 1.0)
        mh.assert_layer0_as_transformers(model, torch_model, "gpt_oss", IDS)


def _edit_window(value):
    def edit(w, stored):
        fx.drop_keys(w, "gpt-oss.attention.sliding_window")
        if value is not None:
            w.add_uint32("gpt-oss.attention.sliding_window", value)
    return edit


def _edit_rope_dims(w, stored):
    w.add_rope_dimension_count(4)


def _edit_sinks(arr):
    def edit(w, stored):
        gw.replace_tensor(w, stored, "blk.0.attn_sinks.weight", arr, float32=True)
    return edit


def _f16_sinks(w, stored):
    gw.replace_tensor(w, stored, "blk.0.attn_sinks.weight")
    w.add_tensor("blk.0.attn_sinks.weight", np.zeros(4, np.float16))


def _drop(name: str):
    return lambda w, stored: gw.replace_tensor(w, stored, name)


def _array_key(key: str, value):
    def edit(w, stored):
        fx.drop_keys(w, key)
        w.add_array(key, value)
    return edit


@pytest.mark.parametrize("edit, message", [
    (_edit_window(None), "metadata gpt-oss.attention.sliding_window is missing; llama.cpp's gpt-oss requires it"),
    (_edit_window(0), "metadata gpt-oss.attention.sliding_window is 0; it must be an integer from 1"),
    (_edit_rope_dims, "gpt-oss.rope.dimension_count is 4; llama.cpp's gpt-oss turns the whole head"),
    (_edit_sinks(None), "tensor blk.0.attn_sinks.weight is missing"),
    (_edit_sinks(np.zeros(3, np.float32)), "tensor blk.0.attn_sinks.weight has shape [3], expected [4]"),
    (_f16_sinks, "tensor blk.0.attn_sinks.weight must be F32; llama.cpp's attention with sinks reads no other"),
    (_drop("blk.0.attn_q.bias"), "tensor blk.0.attn_q.bias is missing"),      # (llama.cpp requires both; one
    (_drop("blk.0.attn_k.bias"), "tensor blk.0.attn_k.bias is missing"),      # alone was read as none / zeros)
    (_array_key("gpt-oss.rope.scaling.type", [1, 2]), "metadata gpt-oss.rope.scaling.type must be a string"),
    (_array_key("tokenizer.ggml.pre", ["gpt-4o"]), "metadata tokenizer.ggml.pre must be a string"),
])
def test_a_damaged_gpt_oss_file_is_refused_in_one_line(tmp_path, edit, message):
    torch_model = _model(tmp_path)
    gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss", edit=edit, expert_qtype="F16")
    with pytest.raises(InputError) as err:
        open_gguf(tmp_path / "m.gguf")
    assert message in str(err.value) and "\n" not in str(err.value)


def test_a_layer_name_with_a_leading_zero_is_not_layer_0(tmp_path):
    """blk.00.attn_sinks.weight (or another script's zero) is not a name of layer 0's tensor, which llama.cpp
    reads only as blk.0.attn_sinks.weight: the checked tensor is the one read."""
    torch_model = _model(tmp_path)

    def aliases(w, stored):
        w.add_tensor("blk.00.attn_sinks.weight", np.full(4, 9.0, np.float32))
        w.add_tensor("blk.\u0660.attn_sinks.weight", np.full(4, 7.0, np.float32))

    stored = gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss", edit=aliases, expert_qtype="F16")
    with open_model(str(tmp_path / "m.gguf")) as model:
        np.testing.assert_array_equal(model.layer0_qk(IDS).sinks, stored["blk.0.attn_sinks.weight"])


def _o200k_pattern(monkeypatch) -> str:
    """tiktoken's own o200k_base pattern (its vocabulary, a download, is not needed for the pattern)."""
    from tiktoken_ext import openai_public

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", lambda *a, **k: {})
    return openai_public.o200k_base()["pat_str"]


def test_the_gpt_4o_pre_tokenizer_splits_text_as_o200k_does(monkeypatch):
    """tokenizer.ggml.pre "gpt-4o" (gpt-oss's o200k): llama.cpp's rewrite of the pattern splits text into the
    pieces tiktoken's own pattern makes (cased words, their 's endings, 3-digit numbers, CJK, emoji)."""
    regex = pytest.importorskip("regex")
    from tokenizers import Regex, pre_tokenizers

    from explorer.backend.models.gguf_vocab import PRE_REGEXES

    split = pre_tokenizers.Split(Regex(PRE_REGEXES["gpt-4o"][0]), behavior="isolated")
    pattern = _o200k_pattern(monkeypatch)
    for text in ["Hello WORLD's CamelCase HTTPServer don't", "1234567 apples, 3.14!\n\n  x",
                 "位置编码 RoPE 与 ALiBi。", "emoji 👍🏽 tab\there / path/to\r\nend  "]:
        assert [p for p, _ in split.pre_tokenize_str(text)] == regex.findall(pattern, text), text


def test_a_pattern_number_and_a_second_base_as_newer_llama_cpp_reads_them(tmp_path):
    """gpt-oss.attention.sliding_window_pattern 3 (a number): layers 0, 1 slide, 2 is full; a rope.freq_base_swa
    other than freq_base (newer llama.cpp turns the sliding layers at it) is refused in one line."""
    torch_model = _model(tmp_path, num_hidden_layers=3)

    def pattern(w, stored):
        fx.drop_keys(w, "gpt-oss.attention.sliding_window_pattern")
        w.add_uint32("gpt-oss.attention.sliding_window_pattern", 3)

    gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss", edit=pattern, expert_qtype="F16")
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.layer_types == ("sliding_attention", "sliding_attention", "full_attention")
    gw.write_converted(tmp_path / "b.gguf", torch_model, "gpt-oss", edit=lambda w, s: w.add_rope_freq_base_swa(1234.0),
                       expert_qtype="F16")
    with pytest.raises(InputError, match="metadata gpt-oss.rope.freq_base_swa .* a gpt-oss file with two RoPE bases"):
        open_model(str(tmp_path / "b.gguf"))


def test_every_layer_needs_its_biases_and_f32_sinks(tmp_path):
    """llama.cpp's loader requires each layer's q/k biases and F32 sinks, not only layer 0's."""
    torch_model = _model(tmp_path)
    gw.write_converted(tmp_path / "m.gguf", torch_model, "gpt-oss", expert_qtype="F16",
                       edit=lambda w, stored: gw.replace_tensor(w, stored, "blk.1.attn_k.bias"))
    with pytest.raises(InputError, match="tensor blk.1.attn_k.bias is missing"):
        open_model(str(tmp_path / "m.gguf"))
