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


def test_ask_doc_names_an_unknown_document_clearly(tmp_path, verbatim_home) -> None:
    """`ask --doc` with a document the workspace does not hold: exit 2, the name, and what it holds."""
    folder = tmp_path / "contracts"
    folder.mkdir()
    shutil.copy(CORPORA / "cuad" / "txt" / "RgcResourcesInc_20151216_8-K_EX-10.3_9372751_EX-10.3_Franchise Agreement.txt",
                folder / "franchise.txt")
    assert _verbatim("index", str(folder), "-w", "c", home=verbatim_home).returncode == 0
    out = _verbatim("ask", "What is the franchise fee?", "-w", "c", "--doc", "lease.pdf", home=verbatim_home)
    assert out.returncode == 2
    assert "--doc lease.pdf: no such document in workspace 'c'" in out.stderr
    assert "contracts/franchise.txt" in out.stderr


def test_match_documents_by_path_or_name_end(tmp_path, verbatim_home) -> None:
    from core.cli import match_documents
    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    folder = tmp_path / "contracts"
    (folder / "2024").mkdir(parents=True)
    (folder / "2024" / "msa.txt").write_text("MASTER SERVICES AGREEMENT between Acme and Beta.", encoding="utf-8")
    (folder / "nda.txt").write_text("MUTUAL NON-DISCLOSURE AGREEMENT between Acme and Gamma.", encoding="utf-8")
    ws = Workspace("m", Settings())
    run(index_folders(ws, [folder]))
    assert match_documents(ws, ["msa.txt"]) == (["contracts/2024/msa.txt"], [])
    assert match_documents(ws, ["2024/msa.txt", str(folder / "nda.txt")]) == (
        ["contracts/2024/msa.txt", "contracts/nda.txt"], [])
    assert match_documents(ws, ["sa.txt", "x.pdf"]) == ([], ["sa.txt", "x.pdf"])
