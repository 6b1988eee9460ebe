"""The question's language against the documents': detect, bridge, and say when it is not bridged.

The bundled embedding model (all-MiniLM-L6-v2) was trained on English sentence pairs: a Spanish
question and the English clause that answers it are far apart for it. Three bridges exist:

1. the bilingual legal vocabulary (:mod:`core.lexicon`): always on, for keywords only;
2. with Ollama configured, the model translates the question into the documents' language
   (:func:`translate_question`, one JSON call), and both are searched;
3. a multilingual embedding model chosen for the workspace.

When the question's language differs from every searched document's and neither (2) nor (3)
bridges it, :func:`language_notice` says so, for the CLI and the trace (``trace.language``).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from pydantic import BaseModel, Field

from core.textproc import SUPPORTED_LANGS, detect_language

#: Name fragments of embedding models trained on many languages (their model cards say so):
#: sentence-transformers' paraphrase-multilingual-* and distiluse-base-multilingual-*, LaBSE,
#: intfloat/multilingual-e5-*, BAAI/bge-m3, Ollama's granite-embedding multilingual and
#: snowflake-arctic-embed2, jina-embeddings-v3, nomic-embed-text-v2-moe.
MULTILINGUAL_MODELS = ("multilingual", "labse", "bge-m3", "arctic-embed2", "jina-embeddings-v3",
                       "nomic-embed-text-v2", "granite-embedding:278m")

LANG_NAMES = {"en": "English", "es": "Spanish"}

_cache_lock = threading.Lock()
_doc_langs: dict[tuple[int, str], dict[str, str]] = {}


def question_language(question: str) -> str:
    """``"en"`` or ``"es"``: py3langid on the question (:func:`core.textproc.detect_language`).

    A question starting with "¿" or "¡" is Spanish whatever the classifier says (Spanish
    orthography; short questions full of English names mislead the classifier)."""
    stripped = question.lstrip()
    if stripped[:1] in ("¿", "¡"):
        return "es"
    return detect_language(question)


def document_languages(workspace) -> dict[str, str]:
    """doc id → language (``"en"``/``"es"``, as detected at indexing) of every indexed document;
    read once per index generation."""
    meta = workspace.manifest.meta()
    key = (id(workspace), str(meta.get("generation", "0")))
    with _cache_lock:
        hit = _doc_langs.get(key)
    if hit is not None:
        return hit
    langs = {d["doc_id"]: (d.get("lang") or "en") for d in workspace.documents()}
    with _cache_lock:
        for k in [k for k in _doc_langs if k[0] == id(workspace)]:
            del _doc_langs[k]
        _doc_langs[key] = langs
    return langs


def searched_languages(workspace, doc_ids: list[str] | set[str] | None) -> list[str]:
    """The languages of the documents searched (``doc_ids``; ``None``/empty: every eligible
    document), most documents first; ``["en"]`` for an empty workspace."""
    langs = document_languages(workspace)
    ids = doc_ids or workspace.eligible_doc_ids()
    counts: dict[str, int] = {}
    for d in ids:
        lg = langs.get(d)
        if lg:
            counts[lg] = counts.get(lg, 0) + 1
    return [lg for lg, _ in sorted(counts.items(), key=lambda kv: -kv[1])] or ["en"]


def embedding_bridges_languages(model_name: str) -> bool:
    """Whether the embedding model ``model_name`` (a folder name, an Ollama model) is multilingual
    (:data:`MULTILINGUAL_MODELS`); the bundled all-MiniLM-L6-v2 is not."""
    name = model_name.casefold()
    return any(frag in name for frag in MULTILINGUAL_MODELS)


@dataclass(frozen=True)
class LanguageCheck:
    """The question's language against the searched documents'."""

    question: str
    """Language of the question (``"en"``/``"es"``)."""
    documents: tuple[str, ...]
    """Languages of the documents searched, most documents first."""
    bridged_by: str = ""
    """What carries the question across: ``"translation"`` (the Ollama model translated it),
    ``"embedding"`` (a multilingual embedding model), or ``""`` (only the bilingual vocabulary)."""

    @property
    def differs(self) -> bool:
        """The question's language is none of the searched documents'."""
        return self.question not in self.documents


def language_notice(check: LanguageCheck, lang: str = "en") -> str:
    """The sentence to show when the question's language differs from the documents' and nothing
    but the keyword vocabulary bridges them; ``""`` otherwise. ``lang``: the user's language."""
    if not check.differs or check.bridged_by:
        return ""
    q = check.question
    d = check.documents[0] if check.documents else "en"
    if lang == "es":
        names = {"en": "inglés", "es": "español"}
        return (f"La pregunta está en {names.get(q, q)} y los documentos en {names.get(d, d)}: el modelo de "
                "búsqueda por significado no relaciona los dos idiomas, y solo se buscaron las palabras clave "
                "traducidas por el vocabulario jurídico. Pregunte en el idioma de los documentos, o configure "
                "Ollama para traducir la pregunta.")
    return (f"The question is in {LANG_NAMES.get(q, q)} and the documents are in {LANG_NAMES.get(d, d)}: the "
            "meaning-based search model does not relate the two languages, so only keywords translated by the "
            "legal vocabulary were searched. Ask in the documents' language, or configure Ollama to translate "
            "the question.")


# --- translation by the Ollama model ------------------------------------------------------------

TRANSLATE_PROMPT = (
    "You translate a question about legal documents into {language}, for searching documents written in "
    "{language}. Keep the names of companies, people, products and places, numbers, dates, section numbers and "
    "quoted text exactly as written. Translate legal terms by the term {language} contracts use (for example "
    "'cesión' is 'assignment' in English, 'governing law' is 'ley aplicable' in Spanish). Do not answer the "
    "question and add nothing to it. Reply with JSON only: {{\"translation\": \"<the question in {language}>\"}}."
)
#: Tokens the model may write for the translation (a question is one sentence).
TRANSLATE_MAX_TOKENS = 200


class Translation(BaseModel):
    """The model's reply to :data:`TRANSLATE_PROMPT`."""

    translation: str = Field(min_length=1, max_length=2000)


def translate_question(backend, question: str, target_lang: str, warnings: list[str] | None = None) -> str:
    """``question`` translated into ``target_lang`` (``"en"``/``"es"``) by ``backend``, in one JSON call.

    ``backend``: a :class:`core.generate.Backend` (Ollama in practice: the embedded demo model is
    too small to translate). Returns ``""`` — and appends the reason to ``warnings`` — when the
    call fails, the reply is not the expected JSON, or the translation is empty, equal to the
    question, or more than three times as long (a model that answered instead of translating).
    The translation is only ever a search query: evidence is still quoted from the documents.
    """
    from core.replies import parse_json_object

    language = LANG_NAMES.get(target_lang, target_lang)
    messages = [{"role": "system", "content": TRANSLATE_PROMPT.format(language=language)},
                {"role": "user", "content": question}]
    prompt_tokens = sum(backend.count_tokens(m["content"]) for m in messages) + 16
    try:
        result = backend.chat_json(messages, Translation.model_json_schema(),
                                   num_ctx=min(backend.context_window, prompt_tokens + TRANSLATE_MAX_TOKENS),
                                   max_tokens=TRANSLATE_MAX_TOKENS)
        text = " ".join(Translation.model_validate(parse_json_object(result.text)).translation.split())
    except Exception as exc:  # noqa: BLE001 - an aid: retrieval goes on without it, recorded
        if warnings is not None:
            warnings.append(f"question translation skipped: {exc}"[:300])
        return ""
    if text.casefold() == " ".join(question.split()).casefold() or len(text) > 3 * len(question) + 40:
        if warnings is not None:
            warnings.append("question translation skipped: the model's reply is not a translation of the question")
        return ""
    return text


def translation_round(workspace, query: str, settings, backend_ref: list, warnings_trace,
                      scope: list[str] | None):
    """Generator for :mod:`core.pipeline`: ``query`` translated by the Ollama model into the searched
    documents' language when its language is none of theirs; ``""`` otherwise or on failure
    (recorded in ``warnings_trace.warnings``).

    ``backend_ref``: the pipeline's one-element list holding its backend (made here when still
    ``None``). Yields :class:`core.types.ProgressEvent` s ("loading", "retrieving")."""
    from core.generate import make_backend
    from core.types import ProgressEvent

    langs = searched_languages(workspace, scope)
    if question_language(query) in langs:
        return ""
    if backend_ref[0] is None:
        yield ProgressEvent(stage="loading", message="Loading the model")
        backend_ref[0] = make_backend(settings)
    if getattr(backend_ref[0], "name", "") != "ollama":
        return ""
    yield ProgressEvent(stage="retrieving", message="Translating the question into the documents' language")
    return translate_question(backend_ref[0], query, langs[0], warnings_trace.warnings)


__all__ = ["LANG_NAMES", "MULTILINGUAL_MODELS", "LanguageCheck", "SUPPORTED_LANGS", "TRANSLATE_PROMPT", "Translation",
           "document_languages", "embedding_bridges_languages", "language_notice", "question_language",
           "searched_languages", "translate_question", "translation_round"]
