"""PE Explorer: see how a Transformer turns token IDs into the vectors its first layer reads.

Python API (loaded on first use, so `import explorer` imports neither Qt nor torch):
explorer.sinusoidal, explorer.rope_frequencies, explorer.check, explorer.show, explorer.open_model (see
explorer.api).
"""

__version__ = "0.1.0"

_API = ("sinusoidal", "rope_frequencies", "check", "show", "open_model")
__all__ = ["__version__", *_API]


def __getattr__(name):
    """PEP 562: the API functions come from explorer.api the first time they are asked for."""
    if name in _API:
        from explorer import api

        return getattr(api, name)
    raise AttributeError(f"module 'explorer' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_API])
