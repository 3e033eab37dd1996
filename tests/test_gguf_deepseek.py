"""GGUF files of DeepSeek-V2 / V3 (llama.cpp's `deepseek2`) against the transformers DeepseekV2/V3ForCausalLM they
came from.

Written as convert_hf_to_gguf.py's DeepseekV2Model writes them (tests/gguf_deepseek_writer.py), in its current
layout (head_count_kv 1, key_length_mla, kv_b_proj split into attn_k_b / attn_v_b) and in the layout of llama.cpp
before its MLA rework (attn_kv_b whole, key_length a head's width), they read as llama.cpp's deepseek2 graph runs
them (explorer/backend/models/gguf_deepseek.py): the latent path, RoPE on the rope part in neighbouring pairs (NORM
RoPE, no permutation), and YaRN's logits x (1 + 0.1 mscale_all_dim ln factor)^2 from yarn_log_multiplier.
"""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import gguf_arch_writer as aw
from tests import gguf_deepseek_writer as dw
from tests import models_helpers as mh

pytest.importorskip("gguf")
pytest.importorskip("transformers")
pytest.importorskip("torch")
IDS = [3, 17, 5, 42, 9, 0, 63, 17, 8, 21, 30, 2, 44, 12, 7, 50, 33, 1]
YARN = {"rope_type": "yarn", "rope_theta": 900.0, "factor": 4.0, "original_max_position_embeddings": 10,
        "mscale": 0.707, "mscale_all_dim": 0.707}


@pytest.mark.parametrize("family, settings, legacy", [
    ("deepseek_v3", {}, False), ("deepseek_v3", {}, True), ("deepseek_v2", {}, False),
    ("deepseek_v2", {"rope_parameters": YARN}, False), ("deepseek_v3", {"rope_parameters": YARN}, True)],
    ids=["v3 q_lora", "v3 q_lora, kv_b (older llama.cpp)", "v2 q_proj", "v2 yarn", "v3 yarn, kv_b"])
def test_a_deepseek_file_reads_as_transformers_runs_it(tmp_path, family, settings, legacy):
    """X, the rotated q and k and the causal softmax (the mscale² logit scale with YaRN) equal transformers' model
    the file came from; the config says what the model's own does."""
    torch_model = aw.fp16_random_model(family, tmp_path / "hf", 37, {**mh.FAMILIES[family], **settings})
    stored = dw.write_deepseek(tmp_path / "m.gguf", torch_model, legacy=legacy)
    assert ("blk.0.attn_kv_b.weight" in stored) == legacy and ("blk.0.attn_k_b.weight" in stored) != legacy
    with open_model(str(tmp_path / "m.gguf")) as model, open_model(str(tmp_path / "hf")) as folder:
        cfg, want = model.config, folder.config
        assert (cfg.model_type, cfg.family, cfg.n_kv_heads, cfg.head_dim, cfg.rope_offset, cfg.rope_interleaved) == (
            "deepseek_v2", "deepseek", 4, 20, 12, True)
        assert (cfg.mla, cfg.norm_eps) == (want.mla, pytest.approx(want.norm_eps))
        assert cfg.score_scalar == pytest.approx(want.score_scalar, rel=1e-6)
        mh.assert_layer0_as_transformers(model, torch_model, family, IDS)


def _without(*keys):
    def edit(w, stored):
        for kv in w.kv_data:
            for key in keys:
                kv.pop(key, None)
    return edit


@pytest.mark.parametrize("edit, says", [
    (_without("deepseek2.rope.scaling.yarn_log_multiplier"), "yarn_log_multiplier is missing"),
    (_without("deepseek2.attention.kv_lora_rank"), "metadata deepseek2.attention.kv_lora_rank is missing"),
    (lambda w, stored: w.tensors[0].pop("blk.0.attn_k_b.weight"), r"tensor blk\.0\.attn_k_b\.weight is missing"),
])
def test_a_damaged_deepseek_file_is_refused_in_one_line(tmp_path, edit, says):
    torch_model = aw.fp16_random_model("deepseek_v3", tmp_path / "hf", 37,
                                       {**mh.FAMILIES["deepseek_v3"], "rope_parameters": YARN})
    dw.write_deepseek(tmp_path / "m.gguf", torch_model, edit=edit)
    with pytest.raises(InputError, match=says) as err:
        open_model(str(tmp_path / "m.gguf"))
    assert "\n" not in str(err.value)


# llama.cpp's LLAMA_VOCAB_PRE_TYPE_DEEPSEEK3_LLM regexes (src/llama-vocab.cpp), as its C++ strings read
LLAMA_CPP_DEEPSEEK3 = ("\\p{N}{1,3}", "[一-龥぀-ゟ゠-ヿ]+",
                       "[!\"#$%&'()*+,\\-./:;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+"
                       "| ?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+")


def test_the_deepseek_v3_pre_tokenizer_splits_as_llama_cpp(tmp_path):
    """tokenizer.ggml.pre "deepseek-v3" (DeepSeek-V3 / R1): digits in threes, CJK and kana runs apart, punctuation
    leading a Latin word, as llama.cpp's three regexes split them (a plain-Python reference BPE; "412" is "4" "12"
    only when digits go in threes, " the" one "Ġthe" only when a space may lead a word)."""
    from tests import gguf_fixtures as fx

    torch_model = aw.fp16_random_model("deepseek_v3", tmp_path / "hf", 37, mh.FAMILIES["deepseek_v3"])
    dw.write_deepseek(tmp_path / "m.gguf", torch_model, pre="deepseek-v3")
    tokens, _, merges = fx.vocabulary()
    with open_model(str(tmp_path / "m.gguf")) as model:
        for text in ("the cat sat on 412 mats, 3412 in the hall", "你好世界カタカナ and ひらがな", "x.y=12; (foo) 'bar' ...",
                     "tab\there\n\nnew  line", "émigré café naïve", "🙂 ok"):
            assert model.tokenize(text).ids.tolist() == fx.reference_encode(text, LLAMA_CPP_DEEPSEEK3, tokens,
                                                                            merges), text
