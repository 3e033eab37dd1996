"""RoBERTa, XLM-RoBERTa and CamemBERT checkpoints against transformers' own classes: X into layer 0, layer-0 q/k,
and positions that start at row padding_idx + 1 (a padding token: row padding_idx, the tokens after it not moved on).

Tiny random models (every parameter drawn, the padding rows too) written with save_pretrained, with a tokenizer
whose ids 0-3 are <s>, <pad>, </s>, <unk> as RoBERTa's (pad_token_id 1).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from explorer.backend.models.hf_folder import open_model
from explorer.errors import InputError
from tests import models_helpers as mh
from tests.encoder_capture import capture_layer0, close

pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")
ROWS = 20                                    # max_position_embeddings: 18 usable positions from row 2
TEXTS = ("the cat sat on the mat", "the cat <pad> sat <pad> on", "<pad> the dog")


def _classes(kind: str, masked: bool):
    import transformers as tf

    name = {"roberta": "Roberta", "xlm-roberta": "XLMRoberta", "camembert": "Camembert"}[kind]
    return getattr(tf, name + "Config"), getattr(tf, name + ("ForMaskedLM" if masked else "Model"))


def write_tokenizer(path) -> None:
    """A WordLevel tokenizer with RoBERTa's special ids and its <s> ... </s> template."""
    from tokenizers import AddedToken, Tokenizer, models, pre_tokenizers, processors

    vocab = {**{t: i for i, t in enumerate(SPECIALS)}, **{w: i + 4 for i, w in enumerate(mh.WORDS)}}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.add_special_tokens([AddedToken(t, special=True) for t in SPECIALS])
    tok.post_processor = processors.TemplateProcessing(single="<s> $A </s>", special_tokens=[("<s>", 0), ("</s>", 2)])
    tok.save(str(path))


def build(kind: str, folder, masked: bool = False, pad: int = 1, **extra):
    """A random tiny `kind` model saved into folder (ForMaskedLM: tensors named roberta.*); the torch model."""
    config_class, model_class = _classes(kind, masked)
    torch.manual_seed(3)
    config = config_class(hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=48,
                          max_position_embeddings=ROWS, vocab_size=mh.VOCAB, type_vocab_size=1, pad_token_id=pad,
                          layer_norm_eps=1e-5, **extra)
    config._attn_implementation = "eager"
    return mh.save_random(model_class(config).eval(), folder, write_tokenizer)


def capture(torch_model, ids) -> dict:
    """X into layer 0, its q and k projections (n, d), the attention and the position ids the embeddings made."""
    base = torch_model.base_model
    layer = base.encoder.layer[0]

    def positions(batch, got):
        ids_made = base.embeddings.create_position_ids_from_input_ids(batch, base.embeddings.padding_idx)
        got["positions"] = ids_made[0].numpy()

    return capture_layer0(torch_model, layer, layer.attention.self.query, layer.attention.self.key, ids, positions)


def _heads(flat, heads):
    return flat.reshape(flat.shape[0], heads, -1).transpose(1, 0, 2)         # (H, n, hd)


@pytest.mark.parametrize("kind, masked", [("roberta", False), ("xlm-roberta", True), ("camembert", True),
                                          ("xlm-roberta", False)])
def test_x_and_layer0_qk_equal_transformers(kind, masked, tmp_path):
    torch_model = build(kind, tmp_path, masked)
    with open_model(tmp_path) as model:
        cfg = model.config
        assert (cfg.model_type, cfg.family, cfg.position_offset, cfg.padding_idx) == (kind, "bert", 2, 1)
        assert cfg.max_positions == ROWS - 2 == model.positions().shape[0]
        table = torch_model.base_model.embeddings.position_embeddings.weight.detach().numpy()
        np.testing.assert_array_equal(model.positions(), table[2:])            # as the model uses it: from row 2
        for text in TEXTS:
            ids = model.tokenize(text).ids
            ref = capture(torch_model, ids)
            close(model.input_x(ids), ref["x"])
            np.testing.assert_array_equal(model.positions_of(ids), table[ref["positions"]])
            qk = model.layer0_qk(ids)
            close(qk.q, _heads(ref["q"], cfg.n_heads))
            close(qk.k, _heads(ref["k"], cfg.n_heads))
            probs = np.exp(qk.logits - qk.logits.max(axis=-1, keepdims=True).astype(np.float64))
            close(probs / probs.sum(axis=-1, keepdims=True), ref["attention"])    # not causal, 1 / sqrt(hd)


def test_positions_start_at_padding_idx_plus_one(tmp_path):
    """pad_token_id 1: rows 2, 3, ...; a padding token reads row 1 and the tokens after it go on from where they
    were; another pad_token_id (0) moves the start to row 1."""
    from explorer.backend.models.encoders import position_ids

    torch_model = build("roberta", tmp_path)
    with open_model(tmp_path) as model:
        ids = model.tokenize("the cat <pad> sat").ids
        assert ids.tolist() == [0, 4, 5, 1, 6, 2]
        want = [2, 3, 4, 1, 5, 6]
        assert capture(torch_model, ids)["positions"].tolist() == want
        assert position_ids(2, 1, np.asarray(ids)).tolist() == want
    zero = tmp_path / "pad0"
    torch_model = build("xlm-roberta", zero, pad=0)
    with open_model(zero) as model:
        assert (model.config.position_offset, model.config.max_positions) == (1, ROWS - 1)
        ids = model.tokenize("the cat sat").ids                         # <s> is id 0, the padding id here
        ref = capture(torch_model, ids)
        assert ref["positions"].tolist() == [0, 1, 2, 3, 4]
        close(model.input_x(ids), ref["x"])


def test_a_text_past_the_table_is_refused_in_one_line(tmp_path):
    build("roberta", tmp_path)
    with open_model(tmp_path) as model:
        fits = model.tokenize(" ".join(["cat"] * 16)).ids                       # 18 tokens: rows 2 .. 19
        assert model.input_x(fits).shape == (18, 32)
        padded = np.concatenate([fits[:-1], [1, 1, 1], fits[-1:]])             # pads take no position
        assert model.input_x(padded).shape == (21, 32)
        with pytest.raises(InputError, match="19 tokens is longer than the model's 18 learned positions") as info:
            model.input_x(model.tokenize(" ".join(["cat"] * 17)).ids)
        assert "\n" not in str(info.value)


@pytest.mark.parametrize("edit, match", [
    ({"position_embedding_type": "relative_key_query"},
     "config.json: roberta position_embedding_type 'relative_key_query' is not supported"),
    ({"pad_token_id": None}, "config.json: roberta's pad_token_id must be a whole number from 0 to 18"),
    ({"pad_token_id": 19}, "pad_token_id must be a whole number from 0 to 18 .* not 19"),
])
def test_what_cannot_be_read_is_refused_at_open(edit, match, tmp_path):
    build("roberta", tmp_path)
    path = tmp_path / "config.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **edit}))
    with pytest.raises(InputError, match=match) as info:
        open_model(tmp_path)
    assert "\n" not in str(info.value)


def test_api_cli_and_tokens_view_read_the_same_rows(tmp_path, capsys):
    """explorer.api, `pe-explorer export input / learned-pe --model` and the Tokens view's result give
    transformers' X and the table from row 2; the view names the rows each token reads."""
    from explorer import api
    from explorer.commands.cli import main
    from explorer.compute import model_tokens
    from explorer.params import Params

    torch_model = build("xlm-roberta", tmp_path / "m", masked=True)
    text = "the cat <pad> sat"
    with api.open_model(str(tmp_path / "m")) as model:
        ids = model.tokenize(text).ids
    ref = capture(torch_model, ids)
    assert main(["export", "input", "--model", str(tmp_path / "m"), "--text", text, "-o", str(tmp_path / "x.npy")]) == 0
    close(np.load(tmp_path / "x.npy"), ref["x"])
    assert main(["export", "learned-pe", "--model", str(tmp_path / "m"), "-o", str(tmp_path / "p.npy")]) == 0
    table = torch_model.base_model.embeddings.position_embeddings.weight.detach().numpy()
    np.testing.assert_array_equal(np.load(tmp_path / "p.npy"), table[2:])
    r = model_tokens.for_model(Params(model=str(tmp_path / "m"), embedding_source="model", text=text))
    assert not r.error, r.error
    assert r.position_ids.tolist() == [2, 3, 4, 1, 5, 6] and r.padding_idx == 1
    close(r.x, ref["x"])
    type0 = torch_model.base_model.embeddings.token_type_embeddings.weight.detach().numpy()[0]
    close(r.pe_rows, table[r.position_ids] + type0)


def test_a_chips_tooltip_names_the_position_row_it_reads(qtbot, tmp_path):
    """The Tokens view's chips number tokens by their place in the sentence (p0, p1, ...); where the model reads
    another row of its position table (RoBERTa from row 2, a <pad> row 1), the chip's tooltip names that row, as
    transformers' create_position_ids_from_input_ids picks it."""
    from explorer.compute import model_tokens
    from explorer.params import Params
    from explorer.ui.views.token_chips import ChipStrip

    torch_model = build("roberta", tmp_path / "m")
    text = "the cat <pad> sat"
    r = model_tokens.for_model(Params(model=str(tmp_path / "m"), embedding_source="model", text=text))
    assert not r.error, r.error
    with open_model(tmp_path / "m") as model:
        want = capture(torch_model, model.tokenize(text).ids)["positions"].tolist()
    chips = ChipStrip()
    qtbot.addWidget(chips)
    chips.fill(r)
    tips = [chips.item(i).toolTip() for i in range(chips.count())]
    assert [t.split("\n")[0].split(",")[0] for t in tips] == [f"position {p}" for p in range(len(want))]
    assert [f"reads row {row} of the model's position table" in t for t, row in zip(tips, want)] == [True] * len(want)
