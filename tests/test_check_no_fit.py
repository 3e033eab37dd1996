"""What the check says when it has no error to tell: data nothing could be fitted to (an inv_freq with a value
<= 0, a table read as a RoPE cache whose columns share no frequency: its error is inf), in the summary and
in `pe-explorer check`'s report, in English and Chinese."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.backend.diagnose import diagnose
from explorer.commands.cli import main

UNFITTED = {   # name -> (data, kind, why nothing was fitted in English, in Chinese)
    "negative": (np.array([1.0, 0.5, -0.1, 0.01]), None, "an inv_freq vector holds positive numbers: w[2] = -0.1",
                 "inv_freq 向量的各项应为正数：w[2] = -0.1"),      # the value that is not positive, named
    "several": (np.array([1.0, 0.0, 0.5, -2.0]), None, "an inv_freq vector holds positive numbers: w[1] = 0 (2 of "
                "4 are <= 0)", "inv_freq 向量的各项应为正数：w[1] = 0（共 2 项 <= 0）"),
    "noise": (np.random.default_rng(0).standard_normal((50, 8)), "rope_cache", "no two columns share a frequency",
              "没有哪两列共用同一个频率"),
}


@pytest.mark.parametrize("name", UNFITTED)
def test_a_check_with_nothing_fitted_says_so_instead_of_max_error_inf(name):
    """The summary read "max error inf > 3.95e-05": an error against no fit at all."""
    data, kind, english, chinese = UNFITTED[name]
    en, zh = diagnose(data, kind=kind), diagnose(data, kind=kind, lang="zh_CN")
    assert en.max_error == float("inf") and en.reference is None and [m.id for m in en.mistakes] == ["unknown"]
    assert en.summary == (f"matches no known convention or mistake ({english}), and there is no nearest fit "
                          "to measure against")
    assert zh.summary == f"不符合任何已知约定或常见错误（{chinese}），也没有可用来比较的最接近拟合"
    assert en.to_json()["max_error"] is None


@pytest.mark.parametrize("name", UNFITTED)
def test_the_cli_report_with_nothing_fitted_has_no_inf(name, tmp_path, capsys):
    """The report ended "max error inf (tolerance 3.95e-05)"."""
    data, kind, _, _ = UNFITTED[name]
    path = tmp_path / f"{name}.npy"
    np.save(path, data)
    tol = diagnose(data, kind=kind).tolerance
    kind_args = ["--kind", kind] if kind else []
    assert main(["check", str(path), *kind_args]) == 1
    out = capsys.readouterr().out
    assert "inf" not in out.replace("inv_freq", "")
    assert out.endswith(f"  max error: none, there is no nearest fit to measure against (tolerance {tol:.3g})\n")
    assert main(["check", str(path), "--lang", "zh_CN", *kind_args]) == 1
    out = capsys.readouterr().out
    assert "inf" not in out.replace("inv_freq", "")
    assert out.endswith(f"  最大误差：无，没有可用来比较的最接近拟合（容差 {tol:.3g}）\n")


ZERO_TABLES = {"table": np.zeros((50, 8)), "vector": np.zeros(8)}


@pytest.mark.parametrize("shape", ZERO_TABLES)
def test_an_all_zero_table_is_said_to_equal_every_reference_times_0(shape, tmp_path, capsys):
    """Zeros equal any reference times 0 (error 0, tolerance 0), a fit the check refuses: the formula line
    read "no reference fits; the nearest fit is off by 0" and the CLI "max error 0 (tolerance 0)" beside
    "no match"."""
    import re

    from explorer.compute import formulas
    from explorer.compute.check import CheckState
    from explorer.params import Params

    path = tmp_path / f"zeros_{shape}.npy"
    np.save(path, ZERO_TABLES[shape])
    r = diagnose(ZERO_TABLES[shape])
    assert (r.match, r.max_error, r.tolerance, r.reference, [m.id for m in r.mistakes]) == \
        (False, 0.0, 0.0, None, ["all_zero"])
    lines = {lang: re.sub(r"<[^>]+>", "\n", formulas.formula_html("check", Params(), 5, lang, 8,
                                                                   CheckState(source=str(path), lang=lang)))
             for lang in ("en", "zh_CN")}
    assert "T is all zeros: it equals every reference times 0, so none is chosen" in lines["en"].split("\n")
    assert "T 全为 0：它等于任何参考表乘以 0，因此不选定参考表" in lines["zh_CN"].split("\n")
    assert "off by" not in lines["en"] and "相差" not in lines["zh_CN"]
    assert main(["check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "tolerance" not in out and out.endswith(
        "  max error: none, all zeros equal every reference times 0, so none is chosen\n")
    assert main(["check", str(path), "--lang", "zh_CN"]) == 1
    assert capsys.readouterr().out.endswith("  最大误差：无，全为 0 时等于任何参考表乘以 0，因此不选定参考表\n")
