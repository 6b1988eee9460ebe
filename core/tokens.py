"""Prompt token counts for Ollama models, measured rather than guessed (issue #21).

Ollama's documented API has no tokenize endpoint, and no tokenizer of an arbitrary Ollama
model runs here, so prompts are sized with an *estimate* whose coefficients were fitted
against the real tokenizers of the common Ollama model families — the vocabulary-only GGUF
files that ship inside the ``llama-cpp-python`` source distribution (a dependency already),
``vendor/llama.cpp/models/ggml-vocab-*.gguf``: ``qwen2`` (Qwen 2/2.5), ``llama-bpe``
(Llama 3.x), ``llama-spm`` (the 32k SentencePiece of Llama 2 and Mistral 7B) and
``gemma-4`` (Gemma's 262k vocabulary). ``bench/token_budget.py`` fits and measures them;
the figures are in ``bench/README.md`` (issue #21).

The estimate is linear in counts of the pieces of a text (:func:`features`): words of Latin
letters and their letters, capitals, letters outside ASCII, wide (CJK) characters, digits,
punctuation, other symbols and line breaks. One coefficient row per family
(:data:`FAMILY_COEFFICIENTS`), fitted by non-negative least squares on chunks of English
contracts (CUAD) and Spanish text (XQuAD-es), with the documents split in two halves (fit
on one, measured on the other). A model whose family is not known uses the largest
estimate of all families (:data:`GENERIC`), so it over-counts rather than letting the server
cut the prompt.

:class:`Calibration` then corrects the estimate on the fly with the count Ollama reports
for each call (``prompt_eval_count``), per model.
"""

from __future__ import annotations

import math
import re
import threading

_PIECE = re.compile(r"[^\W\d_]+|\d|\s+|.", re.DOTALL)

FEATURES = ("pieces", "words", "letters", "upper", "accented", "wide", "digits", "punct", "symbols", "newlines")
"""Names of :func:`features`' counts, in order."""


def features(text: str) -> tuple[int, ...]:
    """Counts of the pieces of ``text`` that tokenizers split on (see :data:`FEATURES`).

    ``pieces``: runs the regex splits ``text`` into; ``words``: runs of letters;
    ``letters``: their non-wide letters; ``upper``: letters in all-capital words of 2+
    letters; ``accented``: non-ASCII, non-wide letters; ``wide``: CJK and other wide
    characters (code point >= U+2E80); ``digits``; ``punct``: ASCII punctuation;
    ``symbols``: other non-space characters; ``newlines``.
    """
    words = letters = upper = accented = wide = digits = punct = symbols = newlines = pieces = 0
    for m in _PIECE.finditer(text):
        piece = m[0]
        pieces += 1
        c = piece[0]
        if c.isalpha():
            w = sum(1 for ch in piece if ord(ch) >= 0x2E80)
            latin = len(piece) - w
            wide += w
            if latin:
                words += 1
                letters += latin
                accented += sum(1 for ch in piece if 0x80 <= ord(ch) < 0x2E80)
                if latin > 1 and piece.isupper():
                    upper += latin
        elif c.isdigit():
            digits += 1
        elif c.isspace():
            newlines += piece.count("\n")
        elif c.isascii():
            punct += 1
        else:
            symbols += 1
    return (pieces, words, letters, upper, accented, wide, digits, punct, symbols, newlines)


# Fitted by bench/token_budget.py (see bench/README.md, issue #21); one value per FEATURES name.
FAMILY_COEFFICIENTS: dict[str, tuple[float, ...]] = {
    "qwen2": (0.4563, 0.1656, 0.0092, 0.086, 2.9824, 0.4702, 0.9458, 0.0494, 1.3872, 0.0974),
    "llama3": (0.5594, 0.0, 0.0, 0.0862, 3.0279, 0.6862, 0.3099, 0.0182, 1.342, 0.1192),
    "mistral": (0.2677, 0.1367, 0.13, 0.2647, 2.1023, 1.1643, 1.1282, 0.2495, 3.0752, 1.0197),
    "gemma": (0.1234, 0.7645, 0.019, 0.0757, 1.0576, 0.332, 1.4035, 0.438, 4.3582, 0.1727),
}
SAFETY = 1.06
"""The fitted estimate is multiplied by this: the fit is unbiased (mean ratio about 1.0 on
held-out prompts, 5th percentile 0.93-0.95), and an under-count lets Ollama cut the prompt
silently, so the estimate is set just above the real count on nearly every prompt."""
GENERIC = "generic"
"""Family name of a model not recognised by :func:`family_of`: the largest estimate of all families."""

# Ollama library names of each family (ollama.com/library): the part before ":" and any "/".
_FAMILY_NAMES = (
    ("qwen2", re.compile(r"^(?:qwen2|qwen2\.5|qwen3|qwq|qwen)")),
    ("llama3", re.compile(r"^(?:llama3|llama-3|hermes3|nemotron|dolphin3|deepseek-r1:?\d*\.?\d*b?-?llama)")),
    ("mistral", re.compile(r"^(?:mistral(?!-nemo|-small|-large)|mixtral|llama2|zephyr|openhermes)")),
    ("gemma", re.compile(r"^(?:gemma)")),
)


def family_of(model: str) -> str:
    """The tokenizer family of an Ollama model name ("qwen2.5:7b" → ``"qwen2"``), else :data:`GENERIC`."""
    name = model.rsplit("/", 1)[-1].casefold()
    for family, pattern in _FAMILY_NAMES:
        if pattern.match(name):
            return family
    return GENERIC


def estimate(text: str, family: str = GENERIC) -> int:
    """Estimated tokens of ``text`` in ``family``'s tokenizer (no special tokens), rounded up.

    Raises:
        KeyError: an unknown family name (other than :data:`GENERIC`).
    """
    f = features(text)
    if family == GENERIC:
        return max(estimate(text, fam) for fam in FAMILY_COEFFICIENTS)
    coef = FAMILY_COEFFICIENTS[family]
    return max(1, math.ceil(SAFETY * sum(c * x for c, x in zip(coef, f))))


class Calibration:
    """On-the-fly correction of the estimate by the prompt counts a server reports.

    ``factor`` is ``MARGIN * sum(reported) / sum(estimated)`` over the calls seen (weighted by
    size, so a long prompt counts more than a short one), bounded to ``[0.5, 2.0]``, and 1.0
    (the estimate's own :data:`SAFETY`) until calls of at least :data:`MIN_TOKENS` estimated
    tokens in all were seen. A call under :data:`MIN_TOKENS` (template tokens dominate it) or whose
    ratio lies outside ``PLAUSIBLE`` (not a count of this prompt: an old server that reported only
    the tokens it did not have cached, ollama/ollama issue #2068) is ignored. A count that may have
    been cut by the server (it filled the window: Ollama reports what fit, ollama/ollama
    issue #3427) is only a lower bound: it can raise the factor, never lower it.
    Thread-safe.
    """

    MIN_TOKENS = 200
    PLAUSIBLE = (0.6, 1.6)
    MARGIN = 1.03
    """Once the model's own counts are known, the estimate is set this far above them (the
    remaining error is the spread between prompts of one model: 5th-95th percentile within
    about ±4 % of the mean on held-out prompts, ``bench/README.md``)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._estimated = 0
        self._reported = 0
        self._floor = 0.0

    @property
    def factor(self) -> float:
        """The correction applied to estimates (1.0 before any usable observation)."""
        with self._lock:
            base = self.MARGIN * self._reported / self._estimated if self._estimated >= self.MIN_TOKENS else 1.0
            return min(2.0, max(0.5, base, self.MARGIN * self._floor))

    def observe(self, estimated: int, reported: int, *, maybe_cut: bool = False) -> None:
        """Record one call: ``estimated`` prompt tokens (uncorrected) against ``reported`` by the server.

        Args:
            estimated: the uncorrected estimate of the whole prompt, tokens.
            reported: the server's count (``prompt_eval_count``); 0 or less is ignored.
            maybe_cut: the count may be truncated (prompt + answer filled the window).
        """
        if estimated < self.MIN_TOKENS or reported <= 0:
            return
        low, high = self.PLAUSIBLE
        if not low <= reported / estimated <= high:
            return
        with self._lock:
            if maybe_cut:
                self._floor = max(self._floor, reported / estimated)
            else:
                self._estimated += estimated
                self._reported += reported
