"""Score a review grid (:mod:`core.grid`) against evaluation cases (DESIGN.md, "Evaluation case").

Each case that names one document (``expected_docs``, or ``source.doc`` for a must-abstain case)
and a clause category (``source.category``) is one labelled cell: the column is the case's
clause question — the part after the first ``;`` of a LegalBench-style question ("Consider the
<title>; <question>"), else the whole question — asked inside that document only. Two figures,
each with its count, never blended:

* **gold in cell** — answerable cells whose shown passage(s) (:attr:`core.grid.GridCell.shown`:
  each span and its clause, checked against the index) cover a gold quote
  (:func:`core.evaluate.span_covers`); reported for answered cells and for answered-or-weak
  cells (a weak cell shows its closest passages, marked as not an answer; a "not found" cell
  shows none);
* **absent right** — must-abstain cells (the clause is absent from the contract) that are not
  shown as answered; strict counts only "not found", lenient also "weak".
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from core.eval_passages import checked_contexts
from core.evaluate import EvalCase, open_workspaces, span_covers
from core.grid import GridColumn, closeness, run_grid
from core.pipeline import run
from core.settings import Settings
from core.types import ProgressEvent
from core.workspaces import WorkspacesConfig


class GridScore(BaseModel):
    """The grid's figures on labelled cells (counts beside each ratio)."""

    answerable: int = 0
    gold_answered: int = 0
    gold_shown: int = 0
    absent: int = 0
    absent_not_found: int = 0
    absent_not_answered: int = 0
    cells: list[dict] = []

    def lines(self) -> list[str]:
        """The figures as printable lines."""
        def r(a: int, b: int) -> str:
            return f"{a / b:.3f} ({a}/{b})" if b else "n/a (0 cells)"
        return [
            f"gold clause in the cell, answered cells:            {r(self.gold_answered, self.answerable)}",
            f"gold clause in the cell, answered or weak cells:    {r(self.gold_shown, self.answerable)}",
            f"absent clause 'not found' (strict):                  {r(self.absent_not_found, self.absent)}",
            f"absent clause not shown as answered (not found/weak): {r(self.absent_not_answered, self.absent)}",
        ]


def column_question(case: EvalCase) -> str:
    """The clause question of ``case`` without its document reference ("Consider the X; Q" → "Q")."""
    q = case.question
    return q.split(";", 1)[1].strip() if ";" in q else q.strip()


def _texts(ws, passages: list) -> list[str]:
    """What the passages show: each span, and its clause when that clause is found again, character
    for character, in its chunk of the evaluator's index (:func:`core.eval_passages.checked_contexts`)."""
    out = [p.text for p in passages]
    out += checked_contexts(ws, [p.context for p in passages if p.context is not None])
    return out


def evaluate_grid(cases: list[EvalCase], config: WorkspacesConfig, *, settings: Settings, index_dir: Path,
                  backend=None, on_progress: Callable[[ProgressEvent], None] | None = None) -> GridScore:
    """Run the labelled cells of ``cases`` as grids (one per workspace) and score them.

    Cases without a category or a single document are skipped. Raises what
    :func:`core.evaluate.open_workspaces` raises.
    """
    workspaces = open_workspaces(config, settings, index_dir, on_progress)
    score = GridScore()
    by_ws: dict[str, list[tuple[EvalCase, str, str]]] = {}
    for case in cases:
        src = case.source or {}
        category = src.get("category")
        doc = (case.expected_docs[0] if len(case.expected_docs) == 1 else src.get("doc"))
        if not category or not doc or case.workspace not in workspaces:
            continue
        by_ws.setdefault(case.workspace, []).append((case, category, doc))
    for name, items in by_ws.items():
        ws = workspaces[name]
        ids = [d["doc_id"] for d in ws.documents()]
        columns: dict[str, GridColumn] = {}
        wanted: dict[tuple[str, str], EvalCase] = {}
        for case, category, doc in items:
            doc_id = next((i for i in ids if i.endswith(doc) or i.endswith("/" + Path(doc).name)), None)
            if doc_id is None:
                continue
            col_id = f"{category}:{column_question(case)}"
            columns.setdefault(col_id, GridColumn(id=col_id, question=column_question(case)))
            wanted[(doc_id, col_id)] = case
        rows = sorted({d for d, _ in wanted})
        cells = run(run_grid(ws, list(columns.values()), grid="eval", doc_ids=rows, settings=settings,
                             backend=backend, only=wanted, recompute=True), on_progress)
        for cell in cells:
            case = wanted[(cell.doc_id, cell.column_id)]
            shown = _texts(ws, cell.shown)
            kept = _texts(ws, cell.passages)  # what it would show were it not 'not found'
            if case.must_abstain:
                score.absent += 1
                score.absent_not_found += cell.status == "not_found"
                score.absent_not_answered += cell.status != "answered"
                hit = cell.status != "answered"
            else:
                score.answerable += 1
                covered = any(span_covers(g, s) for g in case.gold_quotes for s in shown)
                score.gold_answered += covered and cell.status == "answered"
                score.gold_shown += covered
                hit = covered
            score.cells.append({"case_id": case.case_id, "doc_id": cell.doc_id, "status": cell.status,
                                "must_abstain": case.must_abstain, "hit": bool(hit),
                                "covered": bool(case.gold_quotes) and any(
                                    span_covers(g, s) for g in case.gold_quotes for s in kept),
                                "first_covered": bool(case.gold_quotes) and any(
                                    span_covers(g, s) for g in case.gold_quotes for s in _texts(ws, cell.passages[:1])),
                                "closeness": closeness(cell.answer) if cell.answer else None,
                                "evidence": dict(cell.evidence), "place_scores": list(cell.place_scores)})
    return score
