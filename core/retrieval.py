"""Document-aware hybrid retrieval: scope → BM25 ∥ dense (+ clause wording, vocabulary) → fusion → eligibility → duplicates.

1. **Scope** (DESIGN.md, "Scope before ranking"). The documents the user chose (``scope``), or
   those the question names (:mod:`core.docrefs`, when ``settings.resolve_references``), become
   a pre-filter exactly like eligibility: the stores search only their chunks. The keyword
   query inside the scope leaves out the words that named the documents; the dense query keeps
   the question as written (the embedding is hurt less by names, and keeping them measured
   better: bench/README.md, "Document-aware retrieval"). ``trace.scope`` records it all.
2. **Clause wording** (:mod:`core.clauses`, when ``settings.clause_expansion``). For each
   clause type the question asks about, its contract wording is searched too: one BM25 and one
   dense ranking per type, weighted by how surely the question names the type (``ClauseMatch.strength``).
   The types are read without the words that qualify a document noun (:func:`clause_types_asked`:
   "el acuerdo de propiedad intelectual" names the document, not an IP clause). The embedding of
   the keyword query or its English rendering, without the words written as names
   (``settings.clause_meaning``), is also compared with every type's ask phrases
   (:func:`core.clauses.match_by_meaning`) and the nearest type, when near enough and not already
   named by a listed phrase, is searched the same way ("walk away from the deal early"; "end the
   agreement by giving notice" names notices, asks termination).
2b. **Bilingual vocabulary** (:mod:`core.lexicon`, ``settings.lexicon_expansion``): the question's
   terms in both languages and their synonyms ("walk away" → "terminate"; "cesión" → "assignment")
   are one more BM25 ranking (``settings.lexicon_weight``). When the question's language is none
   of the searched documents' (:mod:`core.translate`), the question rendered word for word into
   their language — or translated by the Ollama model, when one is configured — is one more
   dense ranking (``settings.gloss_weight``; the model's translation also a BM25 one), its clause
   types are matched too, and ``trace.language`` says whether anything but keywords bridged it.
2c. **Small-to-big** (:mod:`core.sentence_rank`, ``settings.sentence_weight``): inside a scope of
   at most :data:`WIDEN_FOR_SCOPES_UP_TO` documents, every keyword query is also ranked by the
   chunks' best sentences (MaxP); the chunk is delivered, the sentence only decides its rank.
3. **Fusion**: weighted reciprocal rank fusion, score(d) = Σ wᵢ / (k + rankᵢ(d)) (Cormack,
   Clarke & Büttcher, SIGIR 2009, with k = ``settings.rrf_k``, or ``settings.scoped_rrf_k``
   inside a scope of at most :data:`WIDEN_FOR_SCOPES_UP_TO` documents: :func:`fusion_k`);
   question rankings weigh 1, wording rankings ``settings.wording_weight``. Weights and k were
   chosen by 5-fold cross-validation over documents (bench/retrieval_real.py --cv, bench/wording.py,
   bench/ranking.py), never by fitting all cases. The question's own first hits then keep a
   delivered place (:func:`keep_primary_hits`, ``settings.primary_keep``).
4. **Eligibility** again after fusion, against the manifest (a chunk the manifest does not know
   never reaches the model), then **duplicates**: chunks whose normalized text equals a
   better-ranked one's (copies of a file, the same text exported again) take no place of their
   own; the kept chunk lists the other documents (``ScoredChunk.also_in``, ``trace.duplicates``).
"""

from __future__ import annotations

import hashlib
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from core.clauses import ClauseMatch, match_by_meaning, match_clause_types
from core.docref_grammar import kind_words, without_words
from core.docrefs import DocResolver, Resolution, fold, strip_reference
from core.lexicon import expand_query, gloss
from core.sentence_rank import sentence_index
from core.settings import Settings
from core.store import Workspace, get_embedder
from core.translate import LanguageCheck, language_notice, question_language, searched_languages
from core.types import Chunk, LanguageInfo, ScopeInfo, ScoredChunk, Trace

#: At most this many documents make a scope whose delivery is widened to ``settings.scoped_top_k``.
WIDEN_FOR_SCOPES_UP_TO = 3
#: Clause types named by listed phrases whose wording is searched; the nearest type by meaning,
#: when another, is searched beside them (at most one more).
MAX_WORDING_TYPES = 2


def reciprocal_rank_fusion(rankings: list[list[str]], k: int = 60,
                           weights: list[float] | None = None) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(d) = Σ wᵢ / (k + rankᵢ(d)), ranks 1-based, weights 1 by default.

    Source: Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms
    Condorcet and individual Rank Learning Methods", SIGIR 2009 (k = 60).
    Ties keep first-seen order.
    """
    weights = weights or [1.0] * len(rankings)
    scores: dict[str, float] = {}
    for ranking, w in zip(rankings, weights, strict=True):
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + w / (k + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])


class _EmbeddingCache:
    """Query embeddings of fixed texts (clause wordings), computed once per process (LRU, 256)."""

    def __init__(self, size: int = 256) -> None:
        self._items: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def get(self, text: str) -> list[float]:
        with self._lock:
            if text in self._items:
                self._items.move_to_end(text)
                return self._items[text]
        vec = get_embedder().get_query_embedding(text)
        with self._lock:
            self._items[text] = vec
            while len(self._items) > self._size:
                self._items.popitem(last=False)
        return vec


_wording_vectors = _EmbeddingCache()


_resolvers: OrderedDict[tuple[int, frozenset[str]], tuple[dict, DocResolver]] = OrderedDict()
_resolvers_lock = threading.Lock()


def _resolver(profiles: dict, eligible: set[str]) -> DocResolver:
    """The :class:`DocResolver` of these profiles (one object per index generation, from
    :func:`core.store.profiles.read_profiles`) and eligible documents, built once: building it
    reads every document's naming words (about 80 ms at 10,000 documents, bench/scale.py)."""
    key = (id(profiles), frozenset(eligible))
    with _resolvers_lock:
        hit = _resolvers.get(key)
        if hit is not None and hit[0] is profiles:
            _resolvers.move_to_end(key)
            return hit[1]
    resolver = DocResolver([p for d, p in profiles.items() if d in eligible])
    with _resolvers_lock:
        _resolvers[key] = (profiles, resolver)  # the profiles kept alive, so their id stays theirs
        while len(_resolvers) > 4:
            _resolvers.popitem(last=False)
    return resolver


def resolve_scope(workspace: Workspace, question: str, settings: Settings, scope: list[str] | None,
                  eligible: set[str], protected: frozenset[str], reference: str | None = None) -> tuple[ScopeInfo, str]:
    """The documents to search and the keyword query inside them.

    Args:
        scope: doc ids the user chose (``None``: resolve what the question names, when
            ``settings.resolve_references``). Unknown or ineligible ids are dropped.
        eligible: the workspace's eligible doc ids.
        protected: question words that belong to a clause type (never naming words).
        reference: the user's own words when ``question`` is the standalone rewrite of a follow-up:
            the documents they name come first (:meth:`core.docrefs.DocResolver.resolve_in_conversation`).

    Returns:
        ``(ScopeInfo, keyword query)``; an empty ``ScopeInfo.doc_ids`` means the whole workspace.
    """
    if scope is None and not settings.resolve_references:
        return ScopeInfo(query=question), question
    profiles, _ = workspace.doc_profiles()
    if scope is not None:
        chosen = [d for d in dict.fromkeys(scope) if d in eligible]
        names = frozenset().union(*(profiles[d].names for d in chosen if d in profiles)) - protected
        proper = frozenset().union(*(profiles[d].proper for d in chosen if d in profiles))
        query = strip_reference(question, names, protected, proper=proper) if names else question
        info = ScopeInfo(method="explicit", doc_ids=chosen, titles=[profiles[d].title for d in chosen if d in profiles],
                         query=query)
        return info, query
    resolver = _resolver(profiles, eligible)
    res: Resolution = (resolver.resolve_in_conversation(reference, question, protected) if reference
                       else resolver.resolve(question, protected))
    if not res.doc_ids:
        return ScopeInfo(query=question, scores=res.scores), question
    info = ScopeInfo(method="ambiguous" if res.ambiguous else "named", doc_ids=res.doc_ids,
                     titles=[profiles[d].title for d in res.doc_ids], matched=res.matched,
                     query=res.query, scores=res.scores)
    return info, res.query


def _collapse_duplicates(eligible: list[tuple[str, float]], chunks: dict[str, Chunk], workspace: Workspace,
                         k: int, eligible_docs: set[str]) -> tuple[list[tuple[str, float]], dict[str, list[str]]]:
    """The best ``k`` chunks with duplicates taking no place, and chunk id → other docs with its text.

    Two kinds: documents with equal text (``core.store.profiles.text_hash``: copies, re-exports)
    — the best-ranked one stands for all, its chunks list the other eligible ones; and passages whose
    text (casefolded, whitespace collapsed) equals a better-ranked chunk's in another document.
    """
    _, hashes = workspace.doc_profiles()
    groups = _hash_groups(hashes)
    representative: dict[str, str] = {}  # text hash -> the doc that stands for the group
    kept: list[tuple[str, float]] = []
    also: dict[str, list[str]] = {}
    first_with: dict[str, str] = {}
    for cid, score in eligible:
        doc = chunks[cid].doc_id
        digest = hashes.get(doc)
        if digest is not None and len(groups[digest]) > 1:
            rep = representative.setdefault(digest, doc)
            if rep != doc:
                continue  # a copy of a document already delivered
        key = _text_key(chunks[cid])
        if key in first_with:
            owner = first_with[key]
            if doc != chunks[owner].doc_id and doc not in also.setdefault(owner, []):
                also[owner].append(doc)
            continue
        first_with[key] = cid
        kept.append((cid, score))
    kept = kept[:k]
    for cid, _ in kept:
        doc = chunks[cid].doc_id
        for other in groups.get(hashes.get(doc, ""), []):
            if other != doc and other in eligible_docs and other not in also.setdefault(cid, []):
                also[cid].append(other)
    return kept, also


_groups_cache: list[tuple[dict, dict[str, list[str]]]] = []


def _hash_groups(hashes: dict[str, str]) -> dict[str, list[str]]:
    """Text hash → the documents with that text, for one index generation's ``hashes`` (built once
    per generation, not per question: a pass over every document)."""
    with _resolvers_lock:
        for held, groups in _groups_cache:
            if held is hashes:
                return groups
    groups: dict[str, list[str]] = {}
    for doc, digest in hashes.items():
        groups.setdefault(digest, []).append(doc)
    with _resolvers_lock:
        _groups_cache[:] = [(hashes, groups)] + _groups_cache[:3]
    return groups


def _text_key(chunk: Chunk) -> str:
    """Duplicate key of a chunk: its text casefolded with whitespace collapsed (a copy of a file,
    or the same text exported again, chunks identically). Cheap: it runs on every candidate."""
    return hashlib.sha1(" ".join(chunk.text.casefold().split()).encode("utf-8")).hexdigest()


def default_k(settings: Settings, scope: ScopeInfo) -> int:
    """Chunks delivered by default: ``settings.scoped_top_k`` when the search is scoped to at most
    :data:`WIDEN_FOR_SCOPES_UP_TO` documents, else ``settings.top_k``."""
    if scope.doc_ids and len(scope.doc_ids) <= WIDEN_FOR_SCOPES_UP_TO:
        return max(settings.scoped_top_k, settings.top_k)
    return settings.top_k


_IDENTIFIER = re.compile(r"\b(?=[\w./-]*\d)(?=[\w./-]*[^\W\d_])\w+(?:[-./]\w+)+\b", re.UNICODE)


def identifiers(text: str) -> list[str]:
    """Identifiers ``text`` names: tokens joining letters and digits with ``-``, ``.`` or ``/``
    ("D-207", "PO-2024-0017", "ART-12.3"), in order, without repeats; dates and plain numbers
    ("01/02/2024", "12.480,50") have no letter and are not identifiers."""
    return list(dict.fromkeys(m.group(0) for m in _IDENTIFIER.finditer(text)))


@dataclass
class Search:
    """One ranking of the fusion: what is searched and how much it weighs.

    ``kind``: ``"question"`` (the question's own BM25 and dense rankings, weight 1),
    ``"wording"`` (a clause type's contract wording; weight ``settings.wording_weight`` ×
    ``strength``), ``"lexicon"`` (the bilingual vocabulary's terms, BM25; ``settings.lexicon_weight``),
    ``"gloss"`` (the question rendered word for word in the documents' language, or translated by
    the model, dense; ``settings.gloss_weight``), ``"extra"`` (HyDE; ``settings.wording_weight``),
    ``"identifier"`` (the identifiers the question names, "unit D-207", "PO-2024-0017", BM25 of
    those alone; weight 1 like the question's own rankings: they are the question's words. At the
    clause wording's weight it cost 4 CUAD gold quotes whose questions carry a title's "COVID-19"),
    ``"sentence"`` (inside a scope of at most :data:`WIDEN_FOR_SCOPES_UP_TO` documents, the query of
    another ranking — kind ``of`` — ranked by the chunks' best sentences, :mod:`core.sentence_rank`;
    weight ``settings.sentence_weight`` × that ranking's).
    """

    name: str
    kind: str
    strength: float
    run: Callable[[], list[str]]
    text: str = ""
    """What is searched (the query text; ``""`` when not recorded)."""

    of: str = ""
    """For a ``"sentence"`` ranking: the kind of the ranking whose query it ranks by sentences."""

    def weight(self, settings: Settings, scoped: bool = False) -> float:
        """This ranking's weight in the fusion under ``settings``; ``scoped``: the search is inside a
        scope of at most :data:`WIDEN_FOR_SCOPES_UP_TO` documents (the vocabulary's ranking then
        weighs ``settings.scoped_lexicon_weight``, cross-validated there: bench/ranking.py)."""
        if self.kind == "sentence":
            return settings.sentence_weight * Search(self.name, self.of, self.strength, self.run).weight(settings, scoped)
        if self.kind in ("question", "identifier"):
            return 1.0
        if self.kind == "lexicon":
            return (settings.scoped_lexicon_weight if scoped else settings.lexicon_weight) * self.strength
        if self.kind == "gloss":
            return settings.gloss_weight * self.strength
        return settings.wording_weight * self.strength


@dataclass
class Plan:
    """What :func:`retrieve` searches for a question (built by :func:`plan_searches`)."""

    scope: ScopeInfo
    keyword_query: str
    only: set[str] | None
    exclude: set[str]
    matches: list[ClauseMatch]
    language: LanguageCheck
    searches: list[Search] = field(default_factory=list)


def plan_searches(workspace: Workspace, question: str, settings: Settings, *, scope: list[str] | None = None,
                  extra_dense: list[str] | None = None, translation: str = "", reference: str | None = None) -> Plan:
    """The rankings to fuse for ``question`` (module docstring); nothing is searched yet.

    ``reference``: the user's own words of a follow-up (see :func:`retrieve`).

    ``translation``: the question translated into the documents' language by a model
    (:mod:`core.translate`), searched like the word-for-word rendering. Raises what
    :func:`resolve_scope` and the embedding model raise.
    """
    exclude = workspace.ineligible_doc_ids()
    eligible_docs = workspace.eligible_doc_ids()
    kinds = kind_words(question)
    matches: list[ClauseMatch] = clause_types_asked(question, kinds) if settings.clause_expansion else []
    protected = frozenset().union(*(m.words for m in matches)) if matches else frozenset()
    info, keyword_query = resolve_scope(workspace, question, settings, scope, eligible_docs, protected, reference)
    only = set(info.doc_ids) if (info.doc_ids or info.method == "explicit") else None
    if settings.clause_expansion and keyword_query != question:
        # the clause types the question names without its document's name: a title's words
        # ("Non-Competition Agreement and Right of First Offer") are not the clause asked about
        matches = clause_types_asked(keyword_query, kinds)

    q_lang = question_language(question)
    doc_langs = tuple(searched_languages(workspace, info.doc_ids))
    check = LanguageCheck(q_lang, doc_langs, bridged_by="translation" if translation else "")
    rendered = probe_rendered = ""
    if check.differs and settings.lexicon_expansion:
        rendered = gloss(keyword_query, doc_langs[0], q_lang)
        rendered = "" if rendered == keyword_query else rendered
        # what the clause vocabulary reads: the rendering without the document's kind ("el acuerdo de
        # propiedad intelectual" names the document, not an IP clause), as for the question itself
        kindless = without_words(keyword_query, kinds)
        probe_rendered = gloss(kindless, doc_langs[0], q_lang) if kindless != keyword_query else rendered
        probe_rendered = "" if probe_rendered == kindless else probe_rendered
        if probe_rendered and not clause_types_asked(probe_rendered, frozenset()):
            probe_rendered = rendered  # the kind was all it said about a clause
    if settings.clause_expansion and check.differs:
        for text in (translation, probe_rendered):
            if text:  # the clause vocabulary's phrases in the documents' language
                seen = {m.clause.id for m in matches}
                matches += [m for m in clause_types_asked(text, frozenset()) if m.clause.id not in seen]
    vectors: dict[str, list[float]] = {}

    def vector(text: str) -> list[float]:
        if text not in vectors:
            vectors[text] = get_embedder().get_query_embedding(text)
        return vectors[text]

    matches = matches[:MAX_WORDING_TYPES]
    if settings.clause_expansion and settings.clause_meaning:
        # without the document's name (it dominates the embedding), and in English: the bundled
        # model is English-only and rates unrelated Spanish texts as close (bench/README.md).
        # The nearest type is searched beside the listed phrases' ones: a question's words can
        # name one type while it asks about another ("end the agreement by giving notice" names
        # notices, asks about termination); chosen by cross-validation (bench/ranking.py)
        probe = translation or rendered or keyword_query
        probe_lang = doc_langs[0] if (translation or rendered) else q_lang
        probe = _without_names(probe, protected)
        if probe_lang == "en":
            listed = {m.clause.id for m in matches}
            matches = matches + [m for m in match_by_meaning(vector(probe)) if m.clause.id not in listed]

    searches = [
        Search("bm25", "question", 1.0, lambda: workspace.bm25_search(keyword_query, settings.bm25_candidates,
                                                                         exclude, only), keyword_query),
        Search("dense", "question", 1.0, lambda: workspace.dense_search(question, settings.dense_candidates, exclude,
                                                                          only, vector=vector(question)), question),
    ]
    for m in matches:
        text = m.clause.wording_text
        searches.append(Search(f"bm25:{m.clause.id}", "wording", m.strength, lambda t=text: workspace.bm25_search(
            t, settings.bm25_candidates, exclude, only), text))
        searches.append(Search(f"dense:{m.clause.id}", "wording", m.strength, lambda t=text: workspace.dense_search(
            t, settings.dense_candidates, exclude, only, vector=_wording_vectors.get(t)), text))
    if settings.lexicon_expansion:
        dst = tuple(dict.fromkeys(doc_langs + (q_lang,)))
        terms = expand_query(keyword_query, None, dst)
        if terms:
            text = " ; ".join(terms)
            searches.append(Search("bm25:lexicon", "lexicon", 1.0, lambda t=text: workspace.bm25_search(
                t, settings.bm25_candidates, exclude, only), text))
    for name, text in (("dense:translation", translation), ("dense:gloss", rendered)):
        if text:
            searches.append(Search(name, "gloss", 1.0, lambda t=text: workspace.dense_search(
                t, settings.dense_candidates, exclude, only, vector=vector(t)), text))
            if name == "dense:translation":
                searches.append(Search("bm25:translation", "gloss", 1.0, lambda t=text: workspace.bm25_search(
                    t, settings.bm25_candidates, exclude, only), text))
                break  # a model's translation replaces the word-for-word rendering
    for n, text in enumerate(extra_dense or []):
        searches.append(Search(f"dense:extra{n}", "extra", 1.0, lambda t=text: workspace.dense_search(
            t, settings.dense_candidates, exclude, only)))
    if settings.sentence_weight > 0 and only and len(only) <= WIDEN_FOR_SCOPES_UP_TO:
        # small-to-big: the same keyword queries ranked by the scope's sentences (core.sentence_rank)
        scoped = sorted(only)
        for s in list(searches):
            if s.text and (s.name.startswith("bm25") or s.name == "dense:gloss"):
                searches.append(Search(f"sent:{s.name}", "sentence", s.strength, lambda t=s.text: sentence_index(
                    workspace, scoped).rank(t, settings.bm25_candidates), s.text, of=s.kind))
    # an identifier of a document's own name or title ("the COVID-19 amendment") names the document,
    # not a row or clause in it: only the others are searched as identifiers
    names = " ".join([*info.titles, *eligible_docs]).casefold()
    idents = [i for i in identifiers(keyword_query) if i.casefold() not in names]
    if idents:
        # a row, an invoice or a clause named by its identifier: one more ranking of the chunks holding
        # it exactly, so the clause-type rankings cannot bury the row
        text = " ".join(idents)
        searches.append(Search("bm25:identifiers", "identifier", 1.0, lambda t=text: workspace.bm25_search(
            t, settings.bm25_candidates, exclude, only)))
    return Plan(info, keyword_query, only, exclude, matches, check, searches)


def clause_types_asked(text: str, kinds: frozenset[str] | None = None) -> list[ClauseMatch]:
    """The clause types ``text`` (a question, its keyword query or its rendering) asks about
    (:func:`core.clauses.match_clause_types`), read without the words that qualify a document noun:
    "the intellectual property agreement", "el contrato de licencia" name the document
    (:func:`core.docref_grammar.document_kind_spans`). ``kinds``: those words (folded) as found in the
    question the text comes from (a keyword query has lost the names around them); default: found in
    ``text``. When they are all the question says about a clause ("¿Qué dice el acuerdo de
    confidencialidad?"), the types they name are returned."""
    kindless = without_words(text, kind_words(text) if kinds is None else kinds)
    if kindless == text:
        return match_clause_types(text)
    return match_clause_types(kindless) or match_clause_types(text)


_NAME = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)


def _without_names(text: str, keep: frozenset[str]) -> str:
    """``text`` without the words written as names — capitalised, but not its first word — unless their
    casefolded, accent-stripped form is in ``keep`` (words of a clause type the question names: "Force
    Majeure"). For the probe of clause types by meaning: "Would A.B. Watley need approval to hand to another
    firm?" was nearest to NDA survival, "Would need approval to hand to another firm?" is nearest to
    anti-assignment; a party's or product's name says nothing of the clause, and MiniLM weighs it.
    Returns ``text`` when nothing would be left."""
    words = list(_NAME.finditer(text))
    drop = [m for i, m in enumerate(words) if i > 0 and m.group(0)[:1].isupper() and fold(m.group(0)) not in keep]
    if not drop or len(drop) == len(words) - 1:
        return text
    out, at = [], 0
    for m in drop:
        out.append(text[at:m.start()])
        at = m.end()
    out.append(text[at:])
    return " ".join("".join(out).split())


def fusion_k(settings: Settings, plan: Plan) -> int:
    """The RRF constant for ``plan``: ``settings.scoped_rrf_k`` inside a scope of at most
    :data:`WIDEN_FOR_SCOPES_UP_TO` documents, else ``settings.rrf_k``.

    Inside one contract the candidate lists hold most of its chunks, so with k = 60 a chunk
    ranked 2nd by three rankings barely beats one ranked 10th by all of them; a smaller k trusts
    each ranking's top. Chosen by 5-fold cross-validation over contracts (bench/ranking.py)."""
    if plan.only and len(plan.only) <= WIDEN_FOR_SCOPES_UP_TO:
        return settings.scoped_rrf_k
    return settings.rrf_k


def keep_primary_hits(fused: list[tuple[str, float]], primary: list[list[str]], n: int,
                      k: int) -> list[tuple[str, float]]:
    """``fused`` with the top ``n`` chunks of each ``primary`` ranking moved into its first ``k``.

    The expansion rankings (clause wording, vocabulary, glosses, sentences) together can weigh
    many times the question's own two (e.g. two clause types: four wording rankings of weight up to
    ``settings.wording_weight`` = 3 against BM25 and dense of weight 1), so a chunk that the
    question's BM25 ranks 1st and its dense search 2nd could fall to 20th and never be shown
    (tryout 5: the Norte supply agreement's convenience clause; the rent roll's row "A-207").
    Here the question's own top hits keep a place: each one missing from the first ``k`` takes
    the place of the last of them that is not a kept hit itself; the others keep their fused
    order. A moved chunk takes the fused score of the place it takes (the passages' order reads
    it, :mod:`core.passages`).

    Args:
        fused: (chunk id, RRF score) best first, as :func:`reciprocal_rank_fusion` returns.
        primary: the question's own rankings, chunk ids best first: its BM25 and dense ones, or only the
            BM25 one when words naming the documents were left out of its keywords (the dense query keeps
            them, so its first hit inside the named contract is often the title page).
        n: top hits kept from each; ``settings.primary_keep`` (0: unchanged), chosen by
            cross-validation over contracts (bench/README.md, "Primary hits kept").
        k: the number of chunks delivered.

    Returns: the reordered list (same pairs, same length). A chunk not in ``fused`` is skipped.
    """
    if n <= 0 or k <= 0:
        return fused
    place = {cid: i for i, (cid, _) in enumerate(fused)}
    wanted = list(dict.fromkeys(c for ranking in primary for c in ranking[:n] if c in place))
    top = fused[:k]
    # the places given up: the last of the first k that are not kept hits themselves
    free = [i for i in range(len(top) - 1, -1, -1) if top[i][0] not in wanted]
    missing = [c for c in wanted if place[c] >= k][:len(free)]
    if not missing:
        return fused
    out = sorted(free[:len(missing)])
    scores = [top[i][1] for i in out]
    head = [pair for i, pair in enumerate(top) if i not in out]
    promoted = [(c, scores[j]) for j, c in enumerate(missing)]
    moved = set(missing)
    tail = [top[i] for i in out] + [pair for pair in fused[k:] if pair[0] not in moved]
    return head + promoted + tail


def retrieve(workspace: Workspace, question: str, settings: Settings, trace: Trace, k: int | None = None,
             *, scope: list[str] | None = None, extra_dense: list[str] | None = None,
             reference: str | None = None, translation: str = "") -> list[ScoredChunk]:
    """Document-aware hybrid retrieval (module docstring); the best ``k`` eligible chunks, best first.

    Args:
        k: chunks to return; default ``settings.top_k``, or ``settings.scoped_top_k`` when the
            search is scoped to at most :data:`WIDEN_FOR_SCOPES_UP_TO` documents.
        scope: doc ids to search in (the user's choice: selected documents, ``ask --doc``);
            ``None`` resolves the documents the question names.
        extra_dense: more dense queries (a hypothetical passage, :mod:`core.rerank`), each one
            ranking weighted like the clause wording's.
        reference: the user's own question when ``question`` is a follow-up's standalone rewrite
            (a document it names is the scope, not the earlier question's: :func:`resolve_scope`).
        translation: the question translated into the documents' language by a model
            (:func:`core.translate.translate_question`); ``""`` when none.

    Ineligible documents (status other than ``active``) are excluded inside every store query
    and again after fusion against the manifest. Fills ``trace.bm25/dense/fused/eligible/
    eligible_docs/scope/clause_types/duplicates/language`` and ``trace.timings_ms["retrieve"]``.
    """
    t0 = time.perf_counter()
    eligible_docs = workspace.eligible_doc_ids()
    plan = plan_searches(workspace, question, settings, scope=scope, extra_dense=extra_dense, translation=translation,
                         reference=reference)
    info = plan.scope
    k = k or default_k(settings, info)
    searches = plan.searches
    with ThreadPoolExecutor(max_workers=min(4, len(searches))) as pool:
        futures = [pool.submit(s.run) for s in searches]
        rankings = [f.result() for f in futures]
    scoped = bool(plan.only) and len(plan.only) <= WIDEN_FOR_SCOPES_UP_TO
    fused = reciprocal_rank_fusion(rankings, k=fusion_k(settings, plan),
                                   weights=[s.weight(settings, scoped) for s in searches])
    # the dense query keeps the words that name the documents (module docstring), so inside a scope they
    # named its first hit is often the title page: only a ranking of the question's own words keeps a place
    # and a question in another language than its documents' is read by its renderings and the clause
    # wording more than by its own words (cuad_natural -es over the whole workspace: 63 -> 56 of 103 with
    # its own first hits kept): then nothing is kept
    own = rankings[:1] if plan.keyword_query != question else rankings[:2]
    fused = keep_primary_hits(fused, [] if plan.language.differs else own, settings.primary_keep, k)

    bm25, dense = rankings[0], rankings[1]
    trace.bm25, trace.dense, trace.fused = bm25, dense, [cid for cid, _ in fused]
    trace.scope = info
    trace.clause_types = [m.clause.id for m in plan.matches]
    trace.language = _language_trace(plan.language, translation)
    chunks = workspace.get_chunks(trace.fused)
    eligible = [(cid, s) for cid, s in fused if cid in chunks and chunks[cid].doc_id in eligible_docs]
    trace.eligible = [cid for cid, _ in eligible]
    trace.eligible_docs = sorted(eligible_docs)

    kept, also = _collapse_duplicates(eligible, chunks, workspace, k, eligible_docs)
    trace.duplicates = {cid: docs for cid, docs in also.items() if docs and any(c == cid for c, _ in kept)}
    trace.timings_ms["retrieve"] = round((time.perf_counter() - t0) * 1000, 1)
    bm25_rank = {c: i for i, c in enumerate(bm25, 1)}
    dense_rank = {c: i for i, c in enumerate(dense, 1)}
    return [
        ScoredChunk(chunk=chunks[cid], score=s, bm25_rank=bm25_rank.get(cid), dense_rank=dense_rank.get(cid),
                    also_in=also.get(cid, []))
        for cid, s in kept
    ]


def _language_trace(check: LanguageCheck, translation: str) -> LanguageInfo:
    return LanguageInfo(question=check.question, documents=list(check.documents), differs=check.differs,
                        bridged_by=check.bridged_by, translation=translation,
                        notice=language_notice(check))
