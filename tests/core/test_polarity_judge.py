"""The optional judge (Ollama) and the polarity warning, over recorded Ollama exchanges.

A claim the word-level polarity check could not decide is shown with a warning
(``polarity_unsure``); when the judge reads it against its quotes and says ``supported``, the
warning is cleared; when the judge says otherwise, the claim is removed. Only the Ollama server is
replaced, by the recordings in ``tests/fixtures/ollama`` (see tests/core/test_ollama.py).
"""

from __future__ import annotations

import core  # noqa: F401  (offline switches first)

from core.types import Chunk, ModelAnswer, RejectReason, WarningReason
from core.verify import judge_claims, verify_claims
from tests.core.test_ollama import Replay, backend, load

TEXT = ("12. Confidentiality. Neither Party shall disclose the terms of this Agreement to any third party. "
        "The Supplier's liability shall not exceed the fees paid in the prior twelve months.")
CHUNK = Chunk(chunk_id="d#p1-c0", doc_id="d", path="/d.txt", page=1, start=0, end=len(TEXT), text=TEXT)


def _verified(*claims: tuple[str, str]):
    answer = ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": t, "citations": [{"chunk_id": CHUNK.chunk_id, "quote": q}]} for t, q in claims]})
    claims_out, rejected = verify_claims(answer, {CHUNK.chunk_id: CHUNK})
    assert rejected == []
    return claims_out


def test_judge_supported_clears_the_polarity_warning() -> None:
    [claim] = _verified(("The Parties must keep the terms of this Agreement confidential.",
                         "Neither Party shall disclose the terms of this Agreement to any third party"))
    assert claim.warning is not None and claim.warning.reason == WarningReason.polarity_unsure
    replay = Replay(load("chat_judge_supported.json"))

    kept, rejected = judge_claims(backend("llama3.1", replay), [claim])

    assert rejected == [] and kept == [claim]
    assert claim.support == "supported" and claim.warning is None
    [sent] = replay.bodies("/api/chat")
    assert "The Parties must keep the terms of this Agreement confidential." in sent["messages"][1]["content"]


def test_judge_contradicted_removes_a_warned_claim() -> None:
    [claim] = _verified(("The Parties must keep the terms of this Agreement confidential.",
                         "Neither Party shall disclose the terms of this Agreement to any third party"))
    assert claim.warning is not None
    kept, rejected = judge_claims(backend("llama3.1", Replay(load("chat_judge_verdict.json"))), [claim])
    assert kept == []
    assert [r.reason for r in rejected] == [RejectReason.not_supported]
    assert rejected[0].detail.startswith("contradicted")


def test_judge_supported_keeps_an_unwarned_claim_unchanged_and_polls_cancel() -> None:
    import pytest

    from core.errors import Cancelled

    [claim] = _verified(("The Supplier's liability will not exceed the fees paid in the prior twelve months.",
                         "The Supplier's liability shall not exceed the fees paid in the prior twelve months"))
    assert claim.warning is None
    kept, _ = judge_claims(backend("llama3.1", Replay(load("chat_judge_supported.json"))), [claim])
    assert kept == [claim] and claim.support == "supported" and claim.warning is None
    with pytest.raises(Cancelled):
        judge_claims(backend("llama3.1", Replay(load("chat_judge_supported.json"))), [claim], cancel=lambda: True)
