"""The old name of `tutor.output_contract` (the §A13 output contract), kept for outside imports; new code
imports tutor.output_contract."""

import sys

from tutor import output_contract as _output_contract

sys.modules[__name__] = _output_contract  # one module under both names
