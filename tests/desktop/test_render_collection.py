"""The Markdown of an answer to a question about the whole collection (copy, export): it says how many
documents were left out (review 2026-12-02: the window said it, the export did not, so an exported answer
read as if every document of the workspace had been searched)."""

from __future__ import annotations

from core.types import Abstention, Answer, DocumentFinding, Trace


def test_the_markdown_says_how_many_documents_were_not_searched() -> None:
    from desktop.render_collection import collection_markdown

    docs = [DocumentFinding(doc_id=f"w/contract {i}.txt") for i in range(3)]
    answer = Answer(question="Which of these agreements are governed by Nevada law?", workspace="w",
                    status="abstained", kind="passages", abstention=Abstention(message="none", query="q", consulted=[]),
                    trace=Trace(not_searched=7), documents=docs)
    text = "\n".join(collection_markdown(answer))
    assert "Each of the 3 documents was searched on its own" in text
    assert "7 more documents were not searched (at most 60 per question)" in text
    answer.trace.not_searched = 0
    assert "not searched" not in "\n".join(collection_markdown(answer))
