"""Refuse a Qt binding that corrupts Python's reference counts.

PySide6-Essentials 6.12.0 (abi3 wheels) returns ``None`` from every void method
and ``True``/``False`` from ``Signal.emit`` without taking a reference. On
Python 3.12+ those objects are immortal and nothing happens; on 3.11 (this
project's Python) each call leaves them one reference short, and after some
tens of thousands of ordinary calls (``setText``, ``processEvents``, progress
emits) the interpreter aborts with "Fatal Python error: none_dealloc". 6.11.3
does not have the defect; ``pyproject.toml`` pins below 6.12.
"""

from __future__ import annotations

import sys


def refcount_defect() -> str | None:
    """Describe the defect if the installed PySide6 has it, else ``None`` (cheap: 16 calls)."""
    from PySide6 import __version__
    from PySide6.QtCore import QObject, Signal

    class _Probe(QObject):
        ping = Signal()

    probe = _Probe()
    before_none, before_true = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(8):
        probe.setObjectName("probe")  # void method
        probe.ping.emit()
    lost_none = before_none - sys.getrefcount(None)
    lost_true = before_true - sys.getrefcount(True)
    if lost_none >= 8 or lost_true >= 8:
        # give back what the probe took, so the check itself leaves no damage
        import ctypes

        for _ in range(max(lost_none, 0)):
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(None))
        for _ in range(max(lost_true, 0)):
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(True))
        return (f"PySide6 {__version__} corrupts reference counts on Python "
                f"{sys.version_info.major}.{sys.version_info.minor} and would crash the app. "
                "Install a working version: pip install 'PySide6-Essentials<6.12'")
    return None


# --- Qt's system libraries on Linux (issue #24) ----------------------------------------------------
#
# Qt's xcb platform plugin aborts with its own message ("xcb-cursor0 or libxcb-cursor0 is needed …")
# when a system library is missing, after the README's first command already failed. Here the
# plugin's shared objects are asked (``ldd``) which libraries they cannot find, and each missing
# soname is named by the package that ships it, as one install line for the system's package manager.

#: soname → (Debian/Ubuntu package, Fedora/RHEL package).
QT_SYSTEM_PACKAGES: dict[str, tuple[str, str]] = {
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-xinerama.so.0": ("libxcb-xinerama0", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
    "libxcb-xinput.so.0": ("libxcb-xinput0", "libxcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libSM.so.6": ("libsm6", "libSM"),
    "libICE.so.6": ("libice6", "libICE"),
    "libEGL.so.1": ("libegl1", "libglvnd-egl"),
    "libGL.so.1": ("libgl1", "libglvnd-glx"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libGLX.so.0": ("libglx0", "libglvnd-glx"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
}


def _qt_plugin_files() -> list[str]:
    """The xcb platform plugin and the Qt library it loads, from the installed PySide6 (without importing Qt)."""
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return []
    root = Path(list(spec.submodule_search_locations)[0])
    found = [root / "Qt" / "plugins" / "platforms" / "libqxcb.so"]
    found += sorted((root / "Qt" / "lib").glob("libQt6XcbQpa.so*"))[:1]
    found += sorted((root / "Qt" / "lib").glob("libQt6Gui.so*"))[:1]
    return [str(p) for p in found if p.exists()]


def missing_sonames(files: list[str] | None = None) -> list[str]:
    """Shared libraries that ``files`` (default: Qt's xcb plugin) need and the system lacks, per ``ldd``.

    Returns [] when ``ldd`` is unavailable (not Linux, or a minimal image without it): the
    check then says nothing rather than guess.
    """
    import shutil
    import subprocess

    ldd = shutil.which("ldd")
    files = _qt_plugin_files() if files is None else files
    if ldd is None or not files:
        return []
    missing: list[str] = []
    for path in files:
        try:
            out = subprocess.run([ldd, path], capture_output=True, text=True, timeout=20).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in out.splitlines():
            name, _, where = line.strip().partition(" => ")
            if where.strip() == "not found" and name not in missing:
                missing.append(name)
    return missing


def install_line(sonames: list[str], manager: str | None = None) -> str:
    """The one command that installs the packages shipping ``sonames``: ``sudo apt-get install -y …``
    or ``sudo dnf install -y …`` (``manager`` ``apt``/``dnf``; ``None``: whichever is on the PATH).
    A soname no package is known for is named as it is; '' when ``sonames`` is empty."""
    import shutil

    if not sonames:
        return ""
    if manager is None:
        manager = "apt" if shutil.which("apt-get") else "dnf" if shutil.which("dnf") else "apt"
    column = 0 if manager == "apt" else 1
    packages = list(dict.fromkeys(QT_SYSTEM_PACKAGES.get(s, (s, s))[column] for s in sonames))
    return ("sudo apt-get install -y " if manager == "apt" else "sudo dnf install -y ") + " ".join(packages)


def qt_libraries_message() -> str | None:
    """On Linux with an X11 display to use, the message naming the missing Qt system libraries and
    the install line that adds them; ``None`` when nothing is missing (or the check does not apply:
    another OS, or Qt told to use another platform such as ``offscreen`` or ``wayland``)."""
    import os

    if not sys.platform.startswith("linux"):
        return None
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform and not platform.startswith("xcb"):
        return None
    if not platform and os.environ.get("WAYLAND_DISPLAY") and not os.environ.get("DISPLAY"):
        return None
    missing = missing_sonames()
    if not missing:
        return None
    return ("Verbatim's window needs system libraries that are missing: " + ", ".join(missing) + ".\n"
            "Install them with:\n    " + install_line(missing) + "\n"
            "(or run without a window: verbatim ask / verbatim index; or QT_QPA_PLATFORM=offscreen)")


if __name__ == "__main__":  # `python -m desktop.qtcheck`: .ci/setup's check; exit 1 when something is missing
    message = qt_libraries_message()
    if message:
        print(message, file=sys.stderr)
    sys.exit(1 if message else 0)
