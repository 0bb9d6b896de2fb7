"""grammar-tutor core: §A13 scope, constrained-decoding engine, decoder, store and CLI (no Qt)."""

__version__ = "0.1.0"
