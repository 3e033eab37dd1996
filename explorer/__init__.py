"""PE Explorer: see how a Transformer turns token IDs into the vectors its first layer reads."""

__version__ = "0.1.0"
