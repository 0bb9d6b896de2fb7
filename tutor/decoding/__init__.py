"""Decoding on a local GGUF model: the loaded model, the one decoder loop, and jump-forward."""
