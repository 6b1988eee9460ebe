"""When the passages answer answers and when it abstains (issue #20): the thresholds, the evidence model's
reach, and the clause-form check's reach.

Split from :mod:`core.passages` (which re-exports every name here) so that the decision reads on its own: the
spans it takes are :class:`core.passages.Span` objects (only their ``score``, ``cosine``, ``terms``,
``synonyms``, ``cos_wording`` and ``chunk`` are read), passed in, never imported, so the two modules do not
import each other.
"""

from __future__ import annotations

from core.settings import Settings
from core.types import Chunk


def min_score(settings: Settings, cleaned: bool, cross: bool = False) -> float:
    """The abstention threshold for a best span scored against the question as asked
    (:attr:`Settings.passages_min_score`) or against the question without its document's names
    (``cleaned``, :func:`scoring_query`; :attr:`Settings.passages_min_score_scoped`).

    Two thresholds because the two texts give scores on different scales: the names removed,
    a question keeps ~40 % of its terms on CUAD ("Consider the Agency Agreement between General
    Electric Capital Corporation and ...; What is the renewal term for this contract?") and every
    span's cosine and term coverage drop with them. Each is the mean of the thresholds chosen by
    5-fold cross-validation over documents on the cases scored that way (``bench/passages.py``;
    bench/README.md, "After document-aware retrieval").

    ``cross``: the question is in another language than the chunk of the best span (issue #20):
    its spans are scored across languages (:mod:`core.passage_terms`), on yet another scale, with
    :attr:`Settings.passages_min_score_cross` / :attr:`Settings.passages_min_score_cross_scoped`,
    chosen by cross-validation over documents on such cases (``bench/passages_natural.py``).
    """
    if cross:
        return settings.passages_min_score_cross_scoped if cleaned else settings.passages_min_score_cross
    return settings.passages_min_score_scoped if cleaned else settings.passages_min_score


def decision_threshold(settings: Settings, spans: list, *, cleaned: bool, question: str,
                       clause_type: bool) -> float:
    """The score the best of ``spans`` (:class:`core.passages.Span`, any order) must reach for the passages
    answer to answer rather than abstain.

    The best span's language decides the scale its score is on (a workspace may mix languages). For a
    question scored without its document's names (``cleaned``) that asks for a clause type whose wording
    is known (``clause_type``), its best span in its language or in :data:`WORDING_LANG`, and
    ``settings.passages_decision == "evidence"``: the threshold of :func:`core.passage_decision.threshold`,
    from the evidence of every span; otherwise :func:`min_score`. ``spans`` empty: :func:`min_score`'s threshold (nothing to answer with anyway).
    """
    top = max(spans, key=lambda sp: sp.score, default=None)
    cross = top is not None and is_cross_language(question, top.chunk)
    from core import passage_decision as pd

    # A question in another language whose best span is in the wording's language (English) is decided by the
    # model too: its strongest evidence, a span's cosine with the clause type's wording, is then measured within
    # one language as on the cases it was fitted on (issue #20, engineer "xlang"; bench/passages_crossdecision.py)
    if top is None or settings.passages_decision != "evidence" or not pd.applies(
            cleaned=cleaned, clause_type=clause_type, cross=cross and top.chunk.lang != WORDING_LANG):
        return min_score(settings, cleaned=cleaned, cross=cross)
    evidence = [pd.SpanEvidence(cos=s.cosine, terms=s.terms, syn=s.synonyms, cos_wording=s.cos_wording)
                for s in spans]
    return pd.threshold(pd.features(evidence, term_weight=settings.passages_term_weight))


WORDING_LANG = "en"
"""The language most of the clause vocabulary's wording is written in (``resources/clauses/clause_types.toml``:
each type lists its contract wording in English first, a few Spanish phrases after) and the language of the
bundled embedding model (all-MiniLM-L6-v2, English only). For a cross-language question whose best span is in
this language, the cosine of a span with the clause type's wording (:attr:`core.passages.Span.cos_wording`) compares two
English texts, as it did on the same-language cases :mod:`core.passage_decision` was fitted on, so that model
decides it (:func:`decision_threshold`); a span in the other language keeps the cross-language thresholds.
Measured on cuad_natural ``-es`` (Spanish questions, English contracts), held out by contract:
``bench/passages_crossdecision.py``, bench/README.md "Cross-language decision" (issue #20)."""


def is_cross_language(question: str, chunk: Chunk) -> bool:
    """Whether ``question`` (:func:`core.textproc.detect_language`) is in another language than ``chunk``."""
    from core.textproc import detect_language

    return detect_language(question) != chunk.lang


def form_decides(settings: Settings, scored: str, query: str, wording: list[str], top) -> bool:
    """Whether the clause-form check (:func:`core.passage_decision.form_rejects`) reads this question: where the
    evidence model decides (:func:`core.passage_decision.applies`, ``settings.passages_decision == "evidence"``)
    and the best span is in :data:`WORDING_LANG`, whatever the question's language. The form margin compares the
    retrieved sentences with the clause types' wording, English but for a few Spanish phrases, through the
    English-only embedding model, which does not place Spanish sentences near their clause type (B43's Spanish
    fees clause read -0.04 as a payment clause, under the cut, and the Spanish question about it abstained). ``top``: the best
    :class:`core.passages.Span`, or ``None`` (then ``False``)."""
    from core import passage_decision as pd

    return top is not None and settings.passages_decision == "evidence" and top.chunk.lang == WORDING_LANG \
        and pd.applies(cleaned=scored != query, clause_type=bool(wording), cross=False)
