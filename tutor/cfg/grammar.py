"""Moved to tutor.engine.cfg.grammar; this module name stays so existing imports keep working."""

import sys

from tutor.engine.cfg import grammar as _moved

sys.modules[__name__] = _moved
