"""GGUF files of Gemma 2, Gemma 3 and Phi-3 against the transformers model they came from.

Each tiny random model is written as llama.cpp's converter writes it (tests/gguf_converter_writer.py, names
from gguf-py's TensorNameMap). F16 files hold float16-rounded weights exactly, so X, layer-0 q/k after RoPE
and the softmax of the layer-0 logits equal the transformers model's own (hooks, output_attentions);
transformers' own GGUF loader reads the same weights. Where llama.cpp and the Hugging Face config can differ
(the score scale it derives from the layer count, Gemma 3's sliding pattern), the models are built so both
agree, and the rule itself is tested on its own.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_converter_writer as gw
from tests import gguf_fixtures as fx
from tests import models_helpers as mh

gguf = pytest.importorskip("gguf")
pytest.importorskip("transformers")
torch = pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
LONG_IDS = IDS * 3                      # 36 tokens: past Phi-3's L0 of 20
HEAD16 = dict(mh.SMALL, num_key_value_heads=2, head_dim=16)
LONGROPE = {"rope_type": "longrope", "rope_theta": 500.0, "partial_rotary_factor": 0.75,   # 6 of 8 rotate
            "short_factor": [1.0, 1.5, 2.0], "long_factor": [2.0, 5.0, 11.0]}
MODELS = {   # name: (arch, HF family, config kwargs); query_pre_attn_scalar = head_dim, as llama.cpp reads it
    "gemma2": ("gemma2", "gemma2", dict(HEAD16, query_pre_attn_scalar=16, attn_logit_softcapping=5.0)),
    "gemma3 (sliding layer 0: base 500; full layers 1e6, linear x8)": (
        "gemma3", "gemma3", dict(mh.FAMILIES["gemma3"], query_pre_attn_scalar=16)),
    "gemma3 without sliding layers (pattern 1): layer 0 full": (
        "gemma3", "gemma3", dict(mh.FAMILIES["gemma3"], query_pre_attn_scalar=16, sliding_window_pattern=1,
                                 layer_types=["full_attention"] * 2)),
    "gemma2, a sliding window of 5 tokens (attention.sliding_window)": (
        "gemma2", "gemma2", dict(HEAD16, query_pre_attn_scalar=16, sliding_window=5)),
    "gemma3, a sliding window of 5 tokens": (
        "gemma3", "gemma3", dict(mh.FAMILIES["gemma3"], query_pre_attn_scalar=16, sliding_window=5)),
    "gemma2 27B's layer count (46): q·k / sqrt(d / heads)": (
        "gemma2", "gemma2", dict(HEAD16, num_hidden_layers=46, query_pre_attn_scalar=8)),
    "gemma3 27B's layer count (62): q·k / sqrt(d / heads)": (
        "gemma3", "gemma3", dict(mh.FAMILIES["gemma3"], num_hidden_layers=62, query_pre_attn_scalar=8)),
    "phi3 longrope, rotary 0.75": (
        "phi3", "phi3", dict(mh.FAMILIES["phi3"], original_max_position_embeddings=20, rope_parameters=LONGROPE)),
    "phi3 plain RoPE, rotary 0.5": ("phi3", "phi3", dict(mh.FAMILIES["phi3"])),
}


def close(ours, ref, tol=1e-5):
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))


def _build(family: str, kwargs: dict, folder, seed: int = 7):
    config_class, model_class = mh.classes(family)
    torch.manual_seed(seed)
    config = config_class(**kwargs)
    config._attn_implementation = "eager"
    return mh.save_random(model_class(config).eval(), folder)


@pytest.fixture(scope="module", params=list(MODELS))
def written(request, tmp_path_factory):
    arch, family, kwargs = MODELS[request.param]
    folder = tmp_path_factory.mktemp(arch)
    torch_model = _build(family, kwargs, folder / "hf")
    aw.fp16_exact(torch_model)
    gw.write_converted(folder / "m.gguf", torch_model, arch)
    model = open_model(str(folder / "m.gguf"))
    yield family, torch_model, model
    model.close()


@pytest.mark.parametrize("ids", [IDS, LONG_IDS], ids=["12 tokens", "36 tokens"])
def test_x_rotated_qk_and_attention_equal_transformers(written, ids):
    family, torch_model, model = written
    mh.assert_layer0_as_transformers(model, torch_model, family, ids)


def test_config_reads_as_the_hugging_face_one(written):
    family, torch_model, model = written
    c, hf = model.config, torch_model.config
    assert (c.family, c.d_model, c.n_heads, c.n_kv_heads, c.n_layers) == (
        family, hf.hidden_size, hf.num_attention_heads, hf.num_key_value_heads, hf.num_hidden_layers)
    if family == "phi3":
        assert c.partial_rotary_factor == hf.rope_parameters.get("partial_rotary_factor", 1.0)
        assert c.rope_scaling.rope_type == hf.rope_parameters.get("rope_type", "default")
        return
    assert c.score_scalar == hf.query_pre_attn_scalar
    assert c.attn_softcap == (hf.attn_logit_softcapping if family == "gemma2" else None)
    assert c.layer_types == tuple(hf.layer_types)
    assert c.embed_scale == pytest.approx(np.sqrt(hf.hidden_size))
    assert [c.window_of(i) for i in range(c.n_layers)] == [                     # llama.cpp's n_swa, as HF's
        hf.sliding_window if t == "sliding_attention" else None for t in hf.layer_types]


@pytest.mark.parametrize("arch", ["gemma2", "gemma3", "phi3"])
def test_transformers_gguf_loader_reads_the_same_weights(arch, tmp_path):
    """transformers' load_gguf_checkpoint (Gemma2TensorProcessor takes the norms' + 1 off) == the reader."""
    from transformers.modeling_gguf_pytorch_utils import load_gguf_checkpoint

    torch_model = mh.build(arch, tmp_path / "hf", seed=5)
    gw.write_converted(tmp_path / "m.gguf", torch_model, arch, "Q8_0")
    loaded = load_gguf_checkpoint(str(tmp_path / "m.gguf"), return_tensors=True, model_to_load=torch_model)
    want = {k.removeprefix("model."): np.asarray(v, dtype=np.float32) for k, v in loaded["tensors"].items()}
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert set(model.tensors.names()) == set(want)
        for name in model.tensors.names():
            np.testing.assert_allclose(model.tensors.read(name), want[name], rtol=0, atol=1e-6, err_msg=name)


FIRST = {"gemma2": "gemma2", "gemma3": "gemma3 (sliding layer 0: base 500; full layers 1e6, linear x8)",
         "phi3": "phi3 longrope, rotary 0.75"}


def _opened(tmp_path, arch: str, edit, kwargs=None):
    """The GGUF of MODELS[FIRST[arch]] (or a model of `kwargs`) written with edit(writer, stored), opened."""
    torch_model = _build(arch, kwargs or MODELS[FIRST[arch]][2], tmp_path / "hf")
    gw.write_converted(tmp_path / "m.gguf", torch_model, arch, edit=edit)
    return open_model(str(tmp_path / "m.gguf"))


def _replacing(name: str, values) -> callable:
    """An edit that writes tensor `name` anew with float32 `values`."""
    def run(w, _):
        for tensors in w.tensors:
            tensors.pop(name, None)
        w.add_tensor(name, np.asarray(values, np.float32))
    return run


def test_a_gemma2_file_without_a_sliding_window_reads_llama_cpps_4096(tmp_path):
    """gemma2.cpp: n_swa = 4096 unless attention.sliding_window says otherwise (older converters wrote none)."""
    def drop(w, _):
        del w.kv_data[0]["gemma2.attention.sliding_window"]

    with _opened(tmp_path, "gemma2", drop) as model:
        assert model.config.window_of(0) == 4096 and model.config.window_of(1) is None


def test_a_phi3_files_sliding_window_is_not_used_as_llama_cpp_does_not(tmp_path):
    """llama.cpp's phi3 loader reads attention.sliding_window and then turns it off ("Phi SWA is currently
    disabled", ggml-org/llama.cpp#13676: swa_type NONE, n_swa 0): every causal key is read. A Phi-3 with a
    5-token window (the converter writes it) reads as the same model without one, not as transformers runs
    the checkpoint."""
    kwargs = dict(mh.FAMILIES["phi3"], sliding_window=5)
    torch_model = _build("phi3", kwargs, tmp_path / "hf")
    aw.fp16_exact(torch_model)
    gw.write_converted(tmp_path / "m.gguf", torch_model, "phi3")
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert model.config.window_of(0) is None
        with pytest.raises(AssertionError):                           # the checkpoint's own window
            mh.assert_layer0_as_transformers(model, torch_model, "phi3", IDS)
        torch_model.config.sliding_window = None                      # llama.cpp's: no window
        mh.assert_layer0_as_transformers(model, torch_model, "phi3", IDS)


@pytest.mark.parametrize("pattern, want", [
    (3, ("sliding_attention", "sliding_attention", "full_attention", "sliding_attention")),
    (0, ("sliding_attention",) * 4),                         # llama.cpp: n_pattern 0 = every layer
    ([False, True, True, False], ("full_attention", "sliding_attention", "sliding_attention", "full_attention")),
])
def test_gemma3_sliding_window_pattern_as_llama_cpp_reads_it(tmp_path, pattern, want):
    kwargs = dict(mh.FAMILIES["gemma3"], num_hidden_layers=4)
    with _opened(tmp_path, "gemma3", lambda w, _: w.add_sliding_window_pattern(pattern), kwargs) as model:
        assert model.config.layer_types == want
        full = want[0] == "full_attention"
        assert model.config.rope_base == (1e6 if full else 500.0)
        assert model.config.rope_scaling.rope_type == ("linear" if full else "default")


@pytest.mark.parametrize("arch, edit, match", [
    ("gemma2", lambda w, _: w.add_rope_freq_base_swa(500.0),
     r"metadata gemma2\.rope\.freq_base_swa \(500\.0\) differs from gemma2\.rope\.freq_base \(10000\.0\); "
     r"a Gemma 2 file with two RoPE bases is not supported"),
    ("gemma2", lambda w, _: w.add_array("gemma2.rope.freq_base_swa", [1e4, 1e4]),
     r"metadata gemma2\.rope\.freq_base_swa is .*; it must be a positive number"),
    ("phi3", lambda w, _: w.add_array("phi3.rope.scaling.attn_factor", [1.0, 1.0]),
     r"metadata phi3\.rope\.scaling\.attn_factor is .*; it must be a positive number"),
    ("gemma2", lambda w, _: w.add_array("gemma2.rope.scaling.attn_factor", [1.0, 1.0]),
     r"metadata gemma2\.rope\.scaling\.attn_factor is .*: llama\.cpp scales cos and sin by it, which PE "
     r"Explorer reads only with Phi-3's LongRoPE factors"),
    ("gemma2", lambda w, _: w.add_attn_logit_softcapping(0.0),
     r"metadata gemma2\.attn_logit_softcapping is 0\.0; it must be a positive number"),
    ("gemma3", lambda w, _: w.add_sliding_window_pattern([True, False, True]),
     r"metadata gemma3\.attention\.sliding_window_pattern must hold one bool per layer \(2\)"),
    ("gemma3", lambda w, _: w.add_sliding_window_pattern([1, 2]),
     r"metadata gemma3\.attention\.sliding_window_pattern must hold one bool per layer \(2\)"),
    ("gemma3", lambda w, _: w.add_rope_freq_base_swa(1.0),
     r"metadata gemma3\.rope\.freq_base_swa is 1\.0; RoPE's base must be > 1"),
    ("gemma3", lambda w, _: w.add_rope_scaling_type(gguf.RopeScalingType.LONGROPE),
     r"rope scaling 'longrope' is not supported \(none, linear, yarn\)"),
    ("gemma2", lambda w, _: w.add_attn_logit_softcapping(1e-35),
     r"metadata gemma2\.attn_logit_softcapping is 1\.0\d*e-35; it must be a number from 1e-30 to 1e\+30"),
    ("gemma3", lambda w, _: w.add_string("gemma3.attention.sliding_window", "0"),
     r"metadata gemma3\.attention\.sliding_window is '0'; it must be an integer from 0 to 2\^31"),
    ("gemma2", lambda w, _: w.add_sliding_window(0),
     r"metadata gemma2\.attention\.sliding_window is 0; a Gemma 2 file's sliding layers need a window "
     r"\(llama\.cpp would mask every key\)"),
    ("gemma3", lambda w, _: w.add_block_count(513),
     r"metadata gemma3\.block_count is 513; llama\.cpp reads at most 512 layers"),
    ("gemma2", lambda w, _: w.add_rope_scaling_attn_factors(2.0),
     r"metadata gemma2\.rope\.scaling\.attn_factor is 2\.0: llama\.cpp scales cos and sin by it, which PE "
     r"Explorer reads only with Phi-3's LongRoPE factors"),
    ("phi3", lambda w, _: (w.add_rope_scaling_type(gguf.RopeScalingType.LINEAR), w.add_rope_scaling_factor(2.0)),
     r"rope scaling 'linear' beside Phi-3's LongRoPE factors is not supported \(llama\.cpp would apply both\)"),
    ("phi3", _replacing("rope_factors_long.weight", [1.0, 2.0]),
     r"tensor rope_factors_long\.weight must be 3 F32 factors \(one per rotated pair\)"),
    ("phi3", _replacing("rope_factors_short.weight", [1.0, 0.0, 2.0]),
     r"tensor rope_factors_short\.weight must hold finite factors > 0"),
])
def test_bad_gemma_and_phi3_metadata_is_refused_in_one_line(tmp_path, arch, edit, match):
    """Each fault named (a key written again replaces the converter's own)."""
    with pytest.raises(InputError, match=rf"^[^\n]*{match}$"):
        _opened(tmp_path, arch, edit).close()


def test_phi3_with_one_longrope_factor_tensor_is_refused(tmp_path):
    def drop_short(w, _):
        for tensors in w.tensors:
            tensors.pop("rope_factors_short.weight", None)
    with pytest.raises(InputError, match=r"^[^\n]*tensors rope_factors_long\.weight and rope_factors_short\.weight "
                                         r"come together \(Phi-3's LongRoPE\); one is missing$"):
        _opened(tmp_path, "phi3", drop_short).close()


@pytest.mark.parametrize("factor", [1.25, None], ids=["the file's 1.25", "no key: llama.cpp's 1"])
def test_phi3_longrope_scales_by_the_files_attn_factor(tmp_path, factor):
    """llama.cpp multiplies cos and sin by rope.scaling.attn_factor (default 1), not by the factor transformers
    would derive from the lengths (1.11 here): the reference model is given the file's as attention_factor."""
    key = "phi3.rope.scaling.attn_factor"

    def set_factor(w, _):
        if factor is None:
            fx.drop_keys(w, key)
        else:
            w.add_rope_scaling_attn_factors(factor)
    kwargs = dict(MODELS[FIRST["phi3"]][2], rope_parameters=dict(LONGROPE, attention_factor=factor or 1.0))
    with _opened(tmp_path, "phi3", set_factor, kwargs) as model:
        torch_model = _build("phi3", kwargs, tmp_path / "ref")            # the same weights (same seed),
        aw.fp16_exact(torch_model)                                       # as the F16 file holds them
        ref = mh.capture(torch_model, "phi3", LONG_IDS)
        close(model.layer0_qk(LONG_IDS).q_rot, ref["q_rot"])
        assert model.config.rope_scaling.attention_factor == (factor or 1.0)


def test_phi3_without_longrope_factors_refuses_an_attn_factor_but_not_1(tmp_path):
    """llama.cpp scales cos and sin by rope.scaling.attn_factor whatever the file's RoPE: without the factor
    tensors PE Explorer cannot show that, so a factor other than 1 is refused; 1 changes nothing."""
    kwargs = MODELS["phi3 plain RoPE, rotary 0.5"][2]
    with _opened(tmp_path / "one", "phi3", lambda w, _: w.add_rope_scaling_attn_factors(1.0), kwargs) as model:
        assert model.config.rope_scaling.rope_type == "default"
    with pytest.raises(InputError, match=r"^[^\n]*metadata phi3\.rope\.scaling\.attn_factor is 1\.5: llama\.cpp "
                                         r"scales cos and sin by it"):
        _opened(tmp_path / "other", "phi3", lambda w, _: w.add_rope_scaling_attn_factors(1.5), kwargs).close()


def test_a_llama_file_relabelled_gemma2_is_refused(tmp_path):
    """Llama's tensors under gemma2's keys (no norms after attention and MLP): llama.cpp refuses such a file,
    and so does the reader, instead of reading Llama weights with Gemma's rules."""
    path = tmp_path / "m.gguf"
    fx.write_llama_gguf(path, fx.tiny_llama(), arch="gemma2")
    with pytest.raises(InputError, match=r"^[^\n]*tensor blk\.0\.post_attention_norm\.weight is missing$"):
        open_model(str(path))


def test_gemma_sliding_pattern_as_int8_array(tmp_path):
    """One flag per layer, whatever integer type holds it (uint8 bools or int8 0 / 1)."""
    def int8_pattern(w, _):
        w.add_array("gemma3.attention.sliding_window_pattern", [1, 0])
        w.kv_data[0]["gemma3.attention.sliding_window_pattern"].sub_type = gguf.GGUFValueType.INT8
    with _opened(tmp_path, "gemma3", int8_pattern) as model:
        assert model.config.layer_types == ("sliding_attention", "full_attention")
