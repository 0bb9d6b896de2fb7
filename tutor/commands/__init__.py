"""CLI subcommands. Each module exposes `register(subparsers)`; heavy imports happen inside handlers."""
