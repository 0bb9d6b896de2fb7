"""Options shared by the subcommands that run the model."""

from __future__ import annotations

import argparse
import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tutor.api import Tutor

_SWITCHES = ("facts", "priors", "private_fields", "spanish_choice", "jump_forward", "table", "pin_original")


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """Add --model, --temperature, --seed and one --no-IDEA switch per pipeline idea."""
    parser.add_argument("--model", help="catalogue name or path to a .gguf file (default: the bundled model)")
    parser.add_argument("--temperature", type=float, default=0.0, help="0 = greedy (default)")
    parser.add_argument("--seed", type=int, default=None)
    from tutor.api import Settings

    defaults = Settings()
    parser.add_argument("--no-model", dest="use_model", action="store_false",
                        help="decide with the analyser's evidence alone: no model score (the ablation)")
    from tutor.judge.veto import VETO_ENV, default_veto_model

    parser.add_argument("--veto-model", default=default_veto_model(), metavar="NAME",
                        help="a second, larger model (catalogue name or .gguf path) that must prefer each finding's"
                             f" correction by its fitted margin before it is shown (default: ${VETO_ENV}, or none)")
    parser.add_argument("--veto-margin", type=float, default=None, metavar="NATS",
                        help="keep a finding when the veto model prefers it by at least this (default: the fitted"
                             " margin in data/judge/veto.json; -inf keeps every finding and records its score)")
    from tutor.text.walk import LM_CONTEXTS

    parser.add_argument("--lm-context", choices=LM_CONTEXTS, default=defaults.lm_context,
                        help="what the model reads before each sentence of a text: the previous sentence (default,"
                             " what the weights are fitted on), or the paragraph / whole text so far (an experiment)")
    for name in _SWITCHES:
        dashed = name.replace("_", "-")
        if getattr(defaults, name):
            parser.add_argument(f"--no-{dashed}", dest=name, action="store_false", help=f"switch off '{name}'")
        else:
            parser.add_argument(f"--{dashed}", dest=name, action="store_true", help=f"switch on '{name}'")


def tutor_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Return Tutor.load keyword arguments from parsed options."""
    out: dict[str, Any] = {"temperature": args.temperature, "seed": args.seed}
    for name in _SWITCHES:
        out[name] = getattr(args, name)
    out["use_model"] = getattr(args, "use_model", True)
    out["lm_context"] = getattr(args, "lm_context", "sentence")
    out["veto_model"] = getattr(args, "veto_model", None) or None
    out["veto_margin"] = getattr(args, "veto_margin", None)
    return out


def load_tutor(args: argparse.Namespace) -> Tutor:
    """Return the plain Tutor the options ask for (the lab's plain paths are wrapped on by their own commands)."""
    from tutor.api import Tutor

    return Tutor.load(args.model, **tutor_kwargs(args))


def add_module_targets(parser: argparse.ArgumentParser, dest: str, targets: dict[str, str]) -> None:
    """Add one sub-subcommand per module in `targets` (name -> module with add_arguments and run).

    A module that is not there (an optional part) is skipped; any other import error is raised.
    """
    sub = parser.add_subparsers(dest=dest, required=True)
    for name, module_name in targets.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        doc = (module.__doc__ or "").strip().splitlines()
        p = sub.add_parser(name, help=doc[0] if doc else None, description=module.__doc__)
        module.add_arguments(p)
        p.set_defaults(handler=module.run)
