"""A follow-up question with the real embedded llama.cpp model (SmolLM2-135M): whatever the
model writes, the trace records the rewrite (the model's or the documented fallback), and the
rewrite is what retrieval searched for."""

from __future__ import annotations

import pytest

from core.generate import EmbeddedBackend
from core.pipeline import FALLBACK_FORM, answer_question, index_folders, run
from core.settings import Settings
from core.store import Workspace
from core.types import Answer, Turn
from tests.conftest import data_home

FOLLOW_UP = "¿Y cuándo?"
HISTORY = [Turn(question="¿Qué renta abona el arrendatario?", answer="El arrendatario abona una renta mensual.")]


@pytest.fixture(scope="module")
def lease_ws(tmp_path_factory) -> Workspace:
    folder = tmp_path_factory.mktemp("docs") / "lease"
    folder.mkdir()
    (folder / "renta.txt").write_text(
        "Cláusula tercera. El arrendatario abonará la renta dentro de los cinco primeros días de cada mes.\n",
        encoding="utf-8")
    (folder / "confidencialidad.txt").write_text(
        "Cláusula novena. Las partes guardarán secreto sobre el contenido de este contrato durante dos años.\n",
        encoding="utf-8")
    with data_home(tmp_path_factory.mktemp("home")):
        ws = Workspace("lease", Settings())
        run(index_folders(ws, [folder]))
    return ws


def test_follow_up_with_the_embedded_model_records_the_rewrite_and_retrieves_with_it(lease_ws) -> None:
    backend = EmbeddedBackend(Settings())
    answer = run(answer_question(lease_ws, FOLLOW_UP, backend=backend, history=HISTORY))
    Answer.model_validate_json(answer.model_dump_json())
    t = answer.trace
    assert answer.question == FOLLOW_UP
    assert t.history_turns == 1 and t.rewrite_method in {"model", "fallback"}
    assert t.standalone_question and t.standalone_question != FOLLOW_UP
    if t.rewrite_method == "fallback":
        assert t.rewrite_detail
        assert t.standalone_question == FALLBACK_FORM.format(question=FOLLOW_UP, previous=HISTORY[0].question)
    assert t.rounds[0].query == t.standalone_question  # retrieval searched the rewrite
    assert t.bm25 and t.bm25[0] == "lease/renta.txt#p1-c0"  # the bare "¿Y cuándo?" names no clause
    assert "rewrite" in t.timings_ms
