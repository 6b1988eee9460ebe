"""Folders are boundaries and document ids cannot collide (issue #22, cases B50 and B51).

B50: a client's folder with links to its parent (so to another client's folder), to a
shared folder outside it, to itself (a loop) and to nothing. B51: two added folders
with the same name, each holding ``Contrato.pdf``. Both go through ``verbatim index``
and ``verbatim ask --backend passages`` (the real embedding model, no Ollama). The
links are made here in ``tmp_path``: links to outside a repository do not travel in git.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from core import cli
from core.ingest import iter_files
from core.ingest.files import LINK_BROKEN, LINK_LOOP, LINK_OUTSIDE, walk_folders
from core.store import Workspace
from core.store.docids import assign_labels
from core.types import Answer
from tests.conftest import CASES


@pytest.fixture
def b50(tmp_path: Path) -> Path:
    """A copy of case B50 with its links (as its ``make_links.sh`` makes them) and one link inside."""
    root = tmp_path / "b50"
    shutil.copytree(CASES / "B50_symlinks", root)
    a = root / "ClienteA"
    os.symlink("..", a / "todos_los_clientes")
    os.symlink(".", a / "bucle")
    os.symlink("../Compartido", a / "plantillas")
    os.symlink("../no_existe/anexo.pdf", a / "anexo_roto.pdf")
    (a / "copias").mkdir()
    os.symlink("../contrato_A.md", a / "copias" / "mismo_contrato.md")  # inside, to inside: read once
    return root


def test_a_walk_never_leaves_the_folder_and_names_every_link_it_did_not_follow(b50: Path) -> None:
    a = b50 / "ClienteA"
    walk = walk_folders([a])
    assert [p for p, _ in walk.files] == [a / "contrato_A.md"]
    assert sorted((p.name, r) for p, r in walk.skipped) == [
        ("anexo_roto.pdf", LINK_BROKEN), ("bucle", LINK_LOOP),
        ("plantillas", LINK_OUTSIDE), ("todos_los_clientes", LINK_OUTSIDE),
    ]
    assert list(iter_files(a)) == [a / "contrato_A.md"]


def test_following_links_is_a_setting_and_still_reads_each_file_once(b50: Path) -> None:
    walk = walk_folders([b50 / "ClienteA"], follow_links=True)
    names = sorted(p.name for p, _ in walk.files)
    assert names == ["contrato_A.md", "contrato_B_confidencial.md", "plantilla_poder.md"]
    assert ("bucle", LINK_LOOP) in [(p.name, r) for p, r in walk.skipped]


def test_a_link_to_another_added_folder_is_read_there_once(b50: Path) -> None:
    walk = walk_folders([b50 / "ClienteA", b50 / "Compartido"])
    assert sorted(p.name for p, _ in walk.files) == ["contrato_A.md", "plantilla_poder.md"]
    assert "plantillas" not in [p.name for p, _ in walk.skipped]


def test_b50_index_and_ask_keep_the_other_client_out(b50: Path, capsys: pytest.CaptureFixture) -> None:
    assert cli.main(["index", str(b50 / "ClienteA"), "-w", "clienteA", "-q"]) == 0
    out = capsys.readouterr().out
    assert f"{b50 / 'ClienteA' / 'todos_los_clientes'}: {LINK_OUTSIDE}" in out
    assert f"{b50 / 'ClienteA' / 'plantillas'}: {LINK_OUTSIDE}" in out
    assert f"{b50 / 'ClienteA' / 'bucle'}: {LINK_LOOP}" in out
    assert f"{b50 / 'ClienteA' / 'anexo_roto.pdf'}: {LINK_BROKEN}" in out
    ws = Workspace("clienteA", recover=False)
    assert [d["doc_id"] for d in ws.documents()] == ["ClienteA/contrato_A.md"]
    assert all("confidencial" not in t.text for t in ws.get_chunks(ws.manifest.chunk_ids()).values())
    # the window lists what was not followed (the manifest's failures)
    assert {Path(f.path).name for f in ws.failures()} == {"todos_los_clientes", "plantillas", "bucle", "anexo_roto.pdf"}
    assert cli.main(["ask", "¿Cuál es la indemnización pactada?", "-w", "clienteA", "--backend", "passages",
                     "--json"]) == 0
    answer = Answer.model_validate(json.loads(capsys.readouterr().out))
    cited = {c.doc_id for claim in answer.claims for c in claim.citations}
    assert cited <= {"ClienteA/contrato_A.md"} and "640.000" not in capsys.readouterr().out
    # the link is removed: the next run forgets it
    (b50 / "ClienteA" / "plantillas").unlink()
    assert cli.main(["index", "-w", "clienteA", "-q"]) == 0
    assert "plantillas" not in {Path(f.path).name for f in ws.failures()}


@pytest.fixture
def b51(tmp_path: Path) -> tuple[Path, Path]:
    """Case B51 as its README says: each client's folder copied into its own ``Contratos``."""
    a, b = tmp_path / "a" / "Contratos", tmp_path / "b" / "Contratos"
    shutil.copytree(CASES / "B51_same_name" / "ClienteA_Garcia", a)
    shutil.copytree(CASES / "B51_same_name" / "ClienteB_Lopez", b)
    return a, b


def _ask(question: str, ws: str, capsys: pytest.CaptureFixture) -> Answer:
    capsys.readouterr()
    assert cli.main(["ask", question, "-w", ws, "--backend", "passages", "--json"]) == 0
    return Answer.model_validate(json.loads(capsys.readouterr().out))


def _quotes(answer: Answer) -> dict[str, str]:
    """Every quote of the answer, joined per cited document."""
    out: dict[str, str] = {}
    for claim in answer.claims:
        for c in claim.citations:
            out[c.doc_id] = out.get(c.doc_id, "") + " | " + c.quote
    return out


def test_b51_same_named_folders_added_together_keep_both_contracts(
    b51: tuple[Path, Path], capsys: pytest.CaptureFixture
) -> None:
    a, b = b51
    assert cli.main(["index", str(a), str(b), "-w", "rentas", "-q"]) == 0
    out = capsys.readouterr().out
    ws = Workspace("rentas", recover=False)
    docs = ws.documents()
    assert [d["doc_id"] for d in docs] == ["a/Contratos/Contrato.pdf", "b/Contratos/Contrato.pdf"]
    assert f"chunks in workspace: {sum(d['chunks'] for d in docs)}" in out
    before = ws.stored_chunk_ids()
    assert before["manifest"] == before["vectors"] == before["bm25"] and len(set(before["manifest"])) == 2
    quotes = _quotes(_ask("¿Cuál es la renta mensual?", "rentas", capsys))
    assert "950 euros" in quotes.get("a/Contratos/Contrato.pdf", "")
    assert "1.100 euros" in quotes.get("b/Contratos/Contrato.pdf", "")
    for _ in range(2):  # stable from run to run
        assert cli.main(["index", "-w", "rentas", "-q"]) == 0
        assert "unchanged: 2" in capsys.readouterr().out
    assert Workspace("rentas", recover=False).stored_chunk_ids() == before


def test_b51_a_same_named_folder_added_later_leaves_the_first_ids_alone(
    b51: tuple[Path, Path], capsys: pytest.CaptureFixture
) -> None:
    a, b = b51
    assert cli.main(["index", str(a), "-w", "rentas", "-q"]) == 0
    first = Workspace("rentas", recover=False).stored_chunk_ids()["manifest"]
    assert all(c.startswith("Contratos/Contrato.pdf#") for c in first)
    assert cli.main(["index", str(b), "-w", "rentas", "-q"]) == 0
    assert "documents indexed: 1" in capsys.readouterr().out
    ws = Workspace("rentas", recover=False)
    assert [d["doc_id"] for d in ws.documents()] == ["Contratos/Contrato.pdf", "b/Contratos/Contrato.pdf"]
    assert set(first) <= set(ws.stored_chunk_ids()["manifest"])
    assert "950 euros" in _quotes(_ask("¿Cuál es la renta mensual?", "rentas", capsys)).get("Contratos/Contrato.pdf", "")


def test_a_folder_added_twice_or_inside_another_is_read_once(b51: tuple[Path, Path], capsys) -> None:
    a, _ = b51
    top = a.parent  # tmp/a, holding Contratos/ and one file of its own
    (top / "nota.md").write_text("# Nota\n\nEl arrendador revisará la renta cada año.\n", encoding="utf-8")
    os.symlink(a, top.parent / "atajo")  # another spelling of the same folder
    assert cli.main(["index", str(a), str(top.parent / "atajo"), "-w", "w", "-q"]) == 0
    ws = Workspace("w", recover=False)
    assert ws.folders() == [str(a)]
    assert cli.main(["index", str(top), "-w", "w", "-q"]) == 0  # the folder that contains it
    ids = [d["doc_id"] for d in ws.documents()]
    assert ids == ["Contratos/Contrato.pdf", "a/nota.md"]
    counts = ws.stored_chunk_ids()
    assert counts["manifest"] == counts["vectors"] == counts["bm25"] and len(counts["manifest"]) == len(set(counts["manifest"]))
    # the other order: the outer folder first, then one inside it
    capsys.readouterr()
    assert cli.main(["index", str(top), "-w", "w2", "-q"]) == 0
    assert cli.main(["index", str(a), "-w", "w2", "-q"]) == 0
    assert f"{a}: already indexed as part of the folder {top}" in capsys.readouterr().out
    assert [d["doc_id"] for d in Workspace("w2", recover=False).documents()] == ["a/Contratos/Contrato.pdf", "a/nota.md"]


def test_labels_are_unique_case_insensitively_and_never_a_prefix_of_another() -> None:
    assert assign_labels([], ["/x/a/Contratos", "/x/b/Contratos"]) == ["a/Contratos", "b/Contratos"]
    assert assign_labels(["Contratos"], ["/y/b/contratos"]) == ["b/contratos"]
    # "b" would make b/Contratos/... ids equal to those of a folder labelled b/Contratos
    assert assign_labels(["b/Contratos"], ["/z/b"]) == ["z/b"]
    assert assign_labels(["Contratos", "x/Contratos"], ["/x/Contratos"]) == ["Contratos (2)"]
    assert assign_labels([], ["/m/Docs", "/n/Otros"], qualify_shared=False) == ["Docs", "Otros"]


def test_a_workspace_indexed_before_labels_opens_keeps_its_chunks_and_ids(b51, capsys) -> None:
    """Layout before this change: ``folders(path)`` only, ids ``<folder name>/<path>``."""
    a, b = b51
    assert cli.main(["index", str(a), "-w", "old", "-q"]) == 0
    ws = Workspace("old", recover=False)
    before = ws.stored_chunk_ids()
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        db.execute("ALTER TABLE folders DROP COLUMN label")
    reopened = Workspace("old")
    assert reopened.stored_chunk_ids() == before
    assert reopened.documents()[0]["doc_id"] == "Contratos/Contrato.pdf"
    assert "950 euros" in _quotes(_ask("¿Cuál es la renta mensual?", "old", capsys)).get("Contratos/Contrato.pdf", "")
    assert cli.main(["index", "-w", "old", "-q"]) == 0
    out = capsys.readouterr().out
    assert "documents indexed: 0  unchanged: 1" in out
    assert Workspace("old", recover=False).stored_chunk_ids() == before


def test_an_old_workspace_whose_folders_collided_migrates_without_touching_the_first(b51, capsys) -> None:
    """Before labels, ``a/Contratos`` and ``b/Contratos`` were both recorded and shared the id
    ``Contratos/Contrato.pdf``. On open the first keeps its name; the next run gives the second its own ids."""
    a, b = b51
    assert cli.main(["index", str(a), "-w", "old", "-q"]) == 0
    ws = Workspace("old", recover=False)
    first = ws.stored_chunk_ids()["manifest"]
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        db.execute("ALTER TABLE folders DROP COLUMN label")
        db.execute("INSERT INTO folders (path) VALUES (?)", (str(b),))
    assert cli.main(["index", "-w", "old", "-q"]) == 0
    ws = Workspace("old", recover=False)
    assert [d["doc_id"] for d in ws.documents()] == ["Contratos/Contrato.pdf", "b/Contratos/Contrato.pdf"]
    ids = ws.stored_chunk_ids()
    assert set(first) <= set(ids["manifest"]) and ids["manifest"] == ids["vectors"] == ids["bm25"]
    quotes = _quotes(_ask("¿Cuál es la renta mensual?", "old", capsys))
    assert "950 euros" in quotes.get("Contratos/Contrato.pdf", "")
    assert "1.100 euros" in quotes.get("b/Contratos/Contrato.pdf", "")
