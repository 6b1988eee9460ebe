"""The installed Qt binding keeps Python's reference counts intact (PySide6 6.12.0 did not)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QObject, Signal


class _Sender(QObject):
    sig = Signal(object)


def test_void_calls_and_emits_keep_none_and_true_alive(qapp):
    from desktop.qtcheck import refcount_defect

    assert refcount_defect() is None
    sender = _Sender()
    before_none, before_true = sys.getrefcount(None), sys.getrefcount(True)
    for i in range(2000):
        sender.setObjectName("x")
        sender.sig.emit(i)
        qapp.processEvents()
    assert abs(sys.getrefcount(None) - before_none) < 100  # 6.12.0: about -4000
    assert abs(sys.getrefcount(True) - before_true) < 100  # 6.12.0: -2000


def test_a_missing_qt_system_library_is_named_with_its_install_line(tmp_path):
    """Issue #24: Qt's xcb plugin aborted on a minimal Linux; the check names what is missing first.

    A copy of Qt's own xcb library whose DT_NEEDED entry for libxcb-cursor is renamed (same length)
    to a library no system has stands for a system without it: ``ldd`` reports it not found.
    """
    import shutil

    import pytest

    from desktop.qtcheck import _qt_plugin_files, install_line, missing_sonames

    if not sys.platform.startswith("linux") or shutil.which("ldd") is None:
        pytest.skip("the check applies to Linux with ldd")
    qpa = [f for f in _qt_plugin_files() if "XcbQpa" in f]
    assert qpa, "PySide6 ships libQt6XcbQpa on Linux"
    data = open(qpa[0], "rb").read()
    assert b"libxcb-cursor.so.0\x00" in data
    broken = tmp_path / "libQt6XcbQpa.so.6"
    broken.write_bytes(data.replace(b"libxcb-cursor.so.0\x00", b"libxcb-cursoq.so.0\x00"))
    assert "libxcb-cursoq.so.0" in missing_sonames([str(broken)])
    assert install_line(["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"], "apt") == \
        "sudo apt-get install -y libxcb-cursor0 libxkbcommon-x11-0"
    assert install_line(["libxcb-cursor.so.0", "libxcb-shape.so.0", "libxcb-xkb.so.1"], "dnf") == \
        "sudo dnf install -y xcb-util-cursor libxcb"
    assert install_line([]) == ""
