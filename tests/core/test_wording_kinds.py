"""Clause types read from a question's own words on a real index (issue #20 item 2): not from the words
naming its document's kind ("el acuerdo de propiedad intelectual"), nor from party names, which the
English-only model weighs when it matches a type by meaning."""

from __future__ import annotations

import shutil

import pytest

from core.pipeline import index_folders, run
from core.retrieval import plan_searches, retrieve
from core.settings import Settings
from core.store import Workspace
from core.types import Trace
from tests.conftest import CORPORA, data_home

TXT = CORPORA / "cuad" / "txt"
PCQ = "PcquoteComInc_19990721_S-1A_EX-10.11_6377149_EX-10.11_Co-Branding Agreement1.txt"
PREMIER = "PREMIERBIOMEDICALINC_05_14_2020-EX-10.2-INTELLECTUAL PROPERTY AGREEMENT.txt"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("docs") / "contracts"
    folder.mkdir()
    for name in (PCQ, PREMIER):
        shutil.copy(TXT / name, folder / name)
    with data_home(home):
        ws = Workspace("contracts", Settings())
        run(index_folders(ws, [folder]))
        yield ws


def _top(ws, question: str, doc: str) -> tuple[str, list[str]]:
    trace = Trace()
    ranked = retrieve(ws, question, Settings(), trace, k=6, scope=[f"contracts/{doc}"])
    return " ".join(" ".join(s.chunk.text.split()) for s in ranked), trace.clause_types


def test_a_spanish_question_about_the_ip_agreements_law_is_a_governing_law_question(indexed) -> None:
    """Before: "propiedad intelectual" (the contract's kind) matched IP ownership, and "se somete" no type."""
    text, types = _top(indexed, "¿A qué derecho se somete el acuerdo de propiedad intelectual con Technology Health?",
                       PREMIER)
    assert types[0] == "governing_law" and "ip_ownership_assignment" not in types
    assert "laws of the Commonwealth of Pennsylvania" in text


def test_party_names_do_not_steer_the_clause_type_by_meaning(indexed) -> None:
    """No listed phrase names assignment here; with "A.B. Watley" in the probe the nearest type was NDA survival."""
    question = "Would A.B. Watley need approval to pass the deal to another business?"
    plan = plan_searches(indexed, question, Settings(), scope=[f"contracts/{PCQ}"])
    assert [m.clause.id for m in plan.matches] == ["anti_assignment"]
    text, _ = _top(indexed, question, PCQ)
    assert "may not be assigned by ABW without the prior written consent of PCQ" in text
