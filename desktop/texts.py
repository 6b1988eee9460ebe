"""Human texts for core's enum-like values (stages, rejection reasons, document status).

Each text goes through ``QCoreApplication.translate`` with the context
``"Texts"`` at call time, so the UI language can change without a restart and
``pyside6-lupdate`` finds every literal.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject

_CTX = "Texts"


class Plurals(QObject):
    """Texts with a count, through Qt's ``%n`` plural forms (context ``Plurals``).

    A class because ``pyside6-lupdate`` marks a string as plural only in a ``self.tr(text, "", n)``
    call inside one; ``QCoreApplication.translate(context, text, "", n)`` is extracted as a plain
    string, and Spanish then read "1 quitadas" (issue #16).
    """

    def sentences_removed(self, n: int) -> str:
        """"1 sentence removed" / "3 sentences removed"."""
        return self.tr("%n sentence(s) removed", "", n)

    def citations_dropped(self, n: int) -> str:
        """"1 citation dropped" / "2 citations dropped"."""
        return self.tr("%n citation(s) dropped", "", n)

    def reading_passages(self, n: int) -> str:
        """The answering stage while the model reads the ``n`` passages delivered to it."""
        return self.tr("Reading %n passage(s)…", "", n)

    def tokens_so_far(self, n: int) -> str:
        """The answering stage while a model's answer streams in (``n`` tokens so far)."""
        return self.tr("Generating the answer — %n token(s) so far…", "", n)


_plurals: Plurals | None = None


def plurals() -> Plurals:
    """The process's :class:`Plurals` (created on first use)."""
    global _plurals
    if _plurals is None:
        _plurals = Plurals()
    return _plurals


def stage_text(stage: str, fallback: str = "", n: int = 0, total: int = 0) -> str:
    """What the window says while a question is being answered, for a ProgressEvent stage.

    ``n``: the event's count where the stage has one (``reading``: passages given to the
    model; ``generating`` while streaming: tokens so far). An unknown stage shows
    ``fallback`` (core's English message) rather than nothing.
    """
    t = QCoreApplication.translate
    if stage == "reading":
        return plurals().reading_passages(n)
    if stage == "generating" and n > 0:
        return plurals().tokens_so_far(n)
    if stage == "documents":  # a question about the whole collection (core.collection)
        return t(_CTX, "Searching each document on its own ({done} of {total})…").format(done=n, total=total)
    texts = {
        "starting": t(_CTX, "Waiting for the engine to load the search libraries…"),
        "rewriting": t(_CTX, "Reading the question in the light of the conversation…"),
        "retrieving": t(_CTX, "Searching the documents…"),
        "loading": t(_CTX, "Loading the model…"),
        "generating": t(_CTX, "Generating the answer…"),
        "scoring": t(_CTX, "Choosing the passages that match…"),
        "verifying": t(_CTX, "Verifying every quote…"),
    }
    return texts.get(stage, fallback or stage)


def index_stage_text(stage: str, item: str = "", message: str = "") -> str:
    """What the indexing row says for a progress event of an indexing run (``item``: the doc id)."""
    from core.progress import CHUNKS_DONE

    t = QCoreApplication.translate
    if stage == "starting":
        return t(_CTX, "Waiting for the engine to load the search libraries…")
    if stage == "scan":
        return t(_CTX, "Looking for files…")
    if stage == "index":
        return t(_CTX, "Reading {name}").format(name=item or message)
    if stage == "embed":
        m = CHUNKS_DONE.search(message)
        if m:
            return t(_CTX, "Embedding {name}: {done} of {total} chunks").format(
                name=item or message.split(":")[0], done=m.group(1), total=m.group(2))
        return t(_CTX, "Embedding {name}").format(name=item or message)
    if stage == "committed":
        return t(_CTX, "Saving to the index…")
    if stage == "done":
        return t(_CTX, "Finishing…")
    return message


def eta_text(eta_s: float | None) -> str:
    """``about 3 min 05 s left``, or ``estimating…`` while the estimate is not meaningful yet."""
    from core.progress import format_duration

    t = QCoreApplication.translate
    if eta_s is None:
        return t(_CTX, "estimating…")
    return t(_CTX, "about {t} left").format(t=format_duration(eta_s))


def backend_text(name: str) -> str:
    """A generation backend's name as the window shows it (``embedded`` is the bundled demo model)."""
    t = QCoreApplication.translate
    texts = {
        "embedded": t(_CTX, "embedded"),
        "ollama": "Ollama",
        "passages": t(_CTX, "passages (no model)"),
        "scripted": t(_CTX, "scripted"),
    }
    return texts.get(name, name)


def reason_text(reason: object) -> str:
    """Plain-language text of a :class:`core.types.RejectReason` (or any unknown value)."""
    t = QCoreApplication.translate
    value = getattr(reason, "value", reason)
    texts = {
        "unknown_chunk": t(_CTX, "cites a passage that was not given to the model"),
        "quote_too_short": t(_CTX, "quote too short to check"),
        "wrong_chunk": t(_CTX, "quote comes from a different passage than the one cited"),
        "quote_not_found": t(_CTX, "quote not found in the cited passage"),
        "no_citation": t(_CTX, "no verified quote left for this sentence"),
        "model_output_invalid": t(_CTX, "the model's output was not valid"),
        "fact_not_in_quote": t(_CTX, "a number, date or name in the sentence is not in its quote"),
        "polarity_mismatch": t(_CTX, "the sentence negates what its quote says, or the reverse"),
        "heading_only": t(_CTX, "its only quote is a heading, a defined term or a clause number"),
        "date_ambiguous": t(_CTX, "the quoted date reads differently day-first and month-first"),
        "number_not_in_quote": t(_CTX, "number not in quote"),
        "model_output_truncated": t(_CTX, "the model's answer was cut off at its token limit"),
        "not_supported": t(_CTX, "the quote does not support the sentence"),
    }
    if value in texts:
        return texts[value]
    return t(_CTX, "not verified ({reason})").format(reason=str(value).replace("_", " "))


def warning_text(reason: object) -> str:
    """Plain-language text of a :class:`core.types.WarningReason` (a claim shown with a warning)."""
    t = QCoreApplication.translate
    value = getattr(reason, "value", reason)
    texts = {
        "polarity_unsure": t(_CTX, "check the quote: the sentence may state the opposite of it"),
    }
    if value in texts:
        return texts[value]
    return t(_CTX, "check the quote ({reason})").format(reason=str(value).replace("_", " "))


def doc_status_text(status: str) -> str:
    """Label of a document status from the manifest (``active`` shows as indexed)."""
    t = QCoreApplication.translate
    texts = {
        "active": t(_CTX, "indexed"),
        "superseded": t(_CTX, "superseded"),
        "quarantined": t(_CTX, "quarantined"),
        "failed": t(_CTX, "failed"),
        "needs_ocr": t(_CTX, "needs OCR"),
        "not_followed": t(_CTX, "not followed"),
        "queued": t(_CTX, "queued"),
        "indexing": t(_CTX, "indexing…"),
    }
    return texts.get(status, status)


def model_text(backend: str, model: str) -> str:
    """"passages (no model) · sentence scoring (embeddings + BM25 terms)" or "Ollama (llama3.1)": what
    answered, in the window's language. Core's description of the passages scoring
    (:data:`core.passages.PASSAGES_MODEL`, English) is translated here (issue #24)."""
    t = QCoreApplication.translate
    if backend == "passages":
        return backend_text("passages") + (" · " + t(_CTX, model) if model else "")
    return f"{backend_text(backend)} ({model})" if model else backend_text(backend)


def answer_status_text(status: str) -> str:
    """Label of an answer's status."""
    t = QCoreApplication.translate
    texts = {
        "answered": t(_CTX, "Answered"),
        "partial": t(_CTX, "Partial answer"),
        "abstained": t(_CTX, "No verified answer"),
    }
    return texts.get(status, status)


# core.pipeline's fixed abstention messages (core speaks English and has no Qt); the window
# shows them in its own language. A message not listed here is shown as core wrote it;
# tests/desktop/test_i18n.py checks that every literal message core can produce is listed.
#: The window's own abstention message for a question asked while the workspace's first index is
#: still being written (core says "no indexed text yet … scanned pages need OCR", issue #24).
STILL_INDEXING = QT_TRANSLATE_NOOP("Texts", "This workspace is still being indexed: no text can be searched yet. Ask again when indexing finishes.")  # noqa: E501

ABSTENTION_MESSAGES = (
    STILL_INDEXING,
    # one literal per line: pyside6-lupdate does not join implicitly concatenated strings
    QT_TRANSLATE_NOOP("Texts", "This workspace has no indexed text yet: index a folder with documents that contain text (scanned pages need OCR)."),
    QT_TRANSLATE_NOOP("Texts", "Nothing in this workspace matches the question; no document was given to the model."),
    QT_TRANSLATE_NOOP("Texts", "The question is too long for the model's context window."),
    QT_TRANSLATE_NOOP("Texts", "The model's answer was cut off at its token limit; no answer can be shown."),
    QT_TRANSLATE_NOOP("Texts", "The model's output was not valid twice; no answer can be shown."),
    QT_TRANSLATE_NOOP("Texts", "The model found no answer in the passages consulted."),
    QT_TRANSLATE_NOOP("Texts", "The model answered, but its sentences state figures that its quotes do not contain."),
    QT_TRANSLATE_NOOP("Texts", "The model answered, but its sentences negate what its quotes state, or the reverse."),
    QT_TRANSLATE_NOOP("Texts", "The model answered, but its quotes do not support its sentences."),
    QT_TRANSLATE_NOOP("Texts", "The model answered, but none of its quotes could be found in the cited passages."),
    QT_TRANSLATE_NOOP("Texts", "No passage of the documents matches the question closely enough."),  # core.passages
    QT_TRANSLATE_NOOP("Texts", "No passage clearly answers the question. The closest passages are shown below, marked as weak: they are not an answer."),  # core.passages.WEAK_MESSAGE  # noqa: E501
    QT_TRANSLATE_NOOP("Texts", "None of the documents searched has a passage that matches the question."),  # core.collection
)


def abstention_text(message: str) -> str:
    """An abstention's message in the window's language when it is one of :data:`ABSTENTION_MESSAGES`,
    else ``message`` unchanged (a message from another source, or from an older history entry)."""
    if message in ABSTENTION_MESSAGES:
        return QCoreApplication.translate(_CTX, message)
    return message


# Strings used inside f-strings or through a helper, listed for pyside6-lupdate
# (it reads only literal tr()/translate() calls outside f-strings).
_LUPDATE = (
    QT_TRANSLATE_NOOP("Texts", "Waiting for the engine to load the search libraries…"),
    QT_TRANSLATE_NOOP("Texts", "Searching the documents…"),
    QT_TRANSLATE_NOOP("Texts", "Reading the question in the light of the conversation…"),
    QT_TRANSLATE_NOOP("Texts", "Loading the model…"),
    QT_TRANSLATE_NOOP("Texts", "Generating the answer…"),
    QT_TRANSLATE_NOOP("Texts", "Choosing the passages that match…"),
    QT_TRANSLATE_NOOP("Texts", "Verifying every quote…"),
    QT_TRANSLATE_NOOP("Texts", "Searching each document on its own ({done} of {total})…"),
    QT_TRANSLATE_NOOP("Texts", "cites a passage that was not given to the model"),
    QT_TRANSLATE_NOOP("Texts", "quote too short to check"),
    QT_TRANSLATE_NOOP("Texts", "quote comes from a different passage than the one cited"),
    QT_TRANSLATE_NOOP("Texts", "quote not found in the cited passage"),
    QT_TRANSLATE_NOOP("Texts", "no verified quote left for this sentence"),
    QT_TRANSLATE_NOOP("Texts", "the model's output was not valid"),
    QT_TRANSLATE_NOOP("Texts", "a number, date or name in the sentence is not in its quote"),
    QT_TRANSLATE_NOOP("Texts", "the sentence negates what its quote says, or the reverse"),
    QT_TRANSLATE_NOOP("Texts", "its only quote is a heading, a defined term or a clause number"),
    QT_TRANSLATE_NOOP("Texts", "the quoted date reads differently day-first and month-first"),
    QT_TRANSLATE_NOOP("Texts", "number not in quote"),
    QT_TRANSLATE_NOOP("Texts", "not verified ({reason})"),
    QT_TRANSLATE_NOOP("Texts", "check the quote: the sentence may state the opposite of it"),
    QT_TRANSLATE_NOOP("Texts", "check the quote ({reason})"),
    QT_TRANSLATE_NOOP("Texts", "indexed"),
    QT_TRANSLATE_NOOP("Texts", "superseded"),
    QT_TRANSLATE_NOOP("Texts", "quarantined"),
    QT_TRANSLATE_NOOP("Texts", "failed"),
    QT_TRANSLATE_NOOP("Texts", "needs OCR"),
    QT_TRANSLATE_NOOP("Texts", "not followed"),
    QT_TRANSLATE_NOOP("Texts", "the model's answer was cut off at its token limit"),
    QT_TRANSLATE_NOOP("Texts", "the quote does not support the sentence"),
    QT_TRANSLATE_NOOP("Texts", "queued"),
    QT_TRANSLATE_NOOP("Texts", "indexing…"),
    QT_TRANSLATE_NOOP("Texts", "Looking for files…"),
    QT_TRANSLATE_NOOP("Texts", "Reading {name}"),
    QT_TRANSLATE_NOOP("Texts", "Embedding {name}: {done} of {total} chunks"),
    QT_TRANSLATE_NOOP("Texts", "Embedding {name}"),
    QT_TRANSLATE_NOOP("Texts", "Saving to the index…"),
    QT_TRANSLATE_NOOP("Texts", "Finishing…"),
    QT_TRANSLATE_NOOP("Texts", "estimating…"),
    QT_TRANSLATE_NOOP("Texts", "about {t} left"),
    QT_TRANSLATE_NOOP("Texts", "embedded"),
    QT_TRANSLATE_NOOP("Texts", "passages (no model)"),
    QT_TRANSLATE_NOOP("Texts", "scripted"),
    QT_TRANSLATE_NOOP("Texts", "Answered"),
    QT_TRANSLATE_NOOP("Texts", "sentence scoring (embeddings + BM25 terms)"),  # core.passages.PASSAGES_MODEL
    QT_TRANSLATE_NOOP("Texts", "Partial answer"),
    QT_TRANSLATE_NOOP("Texts", "No verified answer"),
)


# core.translate's notice (trace.language): the question's language is none of the documents'
# and only the keyword vocabulary bridges them (issue #20). Shown in the window's language.
LANGUAGE_NOTICE = QT_TRANSLATE_NOOP(
    "Texts", "The question is in {question} and the documents are in {documents}: the meaning-based search model does not relate the two languages, so only keywords translated by the legal vocabulary were searched. Ask in the documents' language, or configure Ollama to translate the question.")
_LANGUAGE_NAMES = {"en": QT_TRANSLATE_NOOP("Texts", "English"), "es": QT_TRANSLATE_NOOP("Texts", "Spanish")}


def language_notice_text(language: object) -> str:
    """The notice for a trace's ``language`` (:class:`core.types.LanguageInfo`) in the window's
    language; ``""`` when core gave none (same languages, or a translation or a multilingual
    embedding model bridged them)."""
    if not getattr(language, "notice", ""):
        return ""
    t = QCoreApplication.translate
    docs = list(getattr(language, "documents", []) or ["en"])
    q = getattr(language, "question", "")
    name = lambda code: t(_CTX, _LANGUAGE_NAMES[code]) if code in _LANGUAGE_NAMES else code  # noqa: E731
    return t(_CTX, LANGUAGE_NOTICE).format(question=name(q), documents=name(docs[0]))
