"""Wording-robust retrieval on a real index (issue #20): clause types matched by meaning, the
bilingual vocabulary across languages, and the notice when nothing bridges the languages."""

from __future__ import annotations

import shutil

import pytest

from core.clauses import match_by_meaning
from core.pipeline import index_folders, run
from core.retrieval import plan_searches, retrieve
from core.settings import Settings
from core.store import Workspace, get_embedder
from core.types import Trace
from tests.conftest import CORPORA, data_home

TXT = CORPORA / "cuad" / "txt"
ALCO = "ALCOSTORESINC_12_14_2005-EX-10.26-AGENCY AGREEMENT.txt"
CANO = "CANOPETROLEUM,INC_12_13_2007-EX-10.1-Sponsorship Agreement.txt"
CONVENIENCE = "either party may terminate this Agreement at any time"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory):
    home = tmp_path_factory.mktemp("home")
    folder = tmp_path_factory.mktemp("docs") / "contracts"
    folder.mkdir()
    for name in (ALCO, CANO):
        shutil.copy(TXT / name, folder / name)
    with data_home(home):
        ws = Workspace("contracts", Settings())
        run(index_folders(ws, [folder]))
        yield ws


def _top(ws, question: str, settings: Settings, k: int = 6, doc: str = ALCO) -> tuple[str, Trace]:
    trace = Trace()
    ranked = retrieve(ws, question, settings, trace, k=k, scope=[f"contracts/{doc}"])
    return " ".join(" ".join(s.chunk.text.split()) for s in ranked), trace


def test_a_clause_type_is_matched_by_meaning_when_no_listed_phrase_names_it() -> None:
    vec = get_embedder().get_query_embedding("Is one side allowed to cancel the deal whenever it likes?")
    [m] = match_by_meaning(vec)
    assert m.clause.id == "termination_for_convenience"
    assert 0 < m.strength <= 1 and m.words == frozenset()
    assert match_by_meaning(get_embedder().get_query_embedding("What colour is the sky on Mars?")) == []


def test_a_spanish_question_finds_the_english_clause_and_says_the_languages_differ(indexed) -> None:
    ws = indexed
    question = "¿Puede cualquiera de las partes dar por terminado el acuerdo en cualquier momento con preaviso?"
    text, trace = _top(ws, question, Settings())
    assert CONVENIENCE in text
    assert trace.language.question == "es" and trace.language.documents == ["en"] and trace.language.differs
    assert trace.language.notice.startswith("The question is in Spanish and the documents are in English")
    names = [s.name for s in plan_searches(ws, question, Settings(), scope=[f"contracts/{ALCO}"]).searches]
    assert "bm25:lexicon" in names and "dense:gloss" in names


def test_a_models_translation_bridges_the_languages(indexed) -> None:
    ws = indexed
    question = "¿Puede cualquiera de las partes dar por terminado el acuerdo en cualquier momento?"
    trace = Trace()
    retrieve(ws, question, Settings(), trace, scope=[f"contracts/{ALCO}"],
             translation="Can either party terminate the agreement at any time?")
    assert trace.language.bridged_by == "translation" and trace.language.notice == ""
    assert trace.language.translation.startswith("Can either party")
    names = [s.name for s in plan_searches(ws, question, Settings(), scope=[f"contracts/{ALCO}"],
                                           translation="Can either party terminate?").searches]
    assert "dense:translation" in names and "bm25:translation" in names and "dense:gloss" not in names


def test_an_english_question_over_english_documents_has_no_notice(indexed) -> None:
    _, trace = _top(indexed, "Can either party walk away from the agreement early?", Settings())
    assert not trace.language.differs and trace.language.notice == ""


def test_the_vocabulary_can_be_switched_off(indexed) -> None:
    question = "¿Puede cualquiera de las partes dar por terminado el acuerdo?"
    off = Settings(lexicon_expansion=False)
    names = [s.name for s in plan_searches(indexed, question, off, scope=[f"contracts/{ALCO}"]).searches]
    assert "bm25:lexicon" not in names and "dense:gloss" not in names
