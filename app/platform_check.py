"""Check, in a child process, that Qt's platform plugin loads; say which system packages fix it if not.

When the plugin cannot load, Qt aborts the whole process (a core dump, exit 134), so it cannot
be caught where the window is made. `python -m app.platform_check` is that child: it makes a
QGuiApplication, prints the platform's name and exits 0.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass

EXIT_NO_PLATFORM = 3

DEBIAN_PACKAGES = ("libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-shape0"
                   " libxcb-randr0 libxcb-xkb1 libxkbcommon-x11-0 libegl1 libgl1 libfontconfig1 libdbus-1-3")
FEDORA_PACKAGES = ("xcb-util-cursor xcb-util-wm xcb-util-keysyms xcb-util-image xcb-util-renderutil"
                   " libxkbcommon-x11 mesa-libEGL mesa-libGL fontconfig dbus-libs")


@dataclass(frozen=True)
class PlatformVerdict:
    """Whether the Qt platform plugin loaded, its name, and what to do if not."""

    ok: bool
    platform: str
    message: str = ""


def advice(stderr: str) -> str:
    """Return what to do, in one paragraph, for the error text Qt printed."""
    text = stderr.lower()
    if "could not connect to display" in text or ("$display" in text and "wayland" not in text):
        return ("there is no screen to open the window on (no DISPLAY or WAYLAND_DISPLAY). Start grammar-tutor"
                " from a desktop session; for scripts use the commands (grammar-tutor correct …).")
    if "xcb-cursor0" in text or "xcb" in text:
        return ("Qt's window system plugin (xcb) could not load: system libraries are missing. Install them,"
                f" then start grammar-tutor again. Debian/Ubuntu: sudo apt install {DEBIAN_PACKAGES}."
                f" Fedora: sudo dnf install {FEDORA_PACKAGES}.")
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
    return PlatformVerdict(False, "", advice(proc.stderr))


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
