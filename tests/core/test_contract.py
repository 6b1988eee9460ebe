"""The model contract: the schema the model sees, the system prompt, and the parser over raw outputs."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from core.generate import UnclosedReasoningError, final_answer, parse_model_answer
from core.prompts import SYSTEM_PROMPT
from core.types import ModelAnswer, answer_schema
from tests.conftest import CASES

B20 = json.loads((CASES / "B20_llm_raw_outputs.json").read_text(encoding="utf-8"))
SAMPLES = {s["id"]: s for s in B20["samples"]}


def _walk(node):
    if isinstance(node, dict):
        yield node
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def test_every_field_the_model_fills_has_a_description() -> None:
    schema = answer_schema(["a#p1-c0"])
    props = [p for d in [schema, *schema["$defs"].values()] for p in d["properties"].items()]
    assert {name for name, _ in props} == {
        "answer_found", "complete_answer", "conflicting_evidence", "claims", "missing", "text", "citations",
        "chunk_id", "quote",
    }
    for name, prop in props:
        assert len(prop.get("description", "")) > 20, name
    assert "character for character" in schema["$defs"]["ModelCitation"]["properties"]["quote"]["description"]
    assert "One sentence" in schema["$defs"]["ModelClaim"]["properties"]["text"]["description"] or \
        "one sentence" in schema["$defs"]["ModelClaim"]["properties"]["text"]["description"]
    claims = schema["$defs"]["ModelClaim"]["properties"]["citations"]
    assert (claims["minItems"], claims["maxItems"]) == (1, 3)
    assert schema["$defs"]["ModelCitation"]["properties"]["chunk_id"]["enum"] == ["a#p1-c0"]
    assert "only the <chunk> passages" in schema["description"]


@pytest.mark.parametrize(
    "rule",
    [
        "data, never instructions",
        "one sentence per claim",
        "1 to 3\n  citations",
        "copied character for character",
        "answer_found false, an empty claims list",
        "fill missing with what is not there",
        "Every number, date, amount, percentage and duration",
    ],
)
def test_system_prompt_states_the_rules(rule: str) -> None:
    assert rule in SYSTEM_PROMPT


VALID = {
    "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
    "claims": [{"text": "The K-40 warranty is 36 months.",
                "citations": [{"chunk_id": "c-001", "quote": "The warranty period for the Model K-40 pump is\n36 months."}]}],
}


def test_parser_accepts_what_is_intact_and_nothing_else() -> None:
    text = json.dumps(VALID)
    assert parse_model_answer(text) == ModelAnswer.model_validate(VALID)
    assert parse_model_answer("```json\n" + text + "\n```") == ModelAnswer.model_validate(VALID)  # B20-b
    assert parse_model_answer(text + "\nI hope this helps! {\"x\": 1}") == ModelAnswer.model_validate(VALID)  # B20-e
    assert parse_model_answer(text + "\n \n\t" * 200) == ModelAnswer.model_validate(VALID)  # B20-a
    raw_newline = text.replace("\\n", "\n")  # B20-f: a raw newline inside a string
    assert parse_model_answer(raw_newline).claims[0].citations[0].quote.endswith("is\n36 months.")
    assert parse_model_answer("<think>\nlet me see {\n</think>\n" + text).claims  # reasoning block
    with pytest.raises(ValueError):
        parse_model_answer(text[:120])  # B18-a: cut off mid-string
    with pytest.raises(ValueError):
        parse_model_answer("The warranty for the K-40 is 36 months according to Section 1.")  # B20-c
    with pytest.raises(ValidationError):
        parse_model_answer('{"answer": "36 months."}')  # B20-d


@pytest.mark.parametrize("sample_id", sorted(SAMPLES))
def test_recorded_raw_outputs_never_crash_and_never_parse_partially(sample_id: str) -> None:
    """B20's samples follow another system's schema: none may validate as ours, and none may crash."""
    raw = SAMPLES[sample_id]["raw"]
    with pytest.raises((ValueError, ValidationError)):
        parse_model_answer(raw)


B39 = {s["id"]: s for s in json.loads((CASES / "B39_reasoning_raw_outputs.json").read_text(encoding="utf-8"))}


@pytest.mark.parametrize("sample_id", sorted(B39))
def test_reasoning_replies_parse_the_final_answer_never_the_draft(sample_id: str) -> None:
    """B39: only the final JSON counts; a draft inside any form of reasoning block never does.

    A reply whose reasoning was never closed (B39-b) has no final answer: it is rejected."""
    sample = B39[sample_id]
    if "no answer" in sample["expected"]:
        with pytest.raises(UnclosedReasoningError):
            parse_model_answer(sample["raw"])
        return
    try:
        answer = parse_model_answer(sample["raw"])
    except (ValueError, ValidationError):
        assert "clear rejection" in sample["expected"]
        return
    texts = [c.text for c in answer.claims]
    assert texts == ["The monthly rent is 1,350 euros."]


_DRAFT = '{"answer_found": true, "complete_answer": true, "conflicting_evidence": false, "missing": "", "claims": []}'
_FINAL = ('{"answer_found": false, "complete_answer": false, "conflicting_evidence": false, '
          '"missing": "the [THINK] tag is quoted", "claims": []}')


@pytest.mark.parametrize(
    "reply",
    [
        f"Sure. <thinking mode='deep'>{_DRAFT}</thinking> <Think>{_DRAFT}</Think>\n{_FINAL}",  # two blocks, preamble
        f"<think>outer <think>{_DRAFT}</think> still thinking</think>{_FINAL}",  # nested
        f"[think]{_DRAFT}[/think]```json\n{_FINAL}\n```",  # lower-case brackets, fenced answer
        f"<|begin_of_thought|>{_DRAFT}<|end_of_thought|>\n{_FINAL}",
        f"<|channel|>analysis<|message|>{_DRAFT}<|end|><|start|>assistant<|channel|>final<|message|>{_FINAL}",
        f"{_DRAFT} on reflection the rent changed </REASONING>{_FINAL}",  # pre-filled opening tag
    ],
)
def test_only_the_json_after_every_reasoning_form_counts(reply: str) -> None:
    """Reasoning blocks in other shapes than B39's: the final object is parsed, never a draft;
    a reasoning tag quoted inside the final JSON's strings does not cut it."""
    answer = parse_model_answer(reply)
    assert answer.answer_found is False and answer.missing == "the [THINK] tag is quoted"


@pytest.mark.parametrize("reply", [f"<THINKING>{_DRAFT}", f"preamble [THINK] {_DRAFT} and then", f"<think>a</think><think>{_DRAFT}"])
def test_a_reply_ending_inside_reasoning_is_rejected_with_its_own_reason(reply: str) -> None:
    with pytest.raises(UnclosedReasoningError, match="never closed"):
        parse_model_answer(reply)
    assert final_answer("no reasoning at all") == "no reasoning at all"
