"""`grammar-tutor bench {engine,store,decoder,judge,typing,startup,…}`: benchmarks that print their figures."""

from __future__ import annotations

import argparse

from tutor.commands.common import add_module_targets

# target name -> module exposing add_arguments(parser) and run(args) -> int
_TARGETS = {
    "engine": "tutor.lab.engine_bench",
    "store": "tutor.store.bench",
    "decoder": "tutor.lab.decoder_bench",
    "serve": "tutor.server.loadtest",
    "buffers": "tutor.decoding.bench_native",
    "judge": "tutor.lab.judge_bench",
    "schemas": "tutor.lab.schema_bench",
    "typing": "tutor.lab.typing_bench",
    "startup": "tutor.lab.startup_bench",
}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` subcommand and one sub-subcommand per benchmark module present."""
    parser = sub.add_parser("bench", help="run a benchmark and print its figures")
    add_module_targets(parser, "target", _TARGETS)
