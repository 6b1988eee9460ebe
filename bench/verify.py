"""Verification figures: matcher speed per path, fuzzy-threshold variants, funnel rejection counts.

Usage: python bench/verify.py [--anchors N] [--embedded [--save-answers FILE]] [--only speed|embedded]

1. Speed: microseconds per citation for the exact, normalized and fuzzy paths of
   :func:`core.verify.match_quote` on chunks of 1-4 KB (consecutive chunks of the
   Spanish Constitution and NIST FIPS 199 joined), and for the facts check
   (:func:`core.facts.missing_facts`) per claim. Medians and 95th percentiles.
2. Thresholds: the fuzzy threshold (``Settings.fuzzy_threshold``) at 88, 92 and
   95 in one run, on true quotes (BOE paragraph anchors on their page) and on
   altered quotes that must be rejected: the four paragraphs amended since 1978
   (against every chunk) and edits of true anchors (a word replaced, a word
   deleted, "no" inserted, two words swapped, one letter dropped — the last is
   an OCR-like typo that *should* still verify, reported apart).
3. Funnel: rejection-reason counts of :func:`core.verify.verify_claims` over
   simulated model answers built from the lab's gold quotes and the shared
   cases (B21's simulated quotes; true, paraphrased, wrong-chunk, invented-id,
   wrong-number claims). With ``--embedded`` also the real pipeline with the
   embedded SmolLM2 model over the twelve lab questions (slow: minutes).
4. Polarity: false removals of :func:`core.polarity.polarity_mismatch` on the BOE
   anchors and the lab's sentences (true claims), and its detections when "no" is
   inserted into an anchor or put before a lab gold quote.

Prints figures; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import core  # noqa: E402,F401
from core.chunking import chunk_pages  # noqa: E402
from core.facts import missing_facts  # noqa: E402
from core.ingest import parse_file  # noqa: E402
from core.types import Chunk, ModelAnswer  # noqa: E402
from core.verify import match_quote, verify_claims  # noqa: E402

SHARED = Path(os.environ.get("VERBATIM_SHARED", Path(__file__).resolve().parents[2] / "shared"))
PDFS = SHARED / "eval" / "corpora" / "pdfs"
LAB = SHARED / "eval" / "lab"
CASES = SHARED / "cases"
RNG = random.Random(1234)
REPEATS = 3  # timings are the best of this many runs of the same call (timeit's convention)


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def chunks_of(pdf: Path, doc_id: str) -> tuple[object, list[Chunk]]:
    doc = parse_file(pdf)
    return doc, chunk_pages(doc_id, str(pdf), doc.pages)


def normalized_variant(quote: str) -> str:
    """The same quote as a model might retype it: other case, typographic quotes, collapsed spaces."""
    out = " ".join(quote.split()).upper() if RNG.random() < 0.5 else " ".join(quote.split()).lower()
    return out.replace('"', "\u201c").replace("-", "\u2013")


def drop_letter(quote: str) -> str:
    words = quote.split()
    long = [i for i, w in enumerate(words) if len(w) > 5 and w.isalpha()]
    if not long:
        return quote
    i = RNG.choice(long)
    w = words[i]
    j = RNG.randrange(1, len(w) - 1)
    words[i] = w[:j] + w[j + 1 :]
    return " ".join(words)


def speed(texts: list[str]) -> None:
    from core.normalize import normalize

    print(f"\n== 1. speed: microseconds per citation (median / p95 over citations; each the best of {REPEATS} runs, "
          "so a shared machine's preemptions do not count), chunk normalization cached ==")
    for size in (1000, 2000, 4000):
        pool = [t[:size] for t in texts if len(t) >= size][:40]
        cold = []
        for text in pool:
            best = float("inf")
            for _ in range(REPEATS):
                t0 = time.perf_counter()
                normalize(text)
                best = min(best, (time.perf_counter() - t0) * 1e6)
            cold.append(best)
        print(f"normalizing a {size // 1000} KB chunk once (first citation on it): median {statistics.median(cold):.0f} µs, "
              f"p95 {pct(cold, 0.95):.0f} µs")
    for size in (1000, 2000, 3000, 4000):
        pool = [t[:size] for t in texts if len(t) >= size]
        for text in pool[:60]:
            match_quote("warm the normalization cache for this chunk", text)
        timings: dict[str, list[float]] = {"exact": [], "normalized": [], "fuzzy": [], "rejected": []}
        kinds: Counter = Counter()
        for text in pool[:60]:
            for _ in range(5):
                start = RNG.randrange(0, len(text) - 160)
                quote = text[start : start + RNG.randrange(60, 160)].strip()
                if len(quote) < 30:
                    continue
                variants = {
                    "exact": quote,
                    "normalized": normalized_variant(quote),
                    "fuzzy": drop_letter(" ".join(quote.split())),  # tolerated in OCR chunks only
                    "rejected": "The parties agree that this sentence appears nowhere in the document text.",
                }
                for path, q in variants.items():
                    best = float("inf")
                    for _ in range(REPEATS):
                        t0 = time.perf_counter()
                        m = match_quote(q, text, ocr=path == "fuzzy")
                        best = min(best, (time.perf_counter() - t0) * 1e6)
                    timings[path].append(best)
                    kinds[(path, m.kind.value if m else None)] += 1
        row = "  ".join(
            f"{path} {statistics.median(v):7.0f} / {pct(v, 0.95):7.0f}" for path, v in timings.items() if v
        )
        print(f"chunk {size // 1000} KB ({len(pool[:60])} chunks): {row}")
    print("(each path's matches: " + ", ".join(f"{k[0]}→{k[1]}: {n}" for k, n in sorted(kinds.items(), key=str)) + ")")
    claims = [
        ("The Supplier must deliver within 30 days and pay 1.5% interest.", ["within thirty (30) days", "un interés del 1,5 % anual"]),
        ("El importe es de 1.250,00 euros desde el 1 de marzo de 2024.", ["asciende a 1 250,00 € más IVA desde el 01/03/2024"]),
        ("The notice period is ninety days.", ["Either party may terminate with ninety days written notice."]),
    ]
    times = []
    for _ in range(200):
        for claim, quotes in claims:
            facts_claim = claim + f" Ref {RNG.randrange(10**6)}."  # defeat the cache: new text each time
            t0 = time.perf_counter()
            missing_facts(facts_claim, quotes, "en")
            times.append((time.perf_counter() - t0) * 1e6)
    print(f"facts check per claim (uncached claim, 1-2 quotes): median {statistics.median(times):.0f} µs, p95 {pct(times, 0.95):.0f} µs")


def alterations(quote: str, vocab: list[str]) -> dict[str, str]:
    words = quote.split()
    if len(words) < 6:
        return {}
    i = RNG.randrange(1, len(words) - 2)
    replaced = words[:i] + [RNG.choice([v for v in vocab if v.lower() != words[i].lower()] or ["otro"])] + words[i + 1 :]
    deleted = words[:i] + words[i + 1 :]
    inserted = words[:i] + ["no"] + words[i:]
    swapped = words[:i] + [words[i + 1], words[i]] + words[i + 2 :]
    return {
        "word replaced": " ".join(replaced),
        "word deleted": " ".join(deleted),
        "'no' inserted": " ".join(inserted),
        "words swapped": " ".join(swapped) if words[i].lower() != words[i + 1].lower() else "",
    }


def thresholds(n_anchors: int) -> None:
    print("\n== 2. fuzzy threshold variants, OCR tolerance on (true quotes verified / altered quotes wrongly accepted) ==")
    _, chunks = chunks_of(PDFS / "BOE-A-1978-31229-consolidado.pdf", "boe/constitucion.pdf")
    by_page: dict[int, list[Chunk]] = {}
    for c in chunks:
        by_page.setdefault(c.page, []).append(c)
    anchors = [json.loads(line) for line in (PDFS / "boe_constitution_anchors.jsonl").open(encoding="utf-8")]
    amended = [a for a in anchors if not a["found_in_pdf"]]
    true = [a for a in anchors if a["found_in_pdf"] and len(a["pdf_pages"]) == 1 and len(a["anchor_text"]) < 900]
    RNG.shuffle(true)
    true = true[:n_anchors]
    vocab = sorted({w for c in chunks[:40] for w in c.text.split() if w.isalpha() and len(w) > 3})
    import core.verify as verify_mod

    real_same_words = verify_mod._same_words
    variants = (88.0, 92.0, 95.0, "92 without word check")
    results: dict = {t: Counter() for t in variants}

    def found(q: str, cands: list[Chunk], t) -> bool:
        if isinstance(t, str):
            verify_mod._same_words = lambda a, b, **_: True
            try:
                return any(match_quote(q, c.text, fuzzy_threshold=92.0, ocr=True) for c in cands)
            finally:
                verify_mod._same_words = real_same_words
        # ocr=True: the most tolerant mode (one misread letter per word) must still reject alterations
        return any(match_quote(q, c.text, fuzzy_threshold=t, ocr=True) for c in cands)

    totals: Counter = Counter()
    t0 = time.perf_counter()
    for a in true:
        page_chunks = by_page.get(a["pdf_pages"][0], [])
        # an anchor longer than what one chunk holds cannot verify: count a 200-character slice
        quote = a["anchor_text"] if len(a["anchor_text"]) <= 400 else a["anchor_text"][:200].rsplit(" ", 1)[0]
        cases = {"true quote": quote, "typo (letter dropped)": drop_letter(quote), **alterations(quote, vocab)}
        for label, q in cases.items():
            if not q:
                continue
            totals[label] += 1
            for t in variants:
                if found(q, page_chunks, t):
                    results[t][label] += 1
    for a in amended:
        totals["amended 1978 text (any chunk)"] += 1
        for t in variants:
            if found(a["anchor_text"], chunks, t):
                results[t]["amended 1978 text (any chunk)"] += 1
    secs = time.perf_counter() - t0
    labels = list(totals)
    print(f"{'':34}" + "".join(f"{(f'>= {t:.0f}' if not isinstance(t, str) else t):>24}" for t in variants))
    for label in labels:
        should = label in {"true quote", "typo (letter dropped)"}
        tag = "verified" if should else "ACCEPTED (wrong)"
        print(f"{label + ' ' + tag:34}" + "".join(f"{f'{results[t][label]}/{totals[label]}':>24}" for t in variants))
    print(f"({len(true)} anchors on their page, {secs:.1f} s for all variants)")


def _answer(claims: list[tuple[str, list[tuple[str, str]]]]) -> ModelAnswer:
    return ModelAnswer.model_validate({
        "answer_found": True, "complete_answer": True, "conflicting_evidence": False, "missing": "",
        "claims": [{"text": t, "citations": [{"chunk_id": c, "quote": q} for c, q in cits]} for t, cits in claims],
    })


def funnel_simulated() -> None:
    print("\n== 3a. funnel on simulated answers (lab gold quotes, shared cases) ==")
    counts: Counter = Counter()
    kept_kinds: Counter = Counter()
    lab_cases = [json.loads(line) for line in (LAB / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    n = 0
    for case in lab_cases:
        for doc in case["expected_docs"]:
            path = LAB / "corpus" / doc
            text = path.read_text(encoding="utf-8")
            chunk = Chunk(chunk_id=f"{doc}#p1-c0", doc_id=doc, path=str(path), page=1, start=0, end=len(text), text=text)
            other = Chunk(chunk_id="other#p1-c0", doc_id="other", path="/other", page=1, start=0, end=60,
                          text="An unrelated passage about office cleaning schedules and keys.")
            delivered = {chunk.chunk_id: chunk, other.chunk_id: other}
            for gold in case["gold_quotes"]:
                digits = [ch for ch in gold if ch.isdigit()]
                wrong_number = gold
                if digits:
                    d = digits[0]
                    wrong_number = gold.replace(d, str((int(d) + 1) % 10), 1)
                claims = [
                    ("True claim: " + gold, [(chunk.chunk_id, gold)]),
                    ("Retyped: " + gold, [(chunk.chunk_id, normalized_variant(gold))]),
                    ("Paraphrase.", [(chunk.chunk_id, "In short, the document says something similar to this.")]),
                    ("Wrong chunk.", [(other.chunk_id, gold)]),
                    ("Invented id.", [("norte/inventado.md#p1-c0", gold)]),
                    ("Too short.", [(chunk.chunk_id, gold[:10])]),
                    ("Wrong number in the claim: " + wrong_number, [(chunk.chunk_id, gold)]),
                ]
                for part in (claims[:4], claims[4:]):  # the schema allows 5 claims per answer
                    claims_out, rejected = verify_claims(_answer(part), delivered)
                    n += len(part)
                    counts.update(r.reason.value for r in rejected)
                    kept_kinds.update(cit.match.value for c in claims_out for cit in c.citations)
    cases = json.loads((CASES / "cases.json").read_text(encoding="utf-8"))["cases"]
    for case in cases:
        sim = case.get("simulated_model_quote")
        if sim is None:
            continue
        text = (CASES / case["file"]).read_text(encoding="utf-8")
        chunk = Chunk(chunk_id="b21#p1-c0", doc_id="b21", path=str(CASES / case["file"]), page=1, start=0,
                      end=len(text), text=text)
        claims_out, rejected = verify_claims(_answer([("Claim.", [(chunk.chunk_id, sim)])]), {chunk.chunk_id: chunk})
        n += 1
        verdict = "accept" if claims_out else "reject"
        expected = case["expected"]["verdict"].split()[0]
        counts.update(r.reason.value for r in rejected)
        kept_kinds.update(cit.match.value for c in claims_out for cit in c.citations)
        print(f"  B21 {case['notes']:<40} expected {expected:<6} got {verdict}")
    print(f"{n} simulated claims; rejection reasons: {dict(sorted(counts.items()))}")
    print(f"kept citations by match kind: {dict(kept_kinds)}")


def polarity() -> None:
    """False removals and detections of the polarity check (core.polarity) on the BOE anchors and the lab."""
    import re

    from core.ingest import iter_files
    from core.polarity import check_polarity, polarity_mismatch

    print("\n== 4. polarity check: false removals (true claims removed) / detections (negation inserted) ==")
    anchors = [json.loads(line) for line in (PDFS / "boe_constitution_anchors.jsonl").open(encoding="utf-8")]
    true = [a["anchor_text"] for a in anchors if a["found_in_pdf"]]
    false_removed = sum(polarity_mismatch(t, [t]) is not None for t in true)
    inserted = detected = warned = 0
    t0 = time.perf_counter()
    for text in true:
        words = text.split()
        if len(words) < 6:
            continue
        i = RNG.randrange(1, len(words) - 2)
        edited = " ".join(words[:i] + ["no"] + words[i:])
        inserted += 1
        outcome = check_polarity(edited, [text]).outcome
        detected += outcome == "contradict"
        warned += outcome == "unsure"
    secs = time.perf_counter() - t0
    print(f"BOE anchors: {false_removed}/{len(true)} true claims removed; 'no' inserted before a random word: "
          f"{detected}/{inserted} removed, {warned}/{inserted} kept with a warning "
          f"({secs / max(inserted, 1) * 1e6:.0f} µs per check)")
    sentences = []
    for path in iter_files(LAB / "corpus"):
        for page in parse_file(path).pages:
            sentences += [(s.strip(), page.text) for s in re.split(r"(?<=[.;:])\s+|\n", page.text) if len(s.strip()) > 20]
    removed_self = sum(polarity_mismatch(s, [s]) is not None for s, _ in sentences)
    removed_page = sum(polarity_mismatch(s, [page]) is not None for s, page in sentences)
    lab_cases = [json.loads(line) for line in (LAB / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    gold = [g for c in lab_cases for g in c["gold_quotes"]]
    negated = [("No " + g[0].lower() + g[1:], g) for g in gold]
    print(f"lab: {removed_self}/{len(sentences)} sentences removed citing themselves, {removed_page}/{len(sentences)} "
          f"citing their page; gold quotes negated ('No …'): {sum(polarity_mismatch(c, [g]) is not None for c, g in negated)}"
          f"/{len(negated)} removed")


def funnel_embedded(save: str | None) -> None:
    """The lab's twelve questions through the real pipeline with the embedded model.

    The workspaces are the evaluator's own (``workspaces.toml``: statuses, quarantine), built by
    :func:`core.evaluate.open_workspaces`; with ``save`` the answers are written as JSON lines,
    so ``verbatim eval --answers SAVE`` judges them without a second model run.
    """
    print("\n== 3b. funnel with the embedded model over the lab questions ==")
    os.environ.setdefault("VERBATIM_HOME", tempfile.mkdtemp(prefix="verbatim-bench-"))
    from core.evaluate import load_cases, open_workspaces
    from core.generate import EmbeddedBackend
    from core.pipeline import answer_question, run
    from core.settings import Settings
    from core.workspaces import load_workspaces

    settings = Settings()
    backend = EmbeddedBackend(settings)
    lab_cases = load_cases(LAB / "cases.jsonl")
    config = load_workspaces(LAB / "workspaces.toml")
    spaces = open_workspaces(config, settings, Path(os.environ["VERBATIM_HOME"]) / "lab-index")
    reasons: Counter = Counter()
    statuses: Counter = Counter()
    secs = []
    out = open(save, "w", encoding="utf-8") if save else None
    for case in lab_cases:
        t0 = time.perf_counter()
        answer = run(answer_question(spaces[case.workspace], case.question, settings, backend=backend))
        secs.append(time.perf_counter() - t0)
        if out:
            out.write(answer.model_dump_json() + "\n")
            out.flush()
        statuses[answer.status] += 1
        reasons.update(r.reason.value for r in answer.rejected)
        print(f"  {case.case_id} must_abstain={case.must_abstain!s:5} -> {answer.status:9} "
              f"claims={len(answer.claims)} rejected={[r.reason.value for r in answer.rejected]} "
              f"conflict={answer.conflicting_evidence} rounds={len(answer.trace.rounds)} {secs[-1]:.0f} s",
              flush=True)
    if out:
        out.close()
    print(f"statuses: {dict(statuses)}; rejection reasons: {dict(reasons)}; median {statistics.median(secs):.0f} s per question")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--anchors", type=int, default=150, help="BOE anchors for the threshold variants")
    parser.add_argument("--embedded", action="store_true", help="also run the lab with the embedded model (slow)")
    parser.add_argument("--save-answers", help="with --embedded: write the answers as JSON lines (for verbatim eval --answers)")
    parser.add_argument("--only", choices=["speed", "embedded"], help="run only this part")
    args = parser.parse_args()
    if args.only == "embedded":
        funnel_embedded(args.save_answers)
        return
    texts = []
    for pdf, doc_id in [("BOE-A-1978-31229-consolidado.pdf", "boe"), ("NIST.FIPS.199.pdf", "fips")]:
        _, chunks = chunks_of(PDFS / pdf, doc_id)
        # consecutive chunks of a page joined, so chunks of 1-4 KB exist
        for i in range(0, len(chunks) - 4, 4):
            group = [c for c in chunks[i : i + 5] if c.page == chunks[i].page]
            texts.append("\n".join(c.text for c in group))
    speed(texts)
    if args.only == "speed":
        return
    thresholds(args.anchors)
    funnel_simulated()
    polarity()
    if args.embedded:
        funnel_embedded(args.save_answers)


if __name__ == "__main__":
    main()
