"""The bilingual legal vocabulary (core/lexicon.py, resources/lexicon/legal_en_es.toml)."""

from __future__ import annotations

import tomllib

from core.lexicon import (cross_language_terms, expand_query, find_terms, lexicon, term_groups)
from core.paths import resource_path
from core.textproc import tokenize_query


def test_vocabulary_file_is_complete_and_names_its_sources():
    path = resource_path("lexicon", "legal_en_es.toml")
    text = path.read_text(encoding="utf-8")
    data = tomllib.loads(text)
    assert len(data["term"]) >= 200
    assert all(t["en"] and t["es"] for t in data["term"])
    assert "IATE" in text and "Código Civil" in text
    assert len(lexicon().concepts) == len(data["term"])


def test_spanish_legal_terms_reach_their_english_equivalents():
    terms = cross_language_terms("¿Se puede ceder el contrato sin consentimiento?", "es")
    assert "assign" in terms["ceder"] and "assignment" in terms["ceder"]
    assert "governing law" in expand_query("¿Cuál es la ley aplicable?", "es", ("en",))
    assert "right of first refusal" in expand_query("¿Hay un derecho de tanteo?", "es", ("en",))
    assert "limitation of liability" in expand_query("¿Existe una limitación de responsabilidad?", None, ("en",))


def test_english_terms_reach_spanish_and_everyday_wording_reaches_the_legal_term():
    assert "cesión" in expand_query("Can the licence be assigned?", "en", ("es",))
    assert "terminate" in expand_query("Can either party walk away from the deal early?", None, ("en",))
    assert "duration" in expand_query("How long does the agreement last?", "en", ("en",))
    assert "assign" in expand_query("Can they hand the contract to someone else?", "en", ("en",))


def test_function_words_alone_name_no_concept():
    assert find_terms("Does it? Can they? ¿Puede?") == []
    assert expand_query("What does it say?", None) == []


def test_the_longest_phrase_wins_over_the_words_inside_it():
    matches = find_terms("What is the cap on liability?", "en")
    assert [m.phrase for m in matches] == ["cap on liability"]
    assert "responsabilidad" not in expand_query("What is the cap on liability?", "en", ("es",))


def test_a_verbatim_word_is_preferred_to_a_stem_alike():
    # Snowball stems "contrato", "contratar" and "contratista" alike; the text says "contrato".
    phrases = [m.phrase for m in find_terms("el contrato", "es")]
    assert phrases == ["contrato"]


def test_term_groups_count_a_translation_as_the_term():
    groups = term_groups("¿Puede una parte ceder el contrato?", "es")
    assign = next(g for g in groups if "assign" in g.concept.en)
    english = set(tokenize_query("Neither party may assign this Agreement without consent."))
    unrelated = set(tokenize_query("This Agreement is governed by the laws of Delaware."))
    assert assign.covered_by(english)
    assert not assign.covered_by(unrelated)
    # the stems are those of query tokenization (same analysis as the BM25 index)
    for alts in assign.alternatives.values():
        for alt in alts:
            assert alt
    assert assign.source <= set(tokenize_query("ceder"))
