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
from tests import gguf_fixtures as fx
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


@pytest.mark.parametrize("settings", [{"kv_lora_rank": 15}, {"rope_parameters": {**YARN, "mscale": -0.5,
                                                                                  "mscale_all_dim": -0.5}}],
                         ids=["odd kv_lora_rank (an odd MQA key_length)", "negative mscale_all_dim"])
def test_files_llama_cpp_runs_open_as_transformers_runs_their_model(tmp_path, settings):
    """An odd kv_lora_rank makes the file's key_length (kv_lora + rope) odd, which is no head's width; a negative
    yarn_log_multiplier is a negative mscale_all_dim, which both llama.cpp and transformers run."""
    torch_model = aw.fp16_random_model("deepseek_v3", tmp_path / "hf", 37, {**mh.FAMILIES["deepseek_v3"], **settings})
    dw.write_deepseek(tmp_path / "m.gguf", torch_model)
    with open_model(str(tmp_path / "m.gguf")) as model:
        mh.assert_layer0_as_transformers(model, torch_model, "deepseek_v3", IDS)


def test_an_is_mla_file_reads_k_b_whatever_kv_b_it_also_holds(tmp_path):
    """llama.cpp decides by is_mla (both _mla keys set), not by which tensor is there: an is_mla file's attn_k_b
    is read, a stray attn_kv_b of other values is not."""
    def add_kv_b(w, stored):
        w.add_tensor("blk.0.attn_kv_b.weight", np.ones((4 * (12 + 6), 16), np.float16))

    torch_model = aw.fp16_random_model("deepseek_v3", tmp_path / "hf", 37, mh.FAMILIES["deepseek_v3"])
    dw.write_deepseek(tmp_path / "m.gguf", torch_model, edit=add_kv_b)
    with open_model(str(tmp_path / "m.gguf")) as model:
        assert "layers.0.self_attn.kv_b_proj.weight" not in model.tensors.names()
        mh.assert_layer0_as_transformers(model, torch_model, "deepseek_v3", IDS)


def _scaling(kind, factor):
    def edit(w, stored):
        for kv in w.kv_data:
            if "deepseek2.rope.scaling.type" in kv:
                kv["deepseek2.rope.scaling.type"].value = kind
                kv["deepseek2.rope.scaling.factor"].value = factor
    return edit


def _bias(w, stored):
    w.add_tensor("blk.0.attn_kv_a_mqa.bias", np.ones(16 + 8, np.float32))


@pytest.mark.parametrize("edit, says", [
    (_scaling("linear", 4.0), "rope scaling 'linear' in a deepseek2 file"),
    (_scaling("yarn", 0.5), "a YaRN factor below 1 in a deepseek2 file"),
    (_bias, r"tensor blk\.0\.attn_kv_a_mqa\.bias is not read by llama\.cpp's deepseek2"),
    (fx.without_keys("deepseek2.rope.scaling.yarn_log_multiplier"), "yarn_log_multiplier is missing"),
    (fx.without_keys("deepseek2.attention.kv_lora_rank"), "metadata deepseek2.attention.kv_lora_rank is missing"),
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


# llama.cpp's LLAMA_VOCAB_PRE_TYPE_DEEPSEEK_LLM regexes, the letters class as another project transcribed
# DeepSeek-V2's tokenizer.json with escapes (upper-case hex here, typed apart from the reader's own table)
DEEPSEEK_LLM_LETTERS = (
    "A-Za-z\u00B5\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u01BA\u01BC-\u01BF\u01C4-\u0293\u0295-\u02AF\u0370-\u0373\u0376"
    "\u0377\u037B-\u037D\u037F\u0386\u0388-\u038A\u038C\u038E-\u03A1\u03A3-\u03F5\u03F7-\u0481\u048A-\u052F"
    "\u0531-\u0556\u10A0-\u10C5\u13A0-\u13F5\u13F8-\u13FD\u1C90-\u1CBA\u1CBD-\u1CBF\u1D00-\u1D2B\u1D6B-\u1D77"
    "\u1D79-\u1D9A\u1E00-\u1F15\u1F18-\u1F1D\u1F20-\u1F45\u1F48-\u1F4D\u1F50-\u1F57\u1F59\u1F5B\u1F5D\u1F5F-\u1F7D"
    "\u1F80-\u1FB4\u1FB6-\u1FBC\u1FBE\u1FC2-\u1FC4\u1FC6-\u1FCC\u1FD0-\u1FD3\u1FD6-\u1FDB\u1FE0-\u1FEC\u1FF2-\u1FF4"
    "\u1FF6-\u1FFC\u2102\u2107\u210A-\u2113\u2115\u2119-\u211D\u2124\u2126\u2128\u212A-\u212D\u212F-\u2134\u2139"
    "\u213C-\u213F\u2145-\u2149\u214E\u2183\u2184\u2C00-\u2C7B\u2C7E-\u2CE4\u2CEB-\u2CEE\u2CF2\u2CF3\uA640-\uA66D"
    "\uA680-\uA69B\uA722-\uA76F\uA771-\uA787\uA78B-\uA78E\uAB70-\uABBF\uFB00-\uFB06\uFB13-\uFB17\uFF21-\uFF3A"
    "\uFF41-\uFF5A\U00010400-\U0001044F\U000104B0-\U000104D3\U000104D8-\U000104FB\U00010C80-\U00010CB2"
    "\U00010CC0-\U00010CF2\U000118A0-\U000118DF\U0001E900-\U0001E943")
LLAMA_CPP_DEEPSEEK_LLM = ("[\r\n]", "\\s?[" + DEEPSEEK_LLM_LETTERS + "]+",
                          "\\s?[!-/:-~\uFF01-\uFF0F\uFF1A-\uFF5E\u2018-\u201F\u3000-\u3002]+", "\\s+$",
                          "[\u4E00-\u9FA5\u0800-\u4E00\uAC00-\uD7FF]+", "\\p{N}+")


PRE_TOKENIZER_CASES = {
    # digits in threes, CJK and kana runs apart, punctuation leading a Latin word ("412" is "4" "12" only when
    # digits go in threes, " the" one "Ġthe" only when a space may lead a word)
    "deepseek-v3": ("deepseek_v3", lambda: LLAMA_CPP_DEEPSEEK3, (
        "the cat sat on 412 mats, 3412 in the hall", "你好世界カタカナ and ひらがな", "x.y=12; (foo) 'bar' ...",
        "tab\there\n\nnew  line", "émigré café naïve", "🙂 ok")),
    # letters with the class's look-alike code points (U+1F7D, U+2126, U+212A: "ώ", "Ω", "K" that NFC would swap),
    # fullwidth punctuation, CJK and Hangul runs, digit runs ("412": "4" "12" only as one run)
    "deepseek-llm": ("deepseek_v2", lambda: LLAMA_CPP_DEEPSEEK_LLM, (
        "hello world 412 the end", "\u1f7d\u2126\u212a ok \u03ce\u03a9K", "你好，世界！ 한국어 text",
        "trailing space   ", "a\r\nb\n\nthe", "Ա Բ ա բ ﬁ Ｆｕｌｌ")),
}


@pytest.mark.parametrize("pre", sorted(PRE_TOKENIZER_CASES))
def test_the_deepseek_pre_tokenizers_split_as_llama_cpp(tmp_path, pre):
    """tokenizer.ggml.pre "deepseek-v3" (V3, R1) and "deepseek-llm" (V2, V2-Lite): as llama.cpp's regexes split the
    text (a plain-Python reference BPE over them)."""
    family, regexes, texts = PRE_TOKENIZER_CASES[pre]
    torch_model = aw.fp16_random_model(family, tmp_path / "hf", 37, mh.FAMILIES[family])
    dw.write_deepseek(tmp_path / "m.gguf", torch_model, pre=pre)
    tokens, _, merges = fx.vocabulary()
    with open_model(str(tmp_path / "m.gguf")) as model:
        for text in texts:
            assert model.tokenize(text).ids.tolist() == fx.reference_encode(text, regexes(), tokens, merges), text


def test_the_deepseek_llm_letters_are_the_tokenizers_code_points():
    """The reader's letters class holds exactly the code points of the independently typed one, over the first two
    planes (a look-alike such as U+03CE for U+1F7D, which Unicode normalisation swaps in, would show here)."""
    import regex

    from explorer.backend.models.gguf_vocab import DEEPSEEK_LETTERS

    every = "".join(chr(c) for c in range(0x20, 0x20000) if not 0xD800 <= c < 0xE000)
    ours, want = (set(regex.findall("[" + cls + "]", every)) for cls in (DEEPSEEK_LETTERS, DEEPSEEK_LLM_LETTERS))
    assert ours == want and len(ours) == 2729
    assert {"\u1f7d", "\u2126", "\u212a"} <= ours
