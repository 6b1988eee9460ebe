"""``verbatim eval``'s inputs: evaluation cases (JSONL, DESIGN.md "Evaluation case"), saved answers,
and the evaluator's own index folder.

Split from :mod:`core.evaluate` by concern (inputs / judging :mod:`core.eval_judge` / metrics and
report :mod:`core.eval_report` / running :mod:`core.evaluate`); :mod:`core.evaluate` re-exports
every name, so ``from core.evaluate import load_cases`` keeps working.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from core.errors import CoreError
from core.paths import data_dir
from core.types import Answer


class EvalCase(BaseModel):
    """One evaluation case (DESIGN.md, "Evaluation case")."""

    case_id: str
    workspace: str
    question: str
    must_abstain: bool
    gold_quotes: list[str] = Field(default_factory=list)
    expected_docs: list[str] = Field(default_factory=list)
    forbidden_docs: list[str] = Field(default_factory=list)
    scope_docs: list[str] = Field(
        default_factory=list,
        description="Optional: the documents the user would have chosen (paths matched like expected_docs); used "
        "only with use_scope_docs, since by default the evaluator measures automatic resolution.",
    )
    source: dict | None = None


def load_cases(path: str | Path) -> list[EvalCase]:
    """Read a JSONL cases file (blank lines skipped).

    Raises:
        CoreError: unreadable file, or a line that is not a valid case (names file and line).
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise CoreError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    cases: list[EvalCase] = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            cases.append(EvalCase.model_validate_json(line))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors()[:3])
            raise CoreError(f"{path}, line {n}: not a valid case ({problems})") from exc
    ids = [c.case_id for c in cases]
    if len(set(ids)) != len(ids):
        raise CoreError(f"{path}: duplicate case_id {sorted({i for i in ids if ids.count(i) > 1})}")
    return cases


def load_answers(path: str | Path) -> list[Answer]:
    """Read saved answers: a JSON array, JSON lines, or ``verbatim ask --json`` outputs concatenated.

    Raises:
        CoreError: unreadable file, or a record that is not an ``Answer`` (names file and record).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CoreError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    decoder = json.JSONDecoder()
    records: list = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text):
            break
        try:
            obj, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError as exc:
            raise CoreError(f"{path}: not JSON at character {pos} ({exc.msg})") from exc
        records.extend(obj if isinstance(obj, list) else [obj])
    answers: list[Answer] = []
    for n, rec in enumerate(records, start=1):
        try:
            answers.append(Answer.model_validate(rec))
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:3])
            raise CoreError(f"{path}, record {n}: not a verbatim Answer ({problems})") from exc
    return answers


def default_index_dir(workspaces_file: str | Path) -> Path:
    """The evaluator's own store folder for one workspaces file (inside the data folder)."""
    key = hashlib.sha1(str(Path(workspaces_file).resolve()).encode()).hexdigest()[:12]
    return data_dir() / "eval" / f"{Path(workspaces_file).parent.name}-{key}"
