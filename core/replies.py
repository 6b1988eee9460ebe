"""Reading a model's reply: the final answer after any reasoning, its first JSON object, and
why a reply did not parse. Below :mod:`core.generate` (which re-exports these names) and the
modules that parse replies of their own (:mod:`core.verify`'s judge, follow-ups, reranking,
translation), so none of them imports the backends.
"""

from __future__ import annotations

import json
import re

from core.types import ModelAnswer

# Reasoning blocks of reasoning models, in every form seen: <think>…</think> (DeepSeek-R1,
# Qwen 3), upper case or with attributes, <thinking>/<reasoning>/<reflection>/<thought>,
# Mistral's [THINK]…[/THINK], and OpenThoughts' <|begin_of_thought|>…<|end_of_thought|>.
REASONING_TAG = re.compile(
    r"<\s*(/)?\s*(?:think|thinking|thought|reasoning|reflection)\b[^<>]*>"
    r"|\[\s*(/)?\s*(?:think|thinking|reasoning)\s*\]"
    r"|<\|(begin|end)_of_thought\|>",
    re.IGNORECASE,
)
# OpenAI's harmony format (gpt-oss): the final answer follows this marker.
_HARMONY_FINAL = re.compile(r"<\|channel\|>\s*final\s*<\|message\|>", re.IGNORECASE)


class UnclosedReasoningError(ValueError):
    """The reply ends inside a reasoning block: it holds the model's draft, never a final answer."""
_FENCE = re.compile(r"^\s*```[a-zA-Z]*[ \t]*\r?\n(.*?)\r?\n?```\s*$", re.DOTALL)


def validation_summary(exc: Exception) -> str:
    """A short, readable summary of why a reply did not parse: the first five pydantic errors
    (``field.path: message``), or the exception's text cut to 300 characters."""
    from pydantic import ValidationError

    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()[:5])
    return str(exc)[:300]


def parse_model_answer(text: str) -> ModelAnswer:
    """Parse the model's reply into :class:`ModelAnswer`, deterministically.

    Only the final answer counts: reasoning blocks in any form are cut off first
    (:func:`final_answer`, case B39), and a reply still inside one is rejected.
    Tolerated, because models produce them while the content is intact (cases
    B20-a/b/e/f of ``shared/cases/B20_llm_raw_outputs.json``): one surrounding
    markdown code fence; text after the first complete JSON object (discarded);
    raw control characters such as newlines inside strings (``json`` with
    ``strict=False``). Never tolerated: a JSON object that is cut off, prose
    instead of JSON, or any schema violation. Quotes are verified afterwards
    anyway, so a repaired string still has to occur in its chunk.

    Raises:
        pydantic.ValidationError: the object does not follow the schema.
        UnclosedReasoningError: the reply ends inside a reasoning block (a ``ValueError``).
        ValueError: no complete JSON object could be read (``json.JSONDecodeError``
            is a ``ValueError``).
    """
    return ModelAnswer.model_validate(parse_json_object(text))


def parse_json_object(text: str) -> object:
    """The first complete JSON value of a model reply (see :func:`parse_model_answer` for the rules).

    Raises:
        ValueError: no complete JSON object could be read.
    """
    body = final_answer(text)
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    start = body.find("{")
    if start < 0:
        raise ValueError("the reply contains no JSON object")
    obj, _end = json.JSONDecoder(strict=False).raw_decode(body, start)
    return obj


def final_answer(text: str) -> str:
    """The part of a model reply after its reasoning: only the final answer counts (case B39).

    Reasoning blocks are matched in every form of :data:`REASONING_TAG` (any case, with
    attributes, square brackets); a tag inside the strings of a complete JSON object outside
    any block is text, not a tag. The final answer is the text after the end of the last
    reasoning block; a closing tag without an opening one ends a block that started with
    the reply (chat templates pre-fill the opening tag, B39-a). Text before a block is
    preamble, not the answer. In the harmony format the answer follows
    ``<|channel|>final<|message|>``.

    Raises:
        UnclosedReasoningError: a reasoning block is still open at the end of the reply
            (cut by the token limit, B39-b): whatever JSON it holds is a draft.
    """
    harmony = list(_HARMONY_FINAL.finditer(text))
    if harmony:
        return text[harmony[-1].end():].strip()
    depth = 0
    end = 0
    pos = 0
    decoder = json.JSONDecoder(strict=False)
    while (m := REASONING_TAG.search(text, pos)) is not None:
        brace = text.find("{", pos, m.start())
        if depth == 0 and brace >= 0:
            # a tag quoted inside a JSON object's strings is not a tag: skip whole objects
            try:
                _, pos = decoder.raw_decode(text, brace)
            except ValueError:
                pos = brace + 1
            continue
        pos = m.end()
        closing = bool(m.group(1) or m.group(2)) or (m.group(3) or "").lower() == "end"
        if not closing:
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                end = m.end()
        else:  # a closing tag whose opening was pre-filled by the chat template
            end = m.end()
    if depth:
        raise UnclosedReasoningError(
            "the reply ends inside a reasoning block that was never closed: it holds no final answer "
            "(a draft in the reasoning is never used)"
        )
    return text[end:].strip()


def strip_thinking(text: str) -> str:
    """``text`` without its reasoning (:func:`final_answer`); a reply whose reasoning never
    closed is returned unchanged, so that :func:`parse_model_answer` rejects it with its reason."""
    try:
        return final_answer(text)
    except UnclosedReasoningError:
        return text.strip()
