"""grammar-tutor core: §A13 scope, constrained-decoding engine, decoder, store and CLI (no Qt)."""

__version__ = "0.1.0"

from tutor.threads import set_openmp_waits as _set_openmp_waits

# llama.cpp's OpenMP threads: a short spin, then sleep (tutor/threads.py). Before llama_cpp is first imported.
_set_openmp_waits()
