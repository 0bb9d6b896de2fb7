"""The old name of `tutor.catalogue` (the model catalogue), kept so that `from tutor.models import resolve`
still works in outside tools; new code imports tutor.catalogue."""

import sys

from tutor import catalogue as _catalogue

sys.modules[__name__] = _catalogue  # one module under both names: patching either patches both
