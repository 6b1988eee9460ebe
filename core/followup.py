"""Follow-up questions: decide whether a question depends on the conversation, and if so rewrite
it into a standalone one.

:func:`detect_follow_up` runs first and costs no model call: a question that stands on its own
is searched as written (a new topic after an unrelated one must not carry the old topic's words
or scope into retrieval — issue #16: "What is the capital of Mongolia?" had been read as a
follow-up to a question about impact levels). Only a follow-up goes to :func:`condense_question`.

Split out of :mod:`core.pipeline`; :mod:`core.pipeline` re-exports its names.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from pydantic import ValidationError

from core.docrefs import collection_question
from core.errors import ModelUnavailableError
from core.generate import Backend, validation_summary
from core.normalize import normalized
from core.prompts import CONDENSE_PROMPT, condense_message
from core.textproc import tokenize_query
from core.types import Answer, StandaloneQuestion, Turn


MAX_HISTORY_TURNS = 3
"""Most recent turns given to the follow-up rewrite; older ones rarely carry the referent."""
MAX_TURN_ANSWER_CHARS = 400
"""Each earlier answer is cut to this many characters in the rewrite prompt."""
REWRITE_MAX_TOKENS = 96
"""Answer budget of the rewrite call: one question in a small JSON object."""
MAX_REWRITE_CHARS = 400
"""A rewrite longer than this (or than twice the follow-up and the previous question
together, plus 80) is not a question but a runaway output: the fallback is used."""
FALLBACK_FORM = "{question} (follow-up to: {previous})"
"""The deterministic standalone form used when the model's rewrite is unusable: the
follow-up, then the previous question, so retrieval sees the referent's words."""


def turn_of(answer: Answer) -> Turn:
    """The :class:`Turn` of an earlier answer: its question and its *verified* claims' text."""
    return Turn(question=answer.question, answer=" ".join(c.text for c in answer.claims))


def fallback_standalone(question: str, history: list[Turn]) -> str:
    """:data:`FALLBACK_FORM` with the most recent previous question (the question itself when it
    repeats that question)."""
    previous = history[-1].question.strip()
    if normalized(previous) == normalized(question):
        return question
    return FALLBACK_FORM.format(question=question, previous=previous)


def fallback_previous(standalone: str, question: str) -> str | None:
    """The previous question inside a :data:`FALLBACK_FORM` rewrite of ``question``, or ``None``
    when ``standalone`` is not in that form (the window words the form in its own language)."""
    head, tail = FALLBACK_FORM.split("{question}")[1].split("{previous}")
    prefix = question + head
    if standalone.startswith(prefix) and standalone.endswith(tail) and len(standalone) > len(prefix) + len(tail):
        return standalone[len(prefix): len(standalone) - len(tail)]
    return None


def _rewrite_problem(rewrite: str, question: str, history: list[Turn], finish_reason: str) -> str:
    """Why a model rewrite cannot be used ('' when it can)."""
    if finish_reason == "length":
        return "cut off at its token budget"
    if not rewrite or not any(ch.isalpha() for ch in rewrite):
        return "empty"
    limit = min(MAX_REWRITE_CHARS, 2 * (len(question) + len(history[-1].question)) + 80)
    if len(rewrite) > limit:
        return f"too long ({len(rewrite)} characters, limit {limit})"
    words = rewrite.casefold().split()
    if len(words) >= 8 and len(set(words)) <= len(words) // 3:
        return "repetitive"
    previous = history[-1].question
    if normalized(rewrite) == normalized(previous) and normalized(question) != normalized(previous):
        return "repeats the previous question"
    own, new = set(tokenize_query(question)), set(tokenize_query(rewrite))
    if not new:
        return "no content word to search for"
    if own and not own & new:
        return "drops every content word of the follow-up"
    return ""


def condense_question(backend: Backend, question: str, history: list[Turn]) -> tuple[str, str, str]:
    """Rewrite a follow-up ``question`` into a standalone question, with the conversation ``history``.

    One call at temperature 0 (the backends' ``chat_json``) with ``core.prompts.CONDENSE_PROMPT``
    (adapted from llama-index's ``CondenseQuestionChatEngine``), the last
    :data:`MAX_HISTORY_TURNS` turns (answers cut to :data:`MAX_TURN_ANSWER_CHARS` characters)
    and a reply constrained to :class:`StandaloneQuestion`. The rewrite is *used* only if it is
    not empty, not cut off, not longer than its limit (:data:`MAX_REWRITE_CHARS`), not a
    repetition loop, has content words to search for (BM25 query tokens, both languages),
    keeps at least one content word of the follow-up when the follow-up has any, and is not
    merely the previous question again; otherwise — and when the reply does not parse —
    the deterministic :func:`fallback_standalone` is used (the embedded 135M model often
    returns an empty, copied or runaway string).

    Args:
        history: earlier turns, oldest first; must not be empty.

    Returns:
        ``(standalone, method, detail)``: ``method`` is ``"model"`` or ``"fallback"``; ``detail``
        says why the model's rewrite was rejected (with its text), ``""`` when it was used.

    Raises:
        ModelUnavailableError: the backend cannot be reached (any other failure of the
            call falls back, with the error in ``detail``).
    """
    from core.replies import parse_json_object

    turns = [(t.question.strip(), " ".join(t.answer.split())[:MAX_TURN_ANSWER_CHARS]) for t in history[-MAX_HISTORY_TURNS:]]
    while True:
        messages = [
            {"role": "system", "content": CONDENSE_PROMPT},
            {"role": "user", "content": condense_message(turns, question)},
        ]
        prompt_tokens = sum(backend.count_tokens(m["content"]) for m in messages) + 16
        if prompt_tokens + REWRITE_MAX_TOKENS <= backend.context_window or len(turns) == 1:
            break
        turns = turns[1:]  # the oldest turn goes first
    if prompt_tokens + REWRITE_MAX_TOKENS > backend.context_window:
        return fallback_standalone(question, history), "fallback", "the conversation does not fit the context window"
    try:
        result = backend.chat_json(messages, StandaloneQuestion.model_json_schema(),
                                   num_ctx=prompt_tokens + REWRITE_MAX_TOKENS, max_tokens=REWRITE_MAX_TOKENS)
    except ModelUnavailableError:
        raise  # the answer call would fail the same way: the user must hear it
    except Exception as exc:  # noqa: BLE001 - the rewrite is an aid: any other failure falls back, recorded
        return fallback_standalone(question, history), "fallback", f"the rewrite call failed: {exc!r}"[:200]
    try:
        rewrite = " ".join(StandaloneQuestion.model_validate(parse_json_object(result.text)).question.split())
    except (ValidationError, ValueError) as exc:
        return fallback_standalone(question, history), "fallback", f"not valid: {validation_summary(exc)[:160]}"
    problem = _rewrite_problem(rewrite, question, history, result.finish_reason)
    if problem:
        return fallback_standalone(question, history), "fallback", f"{problem}: {rewrite[:160]!r}"
    return rewrite, "model", ""


# --- follow-up detection ---------------------------------------------------------------
#
# Why hand-written: what marks a follow-up is closed-class grammar — pronouns, demonstratives,
# continuation words, the missing subject of an elliptical question — in the two languages the
# product speaks. No library installed here detects it (coreference resolvers need models of
# hundreds of MB and English only); the rules below are the detector's whole idea, measured on
# tests/data/followup/ (labelled question pairs, English and Spanish) by tests/core/test_followup_detect.py.

# English function words a question is built from (closed classes: question words, auxiliaries,
# pronouns, determiners, prepositions, conjunctions, a few degree adverbs). bm25s's English list
# (Lucene's 33 words) is too short to find the words that name a subject.
_EN_FUNCTION = frozenset("""
a an the and or but nor so then if of in on at by for with without from to into onto about above
below over under after before between during through per via within against among than as
what which who whom whose when where why how whether is are was were be been being am do does did
done doing have has had having can could may might must shall should will would ought
i me my we us our you your he him his she her it its they them their this that these those there
here not no yes any some all each every both either neither much many more most less least few
very too also just only still yet ever again such same other another one ones own else
please tell explain show give list say""".split())
_ES_EXTRA = frozenset("""qué que quién quien quiénes cuál cuáles cuándo cuando cómo como dónde donde
cuánto cuánta cuántos cuántas por para sobre según entre hasta desde hacia tras ante bajo mediante
puede pueden podría debe deben hay tiene tienen explica explique dime indica indique""".split())

# Pronouns that point back to something named earlier; a question whose own words come first
# (at least _OWN_WORDS_BEFORE content words before the pronoun) is read as pointing inside itself.
_EN_PRONOUNS = frozenset("it its they them their theirs he him his she her hers".split())
_ES_PRONOUNS = frozenset("él ella ellos ellas ello".split())
_ES_POSSESSIVES = frozenset("su sus".split())
_OWN_WORDS_BEFORE = 3
# "Is it possible to …", "it is necessary that …": a dummy "it", not a reference.
_EN_DUMMY_ADJ = frozenset("""possible necessary true legal lawful allowed permitted required mandatory ok okay
enough advisable illegal likely common usual""".split())
# Demonstratives: "this fee", "that obligation", "esas obligaciones", "eso" point back, except when
# they name the documents of the workspace themselves ("which of these documents …").
_EN_DEMONSTRATIVES = frozenset("this these those".split())
_ES_DEMONSTRATIVES = frozenset("""este esta estos estas ese esa esos esas aquel aquella aquellos aquellas
esto eso aquello""".split())
_OWN_SCOPE_NOUNS = frozenset("""document documents file files folder folders workspace documento documentos
archivo archivos fichero ficheros carpeta carpetas""".split())
# "that" is a pronoun after these words ("does that …", "about that", "in that case"); after a
# noun or a verb it is a relative or a conjunction ("a clause that …", "say that …").
_EN_THAT_AFTER = frozenset("""is was are were does did do can could will would should about for of in on with
from after before to what why how when where""".split())
_LEADING = re.compile(
    r"^(?:and|but|also|or|so|then|plus|what about|how about|what else|anything else|same|"
    r"y|e|pero|también|tambien|además|ademas|o|entonces|pues|qué hay de|que hay de|qué tal|que tal)\b")
_ANYWHERE = re.compile(
    r"\b(?:too|also|as well|instead|the same|the former|the latter|the above|the said|aforementioned|"
    r"mentioned above|(?:the )?previous one|the (?:first|second|third|last|other|next) one|"
    r"también|tampoco|además|el mismo|la misma|lo mismo|los mismos|las mismas|dicho|dicha|dichos|dichas|"
    r"mencionado|mencionada|citado|citada|lo anterior|el anterior|la anterior|el siguiente|la siguiente)\b")
# An article and an ordinal with no noun after it: "explica el segundo", "¿y el siguiente?".
_ES_BARE_ORDINAL = re.compile(
    r"\b(?:el|la|los|las) (?:primero|primera|segundo|segunda|tercero|tercera|último|última|otro|otra)\s*[?.!]*$")
# Spanish object pronouns: attached to an infinitive or gerund ("subirlo", "firmándolo"), or
# before the verb right after a question word, "no" or "se" ("¿cuándo lo firmó?").
_ES_ENCLITIC = re.compile(r"\b\w{3,}(?:ar|er|ir|ndo)(?:lo|la|los|las|le|les|selo|sela|selos|selas)\b")
_ES_PROCLITIC = re.compile(
    r"(?:^|\b(?:qué|que|quién|quien|quiénes|cuándo|cuando|cómo|como|dónde|donde|cuánto|cuánta|cuál|cuáles|"
    r"no|se)\s+)(lo|la|los|las|le|les)\s+(\w+)")
_ES_LO_ARTICLE = re.compile(r"\w+(?:ado|ada|ido|ida|to|so|cho)$")  # "lo dispuesto", "lo pactado": an article
_WORD = re.compile(r"\w+(?:[-'’]\w+)*", re.UNICODE)


@dataclass(frozen=True)
class FollowUpDecision:
    """Whether a question depends on the conversation.

    Attributes:
        follow_up: True when the question points back (rewrite it before searching).
        cue: what decided it, in English for logs and the trace: the words that point back
            (``"pronoun 'it'"``, ``"starts with 'and'"``), ``"names no subject"`` for an
            elliptical question, or ``"stands on its own"``.
    """

    follow_up: bool
    cue: str


def _content_words(words: list[str]) -> list[str]:
    from core.textproc import _STOPWORDS

    spanish = _STOPWORDS["es"]
    return [w for w in words if w not in _EN_FUNCTION and w not in _ES_EXTRA and w not in spanish
            and (len(w) > 1 or w.isdigit())]


def _plain(text: str) -> str:
    return unicodedata.normalize("NFC", " ".join(text.casefold().split()))


def detect_follow_up(question: str, history: list[Turn] | None = None) -> FollowUpDecision:
    """Decide whether ``question`` depends on earlier turns (no model call; English and Spanish).

    A follow-up, in order of the checks:

    1. it starts with a continuation ("and …", "what about …", "¿y …?", "¿qué hay de …?");
    2. it holds words that point back anywhere ("too", "also", "the same", "el mismo", "dicho",
       "lo anterior", "the second one", "el siguiente");
    3. unless it asks about the documents as a whole ("Which of these agreements are governed
       by Florida law?", "¿cuáles de estos contratos…?": :func:`core.docrefs.collection_question`),
       a demonstrative ("this fee", "esas obligaciones", "eso"; not "these documents"), a
       pronoun "that" after an auxiliary or preposition ("does that …", "in that case"), a
       third-person pronoun or possessive ("it", "they", "its", "él", "su"), or a Spanish object
       pronoun ("¿cuándo lo firmó?", "¿puede subirlo?") — unless at least
       :data:`_OWN_WORDS_BEFORE` content words come before it in the question, which then
       holds its own referent ("may the lessee pay the rent late if it …"); a dummy "it"
       ("is it possible to …") is no reference;
    4. it names at most one content word (no subject of its own: "how often?", "¿cuándo vence?").

    Otherwise it stands on its own and is searched as written. Without ``history`` nothing
    is a follow-up. Measured accuracy: tests/core/test_followup_detect.py prints it per language.
    """
    if not history:
        return FollowUpDecision(False, "no earlier question")
    text = _plain(question).strip(" ¿?¡!.")
    words = _WORD.findall(text)
    if not words:
        return FollowUpDecision(True, "names no subject")
    m = _LEADING.match(text)
    if m:
        return FollowUpDecision(True, f"starts with {m.group(0)!r}")
    m = _ANYWHERE.search(text) or _ES_BARE_ORDINAL.search(text)
    if m:
        return FollowUpDecision(True, f"{m.group(0).strip(' ?.!')!r} points back")
    if collection_question(question):
        return FollowUpDecision(False, "asks about the documents as a whole")
    cue = _pointer(text, words, question)
    if cue:
        return FollowUpDecision(True, cue)
    if len(_content_words(words)) <= 1:
        return FollowUpDecision(True, "names no subject")
    return FollowUpDecision(False, "stands on its own")


_DOC_NOUNS = frozenset("""agreement agreements contract contracts deal deals nda ndas lease leases document
file acuerdo acuerdos contrato contratos convenio convenios documento arrendamiento""".split())
#: Farthest (in words) a name stands from the document noun it qualifies ("el contrato con Vayyar",
#: "the Holiday RV endorsement agreement").
_NAME_NEAR = 3


def _names_a_document(words: list[str], raw: list[str]) -> bool:
    """Whether ``words`` (folded; ``raw`` as typed) name a document of their own: a document noun
    ("contrato", "agreement", "NDA") with a name within :data:`_NAME_NEAR` words — a capitalised
    word that is no function word ("el contrato con Vayyar", "Acme's NDA", "the Loop Industries
    agreement"). A pronoun after it ("¿quién puede rescindirlo?") points to that document, not back
    into the conversation: tryout Q11, "el contrato con Vayyar: ¿quién puede rescindirlo y con qué
    preaviso?" asked after a question about another contract had been read as a follow-up."""
    if not raw:
        return False
    for j, w in enumerate(words):
        if w not in _DOC_NOUNS:
            continue
        for k in range(max(0, j - _NAME_NEAR), min(len(words), j + _NAME_NEAR + 1)):
            if k != j and raw[k][:1].isupper() and words[k] not in _DOC_NOUNS and _content_words([words[k]]):
                return True
    return False


def _dummy_it(words: list[str], i: int) -> bool:
    """``words[i]`` is "it" in "is it possible …" / "it is necessary …" (no referent)."""
    after = words[i + 1:i + 3]
    return (i > 0 and words[i - 1] in ("is", "was", "be") and after[:1] and after[0] in _EN_DUMMY_ADJ) or (
        len(after) == 2 and after[0] in ("is", "was") and after[1] in _EN_DUMMY_ADJ)


def _pointer(text: str, words: list[str], question_raw: str = "") -> str:
    """The first pronoun or demonstrative of ``words`` that points outside the question ('' if none).

    ``question_raw``: the question as typed (its capitals tell a name), whose folded words are
    ``words``; a pronoun after the question's own naming of a document points to that document
    (:func:`_names_a_document`)."""

    raw = _WORD.findall(unicodedata.normalize("NFC", " ".join(question_raw.split())).strip(" ¿?¡!."))
    if len(raw) != len(words):  # casefolding changed the word boundaries: no raw forms
        raw = []

    def own_before(i: int) -> bool:
        return len(_content_words(words[:i])) >= _OWN_WORDS_BEFORE or _names_a_document(words[:i], raw[:i])

    for i, w in enumerate(words):
        nxt = words[i + 1] if i + 1 < len(words) else ""
        prev = words[i - 1] if i > 0 else ""
        if w in _EN_DEMONSTRATIVES or w in _ES_DEMONSTRATIVES:
            if nxt in _OWN_SCOPE_NOUNS or (w in ("these", "those") and nxt in ("who", "which", "that")):
                continue
            if not own_before(i):
                return f"{w!r} points back"
        elif w == "that" and (i == 0 or prev in _EN_THAT_AFTER) and prev not in ("so", "such", "now"):
            if not own_before(i):
                return "'that' points back"
        elif w in _EN_PRONOUNS or w in _ES_PRONOUNS or w in _ES_POSSESSIVES:
            if w == "it" and _dummy_it(words, i):
                continue
            if w in ("her",) and nxt and nxt not in _EN_FUNCTION and own_before(i):
                continue
            if not own_before(i):
                return f"pronoun {w!r}"
    m = _ES_PROCLITIC.search(text)
    if m:
        pronoun, verb = m.group(1), m.group(2)
        article = (pronoun == "lo" and (verb in ("que", "cual") or _ES_LO_ARTICLE.match(verb)))
        le_doubled = pronoun in ("le", "les") and re.search(r"\b(?:a|al)\s+\w+", text[m.end():])
        position = len(_WORD.findall(text[:m.start(1)]))
        if not article and not le_doubled and not own_before(position):
            return f"pronoun {pronoun!r}"
    m = _ES_ENCLITIC.search(text)
    if m:
        position = len(_WORD.findall(text[:m.start()]))
        if not own_before(position):
            return f"pronoun in {m.group(0)!r}"
    return ""
