"""`pe-explorer presets` and `pe-explorer export rope-frequencies`: output, .npz contents, exit codes."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from explorer.backend.presets import get_preset, load_presets
from explorer.backend.rope_scaling import rope_frequencies
from explorer.commands.cli import main


def test_presets_table_lists_every_preset_with_its_source(capsys):
    assert main(["presets"]) == 0
    out = capsys.readouterr().out
    for name, p in load_presets().items():
        assert name in out and f"source: {p.sources[0].repo} {p.sources[0].path}" in out


def test_presets_json(capsys):
    assert main(["presets", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    by_name = {d["name"]: d for d in data}
    assert set(by_name) == set(load_presets())
    llama = by_name["llama-3.1-8b"]
    assert llama["rope_scaling"] == {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
                                     "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}
    assert llama["rope_theta"] == 500000.0 and llama["pairing"] == "half" and llama["sources"][0]["repo"]
    assert by_name["gpt2"]["rope_scaling"] is None and by_name["gpt2"]["position"] == "learned"
    assert by_name["qwen3-8b"]["rope_scaling"] is None
    assert by_name["gemma-2b"]["embedding_scale"] == pytest.approx(math.sqrt(2048))


def _load(path):
    with np.load(path, allow_pickle=False) as data:
        assert sorted(data.files) == ["attention_factor", "inv_freq"]
        return data["inv_freq"], data["attention_factor"]


@pytest.mark.parametrize("name, seq_len", [("llama-3.1-8b", None), ("qwen2.5-7b-yarn", None),
                                           ("pythia-160m", None), ("phi-3.5-mini", 200_000),
                                           ("phi-3.5-mini", 100), ("deepseek-v3", None)])
def test_export_preset(tmp_path, name, seq_len, capsys):
    out = tmp_path / "f.npz"
    argv = ["export", "rope-frequencies", "--preset", name, "-o", str(out)]
    argv += [] if seq_len is None else ["--seq-len", str(seq_len)]
    assert main(argv) == 0
    assert "wrote" in capsys.readouterr().out
    inv, att = _load(out)
    want = get_preset(name).frequencies(seq_len)
    assert inv.dtype == np.float64 and inv.shape == (get_preset(name).rotary_dim // 2,)
    assert np.array_equal(inv, want.inv_freq)
    assert att.shape == () and float(att) == want.attention_factor


@pytest.mark.parametrize("flag, truncate", [([], False), (["--truncate"], None), (["--no-truncate"], False)])
def test_export_gpt_oss_preset_truncated_or_not(tmp_path, flag, truncate, capsys):
    """gpt-oss-20b's YaRN is not truncated; --truncate gives transformers' default rounding instead, the ramp
    the Real RoPE view's box shows when ticked."""
    from dataclasses import replace

    from explorer.backend.rope_scaling import inv_frequencies

    out = tmp_path / "f.npz"
    assert main(["export", "rope-frequencies", "--preset", "gpt-oss-20b", *flag, "-o", str(out)]) == 0
    p = get_preset("gpt-oss-20b")
    want = inv_frequencies(p.head_dim, p.rope_theta, replace(p.rope_scaling, truncate=truncate), None,
                           p.max_position_embeddings)
    inv, _ = _load(out)
    assert np.array_equal(inv, want.inv_freq)
    assert np.array_equal(inv, p.frequencies().inv_freq) == (truncate is False)


def test_export_from_flags_every_type(tmp_path):
    runs = [
        (["--rope-type", "linear", "--factor", "4"], {"rope_type": "linear", "factor": 4.0}, {}),
        (["--rope-type", "dynamic", "--factor", "2", "--original-max-len", "2048", "--seq-len", "5000"],
         {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048}, {"seq_len": 5000}),
        (["--rope-type", "yarn", "--factor", "8", "--original-max-len", "4096", "--beta-fast", "16",
          "--beta-slow", "2", "--mscale", "0.7", "--mscale-all-dim", "1", "--no-truncate"],
         {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096, "beta_fast": 16.0,
              "beta_slow": 2.0, "mscale": 0.7, "mscale_all_dim": 1.0, "truncate": False}, {}),
        (["--rope-type", "llama3", "--factor", "8", "--low-freq-factor", "1", "--high-freq-factor", "4",
          "--original-max-len", "8192"],
         {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
              "original_max_position_embeddings": 8192}, {}),
        (["--rope-type", "longrope", "--short-factor", "1,1.5", "2", "3", "--long-factor", "4", "5,6,7",
          "--original-max-len", "100", "--max-position-embeddings", "400", "--seq-len", "101"],
         {"rope_type": "longrope", "short_factor": (1.0, 1.5, 2.0, 3.0), "long_factor": (4.0, 5.0, 6.0, 7.0),
              "original_max_position_embeddings": 100}, {"seq_len": 101, "max_position_embeddings": 400}),
        (["--partial-rotary-factor", "0.5"], {"partial_rotary_factor": 0.5}, {}),
        (["--rope-type", "proportional", "--partial-rotary-factor", "0.25"],
         {"rope_type": "proportional", "partial_rotary_factor": 0.25}, {}),
        (["--rope-type", "proportional", "--partial-rotary-factor", "0.5", "--factor", "8"],
         {"rope_type": "proportional", "partial_rotary_factor": 0.5, "factor": 8.0}, {}),
    ]
    for i, (flags, params, extra) in enumerate(runs):
        head_dim = 8 if params.get("rope_type") == "longrope" else 64
        out = tmp_path / f"r{i}.npz"
        argv = ["export", "rope-frequencies", "--head-dim", str(head_dim), "--base", "10000", *flags,
                "-o", str(out)]
        assert main(argv) == 0, flags
        inv, att = _load(out)
        want = rope_frequencies(head_dim, 10000.0, **params, **extra)
        assert np.array_equal(inv, want.inv_freq) and float(att) == want.attention_factor, flags
        if params.get("rope_type") == "proportional":      # the whole head's pairs; the slow ones 0
            turning = int(params["partial_rotary_factor"] * head_dim // 2)
            assert inv.shape == (head_dim // 2,) and np.all(inv[turning:] == 0) and np.all(inv[:turning] > 0)


def test_preset_values_can_be_overridden(tmp_path):
    out = tmp_path / "q.npz"
    assert main(["export", "rope-frequencies", "--preset", "qwen2.5-7b", "--rope-type", "yarn", "--factor", "4",
                 "--original-max-len", "32768", "--max-position-embeddings", "32768", "-o", str(out)]) == 0
    inv, att = _load(out)
    want = get_preset("qwen2.5-7b-yarn").frequencies()
    assert np.array_equal(inv, want.inv_freq) and float(att) == want.attention_factor
    assert main(["export", "rope-frequencies", "--preset", "llama-3.1-8b", "--factor", "16",
                 "-o", str(out)]) == 0
    inv, _ = _load(out)
    assert np.array_equal(inv, rope_frequencies(128, 5e5, "llama3", factor=16.0, low_freq_factor=1.0,
                                                high_freq_factor=4.0,
                                                original_max_position_embeddings=8192).inv_freq)


@pytest.mark.parametrize("argv, needle", [
    (["--preset", "llama-9"], "unknown preset 'llama-9'; known presets: gpt2,"),
    (["--preset", "gpt2"], "preset gpt2 has no RoPE"),
    (["--preset", "gemma-2b", "--head-dim", "64"], "give either --preset or --head-dim"),
    ([], "give --preset NAME, or --head-dim D and --base B"),
    (["--head-dim", "64"], "give --preset NAME, or --head-dim D and --base B"),
    (["--head-dim", "64", "--base", "1e4", "--rope-type", "ntk"], "rope_type must be one of default, linear"),
    (["--head-dim", "64", "--base", "1e4", "--rope-type", "linear"], "rope type linear needs factor"),
    (["--head-dim", "64", "--base", "1e4", "--rope-type", "linear", "--factor", "0"],
     "factor must be a finite number > 0"),
    (["--head-dim", "64", "--base", "1e4", "--rope-type", "llama3", "--factor", "8", "--low-freq-factor", "4",
      "--high-freq-factor", "1", "--original-max-len", "8192"], "low_freq_factor must not be greater than high"),
    (["--head-dim", "8", "--base", "1e4", "--rope-type", "longrope", "--short-factor", "1", "--long-factor",
      "1", "1", "1", "1", "--original-max-len", "8", "--factor", "2"], "short_factor must have 4 numbers"),
    (["--head-dim", "8", "--base", "1e4", "--rope-type", "longrope", "--short-factor", "1,x"],
     "--short-factor takes numbers, not 'x'"),
    (["--head-dim", "64", "--base", "1e4", "--partial-rotary-factor", "1.5"],
     r"partial_rotary_factor must be a number in \(0, 1\]"),
    (["--head-dim", "64", "--base", "1e4", "--factor", "2"], "factor is not a parameter of rope type default"),
    (["--head-dim", "64", "--base", "1e4", "--rope-type", "proportional", "--partial-rotary-factor", "0.01"],
     "64 x 0.01 leaves no pair that rotates"),
    (["--head-dim", "7", "--base", "1e4", "--rope-type", "proportional", "--partial-rotary-factor", "0.5"],
     "proportional turns pairs across the whole head; head_dim must be even, not 7"),
    (["--head-dim", "64", "--base", "1e4", "--rope-type", "proportional", "--beta-fast", "2"],
     "beta_fast is not a parameter of rope type proportional"),
    (["--head-dim", "64", "--base", "0.5"], "base .rope_theta. must be a finite number > 1"),
    (["--head-dim", "sixty", "--base", "1e4"], "invalid int value"),
    # found by a helper's fuzz: a math domain error, an 8 GB file after 107 s, an OverflowError
    (["--head-dim", "8", "--base", "1e4", "--rope-type", "yarn", "--original-max-len", "4",
      "--max-position-embeddings", "0"], r"max_position_embeddings must be a whole number from 1 to 2\^53"),
    (["--head-dim", "2000000000", "--base", "1e4"], "head_dim must be a whole number from 2 to 65,536"),
    (["--head-dim", "8", "--base", "1e4", "--rope-type", "dynamic", "--factor", "2", "--original-max-len",
      "1" + "0" * 400], "original_max_position_embeddings must be a whole number from 1 to"),
])
def test_bad_input_exit_2_one_line_no_file(tmp_path, capsys, argv, needle):
    out = tmp_path / "bad.npz"
    assert main(["export", "rope-frequencies", *argv, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pe-explorer: error: ") and err.count("\n") == 1
    assert __import__("re").search(needle, err), err
    assert not out.exists()


def test_output_must_be_npz(tmp_path, capsys):
    assert main(["export", "rope-frequencies", "--preset", "gemma-2b", "-o", str(tmp_path / "x.npy")]) == 2
    assert "output file must end in .npz" in capsys.readouterr().err


def test_another_rope_type_on_the_p_rope_preset_rotates_the_whole_head(tmp_path):
    """--preset gemma-4-global --rope-type default: p-RoPE's fraction (turning pairs of the whole head)
    is not carried over as a rotated width; --partial-rotary-factor still sets one."""
    out = tmp_path / "g.npz"
    assert main(["export", "rope-frequencies", "--preset", "gemma-4-global", "--rope-type", "default",
                 "-o", str(out)]) == 0
    inv, _ = _load(out)
    np.testing.assert_array_equal(inv, rope_frequencies(512, 1e6).inv_freq)
    assert main(["export", "rope-frequencies", "--preset", "gemma-4-global", "--rope-type", "default",
                 "--partial-rotary-factor", "0.5", "-o", str(out)]) == 0
    assert _load(out)[0].shape == (128,)
