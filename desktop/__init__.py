"""Verbatim's PySide6 desktop window: a thin GUI over :mod:`core`.

Nothing here parses documents, touches the index or calls a model on the GUI
thread: every such call runs in a :class:`desktop.workers.GeneratorWorker` or
:class:`desktop.workers.CallWorker` on a ``QThreadPool``.
"""
