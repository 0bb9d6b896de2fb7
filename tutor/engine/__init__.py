"""Constrained-decoding engine: grammars compile to immutable automata + token indexes; matchers walk them."""
