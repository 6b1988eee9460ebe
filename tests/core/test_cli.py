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
    # Issue #16: `verbatim ask` printed nothing until it ended. Its stages go to stderr (the JSON alone to stdout).
    stages = out.stderr.splitlines()
    assert stages[0] == "Searching the documents…", out.stderr
    assert any(s.startswith("Reading ") and s.endswith(" passages…") for s in stages), out.stderr
    assert any(s.startswith("Generating the answer (embedded") for s in stages), out.stderr


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
    assert match_documents(ws, ["msa.txt"]) == (["contracts/2024/msa.txt"], [], {})
    assert match_documents(ws, ["2024/msa.txt", str(folder / "nda.txt")]) == (
        ["contracts/2024/msa.txt", "contracts/nda.txt"], [], {})
    assert match_documents(ws, ["x.pdf", "2023/msa.txt"]) == ([], ["x.pdf", "2023/msa.txt"], {})
    # issue #20: the end of a file name, any case, without extension, %20 or underscores for spaces
    assert match_documents(ws, ["MSA"]) == (["contracts/2024/msa.txt"], [], {})
    assert match_documents(ws, ["sa.txt"]) == (["contracts/2024/msa.txt"], [], {})
    (folder / "Mutual NDA - Acme Corp.txt").write_text("MUTUAL NDA between Acme Corp and Delta.", encoding="utf-8")
    run(index_folders(ws, [folder]))
    for name in ("Acme Corp.txt", "acme%20corp", "NDA_-_Acme_Corp", "Mutual NDA - Acme Corp", "mutual", "nda acme"):
        assert match_documents(ws, [name]) == (["contracts/Mutual NDA - Acme Corp.txt"], [], {}), name
    # a whole file name is no part of a longer one: "nda" is nda.txt, not also "Mutual NDA - …"
    assert match_documents(ws, ["nda"]) == (["contracts/nda.txt"], [], {})
    # a part of several file names names none: they are listed, nothing is chosen
    found, unknown, several = match_documents(ws, [".txt"])
    assert (found, unknown) == ([], []) and sorted(several[".txt"]) == [
        "contracts/2024/msa.txt", "contracts/Mutual NDA - Acme Corp.txt", "contracts/nda.txt"]


def test_ask_doc_takes_a_part_of_a_file_name_and_lists_several(tmp_path, verbatim_home) -> None:
    """Tryout Q2b: `--doc canopetroleum` (the company part of a CUAD file name) said "no such
    document"; a part that several file names hold is listed, not chosen."""
    folder = tmp_path / "contracts"
    folder.mkdir()
    for name in ("CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt",
                 "VEONEER,INC_02_21_2020-EX-10.11-JOINT VENTURE AGREEMENT.txt",
                 "MJBIOTECH,INC_12_06_2018-EX-99.01-JOINT VENTURE AGREEMENT.txt"):
        shutil.copy(CORPORA / "cuad" / "txt" / name, folder / name)
    assert _verbatim("index", str(folder), "-w", "c", home=verbatim_home).returncode == 0
    out = _verbatim("ask", "How long does the agreement last?", "-w", "c", "--doc", "canopetroleum",
                    "--backend", "passages", "--json", home=verbatim_home)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["trace"]["scope"]["doc_ids"] == [
        "contracts/CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt"]
    out = _verbatim("ask", "When did it end?", "-w", "c", "--doc", "joint_venture", "--backend", "passages",
                    home=verbatim_home)
    assert out.returncode == 2
    assert "--doc joint_venture matches 2 documents" in out.stderr
    assert "contracts/VEONEER,INC_02_21_2020-EX-10.11-JOINT VENTURE AGREEMENT.txt" in out.stderr
    assert "contracts/MJBIOTECH,INC_12_06_2018-EX-99.01-JOINT VENTURE AGREEMENT.txt" in out.stderr


def test_index_prints_a_line_per_file_when_not_a_terminal_and_quiet_silences_it(tmp_path, verbatim_home) -> None:
    """Issue #16: with its output in a log, `verbatim index` printed nothing but the final summary."""
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(CORPORA / "pdfs" / "NIST.FIPS.199.pdf", folder)
    (folder / "lease.txt").write_text("The rent is due on the fifth day of each month.\n", encoding="utf-8")
    out = _verbatim("index", str(folder), "-w", "lines", home=verbatim_home)  # stderr is a pipe here
    assert out.returncode == 0, out.stderr
    lines = out.stderr.splitlines()
    assert any(line.startswith("[1/2] docs/NIST.FIPS.199.pdf · ") for line in lines), out.stderr
    assert any(line.startswith("[2/2] docs/lease.txt · ") for line in lines), out.stderr
    assert "estimating…" in out.stderr or " left" in out.stderr
    assert "documents indexed: 2" in out.stdout
    (folder / "more.txt").write_text("The deposit is two months of rent.\n", encoding="utf-8")
    out = _verbatim("index", "-w", "lines", "--quiet", home=verbatim_home)
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert "documents indexed: 1  unchanged: 2" in out.stdout


def test_format_answer_lists_what_was_not_verified_like_the_window() -> None:
    from core.cli import format_answer
    from core.types import Abstention, Citation, Claim, Rejected, RejectReason, Trace

    cit = Citation(chunk_id="d/a.txt#p1-c0", doc_id="d/a.txt", path="/d/a.txt", page=1,
                   quote="The rent is due on the fifth day.", match="exact", score=100, start=0, end=33)
    answer = Answer(
        question="When is the rent due?", workspace="w", status="partial",
        claims=[Claim(text="The rent is due on the fifth day.", citations=[cit])],
        rejected=[Rejected(claim="The deposit is 900 euros.", chunk_id="d/a.txt#p1-c0", quote="The deposit is waived.",
                           reason=RejectReason.fact_not_in_quote, detail="900"),
                  Rejected(claim="The deposit is 900 euros.", reason=RejectReason.no_citation),
                  Rejected(claim="The rent is due on the fifth day.", chunk_id="d/a.txt#p1-c0",
                           quote="invented words here", reason=RejectReason.quote_not_found)],
        trace=Trace(backend="scripted", model="m"))
    text = format_answer(answer)
    assert "Not verified: 1 sentence removed, 1 citation dropped." in text
    assert "  - The deposit is 900 euros. (sentence removed)" in text
    assert "a number, date or name in the sentence is not in its quote [d/a.txt#p1-c0] (900)" in text
    assert "no verified quote left" not in text  # the specific reason only
    assert "  - The rent is due on the fifth day. (citation dropped, sentence kept)" in text
    # A truncated output is not "1 removed, 0 with a citation dropped" (issue #16: read as a contradiction).
    cut = Answer(question="q", workspace="w", status="abstained",
                 rejected=[Rejected(claim="", reason=RejectReason.model_output_truncated)],
                 abstention=Abstention(message="The model's answer was cut off at its token limit; no answer can be "
                                       "shown.", query="q", consulted=[]))
    text = format_answer(cut)
    assert "The model's whole answer was discarded: the model's answer was cut off at its token limit." in text
    assert "removed" not in text
