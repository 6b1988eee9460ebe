"""core/ is headless: no module in it imports Qt or desktop/."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import core

CORE = Path(core.__file__).parent


def test_no_core_module_imports_qt_or_desktop() -> None:
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in {"PySide6", "desktop", "shiboken6"}]
    assert offenders == []


def test_import_linter_contract_holds() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    assert exe, "import-linter is a test dependency"
    out = subprocess.run([exe], capture_output=True, text=True, cwd=CORE.parent)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 kept, 0 broken" in out.stdout


def test_data_home_restores_an_unset_variable(monkeypatch, tmp_path) -> None:
    from tests.conftest import data_home

    monkeypatch.delenv("VERBATIM_HOME", raising=False)
    with data_home(tmp_path):
        assert os.environ["VERBATIM_HOME"] == str(tmp_path)
    assert "VERBATIM_HOME" not in os.environ  # not "", which would mean the user's real data folder
