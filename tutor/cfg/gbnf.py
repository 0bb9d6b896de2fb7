"""Moved to tutor.engine.cfg.gbnf; this module name stays so existing imports keep working."""

import sys

from tutor.engine.cfg import gbnf as _moved

sys.modules[__name__] = _moved
