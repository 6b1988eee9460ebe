"""Prompt token estimate against real tokenizers of the common Ollama model families (issue #21).

Real tokenizers: the vocabulary-only GGUF files shipped in the ``llama-cpp-python`` 0.3.36
source distribution (``vendor/llama.cpp/models/ggml-vocab-*.gguf``), read with the installed
``llama_cpp`` (``Llama(vocab_only=True).tokenize``). Get them with the ordinary client:

    pip download --no-deps --no-binary :all: llama-cpp-python==0.3.36 -d /tmp/lcp
    tar xzf /tmp/lcp/llama_cpp_python-0.3.36.tar.gz -C /tmp/lcp --wildcards '*/models/ggml-vocab-*.gguf'
    python bench/token_budget.py --vocab-dir /tmp/lcp/llama_cpp_python-0.3.36/vendor/llama.cpp/models

What it does:

1. cuts the corpora into chunk-sized pieces (about 1,500 characters, at line breaks): the
   CUAD contracts (English), XQuAD-es articles (Spanish), the Spanish Constitution (BOE
   XML, legal Spanish), and the small cases (CJK, identifiers, accents);
2. counts each piece's tokens in every family (no BOS, no special tokens);
3. fits :data:`core.tokens.FAMILY_COEFFICIENTS` per family by non-negative least squares on
   the pieces of half of the documents (every other document, sorted by name), with
   ``--fit``, and prints the rows to paste;
4. measures on the *other* half, per family and language, the ratio estimate / real for
   single pieces and for whole prompts (the system prompt and the user message with eight
   consecutive chunks rendered in their tags, as :func:`core.pipeline.fit_context` counts
   them), for the old estimate (``core.generate.estimate_tokens`` before issue #21) and the
   new one;
5. with ``--write-fixture``, writes ``tests/data/tokens/real_counts.jsonl``: 48 held-out
   pieces with their real counts per family, which ``tests/core/test_tokens.py`` checks.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import core  # noqa: E402,F401
from core import tokens  # noqa: E402
from core.prompts import SYSTEM_PROMPT, user_message  # noqa: E402
from core.types import Chunk  # noqa: E402

DATA = ROOT / "tests" / "data"
FEATURES_INDEX = {name: i for i, name in enumerate(tokens.FEATURES)}
VOCABS = {"qwen2": "qwen2", "llama3": "llama-bpe", "mistral": "llama-spm", "gemma": "gemma-4"}


def old_estimate(text: str) -> int:
    """``core.generate.estimate_tokens`` as it was before issue #21 (the 2x over-count)."""
    n = 1
    for m in re.finditer(r"[^\W\d_]+|\d|\s+|.", text, re.DOTALL):
        piece = m[0]
        c = piece[0]
        if c.isalpha():
            wide = sum(1 for ch in piece if ord(ch) >= 0x2E80)
            latin = len(piece) - wide
            if latin:
                accented = sum(1 for ch in piece if 0x80 <= ord(ch) < 0x2E80)
                n += (latin if latin > 1 and piece.isupper() else math.ceil(latin / 2.5)) + accented
            n += 3 * wide
        elif c.isspace():
            n += 0 if piece == " " else 1 + piece.count("\n")
        else:
            n += 1 if c.isascii() else 3
    return n


def pieces_of(text: str, size: int = 1500) -> list[str]:
    """``text`` cut at line breaks into pieces of about ``size`` characters."""
    out, cur = [], ""
    for line in text.splitlines(keepends=True):
        if len(cur) + len(line) > size and cur:
            out.append(cur)
            cur = ""
        cur += line
        while len(cur) > 2 * size:  # a long paragraph: cut at a space
            cut = cur.rfind(" ", 0, size) + 1 or size
            out.append(cur[:cut])
            cur = cur[cut:]
    if cur.strip():
        out.append(cur)
    return [p for p in out if p.strip()]


def documents() -> list[tuple[str, str, str]]:
    """``(name, language, text)`` of every corpus document."""
    docs = []
    for p in sorted((DATA / "corpora" / "cuad" / "txt").glob("*.txt")):
        docs.append((p.name, "en", p.read_text(encoding="utf-8")))
    for p in sorted((DATA / "corpora" / "xquad_es" / "txt").glob("*.txt")):
        docs.append((p.name, "es", p.read_text(encoding="utf-8")))
    xml = (DATA / "corpora" / "pdfs" / "BOE-A-1978-31229.original-text.xml").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", xml)
    articles = [a for a in re.split(r"\n\s*\n", text) if a.strip()]
    half = len(articles) // 2
    docs.append(("BOE-constitution-1", "es", "\n".join(articles[:half])))
    docs.append(("BOE-constitution-2", "es", "\n".join(articles[half:])))
    for name, lang in [("B08_cjk.txt", "cjk"), ("B09_identifiers.txt", "en"), ("B07_es_accents.md", "es"),
                       ("B18_sixty_obligations.txt", "en"), ("B21_service_agreement.txt", "en")]:
        p = DATA / "cases" / name
        if p.exists():
            docs.append((name, lang, p.read_text(encoding="utf-8")))
    return docs


def load_vocabs(vocab_dir: Path) -> dict:
    import llama_cpp

    out = {}
    for family, name in VOCABS.items():
        path = vocab_dir / f"ggml-vocab-{name}.gguf"
        out[family] = llama_cpp.Llama(model_path=str(path), vocab_only=True, verbose=False)
    return out


def count(vocab, text: str) -> int:
    return len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=False))


def fit(rows: list[tuple[tuple[int, ...], int]]) -> tuple[float, ...]:
    """Non-negative least squares of real counts on :func:`core.tokens.features`, weighted so that
    each piece counts by its relative error (divided by its real count)."""
    import numpy as np
    from scipy.optimize import nnls

    a = np.array([f for f, _ in rows], dtype=float)
    b = np.array([r for _, r in rows], dtype=float)
    w = 1.0 / np.maximum(b, 1.0)
    coef, _ = nnls(a * w[:, None], b * w)
    return tuple(round(float(c), 4) for c in coef)


def summary(ratios: list[float]) -> str:
    ratios = sorted(ratios)
    n = len(ratios)
    within = sum(1 for r in ratios if 0.85 <= r <= 1.15) / n
    return (f"n={n:4d} mean {statistics.mean(ratios):.3f} p5 {ratios[int(0.05 * (n - 1))]:.3f} "
            f"p95 {ratios[int(0.95 * (n - 1))]:.3f} min {ratios[0]:.3f} max {ratios[-1]:.3f} within15% {within:.0%}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--vocab-dir", type=Path, required=True)
    ap.add_argument("--fit", action="store_true", help="fit the coefficients on the fit half and print them")
    ap.add_argument("--write-fixture", action="store_true")
    args = ap.parse_args()
    vocabs = load_vocabs(args.vocab_dir)
    docs = documents()
    # every other document of each language fits, the rest is held out
    fit_docs = set()
    for lang in ("en", "es", "cjk"):
        fit_docs |= {d[0] for i, d in enumerate([d for d in docs if d[1] == lang]) if i % 2 == 0}
    pieces = [(name, lang, p) for name, lang, text in docs for p in pieces_of(text)]
    real = {fam: [count(v, p) for _, _, p in pieces] for fam, v in vocabs.items()}
    feats = [tokens.features(p) for _, _, p in pieces]
    if args.fit:
        for fam in vocabs:
            rows = [(feats[i], real[fam][i]) for i, (name, _, _) in enumerate(pieces) if name in fit_docs]
            coef = list(fit(rows))
            # wide (CJK) characters: one short document only (B08), too few rows to move the fit;
            # their coefficient is measured on all of it instead (real tokens left by the others)
            cjk = [i for i, (_, lang, _) in enumerate(pieces) if lang == "cjk"]
            if cjk:
                k = FEATURES_INDEX["wide"]
                rest = sum(sum(c * x for j, (c, x) in enumerate(zip(coef, feats[i])) if j != k) for i in cjk)
                wide = sum(feats[i][k] for i in cjk)
                coef[k] = round(max(0.0, (sum(real[fam][i] for i in cjk) - rest) / wide), 4)
            tokens.FAMILY_COEFFICIENTS[fam] = tuple(coef)
            print(f'    "{fam}": {tokens.FAMILY_COEFFICIENTS[fam]},')
    held = [i for i, (name, _, _) in enumerate(pieces) if name not in fit_docs]
    print(f"pieces: {len(pieces)} ({len(held)} held out), documents: {len(docs)} ({len(docs) - len(fit_docs)} held out)")
    for fam in vocabs:
        print(f"\n== {fam} ({VOCABS[fam]}, vocabulary {vocabs[fam].n_vocab()})")
        for lang in ("en", "es", "cjk"):
            idx = [i for i in held if pieces[i][1] == lang]
            if not idx:
                continue
            print(f"  pieces {lang:3s} old: {summary([old_estimate(pieces[i][2]) / real[fam][i] for i in idx])}")
            print(f"  pieces {lang:3s} new: {summary([tokens.estimate(pieces[i][2], fam) / real[fam][i] for i in idx])}")
            print(f"  pieces {lang:3s} generic: {summary([tokens.estimate(pieces[i][2]) / real[fam][i] for i in idx])}")
        # whole prompts: the system prompt and 8 consecutive held-out chunks of one language
        for lang in ("en", "es"):
            idx = [i for i in held if pieces[i][1] == lang]
            old_r, new_r, gen_r = [], [], []
            for s in range(0, len(idx) - 7, 4 if len(idx) > 80 else 1):
                chunks = [Chunk(chunk_id=f"{pieces[i][0]}#c{i}", doc_id=pieces[i][0], path=pieces[i][0], page=1,
                                start=0, end=len(pieces[i][2]), text=pieces[i][2]) for i in idx[s : s + 8]]
                texts = [SYSTEM_PROMPT, user_message("What does the agreement say about termination?", chunks)]
                r = sum(count(vocabs[fam], t) for t in texts)
                old_r.append(sum(old_estimate(t) for t in texts) / r)
                new_r.append(sum(tokens.estimate(t, fam) for t in texts) / r)
                gen_r.append(sum(tokens.estimate(t) for t in texts) / r)
            if old_r:
                print(f"  prompts {lang} old: {summary(old_r)}")
                print(f"  prompts {lang} new: {summary(new_r)}")
                print(f"  prompts {lang} generic: {summary(gen_r)}")
    if args.write_fixture:
        out = DATA / "tokens" / "real_counts.jsonl"
        out.parent.mkdir(parents=True, exist_ok=True)
        by_lang: dict[str, list[int]] = {}
        for i in held:
            by_lang.setdefault(pieces[i][1], []).append(i)
        chosen = []
        for lang, idx in sorted(by_lang.items()):
            step = max(1, len(idx) // 16)
            chosen += idx[::step][:16]
        with out.open("w", encoding="utf-8") as fh:
            for i in chosen:
                name, lang, text = pieces[i]
                fh.write(json.dumps({"source": name, "lang": lang, "text": text,
                                     "tokens": {fam: real[fam][i] for fam in vocabs}}, ensure_ascii=False) + "\n")
        print(f"\nwrote {len(chosen)} pieces to {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
