"""GGUF files of Llama 4 (llama.cpp's `llama4`) against transformers' Llama4ForCausalLM.

Written as llama.cpp's Llama4Model writes them (tests/gguf_llama4_writer.py), they read as llama.cpp runs them
(explorer/backend/models/gguf_llama4.py): no key says which layers have no RoPE, how long a chunk is, whether q and
k are normalised or what the NoPE layers' temperature is, so the reader takes llama.cpp's fixed values (every
fourth layer NoPE, chunks of 8,192 on the other three, the q/k norm unless the file has 128 experts, the
temperature 0.1 / 8,192), and the references below are built with the same settings.
"""

from __future__ import annotations

import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests.gguf_fixtures import drop_keys
from tests import gguf_llama4_writer as lw
from tests import models_helpers as mh

pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2]
AS_LLAMA_CPP = {**mh.FAMILIES["llama4"], "attention_chunk_size": 8192}      # (its fixed chunk)


@pytest.mark.parametrize("name, settings", [
    ("Scout-like: q/k norm, chunks, NoPE layer 3", {}),
    ("Maverick-like: 128 experts, so no q/k norm", {"num_local_experts": 128, "use_qk_norm": False}),
    ("every layer full (sliding_window 0): no chunks, no temperature, the last layer NoPE",
     {"layer_types": ["full_attention"] * 4, "attention_chunk_size": None, "attn_temperature_tuning": False}),
])
def test_a_llama4_file_reads_as_llama_cpp_runs_it(tmp_path, name, settings):
    torch_model = aw.fp16_random_model("llama4", tmp_path / "hf", 41, {**AS_LLAMA_CPP, **settings})
    lw.write_llama4(tmp_path / "m.gguf", torch_model)
    with open_model(str(tmp_path / "m.gguf")) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family, cfg.rope_interleaved, cfg.rope_pairs_across_head) == (
            "llama4_text", "llama", True, False)
        assert cfg.nope_layers == (3,) and cfg.qk_norm_after_rope == ("num_local_experts" not in settings)
        full = "layer_types" in settings
        assert cfg.chunk_of(0) == (None if full else 8192) and (cfg.attn_temperature is None) == full
        mh.assert_layer0_as_transformers(model, torch_model, "llama4", IDS)


@pytest.mark.parametrize("low, high", [(1.0, 1.0), (1.0, 4.0)])
def test_a_llama3_scaled_llama4_file_reads_its_rope_freqs(tmp_path, low, high):
    """Scout-Instruct's llama3 scaling (factor 16, equal band factors: one step at L0 8,192) and Scout's (factor
    8, 1 and 4), written as rope_freqs.weight only: read back as that llama3 scaling, and layer 0 equals
    transformers'."""
    factor = 16.0 if low == high else 8.0
    rope = {"rope_type": "llama3", "rope_theta": 500000.0, "factor": factor, "low_freq_factor": low,
            "high_freq_factor": high, "original_max_position_embeddings": 8192}
    torch_model = aw.fp16_random_model("llama4", tmp_path / "hf", 43, {**AS_LLAMA_CPP, "rope_parameters": rope})
    lw.write_llama4(tmp_path / "m.gguf", torch_model)
    with open_model(str(tmp_path / "m.gguf")) as model:
        s = model.config.rope_scaling
        assert (s.rope_type, s.factor, s.low_freq_factor, s.high_freq_factor) == ("llama3", factor, low, high)
        mh.assert_layer0_as_transformers(model, torch_model, "llama4", IDS)


def test_a_second_rope_base_and_the_llama4_pre_tokenizer(tmp_path):
    """rope.freq_base_swa (llama.cpp turns the chunked layers at it) other than freq_base is refused in one line;
    the "llama4" pre-tokenizer splits text as "gpt-4o" does (llama.cpp's LLAMA_VOCAB_PRE_TYPE_GPT4O for both)."""
    torch_model = aw.fp16_random_model("llama4", tmp_path / "hf", 47, AS_LLAMA_CPP)
    lw.write_llama4(tmp_path / "swa.gguf", torch_model, edit=lambda w, stored: w.add_rope_freq_base_swa(1000.0))
    with pytest.raises(InputError, match="metadata llama4.rope.freq_base_swa .* differs from llama4.rope.freq_base") \
            as err:
        open_model(str(tmp_path / "swa.gguf"))
    assert "\n" not in str(err.value)
    from explorer.backend.models.gguf_vocab import PRE_REGEXES

    # (llama.cpp maps "llama4" to GPT-4o's split, not Llama 3's: camel case and "DON'T" split otherwise; the tiny
    # vocabulary's merges never cross those splits, so the ids agree with either, and the table is checked too)
    assert PRE_REGEXES["llama4"] == PRE_REGEXES["gpt-4o"] != PRE_REGEXES["llama-bpe"]
    text = "the cat sat, hello world 12345\n\tstop"
    ids = {}
    for pre in ("llama4", "gpt-4o"):
        lw.write_llama4(tmp_path / f"{pre}.gguf", torch_model, pre=pre)
        with open_model(str(tmp_path / f"{pre}.gguf")) as model:
            ids[pre] = model.tokenize(text).ids.tolist()
    assert ids["llama4"] == ids["gpt-4o"] and len(ids["llama4"]) < len(text.encode())     # (merged: "hello", "12")


@pytest.mark.parametrize("value, says", [
    (None, "metadata llama4.expert_count is missing"),
    ([128], "metadata llama4.expert_count is"),
    (0, "metadata llama4.expert_count is 0; it must be an integer from 1"),
])
def test_the_expert_count_is_read_as_a_number(tmp_path, value, says):
    """llama4.expert_count decides the q/k norm (128: none) and llama.cpp refuses a file without experts: a missing,
    zero or array count is named in one line (an array had given "config.json: use_qk_norm must be true or
    false, not array([False])")."""
    torch_model = aw.fp16_random_model("llama4", tmp_path / "hf", 53, AS_LLAMA_CPP)

    def edit(w, stored):
        drop_keys(w, "llama4.expert_count")
        if isinstance(value, list):
            w.add_array("llama4.expert_count", value)
        elif value is not None:
            w.add_uint32("llama4.expert_count", value)

    lw.write_llama4(tmp_path / "m.gguf", torch_model, edit=edit)
    with pytest.raises(InputError, match=says) as err:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(err.value) and "config.json" not in str(err.value)
