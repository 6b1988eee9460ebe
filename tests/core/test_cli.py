"""The command line, run as a user would (subprocess), on a real folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from core.types import Answer
from tests.conftest import CASES, CORPORA


def _verbatim(*args: str, home) -> subprocess.CompletedProcess:
    env = {**os.environ, "VERBATIM_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "core", *args], capture_output=True, text=True, env=env, timeout=600)


def test_index_then_ask_json_with_embedded_model(tmp_path, verbatim_home) -> None:
    folder = tmp_path / "nist"
    folder.mkdir()
    shutil.copy(CORPORA / "pdfs" / "NIST.FIPS.199.pdf", folder)
    shutil.copy(CASES / "B14_encrypted_user_password.pdf", folder / "locked.pdf")
    out = _verbatim("index", str(folder), "-w", "nist", home=verbatim_home)
    assert out.returncode == 0, out.stderr
    assert "documents indexed: 1" in out.stdout
    assert "locked.pdf: password-protected PDF" in out.stdout
    out = _verbatim("ask", "What is the capital of Mongolia?", "-w", "nist", "--json", "--backend", "embedded",
                    home=verbatim_home)
    assert out.returncode == 0, out.stderr
    answer = Answer.model_validate(json.loads(out.stdout))
    assert answer.workspace == "nist" and answer.trace.backend == "embedded"
    assert answer.status == "abstained" or all(c.citations for c in answer.claims)


def test_missing_folder_is_a_clear_error(tmp_path, verbatim_home) -> None:
    out = _verbatim("index", str(tmp_path / "nope"), "-w", "ghost", home=verbatim_home)
    assert out.returncode == 2
    assert "not a folder: " + str(tmp_path / "nope") in out.stderr
    assert not (verbatim_home / "workspaces" / "ghost").exists()  # no empty workspace left behind


def test_index_report_lists_quarantined_documents(tmp_path, verbatim_home) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(CASES / "B25_visible_injection.md", folder)
    (folder / "lease.txt").write_text("The rent is due on the fifth day of each month.\n", encoding="utf-8")
    out = _verbatim("index", str(folder), "-w", "hostile", home=verbatim_home)
    assert out.returncode == 0, out.stderr
    assert "not searched (1):" in out.stdout
    assert "docs/B25_visible_injection.md: quarantined" in out.stdout
