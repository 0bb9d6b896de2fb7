"""`grammar-tutor lab {mask-overhead,compliance,regex-vs-cfg,peers}`: measurements of the mask families."""

from __future__ import annotations

import argparse
import importlib

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
    experiments = parser.add_subparsers(dest="experiment", required=True)
    for name, module_name in _EXPERIMENTS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        doc = (module.__doc__ or "").strip().splitlines()
        p = experiments.add_parser(name, help=doc[0] if doc else None, description=module.__doc__)
        module.add_arguments(p)
        p.set_defaults(handler=module.run)
