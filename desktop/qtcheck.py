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
