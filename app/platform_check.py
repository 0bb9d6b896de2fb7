"""Check, in a child process, that Qt's platform plugin loads; say which system packages fix it if not.

When the plugin cannot load, Qt aborts the whole process (a core dump, exit 134), so it cannot
be caught where the window is made. `python -m app.platform_check` is that child: it makes a
QGuiApplication, prints the platform's name and exits 0.

When the xcb plugin fails, `ldd` (in this process, without loading Qt) lists the plugin's system
libraries the loader cannot find, and the message names only the packages that install those
(data/platform/qt_libraries.json); without ldd it names the README's whole list.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

EXIT_NO_PLATFORM = 3
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$", re.MULTILINE)


@cache
def _libraries() -> dict[str, dict]:
    from tutor.resources import data_path

    return json.loads(data_path("platform", "qt_libraries.json").read_text(encoding="utf-8"))["libraries"]


def packages(system: str, libraries: list[str] | None = None) -> list[str]:
    """Return the `system` ('debian' or 'fedora') packages that install `libraries` (None: the README's whole
    list), each once, in the table's order; a library the table does not know is named as itself."""
    table = _libraries()
    if libraries is None:
        return list(dict.fromkeys(entry[system] for entry in table.values() if entry.get("readme")))
    wanted = set(libraries)
    known = [entry[system] for name, entry in table.items() if name in wanted]
    return list(dict.fromkeys(known + [name for name in libraries if name not in table]))


def missing_libraries(ldd_output: str) -> list[str]:
    """Return the libraries `ldd` reported as not found, each once, in its order."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def xcb_plugin() -> Path | None:
    """Return the path of PySide6's xcb platform plugin (found without importing Qt), or None."""
    spec = importlib.util.find_spec("PySide6")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        plugin = Path(folder, "Qt", "plugins", "platforms", "libqxcb.so")
        if plugin.exists():
            return plugin
    return None


def missing_for_xcb(timeout: float = 30.0) -> list[str] | None:
    """Return the system libraries the xcb plugin needs and the loader cannot find ([] when none is missing),
    or None when that cannot be told (no ldd, no plugin)."""
    ldd, plugin = shutil.which("ldd"), xcb_plugin()
    if ldd is None or plugin is None:
        return None
    try:
        proc = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, encoding="utf-8", errors="replace")
    except (OSError, subprocess.TimeoutExpired):
        return None
    return missing_libraries(proc.stdout)


@dataclass(frozen=True)
class PlatformVerdict:
    """Whether the Qt platform plugin loaded, its name, and what to do if not."""

    ok: bool
    platform: str
    message: str = ""


def advice(stderr: str, missing: list[str] | None = None) -> str:
    """Return what to do, in one paragraph, for the error text Qt printed; `missing` names the libraries
    ldd could not find (None: unknown, so the README's whole list is named)."""
    text = stderr.lower()
    if missing:
        debian, fedora = " ".join(packages("debian", missing)), " ".join(packages("fedora", missing))
        return (f"Qt's window system plugin (xcb) could not load: {len(missing)} system"
                f" librar{'y is' if len(missing) == 1 else 'ies are'} missing ({', '.join(missing)}). Install"
                f" {'it' if len(missing) == 1 else 'them'}, then start grammar-tutor again."
                f" Debian/Ubuntu: sudo apt install {debian}. Fedora: sudo dnf install {fedora}.")
    if "could not connect to display" in text or ("$display" in text and "wayland" not in text):
        return ("there is no screen to open the window on (no DISPLAY or WAYLAND_DISPLAY). Start grammar-tutor"
                " from a desktop session; for scripts use the commands (grammar-tutor correct …).")
    if "xcb-cursor0" in text or "xcb" in text:
        return ("Qt's window system plugin (xcb) could not load: system libraries are missing. Install them,"
                f" then start grammar-tutor again. Debian/Ubuntu: sudo apt install {' '.join(packages('debian'))}."
                f" Fedora: sudo dnf install {' '.join(packages('fedora'))}.")
    if "wayland" in text:
        return ("Qt's Wayland plugin could not load. Install the Wayland client libraries (Debian/Ubuntu:"
                " sudo apt install libwayland-client0 libwayland-cursor0 libwayland-egl1 libxkbcommon0), or"
                " start with QT_QPA_PLATFORM=xcb.")
    last = stderr.strip().splitlines()[-1:] or ["no message"]
    return f"Qt could not open a window ({last[0]}). See the README's system packages for your system."


def check_platform(timeout: float = 60.0) -> PlatformVerdict:
    """Run the child check and return its verdict (never aborts this process)."""
    cmd = [sys.executable, "-m", "app.platform_check"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL,
                              encoding="utf-8", errors="replace")
    except subprocess.TimeoutExpired:
        return PlatformVerdict(False, "", "Qt took more than a minute to start; the computer may be very busy.")
    if proc.returncode == 0 and proc.stdout.strip():
        return PlatformVerdict(True, proc.stdout.strip().splitlines()[-1])
    if "No module named" in proc.stderr:
        return PlatformVerdict(False, "", "PySide6 is not installed: pip install PySide6-Essentials")
    missing = missing_for_xcb() if "xcb" in proc.stderr.lower() else None
    return PlatformVerdict(False, "", advice(proc.stderr, missing))


def ensure_platform() -> int | None:
    """Return None when a window can open, else print what to do and return the exit code to use."""
    if os.environ.get("QT_QPA_PLATFORM", "").split(":")[0] in ("offscreen", "minimal"):
        return None  # these plugins ship inside PySide6 and need no system library
    verdict = check_platform()
    if verdict.ok:
        return None
    print(f"grammar-tutor: cannot open the window: {verdict.message}", file=sys.stderr)
    return EXIT_NO_PLATFORM


def _child() -> int:
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication(sys.argv[:1])
    print(app.platformName())
    return 0


if __name__ == "__main__":
    sys.exit(_child())
