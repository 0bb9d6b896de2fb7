"""`grammar-tutor bench {engine,store,decoder}`: benchmarks that print their figures."""

from __future__ import annotations

import argparse
import importlib

# target name -> module exposing add_arguments(parser) and run(args) -> int
_TARGETS = {
    "engine": "tutor.engine.bench",
    "store": "tutor.store.bench",
    "decoder": "tutor.decoding.bench",
}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` subcommand and one sub-subcommand per benchmark module present."""
    parser = sub.add_parser("bench", help="run a benchmark and print its figures")
    targets = parser.add_subparsers(dest="target", required=True)
    for target, module_name in _TARGETS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        p = targets.add_parser(target, help=(module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else None)
        module.add_arguments(p)
        p.set_defaults(handler=module.run)
