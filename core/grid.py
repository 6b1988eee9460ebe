"""Review grid: the same questions asked of every document, each cell a verified answer or "not found".

A due-diligence review asks one set of questions (term, renewal, assignment, governing law…) of
every contract of a folder. A chat answer over the top few chunks of the whole workspace cannot
say "which of these contracts …"; the grid asks each question *inside each document*
(:func:`core.pipeline.answer_question` with ``scope=[doc_id]``), so each cell is answered from
its own contract only, with the same verification, abstention and page highlight as any answer.

Rows are documents, columns are :class:`GridColumn` (a question, optionally tied to a clause
type of ``resources/clauses/clause_types.toml``); built-in column sets are in
``resources/grid/templates.toml`` (:func:`templates`). Each :class:`GridCell` has a status:

* ``answered`` — the answer kept at least one verified citation (its first claim is the cell);
* ``weak`` — no passage clearly answers, but the closest ones are shown (never as an answer);
* ``not_found`` — an honest abstention for this document, with what was searched.

Cells are kept in the workspace (``grid.sqlite`` beside its index, :class:`GridStore`) with the
document's content hash, so a grid resumes after a restart and recomputes only the cells whose
document changed (or whose question was edited). A reviewer's marks (reviewed, correction, note)
stay with the cell; they never change the documents.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable, Generator, Iterable
from contextlib import closing
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from core.errors import Cancelled
from core.grid_cells import ShownPassage, cell_passages, rested_first
from core.grid_columns import GridColumn, GridTemplate, columns_from_file, templates  # noqa: F401 (re-exported)
from core.grid_columns import clause_labels as _labels
from core.grid_decision import clause_form
from core.grid_decision import FORM_THRESHOLD, present_log_odds, present_probability
from core.grid_decision import evidence as cell_evidence
from core.settings import Settings
from core.types import Answer, Citation, ProgressEvent

CellStatus = Literal["answered", "weak", "not_found"]
#: The grids of a workspace live in this file of its folder.
GRID_FILE = "grid.sqlite"
#: Version of the way a cell is computed; a stored cell of another version is recomputed (its
#: document unchanged or not), so a grid never mixes cells chosen by two rules.
CELL_VERSION = 9


class GridCell(BaseModel):
    """The answer of one document to one column's question.

    ``page`` is 1-based (physical page of the PDF, or 1 for formats without pages);
    ``page_label`` the printed label of that page when the document has one. ``answer`` is the
    whole verified :class:`~core.types.Answer` (its citations open the page with the quote
    highlighted, as in a conversation).
    """

    doc_id: str
    column_id: str
    question: str
    status: CellStatus
    text: str = Field("", description="The cell's short answer: the first claim, or the closest passage when weak.")
    quote: str = ""
    page: int | None = None
    page_label: str = ""
    doc_hash: str = Field("", description="Content hash of the document the cell was computed from.")
    answer: Answer | None = None
    passages: list[ShownPassage] = Field(
        default_factory=list, description="What the cell shows, best first (core.grid_cells.cell_passages): its "
        "best passage in its clause, then the best passages of other places; kept for a 'not found' cell too "
        "(its closest passage opens on click) but not shown in it (:attr:`shown`).")
    evidence: dict[str, float] = Field(
        default_factory=dict, description="Document-relative evidence of an abstained passages cell "
        "(core.grid_decision.evidence: near, lead, gap); empty for other cells.")
    place_scores: list[float] = Field(
        default_factory=list, description="Abstained passages cell: each retrieved chunk's best span score, in "
        "retrieval order (what its evidence was computed from; the decision can be re-made without a recomputation).")
    searched_clauses: list[str] = Field(
        default_factory=list, description="Clause type ids (resources/clauses/clause_types.toml) whose contract "
        "wording was searched beside the question (what a 'not found' cell looked for).")
    searched_passages: int = Field(0, description="Retrieved passages (chunks) of the document that were scored.")
    searched_labels: dict[str, list[str]] = Field(
        default_factory=dict, description="The searched clause types' names by language ('en', 'es'), for display "
        "(read from the vocabulary when the cell is computed, so a window shows them without reading files).")
    reviewed: bool = False
    correction: str = ""
    note: str = ""
    computed_at: float = 0.0
    version: int = Field(1, description="CELL_VERSION of the rule that computed the cell (1: before it was kept).")

    @property
    def shown(self) -> list[ShownPassage]:
        """The passages the cell shows: none when 'not found', else :attr:`passages`."""
        return [] if self.status == "not_found" else list(self.passages)

    @property
    def citation(self) -> Citation | None:
        """The citation shown for the cell: the first verified one of a passage the answer rests on
        (:func:`core.grid_cells.rested_first`), else the first weak candidate."""
        if self.answer is None:
            return None
        for claim in rested_first(self.answer):
            if claim.citations:
                return claim.citations[0]
        for cand in _candidates(self.answer):
            return cand
        return None


def _candidates(answer: Answer) -> list[Citation]:
    """The closest passages an abstention shows as weak (:class:`~core.types.WeakPassage`), as the page
    viewer's citations: display only, never counted as citations of an answer."""
    abst = answer.abstention
    return [w.viewer_citation() for w in (abst.candidates if abst is not None else [])]


def closeness(answer: Answer) -> float | None:
    """How close an abstained passages answer came: its best span's score over the threshold it missed
    (``trace.passage_best_score / trace.passage_threshold``); ``None`` when not a passages answer."""
    score, threshold = answer.trace.passage_best_score, answer.trace.passage_threshold
    if score is None or not threshold or threshold <= 0:
        return None
    return score / threshold


def cell_from_answer(doc_id: str, column: GridColumn, answer: Answer, doc_hash: str = "",
                     weak_ratio: float = 0.85, passages: list[ShownPassage] | None = None,
                     place_scores: list[float] | None = None, coef=None,
                     clause_form_margin: float | None = None) -> GridCell:
    """The grid cell an :class:`Answer` scoped to ``doc_id`` gives (status, short text, first citation).

    A passages answer to a clause-type question with ``clause_form_margin``
    (:func:`core.grid_decision.form_margin` of its retrieved chunks), answered or not, is ``not_found``
    when :func:`core.grid_decision.present_log_odds` is under :data:`core.grid_decision.FORM_THRESHOLD`
    (the grid's own decision: no sentence of the retrieved chunks reads like the clause type, and the
    best span is not close to the threshold), else ``answered`` when the passages answer answered and
    ``weak`` when it abstained. Otherwise: an abstained passages answer with ``place_scores`` (each retrieved chunk's best span score) is
    ``weak`` when :func:`core.grid_decision.present_probability` of its document-relative evidence
    is at least 0.5, else ``not_found``. Without place scores (or without a fitted model), an
    abstention whose closest passages scored at least ``weak_ratio`` of the threshold they missed
    (:func:`closeness`; setting ``grid_weak_ratio``) is ``weak``; one further away, or with no
    passage, is ``not_found`` (its closest passage still opens on click, never as an answer).

    Args:
        passages: what the cell shows (:func:`core.grid_cells.cell_passages`); ``None`` = the
            answer's own passages only.
        place_scores: from ``cell_passages(..., place_scores=...)``; ``None`` = the ratio rule.
        coef: logistic model for :func:`core.grid_decision.present_probability` (default its COEF).
        clause_form_margin: ``None`` = the rules before it (free questions, model answers).
    """
    shown = cell_passages(answer) if passages is None else passages
    cell = GridCell(doc_id=doc_id, column_id=column.id, question=column.question, status="not_found",
                    doc_hash=doc_hash, answer=answer, computed_at=time.time(), passages=shown,
                    version=CELL_VERSION, searched_clauses=list(answer.trace.clause_types),
                    searched_passages=len(answer.trace.context),
                    searched_labels=_labels(answer.trace.clause_types))
    near = closeness(answer)
    prob = None
    decided = place_scores is not None and clause_form_margin is not None
    if place_scores is not None and near is not None:  # a passages answer: its evidence is kept (analysis)
        form = None
        if shown and not decided:
            form = clause_form(answer.trace.clause_types, [p.text for p in shown])
        cell.evidence = cell_evidence(near, place_scores, form)
        cell.place_scores = [round(float(x), 4) for x in place_scores]
        prob = present_probability(cell.evidence, coef)
    if decided:
        z = present_log_odds(clause_form_margin, near)
        cell.evidence.update({"form_margin": round(float(clause_form_margin), 4), "log_odds": round(z, 4)})
        if z >= FORM_THRESHOLD and answer.status in ("answered", "partial") and answer.claims:
            cell.status, cell.text = "answered", rested_first(answer)[0].text
        elif z >= FORM_THRESHOLD and shown:
            cell.status, cell.text = "weak", shown[0].text
    elif answer.status in ("answered", "partial") and answer.claims:
        claim = rested_first(answer)[0]
        cell.status = "answered"
        cell.text = claim.text
    elif shown and prob is not None:
        if prob >= 0.5:
            cell.status = "weak"
            cell.text = shown[0].text
    elif shown and (near is None or near >= weak_ratio):
        cell.status = "weak"
        cell.text = shown[0].text
    cit = cell.citation
    if cit is not None:
        cell.quote, cell.page, cell.page_label = cit.quote, cit.page, cit.page_label
    return cell


# --- storage ----------------------------------------------------------------------------------


class GridStore:
    """The grids of one workspace, in ``<workspace dir>/grid.sqlite``.

    One row per (grid name, doc_id, column id): a document's cell is shared by every run of the grid
    over any set of rows, so a reviewer's mark is made once. The grid's row sets are kept apart
    (:meth:`save_grid`): the window's grid over 6 selected documents and the command line's over
    the whole workspace, both named after their template, are two saved grids, neither replacing
    the other's row list. Written by one grid run at a time (the
    workspace's process that runs it); read at any time. A cell is replaced when it is
    recomputed; the reviewer's marks survive a recomputation only when the document did not
    change (a changed document's marks no longer describe it, so they are cleared, and the
    note is kept with "(earlier version)" before it).
    """

    def __init__(self, workspace_dir: Path) -> None:
        self.path = Path(workspace_dir) / GRID_FILE
        with closing(self._connect()) as db, db:
            db.execute("""CREATE TABLE IF NOT EXISTS cells (
                grid TEXT NOT NULL, doc_id TEXT NOT NULL, column_id TEXT NOT NULL,
                question TEXT NOT NULL, doc_hash TEXT NOT NULL, cell TEXT NOT NULL,
                PRIMARY KEY (grid, doc_id, column_id))""")
            db.execute("""CREATE TABLE IF NOT EXISTS grids (
                grid TEXT PRIMARY KEY, columns TEXT NOT NULL, doc_ids TEXT NOT NULL, updated REAL NOT NULL)""")
            db.execute("""CREATE TABLE IF NOT EXISTS grid_rows (
                grid TEXT NOT NULL, rows_key TEXT NOT NULL, columns TEXT NOT NULL, doc_ids TEXT NOT NULL,
                updated REAL NOT NULL, PRIMARY KEY (grid, rows_key))""")
            # grids saved before row sets were kept apart (one row list per name) keep their rows
            for grid, cols, docs, updated in db.execute("SELECT * FROM grids").fetchall():
                db.execute("INSERT OR IGNORE INTO grid_rows VALUES (?, ?, ?, ?, ?)",
                           (grid, rows_key(json.loads(docs)), cols, docs, updated))

    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=30)
        db.execute("PRAGMA journal_mode=WAL")
        return db

    def save_grid(self, grid: str, columns: list[GridColumn], doc_ids: list[str], *, whole: bool = False) -> str:
        """Record the grid's columns and rows (so the window can reopen it) under ``grid`` and its row set
        (:func:`rows_key`; ``whole``: the rows are the whole workspace, which may grow); another row set of
        the same grid is kept beside it. Returns the row set's key."""
        key = rows_key(doc_ids, whole=whole)
        with closing(self._connect()) as db, db:
            db.execute("INSERT OR REPLACE INTO grid_rows VALUES (?, ?, ?, ?, ?)",
                       (grid, key, json.dumps([c.model_dump() for c in columns]), json.dumps(doc_ids), time.time()))
        return key

    def grids(self) -> dict[tuple[str, str], tuple[list[GridColumn], list[str]]]:
        """Saved grids, newest first: ``{(name, rows_key): (columns, doc_ids)}``."""
        with closing(self._connect()) as db:
            rows = db.execute("SELECT grid, rows_key, columns, doc_ids FROM grid_rows ORDER BY updated DESC").fetchall()
        return {(g, k): ([GridColumn(**c) for c in json.loads(cols)], json.loads(docs)) for g, k, cols, docs in rows}

    def cells(self, grid: str) -> dict[tuple[str, str], GridCell]:
        """Stored cells of ``grid`` by ``(doc_id, column_id)``."""
        with closing(self._connect()) as db:
            rows = db.execute("SELECT cell FROM cells WHERE grid = ?", (grid,)).fetchall()
        out = {}
        for (raw,) in rows:
            cell = GridCell.model_validate_json(raw)
            out[(cell.doc_id, cell.column_id)] = cell
        return out

    def put(self, grid: str, cell: GridCell) -> None:
        """Store (or replace) one cell."""
        with closing(self._connect()) as db, db:
            db.execute("INSERT OR REPLACE INTO cells VALUES (?, ?, ?, ?, ?, ?)",
                       (grid, cell.doc_id, cell.column_id, cell.question, cell.doc_hash, cell.model_dump_json()))

    def annotate(self, grid: str, doc_id: str, column_id: str, *, reviewed: bool | None = None,
                 correction: str | None = None, note: str | None = None) -> GridCell:
        """Set a reviewer's marks on a stored cell; the documents are never changed.

        Raises:
            KeyError: no such cell in ``grid``.
        """
        cell = self.cells(grid).get((doc_id, column_id))
        if cell is None:
            raise KeyError(f"grid '{grid}' has no cell for {doc_id} / {column_id}")
        update = {k: v for k, v in (("reviewed", reviewed), ("correction", correction), ("note", note)) if v is not None}
        cell = cell.model_copy(update=update)
        self.put(grid, cell)
        return cell


def rows_key(doc_ids: list[str], *, whole: bool = False) -> str:
    """The key of a grid's row set: ``"all"`` for the whole workspace, else 16 hex digits of the SHA-1 of
    the sorted doc ids (the same documents in another order are the same row set)."""
    import hashlib

    return "all" if whole else hashlib.sha1("\n".join(sorted(doc_ids)).encode("utf-8")).hexdigest()[:16]


# --- running ----------------------------------------------------------------------------------


def run_grid(
    workspace,
    columns: list[GridColumn],
    *,
    grid: str = "default",
    doc_ids: Iterable[str] | None = None,
    settings: Settings | None = None,
    backend=None,
    cancel: Callable[[], bool] | None = None,
    on_cell: Callable[[GridCell], None] | None = None,
    recompute: bool = False,
    only: Iterable[tuple[str, str]] | None = None,
) -> Generator[ProgressEvent, None, list[GridCell]]:
    """Fill the grid ``documents × columns`` of ``workspace``, reusing every stored cell still valid.

    A stored cell is reused when its document's content hash, its question and the cell rule
    (:data:`CELL_VERSION`) are unchanged (``recompute=True`` recomputes all). Each computed cell is stored at once, so a stopped or
    crashed run resumes where it was. Yields one ``ProgressEvent(stage="grid")`` per cell
    (``done``/``total`` in cells, ``item`` the doc_id, ``message`` the column id) and calls
    ``on_cell`` with each cell, reused ones first (they appear at once).

    Args:
        workspace: a :class:`core.store.Workspace`.
        doc_ids: rows; ``None`` = every active document of the workspace, in doc_id order.
        backend: generator; ``None`` picks one from the settings (:func:`core.generate.make_backend`).
        cancel: polled before each cell; raises :class:`Cancelled` when True (cells done are kept).
        only: compute just these ``(doc_id, column_id)`` cells (an evaluation's labelled cells);
            ``None`` = every cell.

    Returns:
        The cells, row by row (documents in order, columns in order).

    Raises:
        Cancelled: the user stopped the run.
        ValueError: a doc_id that is not in the workspace, or two columns with one id.
    """
    from core.generate import make_backend

    settings = settings or workspace.settings
    cancel = cancel or (lambda: False)
    if len({c.id for c in columns}) != len(columns):
        raise ValueError("two columns share an id")
    docs = {d["doc_id"]: d for d in workspace.documents() if d.get("status", "active") == "active"}
    rows = sorted(docs) if doc_ids is None else list(dict.fromkeys(doc_ids))
    unknown = [d for d in rows if d not in docs]
    if unknown:
        raise ValueError(f"not an active document of workspace '{workspace.name}': {', '.join(unknown)}")
    _profiles, hashes = workspace.doc_profiles()
    store = GridStore(workspace.dir)
    store.save_grid(grid, columns, rows, whole=doc_ids is None)
    stored = {} if recompute else store.cells(grid)
    total = len(rows) * len(columns)
    cells: dict[tuple[str, str], GridCell] = {}
    todo: list[tuple[str, GridColumn]] = []
    wanted = set(only) if only is not None else None
    if wanted is not None:
        total = len(wanted)
    for doc_id in rows:
        for col in columns:
            if wanted is not None and (doc_id, col.id) not in wanted:
                continue
            old = stored.get((doc_id, col.id))
            if old is not None and old.doc_hash == hashes.get(doc_id, "") and old.question == col.question \
                    and old.version == CELL_VERSION:
                cells[(doc_id, col.id)] = old
                if on_cell:
                    on_cell(old)
            else:
                todo.append((doc_id, col))
    done = len(cells)
    yield ProgressEvent(stage="grid", done=done, total=total, message="")
    if todo:
        backend = backend or make_backend(settings)
    for doc_id, col in todo:
        if cancel():
            raise Cancelled()
        cell = compute_cell(workspace, doc_id, col, settings, backend, hashes.get(doc_id, ""), cancel)
        old = stored.get((doc_id, col.id))
        if old is not None and (old.note or old.correction):
            # the reviewer's words stay, marked as written about an earlier version of the cell
            cell.note = (old.note or old.correction) if old.note.startswith("(earlier version)") else \
                f"(earlier version) {old.correction or ''} {old.note}".strip()
        store.put(grid, cell)
        cells[(doc_id, col.id)] = cell
        done += 1
        if on_cell:
            on_cell(cell)
        yield ProgressEvent(stage="grid", done=done, total=total, item=doc_id, message=col.id)
    return [cells[(d, c.id)] for d in rows for c in columns if (d, c.id) in cells]


def compute_cell(workspace, doc_id: str, col: GridColumn, settings: Settings, backend, doc_hash: str,
                 cancel: Callable[[], bool]) -> GridCell:
    """One cell, not stored: ``col``'s question answered inside document ``doc_id`` alone
    (:func:`core.pipeline.answer_question` with ``scope=[doc_id]``), its passages and status
    (:func:`cell_from_answer`; a model answer that abstained: :func:`_passages_fallback`). Used by
    :func:`run_grid` and by the per-document answer of a question about the whole collection
    (:mod:`core.collection`).

    Raises:
        Cancelled: ``cancel()`` turned true.
    """
    from core.pipeline import answer_question, run

    # the cell's own stages (searching, reading …) are not forwarded: the grid reports cells
    answer = run(answer_question(workspace, col.question, settings, backend=backend, cancel=cancel,
                                 follow_up=False, scope=[doc_id]))
    if answer.kind == "model" and answer.status == "abstained":
        return _passages_fallback(workspace, doc_id, col, settings, doc_hash, cancel)
    types = asked_types(col, answer)
    scores: list[float] = []
    shown = cell_passages(answer, workspace, settings, _scoring_question(col.question, answer), place_scores=scores,
                          clause_types=types)
    cell = cell_from_answer(doc_id, col, answer, doc_hash, settings.grid_weak_ratio, shown,
                            place_scores=scores if answer.kind == "passages" else None,
                            clause_form_margin=_form_margin(answer, workspace, types))
    return _searched(cell, types)


def _passages_fallback(workspace, doc_id: str, col: GridColumn, settings: Settings, doc_hash: str,
                       cancel: Callable[[], bool]) -> GridCell:
    """The cell of a model answer that abstained: the passages answer's cell for the same question
    and document, at most ``weak`` (its passages are shown marked as not an answer, never as the
    model's answer), else ``not_found``. The cell keeps the passages answer, whose spans it shows
    and opens.

    Why: on the CUAD dev grid the embedded demo model (SmolLM2-135M) abstained on every cell (its
    output cut at the token budget in repetition, or unverifiable), so every present clause read
    "not found" (bench/README.md, 2026-12-02); the passages decision shows the closest clause.
    """
    from core.passages import PassagesBackend
    from core.pipeline import answer_question, run

    answer = run(answer_question(workspace, col.question, settings, backend=PassagesBackend(), cancel=cancel,
                                 follow_up=False, scope=[doc_id]))
    types = asked_types(col, answer)
    scores: list[float] = []
    shown = cell_passages(answer, workspace, settings, _scoring_question(col.question, answer), place_scores=scores,
                          clause_types=types)
    fm = _form_margin(answer, workspace, types)
    if answer.status in ("answered", "partial") and answer.claims and fm is None:
        cell = cell_from_answer(doc_id, col, answer, doc_hash, settings.grid_weak_ratio, shown)
    else:
        cell = cell_from_answer(doc_id, col, answer, doc_hash, settings.grid_weak_ratio, shown, place_scores=scores,
                                clause_form_margin=fm)
    if cell.status == "answered":
        cell.status = "weak"  # a passage over the threshold, but the model did not answer: not an answer
        cell.text = shown[0].text if shown else cell.text
    return _searched(cell, types)


def asked_types(col: GridColumn, answer: Answer) -> list[str]:
    """The clause types a cell asks about: the column's own type (``[col.clause]``) when it has one the
    vocabulary knows, else the types the retriever searched for the question (``answer.trace.clause_types``).

    Why the column's type: a column picked from the clause types knows what it asks, its question's words may
    not say it ("How long do the confidentiality obligations last?" names confidentiality, asks about
    nda_survival: 11 of the 42 built-in template columns, English and Spanish, name another type first or none),
    and the clause-form decision compares a span with the asked types against every *other* type, so a wrong
    type makes the right clause read as another's, and its own clauses as the answer. A free question keeps
    every searched type: the first named type alone was measured on the CUAD dev cells and gained nothing held
    out (bench/README.md, 2026-12-02 afternoon)."""
    from core.clauses import vocabulary
    from core.errors import CoreError

    if col.clause:
        try:
            if any(c.id == col.clause for c in vocabulary().clauses):
                return [col.clause]
        except CoreError:
            pass
    return list(answer.trace.clause_types)


def _searched(cell: GridCell, types: list[str]) -> GridCell:
    """``cell`` with the asked ``types`` first among what it searched (and their names)."""
    if types and cell.searched_clauses[:len(types)] != types:
        cell.searched_clauses = list(dict.fromkeys(types + cell.searched_clauses))
        cell.searched_labels = _labels(cell.searched_clauses)
    return cell


def _form_margin(answer: Answer, workspace, types: list[str]) -> float | None:
    """:func:`core.grid_decision.form_margin` of a passages answer's retrieved chunks for the asked clause
    ``types`` (:func:`asked_types`); ``None`` without one or for a model answer (the older rules decide)."""
    if answer.kind != "passages" or not types or not answer.trace.context:
        return None
    from core.grid_places import clause_form_margin

    return clause_form_margin(answer, workspace, types)


def _scoring_question(question: str, answer: Answer) -> str:
    """The text the cell's spans are scored against: the passages answer's own (its scope's query)."""
    from core.passages import scoring_query

    return scoring_query(question, answer.trace.scope)


def grid_op(name: str, columns: list[GridColumn], settings: Settings, *, cancel: Callable[[], bool],
            grid: str = "default", doc_ids: list[str] | None = None, recompute: bool = False):
    """:func:`run_grid` over workspace ``name`` for the window's engine process; a generator.

    Yields each :class:`GridCell` as soon as it is known (stored ones first) and the grid's
    ``ProgressEvent`` after it, so the window fills the table while the run goes on; returns the
    cells. A reader of the index (never recovers); it writes only the workspace's grid file.
    """
    from core.store import Workspace

    ws = Workspace(name, settings, create=False, recover=False)
    ready: list[GridCell] = []
    gen = run_grid(ws, columns, grid=grid, doc_ids=doc_ids, settings=settings, cancel=cancel,
                   on_cell=ready.append, recompute=recompute)
    while True:
        try:
            event = next(gen)
        except StopIteration as stop:
            yield from ready
            return stop.value
        yield from ready
        ready.clear()
        yield event
