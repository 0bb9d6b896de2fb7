"""Moved to tutor.engine.choices; this module name stays so existing imports keep working."""

import sys

from tutor.engine import choices as _moved

sys.modules[__name__] = _moved
