"""The question's language against the documents' and its translation by the Ollama model
(core/translate.py), against recorded Ollama exchanges (tests/fixtures/ollama, as test_ollama.py)."""

from __future__ import annotations

import core  # noqa: F401  (offline switches first)

import copy
import json

from core.translate import (LanguageCheck, Translation, embedding_bridges_languages, language_notice,
                            question_language, translate_question)
from tests.core.test_ollama import Replay, backend, load


def test_question_language_reads_spanish_punctuation_and_words() -> None:
    assert question_language("¿Puede alguna de las partes ceder el contrato?") == "es"
    assert question_language("Can either party assign this agreement to a third party?") == "en"
    assert question_language("¿GE Capital Duckwall-ALCO Agency Agreement?") == "es"  # names only, Spanish mark


def test_translation_is_one_structured_call_and_returns_the_models_text() -> None:
    replay = Replay(load("chat_translate.json"))
    warnings: list[str] = []
    text = translate_question(backend("llama3.1", replay), "¿Puede alguna de las partes ceder el contrato a un "
                              "tercero?", "en", warnings)
    assert text == "Can either party assign the agreement to a third party?"
    assert warnings == []
    [body] = replay.bodies("/api/chat")
    assert body["format"] == Translation.model_json_schema()
    assert "into English" in body["messages"][0]["content"]
    assert body["messages"][1]["content"].startswith("¿Puede alguna")
    assert body["options"]["temperature"] == 0


def _reply(content: str) -> dict:
    rec = copy.deepcopy(load("chat_translate.json"))
    rec["response"]["body"]["message"]["content"] = content
    return rec


def test_a_reply_that_is_not_a_translation_is_dropped_and_said() -> None:
    question = "¿Qué ley rige el contrato?"
    for content in ("not json", json.dumps({"translation": ""}), json.dumps({"translation": question}),
                    json.dumps({"translation": "The agreement is governed by the laws of Delaware. " * 8})):
        warnings: list[str] = []
        assert translate_question(backend("llama3.1", Replay(_reply(content))), question, "en", warnings) == ""
        assert len(warnings) == 1 and warnings[0].startswith("question translation skipped")


def test_the_notice_is_given_only_when_nothing_bridges_the_languages() -> None:
    assert language_notice(LanguageCheck("es", ("en",))).startswith("The question is in Spanish and the documents "
                                                                     "are in English")
    assert "español" in language_notice(LanguageCheck("en", ("es",)), "es")
    assert language_notice(LanguageCheck("es", ("en",), bridged_by="translation")) == ""
    assert language_notice(LanguageCheck("es", ("es", "en"))) == ""
    assert language_notice(LanguageCheck("en", ("en",))) == ""


def test_multilingual_embedding_models_are_recognised() -> None:
    assert embedding_bridges_languages("paraphrase-multilingual-MiniLM-L12-v2")
    assert embedding_bridges_languages("bge-m3:latest")
    assert not embedding_bridges_languages("all-MiniLM-L6-v2")
    assert not embedding_bridges_languages("nomic-embed-text")


def test_the_cli_prints_the_notice_or_the_translation() -> None:
    from core.cli import format_answer
    from core.types import Abstention, Answer, LanguageInfo, Trace

    notice = language_notice(LanguageCheck("es", ("en",)))
    trace = Trace(language=LanguageInfo(question="es", documents=["en"], differs=True, notice=notice))
    answer = Answer(question="¿Qué ley rige?", workspace="w", status="abstained", trace=trace,
                    abstention=Abstention(message="Nothing matches.", query="¿Qué ley rige?", consulted=[]))
    assert f"Note: {notice}" in format_answer(answer)
    answer.trace = Trace(language=LanguageInfo(question="es", documents=["en"], differs=True,
                                               bridged_by="translation", translation="Which law governs?"))
    out = format_answer(answer)
    assert "Note:" not in out and "translated by the model: Which law governs?" in out
