"""The words that qualify a document noun name the document, not the clause asked about (issue #20 item 2)."""

from __future__ import annotations

from core.docref_grammar import document_kind_spans, kind_words, without_words
from core.retrieval import clause_types_asked


def _kinds(text: str) -> list[str]:
    return [text[a:b] for a, b in document_kind_spans(text)]


def test_spanish_kind_after_the_noun_up_to_the_next_complement() -> None:
    assert _kinds("¿Qué ley rige el contrato de prestación de servicios entre Ana y Luis?") == ["prestación de servicios"]
    assert _kinds("¿Cuándo vence el acuerdo de licencia de marca con Beta?") == ["licencia de marca"]
    assert _kinds("¿Quién paga el seguro según el contrato?") == []


def test_english_kind_between_a_determiner_and_the_noun_and_a_title_after_it() -> None:
    assert _kinds("Can Acme's license agreement be assigned?") == ["license"]
    assert _kinds("Who pays under the intellectual property agreement?") == ["intellectual property"]
    assert _kinds("Which law governs the Supply Agreement for Terpene Products?") == ["Supply", "for Terpene Products"]
    # a clause named by the noun, the whole document, an indefinite article: no kind
    assert _kinds("Does the entire agreement clause exclude prior promises?") == []
    assert _kinds("Is this the entire agreement?") == []
    assert _kinds("Is there a non-compete agreement?") == []


def test_kind_words_are_blanked_wherever_they_are() -> None:
    words = kind_words("¿Qué licencias concede el acuerdo de propiedad intelectual entre Acme y Beta?")
    assert words == {"propiedad", "intelectual"}
    assert without_words("¿Qué licencias concede el acuerdo de propiedad intelectual?", words).split() == [
        "¿Qué", "licencias", "concede", "el", "acuerdo", "de", "?"]


def test_a_clause_type_is_read_without_the_documents_kind() -> None:
    """Before: "el acuerdo de propiedad intelectual" made every question about that contract an IP-ownership
    question (and "the license agreement" a licence one)."""
    found = [m.clause.id for m in clause_types_asked("¿Qué ley rige el acuerdo de propiedad intelectual con Beta?")]
    assert found == ["governing_law"]
    found = [m.clause.id for m in clause_types_asked("How can either party end the license agreement with Beta?")]
    assert "license_grant" not in found
    # when the kind is all the question says about a clause, it is what it asks
    assert [m.clause.id for m in clause_types_asked("¿Qué dice el acuerdo de confidencialidad?")] == ["confidentiality"]
