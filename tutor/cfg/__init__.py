"""Context-free grammars (GBNF files) compiled to an incremental pushdown parser with a cached token mask."""
