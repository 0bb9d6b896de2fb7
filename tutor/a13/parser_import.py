"""Importing spaCy for the analyser without torch, and only the pipeline components the analyser reads.

spaCy's machine-learning library, thinc, imports torch whenever it is installed (thinc.compat: `import torch`, with no
switch to turn it off), though the analyser's pipeline runs on numpy alone. With torch installed, as in many users'
environments, that import took 5-11 s on a shared 2-core machine and brought torch's own libgomp, MKL and oneDNN into
the process. (What made checks 5-25× slower with `import torch` first was libgomp loaded before tutor set its OpenMP
wait policy: tutor/threads.py.) So while spaCy and thinc are first imported, `import torch` fails as if torch were not
installed: thinc records `has_torch = False` and never imports it. A process that imported torch before, or that sets
GRAMMAR_TUTOR_ALLOW_TORCH=1, is left as it is. lemminflect imports spaCy when it is
imported, so it is imported here too.
"""

from __future__ import annotations

import os
import sys
import threading
from types import ModuleType

ALLOW_TORCH = "GRAMMAR_TUTOR_ALLOW_TORCH"
# en_core_web_sm's components the analyser does not read: the analyser reads tags (tagger), heads, dependencies and
# sentences (parser), and coarse tags and morphology (attribute_ruler); "senter" is disabled in the package but
# would still be built and its weights read
EXCLUDED = ("ner", "lemmatizer", "senter")
_lock = threading.Lock()


def import_spacy() -> ModuleType:
    """Return the spacy module, imported (the first time) with thinc's torch import refused."""
    with _lock:
        if "spacy" in sys.modules and "thinc.compat" in sys.modules:
            return sys.modules["spacy"]
        if "torch" in sys.modules or os.environ.get(ALLOW_TORCH) == "1":
            import spacy
            import thinc.compat

            return spacy
        sys.modules["torch"] = None  # type: ignore[assignment]  # `import torch` raises ImportError
        try:
            import spacy
            import thinc.compat  # noqa: F401
        finally:
            if sys.modules.get("torch", 0) is None:
                del sys.modules["torch"]
        return spacy


def import_lemminflect() -> ModuleType:
    """Return the lemminflect module, spaCy imported first as `import_spacy` does (lemminflect imports spaCy)."""
    import_spacy()
    import lemminflect

    return lemminflect
