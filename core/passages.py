"""The passages answer: spans chosen from the retrieved chunks, no model writes anything.

For a question, the retrieved chunks are cut into sentences (``sentencex``, Wikimedia's
rule-based segmenter, with character offsets), a sentence too short to read alone is
joined to its neighbour. The term coverage of every sentence is computed first (cheap);
the :attr:`Settings.passages_candidates_per_chunk` sentences of each chunk that cover the
most question terms are embedded, with the question, in one encode call
(:func:`candidate_units`; embedding every sentence made a passages answer take seconds),
and each candidate — and each pair of adjacent candidates — is scored against the
question:

    score = cosine(question, span) + TERM_WEIGHT · term coverage

* cosine: the already-loaded embedding model (:func:`core.store.get_embedder`, the same
  all-MiniLM-L6-v2 that ranked the chunks); a pair's vector is the normalized sum of its
  sentences' vectors, so no second embedding pass is needed;
* term coverage: the share of the question's BM25 tokens (:func:`core.textproc.tokenize_query`)
  found among the span's tokens (:func:`core.textproc.tokenize` in the chunk's language),
  each token weighted by its inverse document frequency in the workspace's BM25 index
  (Robertson–Spärck Jones ``log((N - df + 0.5) / (df + 0.5) + 1)``, the IDF bm25s uses),
  so "indemnify" counts for more than "agreement".

"question" is the question without the words naming its document when retrieval resolved a
document scope (:func:`scoring_query`): the delivered chunks are all in that document already.

At most :attr:`Settings.passages_per_chunk` spans per chunk and
:attr:`Settings.passages_max` clauses in all are shown, best first, none overlapping another on
the page (:func:`select_spans`: a span in a clause already shown is one more highlight of it). When the best span scores below :attr:`Settings.passages_min_score` the answer
is an abstention (``NO_EVIDENCE``) with what was searched, as for a model answer
(:attr:`Settings.passages_min_score_scoped` when the spans were scored against the question
without its document's names, :func:`core.passage_gate.min_score`); the thresholds' calibration is in
``bench/passages.py`` and ``bench/README.md``. For a question that names its document the threshold
comes from more evidence than the score (:func:`core.passage_gate.decision_threshold`, :mod:`core.passage_decision`:
the clause type asked for and whether a span is worded like it, synonyms, the language; issue #20
third pass). Such an abstention never hides what was found
(issue #20): the :data:`WEAK_MAX` closest spans, verified like any passage, are its
``candidates`` (:class:`core.types.WeakPassage`), shown marked as weak — not citations.

Each shown span comes with the clause it sits in (:mod:`core.passage_context`, small-to-big:
sentences are scored, the clause is shown with the best sentences highlighted), so the sentence
that decides, often the one after the best-scoring one, is never cut off.

Spans are source text by construction (offsets into the chunk, hence into the page
text), and they still go through :func:`core.verify.verify_claims`, so a passage is
shown only when the verifier finds it exactly where it is cited.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace

import numpy as np

from core.errors import Cancelled
from core.passage_vectors import (  # noqa: F401  (re-exported: tests and benchmarks use them)
    _embed_default,
    _sentence_vectors,
    _SentenceVectors,
    _threads_lock,
    _torch_threads,
)
from core.clause_heads import clause_openings, split_crossing
from core.passage_gate import (  # noqa: F401  (re-exported: tests and benchmarks use them)
    WORDING_LANG, decision_threshold, form_decides, is_cross_language, min_score,
)
from core.sentences import MAX_PAIR_CHARS, MIN_WORDS, clause_spans, sentence_spans  # noqa: F401  (re-exported)
from core.settings import Settings
from core.types import (
    Answer,
    Chunk,
    ProgressEvent,
    ScopeInfo,
    Trace,
)

PASSAGES_HEADER = "Passages that match your question — not an answer written by a model"
"""The header shown above a passages answer (window, CLI, Markdown)."""

PASSAGES_MODEL = "sentence scoring (embeddings + BM25 terms)"
"""What ``trace.model`` says for a passages answer."""

TERM_WEIGHT = 0.5
"""Weight of the IDF-weighted term coverage (0–1) beside the cosine (−1–1). Fixed a priori
(equal footing of the two signals' useful ranges, ~0.2–0.7 each), not tuned per corpus;
``bench/passages.py --weights`` prints the alternatives."""

CANDIDATES_PER_CHUNK = 4
"""Sentences embedded per retrieved chunk (:func:`candidate_units`), default of
:attr:`Settings.passages_candidates_per_chunk`; chosen in ``bench/passages.py`` (latency against
passage hit, both variants in one run; see ``bench/README.md``)."""

SCORING_THREADS = 1
"""Torch intra-op threads for the span-scoring encode call (a batch of ~10-20 short sentences).
On the shared 2-core machine torch's default (2) made the same call 5-7 times slower than one
thread — worker threads spin-waiting for cores that are busy — while one thread loses little on
an idle machine for a batch this small (``bench/passages.py`` measures both)."""

NO_PASSAGE_MESSAGE = "No passage of the documents matches the question closely enough."
"""Abstention message of a passages answer that has no passage to show at all."""

WEAK_MESSAGE = ("No passage clearly answers the question. The closest passages are shown below, "
                "marked as weak: they are not an answer.")
"""Abstention message of a passages answer whose best span scores under the threshold: the closest
spans are shown as weak passages (:attr:`core.types.Abstention.candidates`, issue #20)."""

WEAK_HEADER = "Closest passages (not an answer)"
"""The heading above the weak passages of an abstention (window, CLI, Markdown)."""

WEAK_MAX = 3
"""Weak passages shown at most under an abstention (fewer than an answer's
:attr:`Settings.passages_max`: they are what came closest, not what answers). Fixed a priori."""


RANK_WEIGHT = 0.0
"""Weight of the chunk's 0-based position among the delivered chunks, ``RANK_WEIGHT / (1 + position)``, in
the order of the shown spans (:attr:`Span.order`). 0.1 from issue #20's second pass (5-fold CV over documents,
grid bounded to 0–0.1 after B47: at 0.3 a neighbouring row of the first chunk outranked the row "Who is the
tenant of unit G-241?" names, tests/core/test_lawyer_documents.py); the selection pass replaced it by the
chunk's fused score (:data:`FUSED_WEIGHT`), which the same CV preferred: 0 in 40 of 50 folds."""

WORDING_WEIGHT = 0.25
"""Weight of a span's cosine with the wording of the clause type the question asks about
(:func:`core.clauses.match_clause_types`, ``trace.clause_types``) in the order of the shown spans. 0.5 in
issue #20's second pass; the selection pass (``bench/passages_select.py``, bench/README.md "Issue #20,
selection pass"; 5-fold CV over documents, 10 partitions, objective the gold quotes shown with their clause,
grid rank 0–0.1 x wording 0.25–1 x fused 0–5, clauses counted) chose 0.25 with :data:`FUSED_WEIGHT` 1.5 in
32 of 50 folds (1.0 in 38 of 50 without the fused score)."""

FUSED_WEIGHT = 1.5
"""Weight of the retriever's fused (RRF) score of a span's chunk over the best delivered chunk's (0–1) in the
order of the shown spans (:func:`score_spans`'s ``fused``): how much better the retriever, which read the whole
chunk, found it. Chosen with :data:`WORDING_WEIGHT` (grid 0–5; 1.5 in 32 of 50 folds, 0.75–1 in the others;
hits fall past 3). RRF scores are close together, so it separates chunks the retriever clearly preferred, not
neighbours: the B47 row test holds (a position prior of 0.3 broke it)."""

CLAUSES = True
"""Whether :func:`select_spans` counts the clauses an answer shows rather than the spans (a span in a clause
already shown becomes one more highlight of it, no slot of its own; an abstention's :data:`WEAK_MAX` weak
passages are still counted one by one). Chosen by 5-fold cross-validation over
documents (``bench/passages_select.py``, the same folds and grid as :data:`WORDING_WEIGHT`) against counting
spans and against skipping a span whose clause is shown: chosen in 49 of 50 folds."""

SYNONYMS = True
"""Whether the order of the shown spans counts the same-language synonyms of the bilingual vocabulary
in its term coverage (:meth:`core.passage_terms.QuestionTerms.synonym_coverage`). Chosen with
:data:`RANK_WEIGHT` the same way (on in 48 of 50 folds)."""


@dataclass(frozen=True)
class Span:
    """A candidate passage: ``chunk.text[start:end]`` with its scores.

    ``score`` (cosine + term weight · term coverage) decides whether the spans answer (compared with
    :func:`core.passage_gate.min_score`, calibrated on it); ``order`` ranks the spans shown once that is decided
    (issue #20 second pass): it adds the evidence the decision does not use — the chunk's place in
    the retriever's fused ranking (``rank``, 0-based) and its fused score over the best chunk's
    (:data:`FUSED_WEIGHT`, selection pass), the cosine with the clause type's wording
    (``cos_wording``) and the same-language synonyms of the bilingual vocabulary (``synonyms``, the
    term coverage with concepts as units). ``None``: ordered by ``score``.
    """

    chunk: Chunk
    start: int
    end: int
    score: float
    cosine: float
    terms: float
    rank: int = 0
    cos_wording: float = 0.0
    synonyms: float | None = None
    order: float | None = None
    crosses: bool = False

    @property
    def order_key(self) -> float:
        """What the shown spans are sorted by: ``order``, else ``score``."""
        return self.score if self.order is None else self.order

    @property
    def text(self) -> str:
        return self.chunk.text[self.start:self.end]

    @property
    def page_span(self) -> tuple[int, int, int]:
        """``(page, start, end)``: where the span begins in the page texts (1-based page, characters;
        a chunk may cross a page break, :meth:`core.types.Chunk.page_spans`)."""
        first = self.chunk.page_spans(self.start, self.end)[0]
        return first.page, first.start, first.end


def candidate_units(units: list[tuple[Chunk, int, int]], coverage: list[float],
                    per_chunk: int | None = None) -> list[int]:
    """Indices of the sentences worth embedding: per chunk, the ``per_chunk`` with the highest term
    coverage (ties: the earlier sentence), in text order; all of them when ``per_chunk`` is ``None``.

    Embedding every sentence of every retrieved chunk is what made a passages answer take
    seconds (issue #13: 5-8 s p50 on a loaded 2-core machine, 20-80 sentences per question).
    Term coverage costs microseconds, and a span with none of the question's terms rarely
    scores high enough to be shown (``bench/passages.py`` prints the passage hit of both
    variants). Per chunk rather than overall, so every retrieved chunk — the dense retriever
    may have ranked it for its meaning, not its words — keeps its best sentences in the race.
    """
    if per_chunk is None:
        return list(range(len(units)))
    keep: list[int] = []
    by_chunk: dict[int, list[int]] = {}
    for i, (chunk, _, _) in enumerate(units):
        by_chunk.setdefault(id(chunk), []).append(i)
    for indices in by_chunk.values():
        keep += sorted(indices, key=lambda i: (-coverage[i], i))[:per_chunk]
    return sorted(keep)


def score_spans(question: str, chunks: list[Chunk], workspace=None, *,
                term_weight: float = TERM_WEIGHT, embed: Callable | None = None,
                candidates_per_chunk: int | None = CANDIDATES_PER_CHUNK,
                threads: int | None = SCORING_THREADS, cache: bool = True, bridge: bool = True,
                wording: list[str] | None = None, rank_weight: float = RANK_WEIGHT,
                wording_weight: float = WORDING_WEIGHT, synonyms: bool = SYNONYMS,
                fused: list[float] | None = None, fused_weight: float = FUSED_WEIGHT,
                crossing: bool = False, headings: bool = True) -> list[Span]:
    """The candidate sentences and adjacent pairs of sentences of ``chunks``, scored against ``question``
    (a pair's second sentence never opens a new clause, :func:`core.clause_heads.clause_starts`).

    Args:
        question: the text searched (the standalone question).
        chunks: the retrieved chunks, best first.
        workspace: gives the IDF of the question's terms; ``None`` weighs them equally.
        term_weight: weight of the term coverage beside the cosine.
        embed: ``(texts) -> vectors``; default the workspace embedding model (normalized
            vectors). Called once with the question, once with the candidate sentences.
        candidates_per_chunk: sentences embedded and scored per chunk, chosen by term
            coverage (:func:`candidate_units`); ``None`` scores every sentence (slower,
            the variant ``bench/passages.py`` compares against). A pair is offered when
            both of its sentences are candidates.
        threads: torch intra-op threads for the default model's encode call
            (:func:`_embed_default`); ``None`` leaves torch's setting alone.
        cache: reuse (and keep) the vectors of sentences embedded before in this process
            (default model only); ``False`` embeds every candidate (benchmarks' cold runs).
        bridge: for a span in another language than the question, count the bilingual
            vocabulary's concepts and cognates as the question's terms and take the better of the
            question's and its gloss's cosine (:mod:`core.passage_terms`); ``False``: the scoring
            before issue #20 (``bench/passages_crosslang.py`` compares both).
        wording: the wording of the clause types the question asks about (``ClauseType.wording_text``
            of ``trace.clause_types``); each span's cosine with the nearest is its ``cos_wording``.
        rank_weight, wording_weight: weights of the chunk's position and of ``cos_wording`` in
            :attr:`Span.order` (:data:`RANK_WEIGHT`, :data:`WORDING_WEIGHT`).
        synonyms: :attr:`Span.order` counts the term coverage with same-language synonyms
            (:data:`SYNONYMS`; ``Span.synonyms`` is computed either way when ``bridge``).
        fused: the retriever's fused score of each of ``chunks`` (same order; RRF, ``ScoredChunk.score``);
            :attr:`Span.order` adds ``fused_weight`` times the span's chunk's score over the best chunk's
            (0–1, :data:`FUSED_WEIGHT`). ``None``: no such term.
        crossing: also return the pairs whose second sentence opens a new clause, with ``crosses=True``:
            they compete and decide as before (the decision and the order were calibrated with them), but
            :func:`passages_answer` shows such a pair as its two sentences (:func:`core.clause_heads.split_crossing`).
        headings: ``False``: sentences from :func:`core.sentences.clause_spans` (no heading is a span; the grid).

    Returns:
        Candidate spans (unsorted), each inside one chunk, with ``score`` and ``order``.
    """
    from core.passage_terms import QuestionTerms
    from core.textproc import tokenize

    units: list[tuple[Chunk, int, int]] = []
    for chunk in chunks:
        units += [(chunk, s, e) for s, e in (sentence_spans if headings else clause_spans)(chunk.text, chunk.lang)]
    if not units:
        return []
    unit_tokens = [set(tokenize(c.text[s:e], c.lang)) | set(tokenize(c.text[s:e], "en" if c.lang == "es" else "es"))
                   for c, s, e in units]
    per_chunk_tokens: dict[str, set[str]] = {}
    for (c, _, _), tokens in zip(units, unit_tokens):
        per_chunk_tokens.setdefault(c.chunk_id, set()).update(tokens)
    terms = QuestionTerms(question, workspace, context=list(per_chunk_tokens.values()), lexicon=bridge,
                          cognates=bridge)
    unit_cov = [terms.coverage(tokens, c.lang) for tokens, (c, _, _) in zip(unit_tokens, units)]
    keep = candidate_units(units, unit_cov, candidates_per_chunk)
    texts = [units[i][0].text[units[i][1]:units[i][2]] for i in keep]
    # the question glossed into each other language of the candidates (cross-language pairs)
    glosses = {lang: g for lang in dict.fromkeys(units[i][0].lang for i in keep) if (g := terms.gloss(lang))}
    extra = list(glosses.values())
    wording = list(dict.fromkeys(w for w in (wording or []) if w)) if wording_weight else []
    if embed is None:
        q_vec, vecs = _embed_default(question, extra + wording + texts, threads, cache)
    else:
        q_vec = np.asarray(embed([question])[0], dtype=np.float32)
        vecs = np.asarray(embed(extra + wording + texts), dtype=np.float32)
    g_vec = dict(zip(glosses, vecs[:len(extra)]))
    w_vecs = vecs[len(extra):len(extra) + len(wording)]
    vecs = vecs[len(extra) + len(wording):]
    vec_of = dict(zip(keep, vecs))
    position = {id(c): i for i, c in enumerate(chunks)}
    top_fused = max(fused) if fused else 0.0
    relative = [f / top_fused for f in fused] if fused and top_fused > 0 and len(fused) == len(chunks) else []

    def cosine(v: np.ndarray, lang: str) -> float:
        """The span's cosine with the question, or with its gloss in the span's language when higher."""
        c = float(v @ q_vec)
        return max(c, float(v @ g_vec[lang])) if lang in g_vec else c

    def span(chunk: Chunk, s: int, e: int, v: np.ndarray, tokens: set[str], cov: float) -> Span:
        cos = cosine(v, chunk.lang)
        rank = position.get(id(chunk), 0)
        cos_w = float(np.max(w_vecs @ v)) if len(w_vecs) else 0.0
        syn = terms.synonym_coverage(tokens, chunk.lang) if bridge else cov
        order = cos + term_weight * (syn if synonyms else cov) + wording_weight * cos_w + rank_weight / (1 + rank)
        if relative:
            order += fused_weight * relative[rank]
        return Span(chunk, s, e, cos + term_weight * cov, cos, cov, rank, cos_w, syn, order)

    # a pair never joins the end of one clause to the start of the next (tryout 3 finding 5)
    opens = clause_openings(units)
    spans: list[Span] = []
    for i in keep:
        chunk, s, e = units[i]
        spans.append(span(chunk, s, e, vec_of[i], unit_tokens[i], unit_cov[i]))
        if i + 1 in vec_of and units[i + 1][0] is chunk and (crossing or not opens[i + 1]):
            e2 = units[i + 1][2]
            if e2 - s <= MAX_PAIR_CHARS:
                v = vec_of[i] + vec_of[i + 1]
                v = v / (np.linalg.norm(v) or 1.0)
                tokens = unit_tokens[i] | unit_tokens[i + 1]
                pair = span(chunk, s, e2, v, tokens, terms.coverage(tokens, chunk.lang))
                spans.append(replace(pair, crosses=True) if opens[i + 1] else pair)
    return spans


def scoring_query(query: str, scope: ScopeInfo) -> str:
    """The text the spans of a passages answer are scored against.

    When retrieval searched inside documents the question names, or the user chose
    (``scope.doc_ids``), the question without the words naming them (``scope.query``, made by
    :func:`core.docrefs.strip_reference`, which never strips inside an identifier such as
    "REF-7731-B": :func:`core.docrefs._in_identifier`): every delivered chunk is already in
    those documents, and their naming words ("the Depomed supply agreement") only pull the
    score towards title lines, preambles and signature blocks. Measured on CUAD
    (``bench/passages.py``, bench/README.md "After document-aware retrieval"): passage hit
    without a threshold 0.32–0.35 scored against the question as asked, 0.49–0.53 against the
    cleaned one. Otherwise, or when nothing searchable is left once the names are removed (no word
    but :func:`core.passage_terms.function_words`: "What did Tesla Electric Light & Manufacturing do?"
    left "What did do?", which scored 0.14 against the sentence that answers; issue #20, engineer "xlang"),
    the question searched (``query``).
    """
    from core.passage_terms import content_words
    from core.textproc import tokenize_query

    cleaned = scope.query.strip()
    if scope.doc_ids and cleaned and cleaned != query and tokenize_query(cleaned) and content_words(cleaned):
        return cleaned
    return query


def clause_wording(clause_types: list[str]) -> list[str]:
    """The wording contracts use for each clause type id of ``clause_types`` (``trace.clause_types``,
    :class:`core.clauses.ClauseType`), unknown ids skipped; ``[]`` when the vocabulary cannot be read."""
    if not clause_types:
        return []
    from core.clauses import vocabulary
    from core.errors import CoreError

    try:
        by_id = {c.id: c for c in vocabulary().clauses}
    except CoreError:
        return []
    return [by_id[t].wording_text for t in clause_types if t in by_id]


def select_spans(spans: list[Span], *, max_total: int = 5, per_chunk: int = 2, min_score: float = -1.0,
                 clauses: bool = CLAUSES) -> list[Span]:
    """The spans to show: best first by :attr:`Span.order_key`, at most ``per_chunk`` per chunk, none
    overlapping an already chosen one on its page (overlapping chunks repeat sentences), none whose
    ``score`` is under ``min_score``.

    ``clauses`` (:data:`CLAUSES`): ``max_total`` counts the clauses shown
    (:func:`core.passage_context.clause_bounds` in the span's chunk as stored), not the spans: a span whose
    clause is already shown adds one more highlighted sentence to it and takes no slot, so five clauses
    are shown rather than, say, three clauses of which two twice. ``False``: ``max_total`` spans in all.
    """
    from core.passage_context import clause_bounds
    from core.sentences import sentence_spans

    chosen: list[Span] = []
    shown: list[tuple[str, int, int]] = []  # (chunk id, c0, c1) of each clause shown
    sentences: dict[str, list[tuple[int, int]]] = {}
    per: dict[str, int] = {}
    for span in sorted(spans, key=lambda sp: -sp.order_key):
        if not clauses and len(chosen) >= max_total:
            break
        if span.score < min_score:
            continue
        if per.get(span.chunk.chunk_id, 0) >= per_chunk:
            continue
        page, p0, p1 = span.page_span
        if any(c.chunk.doc_id == span.chunk.doc_id and c.page_span[0] == page
               and p0 < c.page_span[2] and c.page_span[1] < p1 for c in chosen):
            continue
        if clauses:
            cid = span.chunk.chunk_id
            if cid not in sentences:
                sentences[cid] = sentence_spans(span.chunk.text, span.chunk.lang)
            c0, c1 = clause_bounds(span.chunk, span.start, span.end, sentences[cid])
            if not any(k == cid and c0 < b1 and b0 < c1 for k, b0, b1 in shown):
                if len(shown) >= max_total:
                    continue
                shown.append((cid, c0, c1))
        chosen.append(span)
        per[span.chunk.chunk_id] = per.get(span.chunk.chunk_id, 0) + 1
    return chosen


class PassagesBackend:
    """The "answer with passages" choice, where a generation backend would go.

    Nothing is generated: :func:`core.pipeline.answer_question` hands a question to
    :func:`passages_answer` when it is given this backend (or the settings choose it).
    """

    name = "passages"
    model = PASSAGES_MODEL
    context_window = 0

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings

    def count_tokens(self, text: str) -> int:
        """Not used: no prompt is built."""
        return 0


def passages_answer(
    workspace, question: str, query: str, settings: Settings, trace: Trace, ranked: list[Chunk],
    abstain: Callable[..., Answer], cancel: Callable[[], bool], fused: list[float] | None = None,
) -> Generator[ProgressEvent, None, Answer]:
    """A passages answer (or an abstention) from the chunks retrieved for ``query``.

    Args:
        question: the user's question (``Answer.question``).
        query: the text searched (the standalone question); spans are scored against it, or
            against ``trace.scope.query`` when retrieval resolved a document scope
            (:func:`scoring_query`).
        trace: the question's trace, retrieval already filled; gets ``context``,
            ``backend``/``model`` and timings ``score`` (span scoring) and ``verify``.
        ranked: the retrieved chunks, best first (all become the context).
        abstain: ``abstain(message, context, rejected)`` of the pipeline.
        fused: the retriever's fused score of each of ``ranked`` (same order), for the order of the shown
            spans (:func:`score_spans`); ``None``: the order without it.

    Returns:
        An :class:`Answer` with ``kind="passages"``: one claim per passage, whose text
        and single citation are the same source span (match ``exact``) and whose ``context``
        is the clause around it. Under the threshold an abstention (``NO_EVIDENCE``, zero
        claims) whose ``abstention.candidates`` are the closest verified spans, best first
        (message :data:`WEAK_MESSAGE`; :data:`NO_PASSAGE_MESSAGE` when there is none); also over the
        threshold when no retrieved sentence has the asked clause's form
        (:func:`core.passage_decision.form_rejects`, ``trace.passage_form_margin``).

    Raises:
        Cancelled: ``cancel()`` turned true.
    """
    from core.passage_context import attach_contexts, in_delivered, verify_source_spans, weak_passage

    trace.backend, trace.model = PassagesBackend.name, PASSAGES_MODEL
    trace.context = [c.chunk_id for c in ranked]
    yield ProgressEvent(stage="scoring", message="Choosing the passages that match the question")
    t0 = time.perf_counter()
    scored = scoring_query(query, trace.scope)
    wording = clause_wording(trace.clause_types)
    spans = score_spans(scored, ranked, workspace, term_weight=settings.passages_term_weight,
                        candidates_per_chunk=settings.passages_candidates_per_chunk or None,
                        threads=SCORING_THREADS, wording=wording, fused=fused, crossing=True)
    top = max(spans, key=lambda sp: sp.score, default=None)
    best = top.score if top is not None else None
    threshold = decision_threshold(settings, spans, cleaned=scored != query, question=scored,
                                   clause_type=bool(wording))
    # The threshold decides whether the spans answer; once the best span passes it, the next ones are
    # shown ordered by score whatever their own (on CUAD the gold clause was the best span in a
    # minority of cases: 22 of 103 gold quotes shown with this rule, 5 with the threshold as a floor).
    # Under it, the closest spans are still shown, as weak passages of the abstention (issue #20).
    weak = best is None or best < threshold
    if not weak and form_decides(settings, scored, query, wording, top):
        # no retrieved sentence has the asked clause's form: the best span is about a neighbouring clause (abstain pass)
        from core import passage_decision as pd
        from core.clause_form import form_margin

        trace.passage_form_margin = form_margin(trace.clause_types, ranked, SCORING_THREADS)
        weak = pd.form_rejects(trace.passage_form_margin)
    # An answer shows passages_max clauses (a second sentence of a shown clause is one more highlight of it);
    # an abstention shows WEAK_MAX weak passages, each listed on its own (clauses not counted).
    chosen = select_spans(spans, max_total=WEAK_MAX if weak else settings.passages_max,
                          per_chunk=settings.passages_per_chunk, clauses=CLAUSES and not weak)
    if chosen and not weak and not any(s.score >= threshold for s in chosen):
        # the span that reached the threshold is not among those ordered first (Span.order): the answer shows the
        # passage it rests on, in place of one it overlaps or of the last (issue #20; the others are marked weaker)
        chosen = [top] + [s for s in chosen if not _overlaps(s, top)][:settings.passages_max - 1]
    # a pair across a clause start is shown as its two sentences, each in its own clause (tryout 3 finding 5)
    chosen = split_crossing(chosen, spans)
    trace.timings_ms["score"] = round((time.perf_counter() - t0) * 1000, 1)
    trace.passage_best_score = round(best, 4) if best is not None else None
    trace.passage_threshold = threshold
    if cancel():
        raise Cancelled()
    if not chosen:
        return _kind(abstain(NO_PASSAGE_MESSAGE, ranked))
    # Source text by construction; the verifier still checks every span where it is cited.
    t1 = time.perf_counter()
    claims, rejected = verify_source_spans([(s.chunk, s.start, s.end) for s in chosen],
                                           {c.chunk_id: c for c in ranked}, settings)
    trace.timings_ms["verify"] = round((time.perf_counter() - t1) * 1000, 1)
    by_text = {s.text: s for s in chosen}
    for claim in claims:
        if claim.text in by_text:
            claim.passage_score = round(by_text[claim.text].score, 4)
    # The clause may run into the neighbouring chunk (small-to-big continuation): a deciding sentence cut
    # at a chunk end is shown whole. Scores above were taken on the stored chunks.
    attach_contexts(claims, in_delivered(workspace.manifest,
                                         {t: (s.chunk, s.start, s.end) for t, s in by_text.items()}))
    if weak:
        answer = _kind(abstain(WEAK_MESSAGE if claims else NO_PASSAGE_MESSAGE, ranked, rejected))
        if answer.abstention is not None:
            answer.abstention.candidates = [weak_passage(c) for c in claims]
        return answer
    if not claims:
        return _kind(abstain(NO_PASSAGE_MESSAGE, ranked, rejected))
    return Answer(question=question, workspace=workspace.name, status="answered", kind="passages",
                  claims=claims, rejected=rejected, abstention=None, trace=trace)


def _overlaps(a: Span, b: Span) -> bool:
    """Whether two spans share characters of one page of one document (as :func:`select_spans` checks)."""
    (pa, a0, a1), (pb, b0, b1) = a.page_span, b.page_span
    return a.chunk.doc_id == b.chunk.doc_id and pa == pb and a0 < b1 and b0 < a1


def _kind(answer: Answer) -> Answer:
    answer.kind = "passages"
    return answer
