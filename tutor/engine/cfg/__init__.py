"""Context-free grammars (GBNF): parsed to a pushdown parser, compiled against a vocabulary, walked by CFGMatcher."""
