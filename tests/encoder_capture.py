"""What transformers computes in an encoder's first layer, for the BERT-family tests (RoBERTa, DistilBERT):
X into the layer, its q and k projections and the attention weights, recorded with hooks."""

from __future__ import annotations

import numpy as np


def capture_layer0(torch_model, layer, q_module, k_module, ids, during=None) -> dict:
    """{"x": X into `layer` (n, d), "q", "k": the projections' outputs (n, d), "attention": layer 0's weights
    (H, n, n)} for ids; during(batch, got) records more inside the same no-grad pass."""
    import torch

    got: dict = {}

    def keep_x(module, args, kwargs):
        got.setdefault("x", (args[0] if args else kwargs["hidden_states"])[0].numpy().copy())

    def keep(key):
        def hook(module, args, out):
            got.setdefault(key, out[0].detach().numpy().copy())
        return hook

    hooks = [layer.register_forward_pre_hook(keep_x, with_kwargs=True),
             q_module.register_forward_hook(keep("q")), k_module.register_forward_hook(keep("k"))]
    batch = torch.as_tensor(np.asarray(ids)[None, :])
    try:
        with torch.no_grad():
            out = torch_model(input_ids=batch, output_attentions=True)
            if during is not None:
                during(batch, got)
    finally:
        for h in hooks:
            h.remove()
    got["attention"] = out.attentions[0][0].numpy()                           # (H, n, n)
    return got


def close(ours, ref, tol=1e-5) -> None:
    """ours equals ref within tol x max(1, max |ref|), absolute."""
    ref = np.asarray(ref, dtype=np.float64)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=tol * max(1.0, float(np.abs(ref).max())))
