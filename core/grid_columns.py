"""The review grid's columns (:mod:`core.grid`): a question asked of every document, its short header, and the
built-in column sets of ``resources/grid/templates.toml`` (English and Spanish) or a user's questions file.

Split from :mod:`core.grid` (which re-exports these names) so the grid's runner stays under the size rule.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from pydantic import BaseModel, Field

from core.paths import resource_path


class GridColumn(BaseModel):
    """One question asked of every document."""

    id: str = Field(description="Stable identifier of the column (snake case), unique in its grid.")
    question: str = Field(description="What is asked, as the user reads it.")
    clause: str = Field("", description="Clause type id (resources/clauses/clause_types.toml), '' for a free question.")
    label: str = Field("", description="Short name shown as the column's header ('Governing law'); '' = none.")

    def header(self, lang: str = "en") -> str:
        """The column's short header: its label, else its clause type's name (capitalised), else the question."""
        if self.label:
            return self.label
        name = (clause_labels([self.clause]).get(lang) or [""])[0] if self.clause else ""
        return (name[:1].upper() + name[1:]) if name else self.question


class GridTemplate(BaseModel):
    """A named, saved column set."""

    id: str
    name: str
    columns: list[GridColumn]


def clause_labels(clause_ids: list[str]) -> dict[str, list[str]]:
    """``{"en": [...], "es": [...]}``: the names of the clause types ``clause_ids`` (an unknown id as is);
    ``{}`` without one or when the vocabulary cannot be read."""
    from core.clauses import vocabulary
    from core.errors import CoreError

    if not clause_ids:
        return {}
    try:
        by_id = {c.id: c for c in vocabulary().clauses}
    except CoreError:
        return {}
    return {lang: [by_id[t].label(lang) if t in by_id else t for t in clause_ids] for lang in ("en", "es")}


# --- column sets ----------------------------------------------------------------------------------


def templates(lang: str = "en") -> dict[str, GridTemplate]:
    """The built-in column sets of ``resources/grid/templates.toml`` in ``lang`` ('en' or 'es')."""
    data = tomllib.loads(resource_path("grid", "templates.toml").read_text(encoding="utf-8"))
    lang = lang if lang in ("en", "es") else "en"
    out = {}
    for t in data.get("template", []):
        cols = [GridColumn(id=c["id"], question=c.get(lang) or c["en"], clause=c.get("clause", ""),
                           label=c.get("label", {}).get(lang) or c.get("label", {}).get("en", ""))
                for c in t["columns"]]
        out[t["id"]] = GridTemplate(id=t["id"], name=t["name"].get(lang) or t["name"]["en"], columns=cols)
    return out


def columns_from_file(path: Path) -> list[GridColumn]:
    """Columns read from ``path``: JSON (a list of ``{id?, question, clause?, label?}`` or of strings), or
    plain text with one question per line (blank lines and lines starting with ``#`` skipped).

    Raises:
        ValueError: the file holds no question, or its JSON is not such a list (the message names the file).
    """
    text = Path(path).read_text(encoding="utf-8")
    items: list = []
    if Path(path).suffix.lower() == ".json":
        try:
            items = json.loads(text)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not valid JSON ({e})") from None
        if not isinstance(items, list):
            raise ValueError(f"{path}: expected a JSON list of questions")
    else:
        items = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    cols: list[GridColumn] = []
    for n, item in enumerate(items, 1):
        if isinstance(item, str):
            item = {"question": item}
        if not isinstance(item, dict) or not str(item.get("question", "")).strip():
            raise ValueError(f"{path}: item {n} has no question")
        cols.append(GridColumn(id=str(item.get("id") or f"q{n}"), question=str(item["question"]).strip(),
                               clause=str(item.get("clause", "")), label=str(item.get("label", "")).strip()))
    if not cols:
        raise ValueError(f"{path}: no question in the file")
    if len({c.id for c in cols}) != len(cols):
        raise ValueError(f"{path}: two columns share an id")
    return cols
