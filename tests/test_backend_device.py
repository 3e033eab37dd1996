"""Device choice and the torch path: equal to numpy on CPU; GPU compared with CPU when present."""

import numpy as np
import pytest

from explorer.backend.device import choose_device
from explorer.backend.encodings import sinusoidal_pe
from explorer.backend.torch_ops import full_pe, sinusoidal_pe_torch

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("layout", ["interleaved", "concat", "t2t"])
@pytest.mark.parametrize("d", [1, 6, 7])
def test_torch_equals_numpy(layout, d):
    got = sinusoidal_pe_torch(50, d, 1e4, layout, "float64").numpy()
    np.testing.assert_allclose(got, sinusoidal_pe(50, d, 1e4, layout, "float64"), atol=1e-12)


def test_seed_module_equivalence_float32():
    """The seeds' recipe (torch.exp of arange * -ln(base)/d, slice assignment) in float32."""
    import math
    d, n = 512, 100
    pe = torch.zeros(n, d)
    position = torch.arange(n).unsqueeze(1).float()
    div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(position * div)
    pe[:, 1::2] = torch.cos(position * div)
    # float32 precision: angles up to n carry rounding of about n * 2^-24
    np.testing.assert_allclose(sinusoidal_pe(n, d), pe.numpy(), atol=n * 2.0 ** -23)


def test_cpu_choice_has_reason():
    choice = choose_device("cpu")
    assert choice.name == "cpu" and choice.reason


def test_auto_without_gpu_falls_back_with_reason():
    choice = choose_device("auto")
    if not torch.cuda.is_available():
        assert choice.name in ("cpu", "mps") and choice.reason


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA GPU on this machine")
def test_cuda_equals_cpu():
    gpu, used = full_pe(4096, 512, device="cuda")
    assert used == "cuda"
    np.testing.assert_allclose(gpu, sinusoidal_pe(4096, 512), atol=2e-3)
