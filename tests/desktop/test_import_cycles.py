"""No import cycles among the desktop modules (issue #24, item 5).

A controller that imports :mod:`desktop.main_window` while the window imports the controller is
a cycle even when the import sits under ``if TYPE_CHECKING:`` or inside a function: the modules
can no longer be read, tested or replaced one at a time. So every ``import``/``from … import``
in a module's source counts, wherever it stands. The graph is read with :mod:`ast` (no module is
imported) and its cycles are found as the strongly connected components of more than one module
(Tarjan's algorithm) or a module importing itself.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def import_graph(package: str) -> dict[str, set[str]]:
    """``{module: {imported modules of the same package}}`` for every ``.py`` file under ``package``.

    ``from desktop import texts`` counts as an import of ``desktop.texts`` when that module exists,
    else of ``desktop`` (the package's ``__init__``); relative imports are resolved.
    """
    base = ROOT / package
    modules = {}
    for path in base.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    anchor = name.split(".")
                    anchor = anchor if is_pkg else anchor[:-1]
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    mod = ".".join(anchor + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod for a in node.names]
            for target in targets:
                while target and target not in modules:  # `import a.b.c` of a package's module
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module, each sorted (Tarjan, 1972)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_cycle_finder_finds_a_controller_importing_its_window() -> None:
    """The finder itself: the shape issue #24 named (window ↔ controller, through TYPE_CHECKING)."""
    graph = {"desktop.main_window": {"desktop.answer_flow", "desktop.texts"},
             "desktop.answer_flow": {"desktop.main_window", "desktop.texts"}, "desktop.texts": set()}
    assert cycles(graph) == [["desktop.answer_flow", "desktop.main_window"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


@pytest.mark.parametrize("package", ["desktop"])
def test_no_import_cycles(package: str) -> None:
    graph = import_graph(package)
    assert "desktop.main_window" in graph and graph["desktop.main_window"]  # the graph was read
    assert cycles(graph) == []


def test_no_import_cycle_through_the_command_line_modules() -> None:
    """core/cli.py was split by concern (cli_ask, cli_index, cli_format, cli_grid): none imports
    core.cli back. (core's other package-level cycles belong to their own modules' owners.)"""
    graph = import_graph("core")
    assert {"core.cli", "core.cli_ask", "core.cli_index", "core.cli_format"} <= set(graph)
    assert "core.cli_ask" in graph["core.cli"]
    assert [c for c in cycles(graph) if any(m.startswith("core.cli") for m in c)] == []
