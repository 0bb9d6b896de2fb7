"""`grammar-tutor lab {mask-overhead,compliance,regex-vs-cfg,peers}`: measurements of the mask families."""

from __future__ import annotations

import argparse

from tutor.commands.common import add_module_targets

# command name -> module exposing add_arguments(parser) and run(args) -> int
_EXPERIMENTS = {
    "mask-overhead": "tutor.lab.mask_overhead",
    "compliance": "tutor.lab.compliance",
    "regex-vs-cfg": "tutor.lab.regex_vs_cfg",
    "peers": "tutor.lab.peers",
}


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `lab` subcommand and one sub-subcommand per experiment module present."""
    parser = sub.add_parser("lab", help="measure the regex, CFG and JSON Schema mask families")
    add_module_targets(parser, "experiment", _EXPERIMENTS)
