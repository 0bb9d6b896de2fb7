"""grammar-tutor core: §A13 scope, constrained-decoding engine, decoder, store and CLI (no Qt)."""

__version__ = "0.1.0"

import os as _os

# llama.cpp's OpenMP threads busy-wait by default; on a busy laptop (or a shared 2-core machine) a
# spinning thread that loses its core turns a 30 ms token into seconds. Sleeping threads cost little
# when the machine is idle. Set before llama_cpp is first imported; an explicit setting wins.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
