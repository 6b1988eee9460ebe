"""The clause-type vocabulary: it loads, it is well formed, and questions worded in other ways find their type."""

from __future__ import annotations

import json
import tomllib

import pytest

from core.clauses import match_clause_types, vocabulary
from core.paths import resource_path
from tests.conftest import DATA

PARAPHRASES = [json.loads(line) for line in (DATA / "questions" / "clause_paraphrases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def test_vocabulary_is_well_formed() -> None:
    raw = tomllib.loads(resource_path("clauses", "clause_types.toml").read_text(encoding="utf-8"))
    ids = [c["id"] for c in raw["clause"]]
    assert len(ids) == len(set(ids)) >= 40
    for clause in vocabulary().clauses:
        assert clause.ask and clause.wording, clause.id
        assert clause.label("en") and clause.label("es"), clause.id
    assert "Sources:" in resource_path("clauses", "clause_types.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize("case", PARAPHRASES, ids=[c["question"][:40] for c in PARAPHRASES])
def test_questions_worded_unlike_the_vocabulary_find_their_clause_type(case: dict) -> None:
    """Questions written for this test (English and Spanish), not taken from any evaluation set:
    the expected type must be among the (at most two) matched types."""
    found = [m.clause.id for m in match_clause_types(case["question"])]
    assert case["clause"] in found, found


@pytest.mark.parametrize("question", [
    "What is the capital of Mongolia?",
    "¿Cuántos días de vacaciones tiene un empleado a tiempo completo?",
    "Summarize this document in three sentences.",
])
def test_questions_about_no_clause_match_nothing(question: str) -> None:
    assert match_clause_types(question) == []


def test_generic_contract_words_do_not_pick_a_type() -> None:
    """'requirements' and 'contract' appear in every kind of question: insurance requirements are
    insurance, not an exclusive requirements contract."""
    found = [m.clause.id for m in match_clause_types("What are the insurance requirements under this contract?")]
    assert found == ["insurance"]
    words = match_clause_types("Can this contract be terminated for convenience?")[0].words
    assert "contract" not in words and {"terminated", "convenience"} & set(words) or "convenience" in words
