"""Moved to tutor.engine.cfg.matcher; this module name stays so existing imports keep working."""

import sys

from tutor.engine.cfg import matcher as _moved

sys.modules[__name__] = _moved
