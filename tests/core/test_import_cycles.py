"""No import cycle among the modules of core/ (issue #23's review: core.store and core.ingest had two).

Every import counts as an edge — top-level, inside a function, and type-only (under
``TYPE_CHECKING``) — because each is a dependency a reader of the code has to follow, and a
cycle of them is a layer that cannot be read, tested or replaced alone. Shared types belong on
a floor below the modules that use them (``core.store.writes``, ``core.store.handle``,
``core.ingest.base``, ``core.ingest.registry``, ``core.ingest.pdf_lines``).

The import graph is grimp's (the library under import-linter, already a test dependency): a
cycle exists exactly when some module ``A`` imports ``B`` and ``B`` reaches ``A`` again.
"""

from __future__ import annotations

import grimp


def _cycles(package: str) -> list[list[str]]:
    """One shortest cycle through each import edge that closes one, as ``[A, B, ..., A]``; ``[]`` when none."""
    graph = grimp.build_graph(package, exclude_type_checking_imports=False)
    found: dict[frozenset[str], list[str]] = {}
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            if imported == importer or not imported.startswith(package + "."):
                continue
            chain = graph.find_shortest_chain(importer=imported, imported=importer)
            if chain:
                cycle = [importer, *chain]
                found.setdefault(frozenset(cycle), cycle)
    return sorted(found.values())


def test_core_has_no_import_cycle() -> None:
    assert _cycles("core") == []


def test_the_check_finds_a_cycle(tmp_path, monkeypatch) -> None:
    """The check itself sees a cycle, a type-only import and a function-level import included."""
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclepkg.b import B\n\nclass A: ...\n")
    (pkg / "b.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from cyclepkg.c import C\n"
                              "class B: ...\n")
    (pkg / "c.py").write_text("def f():\n    from cyclepkg.a import A\n    return A\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _cycles("cyclepkg") == [["cyclepkg.a", "cyclepkg.b", "cyclepkg.c", "cyclepkg.a"]]
