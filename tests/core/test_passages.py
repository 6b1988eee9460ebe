"""The passages answer (no model): real PDF and text, the real embedding model, real bm25s and LanceDB."""

from __future__ import annotations

import json
import shutil

import pytest

import core.passages as passages
from core.generate import make_backend
from core.passages import PASSAGES_HEADER, WEAK_MESSAGE, PassagesBackend, sentence_spans
from core.pipeline import answer_question, index_folders, run
from core.settings import Settings
from core.store import Workspace
from core.types import NO_EVIDENCE, MatchKind, RejectReason, Turn
from tests.conftest import CORPORA, data_home

FIPS = CORPORA / "pdfs" / "NIST.FIPS.199.pdf"
NOTAS = (
    "Artículo 1. Objeto.\n\n"
    "El arrendatario abonará la renta dentro de los cinco primeros días de cada mes, según el art. 5 del contrato. "
    "La fianza equivale a dos mensualidades de renta y se devuelve al terminar el contrato.\n"
)


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Workspace:
    folder = tmp_path_factory.mktemp("docs") / "matter"
    folder.mkdir()
    shutil.copy(FIPS, folder / "fips199.pdf")
    (folder / "notas.txt").write_text(NOTAS, encoding="utf-8")
    with data_home(tmp_path_factory.mktemp("home")):
        workspace = Workspace("matter", Settings())
        run(index_folders(workspace, [folder]))
    return workspace


def _passages(ws: Workspace, question: str, **kw):
    return run(answer_question(ws, question, Settings(**kw), backend=PassagesBackend()))


# --- sentences ------------------------------------------------------------------------


def test_sentences_are_offsets_into_the_text_and_headings_join_what_they_head() -> None:
    spans = sentence_spans(NOTAS, "es")
    texts = [NOTAS[s:e] for s, e in spans]
    assert all(t == t.strip() and t for t in texts)
    # "Artículo 1. Objeto." is too short to read alone: it is shown with the sentence it heads
    assert texts[0].startswith("Artículo 1. Objeto.") and texts[0].endswith("art. 5 del contrato.")
    # "art. 5" is an abbreviation, not the end of a sentence
    assert texts[1] == "La fianza equivale a dos mensualidades de renta y se devuelve al terminar el contrato."
    assert len(texts) == 2


# --- the answer ----------------------------------------------------------------------------


def test_fips_impact_levels_are_answered_with_the_defining_passage(ws) -> None:
    """The fresh-user question the 135M model abstained on (FIPS 199 p. 6): passages answer it."""
    answer = _passages(ws, "What are the potential impact levels?")
    assert answer.status == "answered" and answer.kind == "passages" and answer.abstention is None
    assert answer.trace.backend == "passages" and answer.trace.context
    # at most passages_max (5) clauses; a second sentence of a shown clause is one more highlight of it
    # (core.passages.select_spans, tests/core/test_passage_select.py), so up to 2 spans per chunk
    clauses = {(c.context.chunk_id, c.context.start, c.context.end) for c in answer.claims}
    assert 1 <= len(clauses) <= 5 and len(answer.claims) <= 10
    per_chunk: dict[str, int] = {}
    for claim in answer.claims:
        [cit] = claim.citations
        assert claim.text == cit.quote and cit.match == MatchKind.exact and cit.score == 100
        assert cit.chunk_id in answer.trace.context
        per_chunk[cit.chunk_id] = per_chunk.get(cit.chunk_id, 0) + 1
        assert cit.rects, "a PDF passage highlights on its page"
    assert max(per_chunk.values()) <= 2
    # shown in the order of Span.order (tests/core/test_passage_order.py); the scores are the calibrated
    # ones the threshold decided on, and the answer passed it
    scores = [c.passage_score for c in answer.claims]
    assert max(scores) >= answer.trace.passage_threshold
    assert max(scores) == answer.trace.passage_best_score
    # the first passage is the one that defines them (page 6)
    top = answer.claims[0]
    assert "defines three levels of potential impact" in top.text, [c.text for c in answer.claims]
    assert top.citations[0].page == 6


def test_passage_offsets_are_the_page_text(ws) -> None:
    answer = _passages(ws, "¿Cuándo se paga la renta?")
    assert answer.status == "answered"
    cits = [c.citations[0] for c in answer.claims if c.citations[0].doc_id.endswith("notas.txt")]
    assert cits
    for cit in cits:
        assert NOTAS[cit.start:cit.end] == cit.quote  # a text file's page text is the file
    assert any("cinco primeros días" in cit.quote for cit in cits)


def test_an_unrelated_question_abstains_with_what_was_searched(ws) -> None:
    answer = _passages(ws, "What is the airspeed velocity of an unladen swallow?")
    assert answer.status == "abstained" and answer.claims == []
    assert answer.abstention.marker == NO_EVIDENCE and answer.abstention.message == WEAK_MESSAGE
    # issue #20: what came closest is shown as weak passages, never as citations
    assert answer.abstention.candidates and all(not c.citations for c in answer.claims)
    assert all(w.score < answer.trace.passage_threshold for w in answer.abstention.candidates)
    assert answer.abstention.consulted and answer.trace.passage_best_score is not None
    assert answer.trace.passage_threshold == Settings().passages_min_score  # nothing named: scored as asked
    assert answer.trace.passage_best_score < answer.trace.passage_threshold


def test_the_order_of_the_shown_spans_gets_the_retrievers_fused_scores(ws, monkeypatch) -> None:
    """The pipeline hands the fused score of every delivered chunk to the span scorer (selection pass):
    one per chunk, best first, and the order of the shown spans adds FUSED_WEIGHT times each one's share."""
    real, seen = passages.score_spans, []

    def spy(query, chunks, workspace=None, **kw):
        seen.append((len(chunks), kw.get("fused")))
        return real(query, chunks, workspace, **kw)

    monkeypatch.setattr(passages, "score_spans", spy)
    answer = _passages(ws, "What are the potential impact levels?")
    [(n, fused)] = seen
    assert n == len(answer.trace.context) == len(fused) and fused == sorted(fused, reverse=True) and fused[0] > 0
    got = ws.get_chunks(answer.trace.context)
    spans = real("What are the potential impact levels?", [got[c] for c in answer.trace.context], ws, fused=fused)
    p = passages
    assert spans and all(s.order == pytest.approx(
        s.cosine + p.TERM_WEIGHT * s.synonyms + p.WORDING_WEIGHT * s.cos_wording + p.RANK_WEIGHT / (1 + s.rank)
        + p.FUSED_WEIGHT * fused[s.rank] / fused[0], abs=1e-5) for s in spans)


def test_a_span_that_is_not_in_its_chunk_is_never_shown(ws, monkeypatch) -> None:
    """Spans are source text by construction, and the verifier still checks them: a span taken
    from a different text than the delivered chunk's is rejected, not shown."""
    real = passages.select_spans

    def forged(spans, **kw):
        chosen = real(spans, **kw)
        span = chosen[0]
        text = span.chunk.text
        bad = span.chunk.model_copy(update={"text": text[:span.start] + "NOT " + text[span.start:]})
        return [passages.Span(bad, span.start, span.end + 4, span.score, span.cosine, span.terms)]

    monkeypatch.setattr(passages, "select_spans", forged)
    answer = _passages(ws, "What are the potential impact levels?")
    assert answer.status == "abstained" and answer.claims == []
    assert {r.reason for r in answer.rejected} >= {RejectReason.quote_not_found}


def test_a_question_asked_after_others_is_searched_as_asked(ws) -> None:
    """An unrelated new question is not pulled towards the previous topic (the window showed
    "Who won the 1998 World Cup? (follow-up to: ...impact levels?)" before core.followup's cue
    detection decided follow-ups)."""
    history = [Turn(question="What are the potential impact levels?", answer="LOW, MODERATE, HIGH")]
    answer = run(answer_question(ws, "Who won the 1998 World Cup?", Settings(), backend=PassagesBackend(),
                                 history=history))
    assert answer.trace.rewrite_method == "" and answer.trace.standalone_question == ""
    assert answer.status == "abstained" and answer.kind == "passages"
    assert answer.abstention.query == "Who won the 1998 World Cup?"


def test_a_follow_up_is_rewritten_without_a_model(ws) -> None:
    history = [Turn(question="What are the potential impact levels?", answer="LOW, MODERATE, HIGH")]
    answer = run(answer_question(ws, "And what about integrity?", Settings(), backend=PassagesBackend(),
                                 history=history, follow_up=True))
    assert answer.trace.rewrite_method == "fallback" and "no model" in answer.trace.rewrite_detail
    assert "What are the potential impact levels?" in answer.trace.standalone_question
    assert answer.kind == "passages"


def test_spans_are_scored_against_the_question_without_its_document_names(ws) -> None:
    """A question that names its document by its title: retrieval searches inside FIPS 199, and
    the spans are scored against the question without the title's words — scored against the
    question as asked, the title's words ("Standards for Security Categorization") made a page-5
    sentence about the standards the best passage instead of the page-6 definition of the
    impact levels (bench/README.md, "After document-aware retrieval")."""
    question = ("What does the Standards for Security Categorization of Federal Information say about "
                "the potential impact levels?")
    # which span is best, not whether to abstain
    answer = _passages(ws, question, passages_min_score=-1.0, passages_min_score_scoped=-0.5,
                       passages_decision="score")
    scope = answer.trace.scope
    assert scope.method == "named" and scope.doc_ids == ["matter/fips199.pdf"]
    assert scope.query == "What does say about the potential impact levels?"
    assert answer.status == "answered"
    top = answer.claims[0]
    # the impact levels (pages 6-7), not page 5's "Standards to be used by all federal agencies ..."
    assert top.citations[0].page in (6, 7) and "potential impact" in top.text.lower(), [c.text for c in answer.claims]
    assert answer.trace.passage_best_score == pytest.approx(top.passage_score)
    assert answer.trace.passage_threshold == -0.5  # the threshold of a question scored without its names


def test_scoring_query_is_the_cleaned_question_only_inside_a_resolved_scope() -> None:
    from core.types import ScopeInfo

    asked = "What is the liability cap in the master services agreement?"
    named = ScopeInfo(method="named", doc_ids=["norte/contrato-marco-servicios.md"], query="What is the liability cap?")
    assert passages.scoring_query(asked, named) == "What is the liability cap?"
    explicit = ScopeInfo(method="explicit", doc_ids=["a.pdf"], query="What is the liability cap?")
    assert passages.scoring_query(asked, explicit) == "What is the liability cap?"
    # the whole workspace searched: the question as asked (its words may be what finds the passage)
    assert passages.scoring_query(asked, ScopeInfo(query=asked)) == asked
    assert passages.scoring_query(asked, ScopeInfo()) == asked  # retrieval did not run / old trace
    # nothing searchable left once the names are removed: the question as asked
    assert passages.scoring_query("The Acme agreement?", ScopeInfo(method="named", doc_ids=["acme.pdf"],
                                                                   query="The?")) == "The Acme agreement?"


# --- span scoring: which sentences are embedded ------------------------------------------------


def test_candidates_are_the_sentences_with_most_question_terms_per_chunk() -> None:
    a, b = object(), object()  # two chunks (only their identity matters)
    units = [(a, 0, 10), (a, 11, 20), (a, 21, 30), (a, 31, 40), (b, 0, 10), (b, 11, 20)]
    coverage = [0.1, 0.0, 0.6, 0.1, 0.0, 0.0]
    # per chunk the 2 best by coverage, ties to the earlier sentence; text order
    assert passages.candidate_units(units, coverage, 2) == [0, 2, 4, 5]
    assert passages.candidate_units(units, coverage, 1) == [2, 4]  # a chunk without any term keeps one
    assert passages.candidate_units(units, coverage, None) == list(range(6))


def test_candidate_scoring_embeds_fewer_sentences_and_keeps_their_scores(ws) -> None:
    """The candidates' spans are spans of the every-sentence variant with the same scores (one
    encode call for question and sentences changes no vector), the best span is the same, and
    at most ``per_chunk`` sentences of a chunk are embedded."""
    from core.retrieval import retrieve
    from core.store import get_embedder
    from core.types import Trace

    question = "What are the potential impact levels?"
    chunks = [s.chunk for s in retrieve(ws, question, Settings(), Trace())]
    calls: list[list[str]] = []

    def embed(texts):
        calls.append(list(texts))
        return get_embedder().get_text_embedding_batch(list(texts))

    every = passages.score_spans(question, chunks, ws, candidates_per_chunk=None)
    fewer = passages.score_spans(question, chunks, ws, candidates_per_chunk=2, embed=embed)
    assert len(calls[1]) <= 2 * len(chunks) < sum(len(passages.sentence_spans(c.text, c.lang)) for c in chunks)
    by_key = {(sp.chunk.chunk_id, sp.start, sp.end): sp.score for sp in every}
    assert fewer and all(by_key[(sp.chunk.chunk_id, sp.start, sp.end)] == pytest.approx(sp.score, abs=1e-4)
                         for sp in fewer)
    top = max(every, key=lambda sp: sp.score)
    assert max(fewer, key=lambda sp: sp.score).text == top.text
    assert "defines three levels of potential impact" in top.text


def test_sentences_embedded_once_are_reused(ws, monkeypatch) -> None:
    """A second question over the same chunks embeds only the question; the scores are the same."""
    import core.store
    from core.retrieval import retrieve
    from core.types import Trace

    real = core.store.get_embedder()
    batches: list[list[str]] = []

    class Counting:  # the real model, its encode calls counted
        _model = real._model

        def get_text_embedding_batch(self, texts, **kw):
            batches.append(list(texts))
            return real.get_text_embedding_batch(texts, **kw)

        def get_query_embedding(self, text):
            batches.append([text])
            return real.get_query_embedding(text)

    counting = Counting()
    monkeypatch.setattr(core.store, "get_embedder", lambda: counting)
    question = "What are the potential impact levels?"
    chunks = [s.chunk for s in retrieve(ws, question, Settings(), Trace())]
    first = passages.score_spans(question, chunks, ws)
    second = passages.score_spans("Which impact levels are defined?", chunks, ws)
    assert len(batches) == 2 and len(batches[0]) > 1
    assert batches[1] == ["Which impact levels are defined?"]  # every sentence came from the cache
    assert [(sp.start, sp.end) for sp in first] == [(sp.start, sp.end) for sp in second]
    cold = passages.score_spans(question, chunks, ws, cache=False)
    assert [sp.score for sp in cold] == pytest.approx([sp.score for sp in first], abs=1e-5)


def test_scoring_threads_are_restored() -> None:
    import torch

    before = torch.get_num_threads()
    with passages._torch_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == before
    with pytest.raises(RuntimeError), passages._torch_threads(1):
        raise RuntimeError("an encode call that fails")
    assert torch.get_num_threads() == before



def test_scoring_threads_never_import_torch(monkeypatch) -> None:
    """Where the embedding model runs through OpenVINO, torch is not loaded: setting its threads
    imported it, 1.4 s of a grid's first cell (grid2, 2026-12-02)."""
    import sys

    monkeypatch.delitem(sys.modules, "torch", raising=False)
    with passages._torch_threads(1):
        pass
    assert "torch" not in sys.modules

# --- choosing the backend -------------------------------------------------------------------


def test_auto_without_ollama_answers_with_passages_not_the_demo_model() -> None:
    settings = Settings(ollama_host="http://127.0.0.1:9")  # nothing listens on the discard port
    assert isinstance(make_backend(settings), PassagesBackend)
    assert isinstance(make_backend(settings, "passages"), PassagesBackend)


def test_cli_backend_passages_json_keeps_the_answer_contract(ws, capsys, monkeypatch) -> None:
    from core import cli
    from core.types import Answer

    monkeypatch.setenv("VERBATIM_HOME", str(ws.dir.parents[1]))
    assert cli.main(["ask", "What are the potential impact levels?", "-w", "matter", "--backend", "passages",
                     "--json"]) == 0
    answer = Answer.model_validate(json.loads(capsys.readouterr().out))
    assert answer.kind == "passages" and answer.claims
    assert all(c.citations[0].match == MatchKind.exact and c.citations[0].quote == c.text for c in answer.claims)
    assert cli.main(["ask", "What are the potential impact levels?", "-w", "matter", "--backend", "passages"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(PASSAGES_HEADER) and "[1] \u201c" in out and ", page " in out
