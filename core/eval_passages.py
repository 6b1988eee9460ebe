"""The evaluator's counting of passages answers (``verbatim eval --backend passages``).

Split from :mod:`core.evaluate` (which imports it) by concern: what counts as a passage shown.

* A passage answer's claim is one scored span (its citation) shown inside its clause
  (``claim.context``, :mod:`core.passage_context`, small-to-big). A gold quote is *hit* when a
  shown text covers at least :data:`PASSAGE_COVERAGE` of it (:func:`span_covers`): the span, or
  the clause around it when that clause is found again, character for character, in its chunk
  of the evaluator's own index. The span alone is counted apart (``sentences only``).
* A passages abstention under the score threshold carries weak passages
  (``abstention.candidates``, issue #20): it stays an abstention (a false abstention on an
  answerable case) *with candidates*; the gold quotes those weak passages cover are counted
  apart, never as a hit.
"""

from __future__ import annotations

import difflib

from core.normalize import normalized
from core.verify import match_quote

PASSAGE_COVERAGE = 0.5
"""Share of a gold quote's normalized characters a shown passage must cover to count as a hit (issue #13)."""
_MIN_BLOCK = 20  # shortest common run (characters) that counts towards coverage


def span_covers(quote: str, span: str, fuzzy_threshold: float = 92.0) -> bool:
    """True when a shown passage ``span`` covers gold ``quote``: the quote is in it
    (:func:`core.verify.match_quote`), or it covers at least :data:`PASSAGE_COVERAGE` of the
    quote's normalized characters (common runs of at least 20 characters), so a long gold
    clause shown in part still counts, a single shared phrase does not."""
    if match_quote(quote, span, fuzzy_threshold=fuzzy_threshold):
        return True
    return covered_by(quote, [span]) >= PASSAGE_COVERAGE


def covered_by(quote: str, texts: list[str]) -> float:
    """Share (0–1) of the normalized ``quote``'s characters inside common runs of at least 20
    characters with any of ``texts`` (difflib matching blocks)."""
    nq = normalized(quote)
    if not nq:
        return 0.0
    covered = [False] * len(nq)
    for text in texts:
        matcher = difflib.SequenceMatcher(None, nq, normalized(text), autojunk=False)
        for block in matcher.get_matching_blocks():
            if block.size >= _MIN_BLOCK:
                covered[block.a : block.a + block.size] = [True] * block.size
    return sum(covered) / len(nq)


def checked_contexts(ws, contexts: list) -> list[str]:
    """The texts of passage clauses (:class:`core.types.PassageContext`) that are exactly
    ``chunk.text[start:end]`` of their chunk in the evaluator's index ``ws``, as stored or as delivered with
    its small-to-big continuation (:func:`core.small_to_big.deliver`, recomputed here from the evaluator's
    store); the others are left out."""
    from core.small_to_big import deliver

    stored = ws.get_chunks(c.chunk_id for c in contexts)
    whole = {c.chunk_id: c for c in deliver(ws.manifest, list(stored.values()))}
    return [c.text for c in contexts if c.chunk_id in stored and c.text in (
        stored[c.chunk_id].text[c.start:c.end], whole[c.chunk_id].text[c.start:c.end])]


def judge_passages(ws, gold: list[str], answer, checks: list, delivered: set[str],
                   fuzzy_threshold: float) -> tuple[list[bool], list[bool], list[bool]]:
    """Per gold quote of a passages answer: ``(sentence, shown, weak)``.

    Args:
        ws: the case's workspace in the evaluator's index (``get_chunks``).
        answer: the :class:`core.types.Answer` (``kind == "passages"``).
        checks: its citations' :class:`core.evaluate.CitationCheck`, in citation order.
        delivered: chunk ids in ``answer.trace.context``.

    Returns:
        ``sentence``: a valid citation's span covers it; ``shown``: that, or the clause around a
        claim whose citations are all valid; ``weak``: a weak passage of the abstention (span
        found again in a delivered chunk, or its checked clause) covers it.
    """
    shown = [cit.quote for claim in answer.claims for cit in claim.citations]
    it = iter(checks)
    ok_claims = [all(next(it).valid for _ in claim.citations) for claim in answer.claims]
    valid = [q for q, chk in zip(shown, checks) if chk.valid]
    sentence = [any(span_covers(q, text, fuzzy_threshold) for text in valid) for q in gold]
    contexts = checked_contexts(ws, [c.context for c, ok in zip(answer.claims, ok_claims)
                                     if ok and c.context is not None])
    with_clause = [ok or any(span_covers(q, text, fuzzy_threshold) for text in contexts)
                   for q, ok in zip(gold, sentence)]
    weak_hit: list[bool] = []
    candidates = answer.abstention.candidates if answer.abstention is not None else []
    if candidates:
        chunks = ws.get_chunks(w.chunk_id for w in candidates)
        texts = [w.text for w in candidates if w.chunk_id in chunks and w.chunk_id in delivered
                 and match_quote(w.text, chunks[w.chunk_id].text, fuzzy_threshold=fuzzy_threshold)]
        texts += checked_contexts(ws, [w.context for w in candidates
                                       if w.context is not None and w.chunk_id in delivered])
        weak_hit = [any(span_covers(q, text, fuzzy_threshold) for text in texts) for q in gold]
    return sentence, with_clause, weak_hit


def passage_metrics(results: list, answered: list) -> dict[str, dict]:
    """The passage metrics' fields (``name, numerator, denominator, unit[, target]``) by key.

    Args:
        results: every :class:`core.evaluate.CaseResult`.
        answered: the answerable ones that got an answer (the denominators' gold quotes).
    """
    n_gold = sum(len(r.gold_retrieved) for r in answered)
    hit = sum(ok for r in results for ok in r.gold_shown)
    weak = sum(ok for r in results for ok in r.gold_weak)
    abst = [r for r in results if r.kind == "passages" and r.status == "abstained"]
    unit = "gold quotes"
    return {
        "passage_hit": dict(name="passage hit (a shown passage, with its clause, covers >= half a gold quote)",
                            numerator=hit, denominator=n_gold, unit=unit, target=">= 0.7"),
        "passage_hit_sentence": dict(name="  passage hit, sentences only (without their clause)",
                                     numerator=sum(ok for r in results for ok in r.gold_shown_sentence),
                                     denominator=n_gold, unit=unit),
        "passage_weak_shown": dict(name="gold quotes shown only as weak passages of an abstention",
                                   numerator=weak, denominator=n_gold, unit=unit),
        "passage_hit_or_weak": dict(name="  passage hit or weak passage (the gold quote is on screen either way)",
                                    numerator=hit + weak, denominator=n_gold, unit=unit),
        "abstentions_with_candidates": dict(name="passages abstentions that show weak passages",
                                            numerator=sum(r.candidates > 0 for r in abst), denominator=len(abst),
                                            unit="abstentions"),
    }
