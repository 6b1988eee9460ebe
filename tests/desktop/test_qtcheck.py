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
