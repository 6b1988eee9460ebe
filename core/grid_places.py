"""Evidence that a place of a contract *is* the clause a grid column asks about (issue #25).

A grid cell knows more than a chat question: the clause type it asks about (``Trace.clause_types``,
:mod:`core.clauses`) and the one document to look in. Its passages answer (:mod:`core.passages`)
scores each sentence against the *question*; inside one contract that prefers a sentence that
repeats the question's words ("Government Regulation … applicable federal, state and local laws"
for "What is the governing law?") over the clause that answers it ("11. Governing Law … State of
Texas"). This module measures, for each candidate span of the cell's retrieved chunks, two more
things, both from the clause vocabulary written a priori (``resources/clauses/clause_types.toml``,
not from evaluation answers), both in the index's embedding model, no model call:

* ``form`` — the span's highest cosine with one contract wording phrase of the asked type, and
  ``form_margin`` — that minus its highest cosine with the wording of any *other* type (is this a
  governing-law sentence rather than a dispute-resolution or government-regulation one?);
* ``head`` / ``head_margin`` — for the section heading of the span's paragraph
  (:func:`heading_of`: a numbered run-in heading "11. Governing Law." or a short heading line),
  its cosine with the asked type's label and ask phrases, and that minus its cosine with the
  nearest other type's (:func:`core.clauses.semantic_scores`): a heading that names the clause.
  0 when the paragraph has no heading.

This is nearest-neighbour classification of a passage and of its heading over the vocabulary's
phrases (the same few-shot baseline :func:`core.clauses.match_by_meaning` uses for questions).
:func:`place_candidates` returns every candidate span with these and the passages answer's own
scores (``bench/grid_places.py`` records them for the CV of ``bench/grid_choose.py``);
:func:`clause_form_margin` computes the one the grid's decision reads (:mod:`core.grid_decision`,
the best ``form_margin``) on a fast path. Measured on the CUAD dev cells (bench/README.md, 2026-12-02,
grid3): the form margin separates present from absent clauses best (ROC AUC 0.855); the heading
evidence less (0.65) and it adds nothing held out, so the decision does not read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from core.clause_form import wording_matrix
from core.grid_cells import ShownPassage

#: A numbered run-in heading at the start of a paragraph: "11. Governing Law.", "2. TERM:",
#: "Section 4.2 Assignment.", "ARTICLE 7 - TERMINATION", "Cláusula 3ª. Duración." (its title group).
_RUN_IN = re.compile(
    r"\s*(?:(?:article|section|clause|cl[aá]usula|art[ií]culo)\s+)?"
    r"(?:[0-9]+(?:\.[0-9]+)*|[ivxlc]+|[a-z])(?:ª|º)?(?:[.):]\s*|\s+)[-–—]?\s*"
    r"([A-Za-zÁÉÍÓÚÑáéíóúñ][^\n.:;]{1,70}?)\s*(?:[.:;]|\n|$)", re.IGNORECASE)
#: A heading line of its own: short, no sentence end, mostly capitalised words.
_LINE = re.compile(r"^\s*([^\n]{2,70}?)\s*$")


def heading_of(text: str, start: int) -> str:
    """The heading of the paragraph of ``text`` holding offset ``start`` (characters), '' if none.

    The paragraph starts after the last blank-or-newline break before ``start``. Its heading is a
    numbered run-in title at its start (``_RUN_IN``; the title only, at most 70 characters, four
    words or fewer capitalised), else the line just before the paragraph when that line is short
    and has no sentence end (a heading line). Written by hand: document headings have no library
    form for plain text; the patterns are the common US/UK and Spanish numbering styles.
    """
    para = text.rfind("\n", 0, max(0, start)) + 1
    m = _RUN_IN.match(text, para)
    if m and _title_like(m.group(1)):
        return m.group(1).strip()
    if para == 0:
        return ""
    prev_end = para - 1
    while prev_end > 0 and text[prev_end - 1] in " \t\r\n":
        prev_end -= 1
    prev_start = text.rfind("\n", 0, prev_end) + 1
    line = text[prev_start:prev_end]
    m = _LINE.match(line)
    if m and not line.rstrip().endswith((".", ",", ";")) and _title_like(m.group(1)):
        r = _RUN_IN.match(line)
        return (r.group(1) if r and _title_like(r.group(1)) else m.group(1)).strip()
    return ""


def _title_like(s: str) -> bool:
    words = [w for w in re.findall(r"[^\W\d_]+", s)]
    if not words or len(words) > 8:
        return False
    caps = sum(w[0].isupper() for w in words if len(w) > 3)
    long_ = sum(len(w) > 3 for w in words)
    return long_ > 0 and caps >= max(1, long_ - 1)


def _type_scores(sims: np.ndarray, owners: list[str], own: set[str]) -> dict[str, float]:
    """From one span's cosines with every wording phrase: ``form`` (best with the asked types),
    ``form_margin`` (minus the best other type's), ``form_margin2`` (minus the second best other
    type's: a sentence may belong to two neighbouring types at once, "governed by … submit to the
    jurisdiction"), ``form_z`` (standard score of ``form`` among the other types' bests)."""
    best: dict[str, float] = {}
    for o, x in zip(owners, sims.tolist()):
        if x > best.get(o, -2.0):
            best[o] = x
    mine = max((x for o, x in best.items() if o in own), default=0.0)
    other = sorted((x for o, x in best.items() if o not in own), reverse=True) or [0.0]
    second = other[1] if len(other) > 1 else other[0]
    sd = float(np.std(other)) or 1.0
    return {"form": mine, "form_margin": mine - other[0], "form_margin2": mine - second,
            "form_z": (mine - float(np.mean(other))) / sd}


@dataclass
class Candidate:
    """One candidate span of a cell: what it would show and its evidence (see the module doc)."""

    shown: ShownPassage
    rank: int
    features: dict[str, float] = field(default_factory=dict)


def place_candidates(answer, workspace, settings, *, headings: bool = True,
                     clause_types: list[str] | None = None) -> list[Candidate]:
    """Every candidate span of the retrieved chunks of a scoped passages ``answer`` with its evidence.

    Spans are :func:`core.passages.score_spans` of ``answer.trace.context`` (retrieval order) against
    the answer's scoring question, every sentence and adjacent pair (not only the four per chunk the
    answer embeds: the clause's form may be where the question's words are not), with the clause
    wording of ``answer.trace.clause_types``. Features per span: ``score``, ``cos``, ``terms``,
    ``cos_wording``, ``order`` (the passages answer's), ``rank`` (0-based chunk position),
    ``form``, ``form_margin``, ``head``, ``head_margin`` (module doc; 0 without a clause type).
    ``[]`` for an answer without retrieved chunks. ``headings=False`` leaves ``head``/``head_margin`` 0
    (the grid's decision does not read them; one embedding batch less). ``clause_types``: the asked types
    (:func:`core.grid.asked_types`); ``None`` = ``answer.trace.clause_types``.
    """
    from core.clauses import semantic_scores
    from core.passage_context import clause_context
    from core.passage_vectors import _embed_default
    from core.passages import SCORING_THREADS, clause_wording, score_spans, scoring_query

    if not answer.trace.context:
        return []
    chunks_by_id = workspace.get_chunks(answer.trace.context)
    chunks = [chunks_by_id[c] for c in answer.trace.context if c in chunks_by_id]
    question = scoring_query(answer.question, answer.trace.scope)
    types = list(answer.trace.clause_types if clause_types is None else clause_types)
    vectors: dict[str, np.ndarray] = {}

    def embed(texts: list[str]) -> np.ndarray:
        """score_spans' embedding call, through the passages answer's sentence-vector cache."""
        first, rest = _embed_default(texts[0], texts[1:], SCORING_THREADS)
        v = np.vstack([first[None, :], rest]) if len(texts) > 1 else first[None, :]
        vectors.update(zip(texts, v))
        return v

    spans = score_spans(question, chunks, workspace, term_weight=settings.passages_term_weight,
                        candidates_per_chunk=None, threads=SCORING_THREADS, embed=embed,
                        wording=clause_wording(types), headings=False)
    owners, wmat = wording_matrix() if types else ([], None)
    own = set(types)
    heads: dict[str, tuple[float, float]] = {}
    if wmat is not None:  # pairs of sentences (their own vectors, not score_spans' sum) and headings: one batch
        missing = list({sp.chunk.text[sp.start:sp.end] for sp in spans} - set(vectors))
        if headings:
            missing += list({h for sp in spans if (h := heading_of(sp.chunk.text, sp.start))} - set(vectors))
        if missing:
            embed(missing)
    out = []
    for sp in spans:
        text = sp.chunk.text[sp.start:sp.end]
        f = {"score": sp.score, "cos": sp.cosine, "terms": sp.terms, "cos_wording": sp.cos_wording,
             "order": sp.order if sp.order is not None else sp.score, "rank": float(sp.rank),
             "form": 0.0, "form_margin": 0.0, "form_margin2": 0.0, "form_z": 0.0, "head": 0.0, "head_margin": 0.0}
        if wmat is not None:
            v = vectors[text]
            f.update(_type_scores(wmat @ (v / max(float(np.linalg.norm(v)), 1e-9)), owners, own))
            head = heading_of(sp.chunk.text, sp.start) if headings else ""
            if head:
                if head not in heads:
                    hv = vectors[head]
                    scores = semantic_scores(hv.tolist())
                    mine_h = max((s for c, s in scores if c.id in own), default=0.0)
                    other_h = max((s for c, s in scores if c.id not in own), default=0.0)
                    heads[head] = (mine_h, mine_h - other_h)
                f["head"], f["head_margin"] = heads[head]
        ctx = clause_context(sp.chunk, [(sp.start, sp.end)])
        pages = sp.chunk.page_spans(sp.start, sp.end)
        shown = ShownPassage(chunk_id=sp.chunk.chunk_id, text=text, start=sp.start, end=sp.end,
                             page=pages[0].page if pages else sp.chunk.page,
                             page_label=pages[0].label if pages else sp.chunk.page_label,
                             score=round(sp.score, 4), source="place", context=ctx)
        out.append(Candidate(shown=shown, rank=sp.rank, features={k: round(float(x), 4) for k, x in f.items()}))
    return out


def clause_form_margin(answer, workspace, clause_types: list[str] | None = None) -> float | None:
    """The cell's clause evidence, :func:`core.grid_decision.form_margin` of :func:`place_candidates`,
    computed without scoring the spans against the question (what the grid's decision alone needs):
    the best ``form_margin`` over every sentence and adjacent pair of sentences (the spans
    :func:`core.passages.score_spans` forms: same segmenter, pairs within one chunk of at most
    :data:`core.sentences.MAX_PAIR_CHARS`) of the answer's retrieved chunks. ``clause_types``: the asked
    types (a grid column's own type); ``None`` = ``answer.trace.clause_types``. ``None`` without a clause
    type or a retrieved sentence. Vectors come from the passages answer's sentence cache.
    """
    from core.clause_form import form_margin
    from core.passages import SCORING_THREADS

    types = list(answer.trace.clause_types if clause_types is None else clause_types)
    if not types or not answer.trace.context:
        return None
    chunks = workspace.get_chunks(answer.trace.context)
    return form_margin(types, [chunks[c] for c in answer.trace.context if c in chunks], SCORING_THREADS)
