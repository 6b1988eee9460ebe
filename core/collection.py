"""Questions about the whole collection: every document searched on its own, and which of them match.

"Which of these agreements are governed by Florida law?" asks about each contract of the workspace,
not for the few best chunks of all of them: answered like any question, the top chunks came from a
few documents and the first shown was another state's governing-law clause (tryout 2, Q3,
2026-12-02). A lawyer expects a per-document answer. So a question about the collection
(:func:`core.docrefs.collection_question`: "which of these / all the agreements", "in which
contracts", "¿cuáles de estos contratos…?", a closed-class grammar, never a list of questions) is
answered, for the passages answer (no model), by the review grid's machinery
(:func:`core.grid.compute_cell`): the question asked inside each document alone, each with its own
retrieval, span scoring, threshold and verification. Then, per document:

* **Required words.** A question that restricts by a name or a number ("Florida", "New York",
  "30 days") asks which documents say *that*: a clause about the same subject naming another state
  does not match. :func:`required_words` takes the question's words written as names (capitalised,
  not at a sentence start) and its numbers (a number with a unit as that fact, :mod:`core.facts`:
  "3 years" is held by "thirty-six (36) months", not by "3.0 SCOPE" or "three (3) days"), leaving out document nouns and kinds ("Agreements",
  "NDA"), the words of the clause type the question asks about ("Law" of governing law) and the
  collection frame. A place the question names in any form and case (``resources/places/``:
  "English law", "la ley de Nueva York", "ley japonesa") is one requirement that any of its forms
  satisfies ("the laws of England", "New York", "Japan"; :func:`requirements`). A document matches
  when a sentence of its retrieved chunks satisfies every requirement **and** holds the question's
  subject — at least one of its other terms, in either language through the bilingual vocabulary
  (:class:`core.passage_terms.QuestionTerms` coverage > 0): "laws of The State of Florida" matches,
  "a Florida corporation" in a preamble does not. Of several such sentences, the one covering most
  of the question's weighted terms is shown (then the earlier retrieved). No score threshold is involved; nothing is fitted.
* **No required word** ("Which of these agreements can be terminated for convenience?"): when the
  question asks for a clause type, a document matches when its grid cell finds the clause (``answered``
  or ``weak``) and one of the passages the cell shows holds the question's subject and reads like that
  clause type, by a form margin chosen by cross-validation (:func:`listed_passage`); without a clause
  type, when its own passages answer (the grid cell is ``answered``), by its first passage at the
  answer's threshold. The other documents are listed as searched and not matching, with their closest
  passage.

The matching passages are the answer's claims (verified by :func:`core.verify.verify_claims`, each
with its clause, as any passages answer); :attr:`core.types.Answer.documents` lists every document
searched with whether it matches. No document matches: an abstention that lists them all.

At most :data:`MAX_DOCUMENTS` documents are searched (about a second each on a 2-core machine):
in a larger workspace, those whose chunks a workspace-wide retrieval ranks first; the answer says
how many were left out (the review grid searches them all).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Generator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from core.docnames import GENERIC, KIND_WORDS, fold, sentence_start, word_spans
from core.settings import Settings
from core.types import (
    Abstention,
    Answer,
    Chunk,
    ConsultedDoc,
    DocumentFinding,
    ProgressEvent,
    ScopeInfo,
    Trace,
)

if TYPE_CHECKING:
    from core.facts import Fact  # imported where used: text2num is not paid by the window's import

MAX_DOCUMENTS = 60
"""Documents searched at most for one question about the collection: about a minute of a 2-core
machine at ~1 s per document (bench/README.md, "Questions about the whole collection"). Fixed a
priori as what a person waits for; the review grid has no such limit."""

NONE_MATCH = "None of the documents searched has a passage that matches the question."
"""Abstention message when no document matches (how many were searched: :attr:`Answer.documents`)."""

STAGE = "documents"
"""ProgressEvent stage of the per-document search (``done``/``total`` in documents, ``item`` the doc_id)."""

_DIGITS = re.compile(r"\d")
#: Question words of the collection frame, never the subject ("which", "cuáles", and the verbs that only
#: ask whether a document says something: "mention", "contain", "mencionan"; folded). Closed class.
_FRAME = frozenset("which what whichever how many any all each every none some most cual cuales que "
                   "cuantos cuantas todos todas ningun ninguno ninguna alguno alguna algunos algunas "
                   "mention mentions mentioned name names named refer refers contain contains include includes "
                   "have has say says cite cites menciona mencionan nombra nombran cita citan contiene contienen "
                   "incluye incluyen tiene tienen dice dicen".split())


#: Nouns that name a clause as such ("an arbitration clause", "una cláusula de no competencia"; folded): the
#: question's subject is what they qualify, and every clause "holds" them. Closed class.
_CLAUSE_NOUNS = frozenset("clause clauses provision provisions clausula clausulas disposicion disposiciones "
                          "estipulacion estipulaciones".split())


def required_words(question: str) -> list[str]:
    """The question's words a matching passage must hold (module docstring): folded words written
    as names (capitalised, not at a sentence start) or holding a digit, except document nouns and
    kinds (:data:`core.docnames.GENERIC`, :data:`core.docnames.KIND_WORDS`) and the words of the
    clause types it asks about (:func:`core.clauses.match_clause_types`). Order of the question,
    no duplicates; ``[]`` when it restricts by nothing but its subject.
    """
    from core.clauses import match_clause_types

    clause_words = frozenset().union(*(m.words for m in match_clause_types(question)))
    clause_folded = {fold(w) for w in clause_words}
    out: list[str] = []
    for word, start, _end, raw in word_spans(question):
        named = raw[:1].isupper() and not sentence_start(question, start)
        if not (named or _DIGITS.search(raw)):
            continue
        if word in GENERIC or word in KIND_WORDS or word in clause_folded or _root_in(word, clause_folded):
            continue
        if word not in out:
            out.append(word)
    return out


@dataclass(frozen=True)
class Requirement:
    """One restriction of a question about the collection: its folded ``words`` ("florida"; "new",
    "york"), and for a place every form that names it (``forms``, folded word sequences)."""

    words: tuple[str, ...]
    forms: tuple[tuple[str, ...], ...] = ()
    fact: Fact | None = None
    """For a number the question gives with a unit ("3 years", "$5 million", "10%"): that fact
    (:func:`core.facts.facts_of`), held by a text that carries it in any form (:func:`_holds`), not by
    the bare digits ("3.0 SCOPE", "three (3) days" do not hold "3 years")."""

    alternatives: tuple["Requirement", ...] = ()
    """Requirements the question joins by "or" ("New York or Delaware law"): any one of them holds this
    one (:func:`_alternatives`); ``()`` otherwise."""

    @property
    def label(self) -> str:
        """The question's words, as shown ("new york"; "new york or delaware")."""
        if self.alternatives:
            return " or ".join(a.label for a in self.alternatives)
        return " ".join(self.words)

    def held_by(self, words: list[str], stems: set[str] | None = None) -> bool:
        """Whether a text of folded ``words`` (in order) holds the word — itself, or another inflection
        of it when the text's BM25 ``stems`` (both analyses, :func:`_span_tokens`) are given
        ("Affiliates" / "affiliate") — or one form of the place as consecutive words."""
        if not self.forms:
            return all(w in words or (stems is not None and _word_stems(w) and _word_stems(w) <= stems)
                       for w in self.words)
        return any(_contains(words, form) for form in self.forms)


def _word_stems(word: str) -> frozenset[str]:
    """A word's Snowball stems in English and Spanish (empty for a stopword)."""
    from core.textproc import tokenize

    return frozenset(tokenize(word, "en")) | frozenset(tokenize(word, "es"))


def _contains(words: list[str], seq: tuple[str, ...]) -> bool:
    n = len(seq)
    return any(tuple(words[i:i + n]) == seq for i in range(len(words) - n + 1)) if n else False


@lru_cache(maxsize=1)
def _places() -> tuple[tuple[tuple[str, ...], ...], ...]:
    """The places of ``resources/places/places_en_es.toml``, each as its forms (folded word
    sequences, longest first); ``()`` when the file cannot be read."""
    import tomllib

    from core.docnames import fold_words
    from core.paths import resource_path

    try:
        data = tomllib.loads(resource_path("places", "places_en_es.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return ()
    out = []
    for place in data.get("place", []):
        forms = {tuple(fold_words(f)) for f in place.get("forms", [])}
        out.append(tuple(sorted((f for f in forms if f), key=lambda f: -len(f))))
    return tuple(out)


def requirements(question: str) -> list[Requirement]:
    """What a matching sentence must hold (module docstring): each place the question names in a form
    of ``resources/places/`` (any case), then each other :func:`required_words` word; question order."""
    spans = word_spans(question)
    words = [w for w, _s, _e, _r in spans]
    found: list[tuple[int, int, Requirement]] = []
    covered: set[str] = set()
    i = 0
    while i < len(words):
        best = None
        for forms in _places():
            for form in forms:
                if tuple(words[i:i + len(form)]) == form and (best is None or len(form) > len(best[0])):
                    best = (form, forms)
        if best is None:
            i += 1
            continue
        found.append((i, i + len(best[0]), Requirement(best[0], best[1])))
        covered.update(best[0])
        i += len(best[0])
    from core.facts import facts_of

    # a number with a unit is required as that fact (Requirement.fact), a bare number as its digits
    facts = [f for f in facts_of(question) if f.kind in ("duration", "money", "percent")]
    for w in required_words(question):
        if w not in covered:
            fact = next((f for f in facts if w in re.findall(r"\d+", f.text)), None)
            at = words.index(w) if w in words else len(words)
            found.append((at, at + 1, Requirement((w,), fact=fact)))
    return _alternatives(question, spans, sorted(found, key=lambda x: x[0]))


_OR = frozenset({"or", "o", "u"})
#: Words that may stand between two alternatives beside "or" ("New York law or Delaware law", "the laws of
#: Florida or of the State of Texas", "ley de Florida o de Texas"). Closed class.
_OR_FILLER = frozenset({"of", "the", "state", "province", "law", "laws", "de", "del", "la", "el", "los", "las",
                        "estado", "provincia", "ley", "leyes"})


def _alternatives(question: str, spans: list, found: list[tuple[int, int, Requirement]]) -> list[Requirement]:
    """``found`` (start, end word index in ``spans``, requirement; question order) with the runs the question
    joins by "or" made one requirement that any of them holds ("New York or Delaware", "Florida, Texas or
    Utah": a comma between two of them, "or" before the last): required together, a document would need
    every place, and no contract is governed by two laws. Adjacent names without a comma stay apart."""
    words = [w for w, _s, _e, _r in spans]
    groups: list[tuple[list[Requirement], bool]] = []
    prev_end = None
    for start, end, r in found:
        gap = set(words[prev_end:start]) if prev_end is not None and start >= prev_end else None
        comma = gap == set() and 0 < prev_end and start < len(spans) and "," in question[spans[prev_end - 1][2]:spans[start][1]]
        if gap is not None and gap <= _OR | _OR_FILLER and (gap & _OR or comma):
            groups[-1][0].append(r)
            groups[-1] = (groups[-1][0], groups[-1][1] or bool(gap & _OR))
        else:
            groups.append(([r], False))
        prev_end = end
    out: list[Requirement] = []
    for group, joined in groups:
        if joined and len(group) > 1:
            out.append(Requirement(tuple(w for r in group for w in r.words), alternatives=tuple(group)))
        else:
            out.extend(group)
    return out


def _root_in(word: str, words: set[str]) -> bool:
    """Whether ``word`` is another inflection of one of ``words`` ("Laws" of "law")."""
    from core.docnames import word_root

    return any(word_root(word) == word_root(w) for w in words)


def _subject(question: str, required: list[str]) -> str:
    """The question without its required words, document nouns and kinds: what a matching sentence
    must also be about."""
    from core.textproc import all_stopwords

    drop = set(required) | _FRAME | _CLAUSE_NOUNS | KIND_WORDS | (GENERIC - all_stopwords())
    # function words stay: they tell the subject's language (core.textproc.detect_language)
    return " ".join(raw for word, _s, _e, raw in word_spans(question) if word not in drop)


def _span_tokens(text: str) -> set[str]:
    from core.textproc import tokenize

    return set(tokenize(text, "en")) | set(tokenize(text, "es"))


def _holds(text: str, required: list[Requirement]) -> bool:
    from core.facts import carries

    words = [w for w, _s, _e, _r in word_spans(text)]
    stems = _span_tokens(text)
    def held(r: Requirement) -> bool:
        if r.alternatives:
            return any(held(a) for a in r.alternatives)
        return r.held_by(words, stems) if r.fact is None else carries(text, r.fact)

    return all(held(r) for r in required)


def matching_sentence(question: str, required: list[Requirement], chunks: list[Chunk], workspace=None
                      ) -> tuple[Chunk, int, int] | None:
    """The sentence of ``chunks`` (retrieval order) that satisfies every requirement of ``required``
    (:func:`requirements`) and holds the question's subject (module docstring), as ``(chunk, start,
    end)`` (chunk offsets, characters); ``None`` when no sentence does. ``workspace`` gives the terms'
    IDF weights (``None``: 1 each)."""
    from core.passage_terms import QuestionTerms
    from core.sentences import sentence_spans

    subject = QuestionTerms(_subject(question, [w for r in required for w in r.words]), workspace)
    # "Which of these contracts mention Ontario?": nothing but the requirement to hold
    about = bool(subject.plain or subject.words or subject.groups)
    whole = QuestionTerms(question, workspace)
    best: tuple[float, int, tuple[Chunk, int, int]] | None = None
    for rank, chunk in enumerate(chunks):
        for start, end in sentence_spans(chunk.text, chunk.lang):
            text = chunk.text[start:end]
            if not _holds(text, required):
                continue
            tokens = _span_tokens(text)
            if about and subject.coverage(tokens, chunk.lang) <= 0:
                continue
            key = (whole.coverage(tokens, chunk.lang), -rank)
            if best is None or key > best[:2]:
                best = (key[0], key[1], (chunk, start, end))
    return best[2] if best is not None else None


def _verified(workspace, settings: Settings, chunk: Chunk, start: int, end: int):
    """The span ``chunk.text[start:end]`` as a verified passage claim with its clause (as
    :func:`core.passages.passages_answer` makes them), or ``None`` if the verifier does not find it
    exactly where it is cited (cannot happen for source text; never shown if it did)."""
    from core.passage_context import attach_contexts, in_delivered, verify_source_spans

    claims, _rejected = verify_source_spans([(chunk, start, end)], {chunk.chunk_id: chunk}, settings)
    if not claims:
        return None
    attach_contexts(claims, in_delivered(workspace.manifest, {chunk.text[start:end]: (chunk, start, end)}))
    return claims[0]


def _documents(workspace, question: str, settings: Settings, required: list[Requirement]) -> tuple[list[str], int]:
    """The documents to search (eligible, active) and how many were left out (:data:`MAX_DOCUMENTS`).

    Past the limit, the documents whose chunks a workspace-wide retrieval ranks first: for the
    question's required words alone when it has some (the documents that name them come first),
    then for the question; then the rest in doc_id order."""
    eligible = workspace.eligible_doc_ids()
    docs = sorted(d["doc_id"] for d in workspace.documents()
                  if d.get("status", "active") == "active" and d["doc_id"] in eligible)
    if len(docs) <= MAX_DOCUMENTS:
        return docs, 0
    from core.retrieval import retrieve

    queries = ([" ".join(r.label for r in required)] if required else []) + [question]
    first: list[str] = []
    for query in queries:
        ranked = retrieve(workspace, query, settings, Trace(), k=4 * MAX_DOCUMENTS)
        first += [s.chunk.doc_id for s in ranked if s.chunk.doc_id in eligible]
    first = list(dict.fromkeys(first))
    order = first + [d for d in docs if d not in set(first)]
    return order[:MAX_DOCUMENTS], len(docs) - MAX_DOCUMENTS


def collection_answer(workspace, question: str, settings: Settings, trace: Trace,
                      cancel: Callable[[], bool], backend=None) -> Generator[ProgressEvent, None, Answer]:
    """The per-document passages answer of a question about the whole collection (module docstring).

    Yields ``ProgressEvent(stage="documents", done, total, item=doc_id)`` once per document.

    Returns:
        An :class:`Answer` with ``kind="passages"`` and :attr:`Answer.documents` filled: ``answered``
        with one claim per matching document (documents in the order searched), or ``abstained``
        (:data:`NONE_MATCH`) consulting every document searched.

    Raises:
        Cancelled: ``cancel()`` turned true (between documents).
    """
    from core.errors import Cancelled
    from core.grid import GridColumn, compute_cell
    from core.passages import PASSAGES_MODEL, PassagesBackend

    t0 = time.perf_counter()
    backend = backend or PassagesBackend()
    required = requirements(question)
    docs, left_out = _documents(workspace, question, settings, required)
    profiles, hashes = workspace.doc_profiles()
    column = GridColumn(id="question", question=question)
    findings: list[DocumentFinding] = []
    claims = []
    consulted: list[ConsultedDoc] = []
    yield ProgressEvent(stage=STAGE, done=0, total=len(docs), message="Searching each document")
    for i, doc_id in enumerate(docs):
        if cancel():
            raise Cancelled()
        cell = compute_cell(workspace, doc_id, column, settings, backend, hashes.get(doc_id, ""), cancel)
        answer = cell.answer
        title = profiles[doc_id].title if doc_id in profiles else ""
        finding = DocumentFinding(doc_id=doc_id, title=title, cell=cell.status)
        claim = None
        if required:
            chunks = workspace.get_chunks(answer.trace.context) if answer is not None else {}
            ranked = [chunks[c] for c in (answer.trace.context if answer is not None else []) if c in chunks]
            found = matching_sentence(question, required, ranked, workspace)
            if found is not None:
                claim = _verified(workspace, settings, *found)
            else:
                finding.missing = [r.label for r in required]
        elif answer is not None:
            claim = listed_passage(workspace, settings, question, cell)
        if claim is not None:
            finding.matches, finding.claim = True, len(claims)
            claims.append(claim)
        elif answer is not None:
            finding.closest = _closest(answer)
        if answer is not None:
            consulted += [d for d in _consulted(answer) if d.doc_id == doc_id]
        findings.append(finding)
        yield ProgressEvent(stage=STAGE, done=i + 1, total=len(docs), item=doc_id, message="Searching each document")
    trace.backend, trace.model = PassagesBackend.name, PASSAGES_MODEL
    trace.scope = ScopeInfo(query=question)
    trace.timings_ms["documents"] = round((time.perf_counter() - t0) * 1000, 1)
    trace.not_searched = left_out
    if claims:
        return Answer(question=question, workspace=workspace.name, status="answered", kind="passages",
                      claims=claims, trace=trace, documents=findings)
    abstention = Abstention(message=NONE_MATCH, query=question, consulted=consulted,
                            suggestion="Try the words the documents themselves would use, or open the review grid.")
    return Answer(question=question, workspace=workspace.name, status="abstained", kind="passages",
                  abstention=abstention, trace=trace, documents=findings)


def listed_passage(workspace, settings: Settings, question: str, cell):
    """The verified passage a document is listed with for a question about the collection without required
    words, ``None`` when it is not listed; ``cell`` is the document's review-grid cell (:func:`core.grid.compute_cell`).

    A question that asks for a clause type (a passages answer with ``trace.clause_types``): the cell finds the
    clause (``answered`` or ``weak``: the grid's clause-form decision, :mod:`core.grid_decision`), and the document
    is listed with the first of its passages — those its answer rests on (:func:`core.grid_cells.rested_on`), the
    other places the cell shows, then the span of its retrieved chunks most like the clause type
    (:func:`core.collection_form.form_span`) — that holds the question's subject (a term of the question other
    than the collection frame and "clause", in either language, as for required words) and reads like the asked clause type
    (:func:`core.collection_form.span_form_margins` at least :data:`core.collection_form.LIST_FORM_MARGIN`).
    Stricter than the cell, which decides on the form of any retrieved sentence and then shows the passage that
    scores best against the question: a list's one passage per document must itself be the clause (tryout
    2026-12-02: "Which … contain an arbitration clause?" listed Canopetroleum by "19. Other Agreements" and King
    by "16.3 Entire Agreement"). No clause type read: the cell ``answered``, by its first passage at the answer's
    threshold (:func:`_over_bar`)."""
    from core.collection_form import LIST_FORM_MARGIN, form_span, span_form_margins
    from core.grid_cells import rested_on
    from core.passage_terms import QuestionTerms

    answer = cell.answer
    if answer is None:
        return None
    types = list(answer.trace.clause_types) if answer.kind == "passages" else []
    if not types:
        return _over_bar(answer) if cell.status == "answered" else None
    if cell.status not in ("answered", "weak"):
        return None
    own = [c for c in rested_on(answer) if c.citations] if cell.status == "answered" else []
    chunks = workspace.get_chunks(list(dict.fromkeys(p.chunk_id for p in cell.passages)))
    places = [span for p in cell.passages if p.chunk_id in chunks
              and (span := _located(chunks[p.chunk_id], p.text, p.start)) is not None]
    most = form_span(answer, workspace)  # last: the span of the retrieved chunks most like the clause type
    places += [most[:3]] if most is not None else []
    texts = [c.text for c in own] + [ch.text[s:e] for ch, s, e in places]
    margins = span_form_margins(texts, types)
    if margins is None:  # the asked types have no wording to compare with
        return _over_bar(answer) if cell.status == "answered" else None
    subject = QuestionTerms(_subject(question, []), workspace)
    about = bool(subject.plain or subject.words or subject.groups)
    weaker = _weaker_texts(answer) if cell.status == "answered" else set()
    langs = [c.citations[0].chunk_id for c in own]
    own_lang = {cid: ch.lang for cid, ch in workspace.get_chunks(langs).items()} if langs else {}
    for i, (text, margin) in enumerate(zip(texts, margins)):
        if margin < LIST_FORM_MARGIN:
            continue
        lang = own_lang.get(own[i].citations[0].chunk_id, "en") if i < len(own) else places[i - len(own)][0].lang
        if about and subject.coverage(_span_tokens(text), lang) <= 0:
            continue
        if i >= len(own) and " ".join(text.split()) in weaker:
            continue  # a place that is one of the answer's own passages marked weaker is no match (review 2026-12-02)
        claim = own[i] if i < len(own) else _verified(workspace, settings, *places[i - len(own)])
        if claim is not None:
            return claim
    return None


def _weaker_texts(answer) -> set[str]:
    """Whitespace-normalised texts of ``answer``'s passages under its threshold (those the answer marks "weaker",
    :func:`core.passage_decision.below_bar`): a document is never listed by one of them."""
    from core.passage_decision import below_bar

    if not answer.claims or answer.trace.passage_threshold is None:
        return set()
    flags = below_bar([c.passage_score for c in answer.claims], answer.trace.passage_threshold)
    return {" ".join(c.text.split()) for c, weak in zip(answer.claims, flags) if weak}


def _located(chunk: Chunk, text: str, near: int) -> tuple[Chunk, int, int] | None:
    """``text`` (a cell's shown passage) as ``(chunk, start, end)`` offsets of ``chunk.text``: its occurrence at or
    after ``near`` (the passage's recorded start, which for an answer's passage may be its clause's), else the
    first; ``None`` when the chunk does not hold it."""
    at = chunk.text.find(text, max(0, near))
    at = chunk.text.find(text) if at < 0 else at
    return (chunk, at, at + len(text)) if at >= 0 and text else None


def _over_bar(answer: Answer):
    """The first claim of a document's answered passages result that scores at its threshold or over
    (:func:`core.passage_decision.below_bar`): the passage the document matches by. The shown order
    reads more than the score, so the first claim may be one the answer marks "weaker" (under the
    threshold, not a match); ``None`` when every claim is (the document is then not listed as matching)."""
    from core.grid_cells import rested_on

    return next((c for c in rested_on(answer) if c.citations), None)


def _closest(answer: Answer):
    """A document's closest passage when it does not match: its first passage or weak candidate,
    as a weak passage (display only)."""
    from core.passage_context import weak_passage

    if answer.claims:
        return weak_passage(answer.claims[0])
    if answer.abstention is not None and answer.abstention.candidates:
        return answer.abstention.candidates[0]
    return None


def _consulted(answer: Answer) -> list[ConsultedDoc]:
    if answer.abstention is not None:
        return list(answer.abstention.consulted)
    by_doc: dict[str, ConsultedDoc] = {}
    for claim in answer.claims:
        for cit in claim.citations:
            doc = by_doc.setdefault(cit.doc_id, ConsultedDoc(doc_id=cit.doc_id, path=cit.path, pages=[]))
            if cit.page not in doc.pages:
                doc.pages.append(cit.page)
    return list(by_doc.values())


def names_one_document(workspace, question: str, settings: Settings) -> bool:
    """Whether ``question``, though its grammar is a collection's ("all prior agreements"), is about the one
    document it names in the singular (:meth:`core.docrefs.DocResolver.resolve`: "Does the Flotek agreement
    supersede all prior agreements?"). Review 2026-12-02: asked of every document with "Flotek" required, it
    showed a Flotek sentence about minimum quantities as the match. "Which of the King agreements…" (plural
    only) stays a question about the collection."""
    from core.clauses import match_clause_types
    from core.docref_grammar import singular_reference
    from core.docrefs import DocResolver

    if not singular_reference(question):
        return False
    matches = match_clause_types(question) if settings.clause_expansion else []
    protected = frozenset().union(*(m.words for m in matches)) if matches else frozenset()
    profiles, _ = workspace.doc_profiles()
    eligible = workspace.eligible_doc_ids()
    return bool(DocResolver([p for d, p in profiles.items() if d in eligible]).resolve(question, protected).doc_ids)


def ask(workspace, question: str, settings: Settings | None = None, *, backend=None,
        cancel: Callable[[], bool] | None = None, history=None, follow_up: bool | None = None,
        scope: list[str] | None = None) -> Generator[ProgressEvent, None, Answer]:
    """What asking a question runs (``verbatim ask``, the window): :func:`collection_answer` for a
    question about the collection answered with passages — no document chosen (``scope`` ``None``),
    not read as a follow-up on request, references resolved (not ``--all-docs``), two documents or
    more, not one document the question names (:func:`names_one_document`) — else :func:`core.pipeline.answer_question` with the same arguments (see there).

    A question about the collection is never a follow-up ("these agreements" are the workspace's,
    not the previous answer's): the history is not read for it.
    """
    from core.docrefs import collection_question
    from core.generate import backend_choice
    from core.pipeline import answer_question

    settings = settings or workspace.settings
    cancel = cancel or (lambda: False)
    if (scope is None and follow_up is not True and settings.resolve_references and collection_question(question)
            and len(workspace.eligible_doc_ids()) > 1
            and (backend.name if backend is not None else backend_choice(settings)) == "passages"
            and not names_one_document(workspace, question, settings)):
        t0 = time.perf_counter()
        trace = Trace()
        answer = yield from collection_answer(workspace, question.strip(), settings, trace, cancel, backend)
        trace.timings_ms["total"] = round((time.perf_counter() - t0) * 1000, 1)
        return answer
    return (yield from answer_question(workspace, question, settings, backend=backend, cancel=cancel,
                                       history=history, follow_up=follow_up, scope=scope))

