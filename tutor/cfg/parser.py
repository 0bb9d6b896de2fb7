"""Moved to tutor.engine.cfg.parser; this module name stays so existing imports keep working."""

import sys

from tutor.engine.cfg import parser as _moved

sys.modules[__name__] = _moved
