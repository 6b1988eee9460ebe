"""The store at scale (issue #15): fast open, incremental BM25, pre-filters, ANN, version cleanup.

Real components: CUAD contract text split into small files, the real embedding
model, BM25 segments and LanceDB on disk. Speed is measured by bench/scale.py,
never here.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from pathlib import Path

import bm25s
import lancedb
import numpy as np
import pytest

import core.store.commit as commit
import core.store.vectors as vectors
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import DocumentWrite, Workspace, register_derived
from core.store.bm25_segment import EMPTY_TOKEN
from core.textproc import tokenize, tokenize_query
from core.types import Chunk
from tests.conftest import CORPORA, data_home

CUAD = CORPORA / "cuad" / "txt"
QUERIES = ["termination notice period", "payment of fees within days", "confidential information",
           "governing law", "exclusive license", "indemnify", "insurance", "audit records", "Agreement"]


def _pieces(name: str, n: int, size: int = 1500) -> list[str]:
    text = (CUAD / name).read_text(encoding="utf-8")
    return [text[i * size:(i + 1) * size] for i in range(n) if text[i * size:(i + 1) * size].strip()]


def _write(folder: Path, prefix: str, texts: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, text in enumerate(texts):
        (folder / f"{prefix}{i:02d}.txt").write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """24 small contract files indexed once (3 chunks a commit: many commits and versions)."""
    base = tmp_path_factory.mktemp("scale")
    _write(base / "pristine", "a", _pieces("DYNAMEXINC_06_06_1996-EX-10.4-TRANSPORTATION SERVICES AGREEMENT.txt", 12))
    _write(base / "pristine", "b", _pieces("BICYCLETHERAPEUTICSPLC_03_10_2020-EX-10.11-SERVICE AGREEMENT.txt", 12))
    shutil.copytree(base / "pristine", base / "docs")
    with data_home(base / "home"):
        run(index_folders(Workspace("w", Settings(index_commit_chunks=3)), [base / "docs"]))
    return base


@pytest.fixture
def docs(template: Path, verbatim_home: Path) -> Path:
    """The template's folder as indexed (same path, sizes and times) and a copy of its workspace "w"."""
    shutil.rmtree(template / "docs")
    shutil.copytree(template / "pristine", template / "docs")  # copy2: same mtimes, so unchanged
    shutil.copytree(template / "home" / "workspaces", verbatim_home / "workspaces")
    return template / "docs"


def _ranking(ws: Workspace) -> dict[str, list[tuple[str, float]]]:
    return {q: ws.bm25.search_scored(q, 1000) for q in QUERIES}


# --- opening --------------------------------------------------------------------------------


def test_open_of_a_consistent_workspace_neither_recovers_nor_loads_lancedb(docs: Path, monkeypatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr("core.store.workspace.recover", lambda ws: calls.append(ws.name))
    ws = Workspace("w")
    assert calls == [] and ws.vectors._conn is None  # noqa: SLF001 - LanceDB never touched
    reader = Workspace("w", create=False, recover=False)
    assert reader.bm25_search("termination notice", 3, set())  # searches without any recovery
    assert calls == []


def test_unfinished_commit_is_recovered_on_open_but_never_by_a_reader(docs: Path) -> None:
    ws = Workspace("w")
    committed = ws.stored_chunk_ids()
    version = int(ws.manifest.meta()["lance_version"])
    # What a writer killed between its vector writes and the manifest commit leaves behind.
    with ws.manifest.connect() as db:
        db.execute("INSERT INTO meta VALUES ('commit_pending', '1')")
    ws.vectors.delete_docs(["docs/a00.txt"])
    stray = Chunk(chunk_id="docs/zz.txt#p1-c0", doc_id="docs/zz.txt", path="x", page=1, start=0, end=4, text="stray")
    ws.vectors.add([stray], [[0.05] * 384])
    reader = Workspace("w", create=False, recover=False)
    assert reader.manifest.meta().get("commit_pending") == "1"  # a reader leaves it alone...
    # ...and still searches the committed version: the deleted document is there, the stray row is not.
    hits = reader.dense_search("transportation services", 200, set())
    assert "docs/zz.txt#p1-c0" not in hits and any(h.startswith("docs/a00.txt#") for h in hits)
    reopened = Workspace("w")
    assert reopened.stored_chunk_ids() == committed
    meta = reopened.manifest.meta()
    assert "commit_pending" not in meta and int(meta["lance_version"]) > version


def test_workspace_of_the_previous_format_is_converted_by_the_first_writer(docs: Path) -> None:
    ws = Workspace("w")
    ids = ws.stored_chunk_ids()["manifest"]
    # The layout before issue #15: llama-index's vector columns, a bm25s folder, no segments.
    table = lancedb.connect(ws.dir / "lance").open_table("chunks")
    table.add_columns({"text": "'x'"})
    folder = ws.dir / "bm25-3-abcd1234"
    retriever = bm25s.BM25()
    with ws.manifest.connect() as db:
        rows = db.execute("SELECT chunk_id, text, lang FROM chunks ORDER BY doc_id, ord").fetchall()
        retriever.index([tokenize(t, lang) or [EMPTY_TOKEN] for _, t, lang in rows], show_progress=False)
        retriever.save(str(folder))
        (folder / "ids.json").write_text(json.dumps([r[0] for r in rows]), encoding="utf-8")
        db.execute("DELETE FROM meta WHERE key IN ('bm25_state', 'vector_layout')")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('bm25_dir', 'bm25-3-abcd1234')")
        db.execute("UPDATE meta SET value = ? WHERE key = 'lance_version'", (str(table.version),))
    shutil.rmtree(ws.dir / "bm25")
    reader = Workspace("w", create=False, recover=False)
    assert reader.bm25_search("termination notice", 5, set())  # the old index still answers a reader
    writer = Workspace("w")
    assert writer.stored_chunk_ids() == {"manifest": ids, "vectors": ids, "bm25": ids}
    assert lancedb.connect(ws.dir / "lance").open_table("chunks").schema.names == ["id", "doc_id", "vector"]
    assert not folder.exists()


# --- BM25 -----------------------------------------------------------------------------------


def test_incremental_bm25_ranks_exactly_as_a_full_rebuild_and_as_bm25s(docs: Path) -> None:
    ws = Workspace("w", Settings(index_commit_chunks=4))
    # Several runs: changed, removed, added and moved files, each a new segment with tombstones.
    (docs / "a03.txt").write_text(_pieces("FLOTEKINDUSTRIESINCCN_05_09_2019-EX-10.1-SUPPLY AGREEMENT.txt", 1)[0])
    (docs / "b05.txt").unlink()
    run(index_folders(ws, [docs]))
    _write(docs / "c", "c", _pieces("THERAVANCEBIOPHARMA,INC_05_08_2020-EX-10.2-SERVICE AGREEMENT.txt", 6))
    shutil.move(docs / "a07.txt", docs / "c" / "a07-moved.txt")
    run(index_folders(ws, [docs]))
    (docs / "b06.txt").write_text("Termination notice: ninety days. " * 3, encoding="utf-8")
    run(index_folders(ws, [docs]))
    state = json.loads(ws.manifest.meta()["bm25_state"])
    assert len(state["segments"]) >= 2 and any(s["deleted"] for s in state["segments"])
    incremental = _ranking(ws)
    assert ws.stored_chunk_ids()["bm25"] == ws.stored_chunk_ids()["manifest"]

    # Document frequencies (core.passages' IDF weights) count live chunks only.
    with ws.manifest.connect() as db:
        token_sets = [set(tokenize(t, lang) or [EMPTY_TOKEN]) for t, lang in db.execute(
            "SELECT COALESCE(m.context || char(10), '') || c.text, c.lang FROM chunks c "
            "LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id")]
    tokens = tokenize_query("termination notice services agreement zzzunknown")
    df, n = ws.document_frequencies(tokens)
    assert n == len(token_sets) and df == {t: sum(t in s for s in token_sets) for t in tokens}
    assert df["zzzunknown"] == 0 and df["termin"] > 0

    ws.bm25.rebuild()
    assert len(json.loads(ws.manifest.meta()["bm25_state"])["segments"]) == 1
    rebuilt = _ranking(ws)
    assert incremental == rebuilt  # same ids, same order, same scores (bit for bit)
    assert all(incremental[q] for q in QUERIES)

    # The scores are bm25s' (Lucene BM25, k1 1.5, b 0.75), which the index used before.
    with ws.manifest.connect() as db:
        rows = db.execute("SELECT c.chunk_id, COALESCE(m.context || char(10), '') || c.text, c.lang FROM chunks c "
                          "LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id").fetchall()
    reference = bm25s.BM25()
    reference.index([tokenize(t, lang) or [EMPTY_TOKEN] for _, t, lang in rows], show_progress=False)
    for q in QUERIES:
        tokens = [t for t in tokenize_query(q) if t in reference.vocab_dict]
        scores = reference.get_scores(tokens) if tokens else []
        expected = {rows[i][0]: float(s) for i, s in enumerate(scores) if s > 0}
        got = dict(rebuilt[q])
        assert got.keys() == expected.keys(), q
        assert all(abs(got[c] - expected[c]) <= 1e-4 * max(1.0, expected[c]) for c in got), q


def test_bm25_prefilters_exclude_and_scope_before_ranking(docs: Path) -> None:
    ws = Workspace("w")
    full = dict(ws.bm25.search_scored("services agreement", 1000))
    scope = {"docs/a01.txt", "docs/b02.txt"}
    scoped = ws.bm25.search_scored("services agreement", 5, set(), scope)
    assert scoped and all(c.split("#")[0] in scope for c, _ in scoped)
    # The scope is searched as a collection of its own: bm25s over the scope's chunks alone
    # gives the same scores (IDF and average length are the scope's, not the workspace's).
    with ws.manifest.connect() as db:
        rows = [r for r in db.execute("SELECT c.chunk_id, COALESCE(m.context || char(10), '') || c.text, c.lang "
                                      "FROM chunks c LEFT JOIN chunk_meta m ON m.chunk_id = c.chunk_id")
                if r[0].split("#")[0] in scope]
    reference = bm25s.BM25()
    reference.index([tokenize(t, lang) or [EMPTY_TOKEN] for _, t, lang in rows], show_progress=False)
    tokens = [t for t in tokenize_query("services agreement") if t in reference.vocab_dict]
    expected = sorted((-float(s), rows[i][0]) for i, s in enumerate(reference.get_scores(tokens)) if s > 0)[:5]
    assert [c for c, _ in scoped] == [c for _, c in expected]
    assert all(abs(s + e) <= 1e-4 * max(1.0, -e) for (_, s), (e, _) in zip(scoped, expected))
    assert any(abs(s - full[c]) > 1e-6 for c, s in scoped)  # not the workspace's statistics
    excluded = {"docs/a00.txt", "docs/b00.txt"}
    top = ws.bm25_search("services agreement", 10, excluded)
    assert len(top) == 10 and not any(c.split("#")[0] in excluded for c in top)
    assert ws.bm25_search("services agreement", 10, set(), set()) == []


# --- vectors --------------------------------------------------------------------------------


def test_ann_index_search_pre_filters_exactly(docs: Path, monkeypatch) -> None:
    monkeypatch.setattr(vectors, "ANN_MIN_ROWS", 20)
    monkeypatch.setattr(vectors, "SCALAR_MIN_ROWS", 20)
    ws = Workspace("w")
    with ws._writer():  # noqa: SLF001 - the upkeep a run does past the thresholds
        commit.maintain_vectors(ws, cleanup=True)
    table = ws.vectors.table()
    kinds = {tuple(ix.columns): ix.index_type for ix in table.list_indices()}
    assert kinds[("vector",)] == "IvfHnswSq" and kinds[("doc_id",)] == "BTree"
    excluded = {"docs/a00.txt", "docs/a01.txt", "docs/b00.txt"}
    vec = np.asarray(__import__("core.store.embedding", fromlist=["x"]).get_embedder()
                     .get_query_embedding("termination of the transportation services"), dtype=np.float32)
    for k, exclude, only in ((8, excluded, None), (30, set(), None), (8, set(), {"docs/a02.txt", "docs/b03.txt"}),
                             (8, excluded, {"docs/a00.txt"})):  # 30: the default candidates (HNSW ef >= k · refine)
        got = ws.dense_search("termination of the transportation services", k, exclude, only)
        where = [f"doc_id NOT IN ({','.join(repr(d) for d in exclude)})"] if exclude else []
        where += [f"doc_id IN ({','.join(repr(d) for d in only)})"] if only else []
        query = table.search(vec).bypass_vector_index().limit(k)
        if where:
            query = query.where(" AND ".join(where), prefilter=True)
        exact = query.select(["id", "_distance"]).to_arrow().column("id").to_pylist()
        assert got == exact  # excluded rows never take places; the scope is searched exactly
        assert not any(c.split("#")[0] in exclude for c in got)


def test_readers_share_the_ann_index_cache_and_a_remade_workspace_reads_its_own(docs: Path, monkeypatch) -> None:
    # The engine opens a new Workspace per question: each used to load and decode the ANN
    # index again (1.6 s instead of 0.4 s a question at 1M chunks). One LanceDB session per
    # process now holds it; its entries are keyed by index and file ids.
    monkeypatch.setattr(vectors, "ANN_MIN_ROWS", 20)
    ws = Workspace("w")
    with ws._writer():  # noqa: SLF001 - the upkeep a run does past the thresholds
        commit.maintain_vectors(ws, cleanup=True)
    question = "termination of the transportation services"
    first = Workspace("w", create=False, recover=False).dense_search(question, 8, set())
    session = vectors._session()
    cached = session.approx_num_items
    assert cached > 0  # the readers' index and metadata went into the process's session
    for _ in range(3):  # three more questions, each with its own Workspace, as in the engine
        assert Workspace("w", create=False, recover=False).dense_search(question, 8, set()) == first
    assert session.approx_num_items == cached  # nothing read twice
    # The same name made again over other files: its own vectors, never the cached index's.
    shutil.rmtree(ws.dir)
    other = docs.parent / "other"
    _write(other, "c", _pieces("BICYCLETHERAPEUTICSPLC_03_10_2020-EX-10.11-SERVICE AGREEMENT.txt", 3))
    run(index_folders(Workspace("w"), [other]))
    again = Workspace("w", create=False, recover=False).dense_search(question, 8, set())
    assert again and all(c.startswith("other/") for c in again)


def test_versions_are_cleaned_and_recovery_still_restores_the_recorded_one(docs: Path, caplog) -> None:
    ws = Workspace("w")  # indexed 3 chunks a commit: many commits, two versions each
    lance = ws.dir / "lance" / "chunks.lance"
    assert len(ws.vectors.table().list_versions()) == 1
    files_after_run = len(list((lance / "data").iterdir()))
    assert files_after_run <= 2
    committed = ws.stored_chunk_ids()
    # A later run killed after writing vectors: LanceDB ahead of the manifest.
    with ws.manifest.connect() as db:
        db.execute("INSERT INTO meta VALUES ('commit_pending', '1')")
    ws.vectors.delete_docs(["docs/b01.txt"])
    caplog.set_level(logging.WARNING)
    reopened = Workspace("w")
    assert "restoring" in caplog.text and "reconciling by id" not in caplog.text
    assert reopened.stored_chunk_ids() == committed
    assert {d["doc_id"] for d in reopened.documents()} >= {"docs/b01.txt"}


def test_first_index_deletes_no_vectors_and_a_change_deletes_only_its_document(tmp_path: Path, monkeypatch) -> None:
    docs = tmp_path / "few"
    _write(docs, "a", _pieces("ALCOSTORESINC_12_14_2005-EX-10.26-AGENCY AGREEMENT.txt", 4))
    deleted: list[list[str]] = []
    original = vectors.VectorTable.delete_docs
    def spy(self, ids) -> None:
        ids = list(ids)
        deleted.append(sorted(ids))
        original(self, ids)

    monkeypatch.setattr(vectors.VectorTable, "delete_docs", spy)
    ws = Workspace("w", Settings(index_commit_chunks=3))
    run(index_folders(ws, [docs]))
    assert [d for d in deleted if d] == []
    (docs / "a02.txt").write_text("Changed text about the termination notice.", encoding="utf-8")
    run(index_folders(ws, [docs]))
    assert [d for d in deleted if d] == [["few/a02.txt"]]


# --- writers outside index() and derived data -------------------------------------------------


def test_commit_documents_from_an_external_writer_and_derived_builders(docs: Path, monkeypatch) -> None:
    seen: list[set[str]] = []
    monkeypatch.setattr(commit, "_DERIVED", [])
    register_derived(lambda ws, changed: seen.append(set(changed)))
    ws = Workspace("w")
    (docs / "a00.txt").write_text("A new first page about the transportation services.", encoding="utf-8")
    run(index_folders(ws, [docs]))
    assert seen == [{"docs/a00.txt"}]
    text = "The supplier shall deliver the pallets to the Rotterdam warehouse every Tuesday."
    chunk = Chunk(chunk_id="ext/x.txt#p1-c0", doc_id="ext/x.txt", path=str(docs / "x.txt"), page=1, start=0,
                  end=len(text), text=text)
    from core.store.embedding import get_embedder

    write = DocumentWrite(doc_id="ext/x.txt", path=docs / "x.txt", root=docs, size=len(text), mtime=0.0,
                          sha256="0" * 64, kind="txt", lang="en", pages=1, chunks=[chunk],
                          vectors=get_embedder().get_text_embedding_batch([chunk.embedding_text()]))
    ws.commit_documents([write], removals=["docs/b00.txt"])
    assert ws.bm25_search("Rotterdam warehouse pallets", 3, set())[0] == "ext/x.txt#p1-c0"
    assert ws.dense_search("pallets delivered to Rotterdam", 1, set()) == ["ext/x.txt#p1-c0"]
    ids = ws.stored_chunk_ids()
    assert ids["manifest"] == ids["vectors"] == ids["bm25"]
    assert not any(c.startswith("docs/b00.txt#") for c in ids["manifest"])
    assert seen[-1] == {"ext/x.txt", "docs/b00.txt"}


def test_per_document_tables_follow_their_document(docs: Path) -> None:
    ws = Workspace("w")
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:  # a table another module keeps per document
        db.execute("CREATE TABLE doc_profile (doc_id TEXT PRIMARY KEY, title TEXT)")
        db.execute("INSERT INTO doc_profile SELECT doc_id, 't' FROM documents")
    (docs / "a01.txt").unlink()
    shutil.move(docs / "a02.txt", docs / "a02-moved.txt")
    run(index_folders(ws, [docs]))
    with sqlite3.connect(ws.dir / "manifest.sqlite") as db:
        profiles = {r[0] for r in db.execute("SELECT doc_id FROM doc_profile")}
        documents = {r[0] for r in db.execute("SELECT doc_id FROM documents")}
    assert profiles == documents and "docs/a02-moved.txt" in profiles and "docs/a01.txt" not in profiles


# --- tokenization shortcuts ------------------------------------------------------------------


def test_bm25_tokens_keep_identifiers_and_accent_free_stems() -> None:
    import re

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from core import textproc

    assert tokenize("Cláusula ART-12.3(b): la devolución de 1.250,00 EUR", "es") == [
        "clausul", "art", "12", "3", "b", "devolu", "1", "250", "00", "eur", "art-12.3", "1.250",
        "12.3", "1250"]  # the last two: numbers written with separators, canonical (issue #14)
    whole_text = re.compile(r"\w+(?:[-./]\w+)+")  # what the identifier rule finds over the whole text

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(list("ab1_-./ é\n\t\u00a0X")), max_size=30).map("".join))
    def check(text: str) -> None:
        tokens = tokenize(text, "en")
        numbers = len(textproc.number_tokens(text))  # appended last
        idents = tokens[len(textproc._stemmer("en").stemWords(  # noqa: SLF001
            [w for w in textproc._WORD.findall(text.casefold()) if w not in textproc._STOPWORDS["en"]])):  # noqa: SLF001
            len(tokens) - numbers]
        assert idents == whole_text.findall(text.casefold())

    check()
