"""Moved to tutor.engine.cfg.tokens; this module name stays so existing imports keep working."""

import sys

from tutor.engine.cfg import tokens as _moved

sys.modules[__name__] = _moved
