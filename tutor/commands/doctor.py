"""`grammar-tutor doctor`: check the set-up, one line per check, each with its result or a fix."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Check:
    """One line of the report."""

    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        """Return the printed line: `ok` or `FAIL`, the check's name, then its result or fix."""
        return f"{'ok  ' if self.ok else 'FAIL'}  {self.name:<10} {self.detail}"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `doctor` subcommand."""
    parser = sub.add_parser(
        "doctor", help="check the model, llama.cpp on this CPU, the database and Qt",
        description="Check the set-up: the model file and its sha256, llama.cpp's CPU features and a timed"
                    " forward pass (in a child process), the database, and Qt's platform plugin."
                    " Exits 0 only when every check passes.",
    )
    parser.add_argument("--model", help="catalogue name or .gguf path (default: the bundled model)")
    from tutor.judge.veto import VETO_ENV, default_veto_model

    parser.add_argument("--veto-model", default=default_veto_model(), metavar="NAME",
                        help=f"the veto model to check (default: ${VETO_ENV}, or none)")
    parser.add_argument("--db", dest="doctor_db", metavar="PATH", default=None, help="SQLite file to check")
    parser.add_argument("--json", action="store_true", help="print the checks as one JSON object")
    parser.set_defaults(handler=run)


def check_model(model: str | None) -> tuple[Check, object | None]:
    """Resolve the model and verify its sha256."""
    from tutor.catalogue import resolve
    from tutor.errors import TutorError

    try:
        mf = resolve(model)
    except TutorError as exc:
        return Check("model", False, str(exc)), None
    return Check("model", True, f"{mf.name} at {mf.path} (sha256 {mf.sha256[:16]}… verified)"), mf


def check_veto(model: str | None) -> Check:
    """Say which veto model is in use (tutor.judge.veto), verifying its sha256, or that there is none."""
    from tutor.catalogue import resolve
    from tutor.errors import TutorError
    from tutor.judge.veto import VETO_ENV, rule_for

    if not model:
        return Check("veto", True, f"none: every finding the judge makes is shown (--veto-model NAME or ${VETO_ENV}"
                                   " adds one)")
    try:
        mf = resolve(model)
        rule = rule_for(mf.name)
    except (TutorError, ValueError) as exc:
        return Check("veto", False, str(exc))
    return Check("veto", True, f"{mf.name} at {mf.path} (sha256 {mf.sha256[:16]}… verified); keeps a finding when"
                               f" its {rule.measure} is ≥ {rule.min_margin:g}")


def check_llama(mf: object | None) -> list[Check]:
    """Report llama.cpp's CPU features and run a timed forward pass in a child process."""
    try:
        from tutor.decoding.native import cpu_has_amx, llama_system_info, use_extra_buffer_types
        info = llama_system_info()
    except Exception as exc:  # the native library itself does not load
        return [Check("llama.cpp", False, f"llama-cpp-python does not load ({exc}). Reinstall it:"
                                          " pip install --force-reinstall llama-cpp-python==0.3.36")]
    import llama_cpp

    cpu = (f"llama-cpp-python {llama_cpp.__version__}; AMX {'yes' if cpu_has_amx() else 'no'};"
           f" repacking buffers {'on' if use_extra_buffer_types() else 'off'}; {info}")
    out = [Check("llama.cpp", True, cpu)]
    if mf is None:
        out.append(Check("forward", False, "no model to run: fix the model check first"))
        return out
    from tutor.decoding.preflight import check_model_runs

    verdict = check_model_runs(mf.path, mf.sha256, use_cache=False)  # type: ignore[attr-defined]
    if verdict.ok:
        out.append(Check("forward", True, f"{verdict.tokens} tokens in {verdict.forward_ms:.0f} ms"
                                          f" ({verdict.tokens_per_s:.0f} tokens/s), model load"
                                          f" {verdict.load_ms:.0f} ms, in a child process"))
    else:
        out.append(Check("forward", False, verdict.message))
    return out


def check_database(path_arg: str | None) -> Check:
    """Say where the database is and whether it can be written, creating nothing but a temp file."""
    from tutor.errors import StoreError
    from tutor.store.paths import resolve_db

    try:
        path = resolve_db(path_arg)
    except StoreError as exc:
        return Check("database", False, str(exc))
    if isinstance(path, str):
        return check_postgres(path)
    folder = path.parent
    probe_dir = folder
    while not probe_dir.exists() and probe_dir != probe_dir.parent:
        probe_dir = probe_dir.parent
    if path.exists():
        if not path.is_file():
            return Check("database", False, f"{path} is not a file: choose another with --db or GRAMMAR_TUTOR_DB")
        if not os.access(path, os.R_OK | os.W_OK):
            return Check("database", False, f"{path} cannot be written: fix its permissions or choose another file")
        with open(path, "rb") as fh:
            head = fh.read(16)
        if head and head != b"SQLite format 3\x00":
            return Check("database", False, f"{path} is not an SQLite file: move it aside or choose another file")
    try:
        with tempfile.NamedTemporaryFile(dir=probe_dir, prefix=".grammar-tutor-doctor-"):
            pass
    except OSError as exc:
        return Check("database", False, f"{path}: the folder {probe_dir} cannot be written ({exc.strerror});"
                                        " choose another file with --db or GRAMMAR_TUTOR_DB")
    state = "exists" if path.exists() else "will be created on first use"
    return Check("database", True, f"{path} ({state}, writable)")


def check_postgres(url: str) -> Check:
    """Say whether the PostgreSQL database answers and which schema it has, writing nothing."""
    from tutor.errors import StoreError
    from tutor.store import postgres, schema
    from tutor.store.paths import redact

    try:
        with postgres.connect(url) as conn, postgres.translated(url, "reading its schema version"):
            version = postgres.current_version(conn)
    except StoreError as exc:
        return Check("database", False, str(exc))
    state = f"schema {version}" if version else f"empty: schema {schema.LATEST} is made on first use"
    return Check("database", version <= schema.LATEST, f"{redact(url)} (PostgreSQL, {state})")


def check_qt() -> Check:
    """Load Qt's platform plugin in a child process."""
    code = ("import sys\nfrom app.platform_check import check_platform\nv = check_platform()\n"
            "print(v.platform if v.ok else v.message)\nsys.exit(0 if v.ok else 1)")
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=90,
                              stdin=subprocess.DEVNULL, encoding="utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        return Check("qt", False, "Qt took more than 90 s to start")
    text = (proc.stdout.strip() or proc.stderr.strip() or "no answer").splitlines()[-1]
    if proc.returncode == 0:
        return Check("qt", True, f"platform plugin {text!r} loads")
    return Check("qt", False, text)


def run(args: argparse.Namespace) -> int:
    """Run every check; print one line each as it is done (the model's line before llama.cpp loads); return 0
    only when all pass."""
    checks: list[Check] = []

    def done(*new: Check) -> None:
        checks.extend(new)
        if not args.json:
            for c in new:
                print(c.line(), flush=True)

    model_check, mf = check_model(args.model)
    done(model_check)
    done(*check_llama(mf))
    done(check_veto(getattr(args, "veto_model", None)))
    done(check_database(args.doctor_db or getattr(args, "db", None)))
    done(check_qt())
    if args.json:
        print(json.dumps({"ok": all(c.ok for c in checks), "checks": [asdict(c) for c in checks]},
                         ensure_ascii=False))
    return 0 if all(c.ok for c in checks) else 1
