"""Old name of tutor.engine.dfa_grammar (the DFA family's compiled grammar), kept for imports outside the project."""

import sys

from tutor.engine import dfa_grammar

sys.modules[__name__] = dfa_grammar
