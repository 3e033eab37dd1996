"""Missing or broken hardware: no GPU, a GPU that errors, torch missing -> CPU/numpy with a reason.

The oracle is the float64 formula written out here; full_pe must match it on every fallback path.
GPU tests (marked gpu) compare CUDA with the CPU and skip cleanly without a GPU.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from explorer.backend import torch_ops
from explorer.backend.device import DeviceChoice, choose_device

ROOT = Path(__file__).resolve().parent.parent
torch = pytest.importorskip("torch")


def oracle(n: int, d: int, base: float = 10000.0) -> np.ndarray:
    """Interleaved PE in float64: PE[p, 2i] = sin(p w_i), PE[p, 2i+1] = cos(p w_i)."""
    p = np.arange(n, dtype=np.float64)[:, None]
    i = np.arange(d)[None, :] // 2
    angle = p * base ** (-2.0 * i / d)
    return np.where(np.arange(d)[None, :] % 2 == 0, np.sin(angle), np.cos(angle))


@pytest.fixture(autouse=True)
def fresh_choice():
    choose_device.cache_clear()
    yield
    choose_device.cache_clear()


def _no_gpu(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    if getattr(torch.backends, "mps", None) is not None:
        monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)


def test_no_gpu_auto_uses_cpu_with_reason(monkeypatch):
    _no_gpu(monkeypatch)
    choice = choose_device("auto")
    assert choice.name == "cpu" and "no CUDA GPU" in choice.reason and "no Apple GPU" in choice.reason


@pytest.mark.parametrize("requested", ["cuda", "mps"])
def test_no_gpu_explicit_request_falls_back(monkeypatch, requested):
    _no_gpu(monkeypatch)
    choice = choose_device(requested)
    assert choice.name == "cpu" and requested in choice.reason
    pe, used = torch_ops.full_pe(50, 12, device=requested)
    assert used == "cpu"
    np.testing.assert_allclose(pe, oracle(50, 12), atol=2e-5)


def test_export_says_when_the_device_asked_for_was_not_used(monkeypatch, tmp_path, capsys):
    """`export pe --device cuda` on a machine without one: the table, and a note on stderr naming
    why (it said nothing); --device auto and a device that was used say nothing."""
    from explorer.commands.cli import main

    _no_gpu(monkeypatch)
    out = tmp_path / "pe.npy"
    assert main(["export", "pe", "--max-len", "20", "--d-model", "8", "--device", "cuda", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--device cuda was not used" in err and "no CUDA GPU" in err
    np.testing.assert_allclose(np.load(out), oracle(20, 8), atol=2e-6)
    for device in ("auto", "cpu"):
        assert main(["export", "pe", "--max-len", "20", "--d-model", "8", "--device", device,
                     "-o", str(out)]) == 0
        assert capsys.readouterr().err == ""


def test_gpu_that_errors_in_the_probe(monkeypatch):
    """CUDA claims to be there, but every tensor op on it raises: fall back with the error named."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    real_ones = torch.ones

    def ones(*args, device=None, **kw):
        if str(device).startswith("cuda"):
            raise RuntimeError("CUDA error: an illegal memory access was encountered")
        return real_ones(*args, device=device, **kw)

    monkeypatch.setattr(torch, "ones", ones)
    choice = choose_device("auto")
    assert choice.name == "cpu"
    assert "cuda: failed (RuntimeError: CUDA error: an illegal memory access" in choice.reason
    pe, used = torch_ops.full_pe(40, 10, dtype="float64", device="cuda")
    assert used == "cpu"
    np.testing.assert_allclose(pe, oracle(40, 10), atol=1e-12)


@pytest.mark.parametrize("error", [torch.cuda.OutOfMemoryError("CUDA out of memory"),
                                   RuntimeError("CUDA error: unspecified launch failure")])
def test_gpu_that_errors_during_the_work(monkeypatch, error):
    """The probe passed, the full-size computation fails: numpy answers, correctly."""
    monkeypatch.setattr(torch_ops, "choose_device", lambda requested: DeviceChoice("cuda", "cuda found"))

    def broken(*args, **kw):
        raise error

    monkeypatch.setattr(torch_ops, "sinusoidal_pe_torch", broken)
    pe, used = torch_ops.full_pe(64, 16, dtype="float64", device="auto")
    assert used == "numpy"
    np.testing.assert_allclose(pe, oracle(64, 16), atol=1e-12)


TORCH_MISSING = textwrap.dedent("""
    import importlib.abc, importlib.machinery, json, sys
    mode = sys.argv[1]
    if mode == "not-installed":          # find_spec("torch") -> None, import torch -> ImportError
        sys.modules["torch"] = None
    else:                                # installed but broken: the spec is found, loading fails
        class Broken(importlib.abc.Loader):
            def create_module(self, spec):
                raise ImportError("libtorch_cpu.so: cannot open shared object file")
            def exec_module(self, module):
                pass
        class Blocker(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if name == "torch" or name.startswith("torch."):
                    return importlib.machinery.ModuleSpec(name, Broken())
        sys.meta_path.insert(0, Blocker())
    import numpy as np
    from explorer.backend.device import choose_device
    from explorer.backend.torch_ops import full_pe
    from tests import compute_ns as compute
    from explorer.params import Params
    from explorer.commands.cli import main
    choice = choose_device("auto")
    pe, used = full_pe(30, 8, dtype="float64", device="cuda")
    p = Params(d_model=64, max_len=5000)
    img = compute.heatmap(p, compute.Window.full(p, 200, 64)).image
    rc = main(["export", "pe", "--max-len", "9", "--d-model", "4", "-o", sys.argv[2]])
    print(json.dumps({"name": choice.name, "reason": choice.reason, "used": used, "pe": pe.tolist(),
                      "img_ok": bool(np.isfinite(img).all()), "rc": rc,
                      "torch_loaded": sys.modules.get("torch") is not None}))
""")


@pytest.mark.parametrize("mode,reason", [("not-installed", "torch is not installed"),
                                         ("broken", "torch failed to import")])
def test_torch_missing_falls_back_to_numpy(tmp_path, mode, reason):
    out = tmp_path / "pe.npy"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", TORCH_MISSING, mode, str(out)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got["name"] == "numpy" and reason in got["reason"] and got["used"] == "numpy"
    assert got["img_ok"] and got["rc"] == 0 and not got["torch_loaded"]
    np.testing.assert_allclose(np.array(got["pe"]), oracle(30, 8), atol=1e-12)
    np.testing.assert_allclose(np.load(out), oracle(9, 4), atol=1e-6)


def test_torch_installed_probe_is_cheap():
    """torch_installed() must not import torch (it costs seconds at start-up)."""
    code = ("import sys; from explorer.backend.device import torch_installed; "
            "print(torch_installed(), 'torch' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=60)
    assert proc.stdout.split() == ["True", "False"], proc.stderr


# ---- a real GPU --------------------------------------------------------------------------------
def _gpu() -> str | None:
    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    return "mps" if mps is not None and mps.is_available() else None


@pytest.mark.gpu
@pytest.mark.skipif(_gpu() is None, reason="no CUDA or MPS device")
@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
def test_gpu_equals_cpu(layout):
    name = _gpu()
    assert choose_device("auto").name == name
    gpu, used = torch_ops.full_pe(4096, 512, layout=layout, device=name)
    cpu, used_cpu = torch_ops.full_pe(4096, 512, layout=layout, device="cpu")
    assert used == name and used_cpu == "cpu"
    np.testing.assert_allclose(gpu, cpu, atol=2e-3)      # float32 sin of angles up to 4095 rad
    if layout == "interleaved":
        np.testing.assert_allclose(gpu, oracle(4096, 512), atol=2e-3)
