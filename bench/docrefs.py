"""Document resolution alone (no index, no model): every case question of the CUAD sets and
XQuAD-es resolved against profiles built from the corpus files, with the product's resolver.

For each case file: right (the first scoped document is the case's own contract), wrong (a scope
without it), none (searched everywhere), ambiguous (two or three searched). Unlike ``verbatim
eval``, which counts only cases with ``expected_docs``, every case counts here, must-abstain ones
included (their contract is ``source.doc``). XQuAD-es: questions (Spanish and their English
twins) restricted to an article other than their own.

Profiles are built as at indexing: the first :data:`core.store.profiles.HEAD_CHUNKS` chunks'
worth of text (about 4,000 characters here) for the naming words, the first
:data:`core.docnames.PROPER_CHUNKS` chunks' worth (12,000) for the proper-name test, no title
(the index's title is the first heading, which these plain-text files' first lines also give).

``--kinds``: the kind-reference questions of ``bench/data/kindrefs_questions.json`` (documents
named only by their kind of contract, in either language) over their mixed workspace: CUAD
contracts from ``--corpora`` and the B46 documents from ``tests/data/cases/B46_crosslingual``;
right = exactly the expected documents (a case expecting none: no scope), ambiguous flag included.

``--ablate`` runs it again with each kind of new evidence switched off in turn (how much each
carries; nothing is fitted).

Usage: ``python bench/docrefs.py [--corpora DIR] [--ablate] [--kinds]``.
"""

from __future__ import annotations

import argparse
import json
from contextlib import contextmanager
from pathlib import Path

from core.clauses import match_clause_types
from core.docrefs import DocResolver, build_profile

CUAD_SETS = ("cuad/cases.jsonl", "cuad_natural/cases_nat.jsonl", "cuad_natural/cases_es.jsonl",
             "cuad_natural/cases_para.jsonl")


def _profiles(folder: Path) -> list:
    out = []
    for path in sorted(folder.glob("*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        try:
            out.append(build_profile("txt/" + path.name, str(path), "", text[:4000], text[:12000]))
        except TypeError:  # the resolver before issue #20 (the "before" column): no proper-name text
            out.append(build_profile("txt/" + path.name, str(path), "", text[:4000]))
    return out


def _resolve(resolver: DocResolver, question: str):
    matches = match_clause_types(question)
    protected = frozenset().union(*(m.words for m in matches)) if matches else frozenset()
    return resolver.resolve(question, protected)


def measure(corpora: Path) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    cuad = DocResolver(_profiles(corpora / "cuad" / "txt"))
    for name in CUAD_SETS:
        row = {"cases": 0, "right": 0, "wrong": 0, "none": 0, "ambiguous": 0}
        for line in (corpora / name).read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            expected = "txt/" + case["source"]["doc"]
            res = _resolve(cuad, case["question"])
            row["cases"] += 1
            row["right"] += bool(res.doc_ids) and res.doc_ids[0] == expected
            row["wrong"] += bool(res.doc_ids) and expected not in res.doc_ids
            row["none"] += not res.doc_ids
            row["ambiguous"] += res.ambiguous
        out[name] = row
    xquad = DocResolver(_profiles(corpora / "xquad_es" / "txt"))
    row = {"cases": 0, "scoped": 0, "wrong": 0}
    for line in (corpora / "xquad_es" / "cases.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        case = json.loads(line)
        expected = [e.split("/")[-1] for e in case.get("expected_docs") or []]
        for question in (case["question"], (case.get("source") or {}).get("question_en", "")):
            if not question:
                continue
            res = _resolve(xquad, question)
            row["cases"] += 1
            row["scoped"] += bool(res.doc_ids)
            row["wrong"] += bool(res.doc_ids and expected) and not any(
                d.endswith(e) for d in res.doc_ids for e in expected)
    out["xquad_es (es + en questions)"] = row
    return out


def measure_kinds(corpora: Path) -> dict[str, dict[str, int]]:
    """The kind-reference set (module docstring): right / wrong (a document searched that is not
    expected) / none (expected some, searched everywhere) / ambiguous, per direction of language."""
    repo = Path(__file__).resolve().parents[1]
    data = json.loads((repo / "bench" / "data" / "kindrefs_questions.json").read_text(encoding="utf-8"))
    profiles = []
    for name in data["workspace"]["cuad"]:
        text = (corpora / "cuad" / "txt" / name).read_text(encoding="utf-8", errors="replace")
        profiles.append(build_profile("txt/" + name, name, "", text[:4000], text[:12000]))
    for name in data["workspace"]["b46"]:
        text = (repo / "tests" / "data" / "cases" / "B46_crosslingual" / name).read_text(encoding="utf-8")
        profiles.append(build_profile(name, name, "", text[:4000], text[:12000]))
    resolver = DocResolver(profiles)
    out: dict[str, dict[str, int]] = {}
    for case in data["questions"]:
        res = _resolve(resolver, case["q"])
        expected = case["expected"]
        row = out.setdefault(case["lang"], {"cases": 0, "right": 0, "wrong": 0, "none": 0, "ambiguous": 0})
        hits = [d for d in res.doc_ids if any(e in d for e in expected)]
        row["cases"] += 1
        row["right"] += len(hits) == len(res.doc_ids) and {e for e in expected if any(e in d for d in hits)} == set(
            expected) and res.ambiguous == case.get("ambiguous", False)
        row["wrong"] += len(hits) < len(res.doc_ids)
        row["none"] += bool(expected) and not res.doc_ids
        row["ambiguous"] += res.ambiguous
    return out


@contextmanager
def _without(evidence: str):
    """Switch one kind of evidence off (``--ablate``)."""
    import core.docnames as names
    import core.docrefs as refs

    saved = {}
    if evidence == "fuzzy":
        saved["FUZZY"] = refs.process.extract
        refs.process.extract = lambda *a, **k: []
    elif evidence == "spanish kinds":
        saved["KIND"] = dict(refs.KIND_ES_EN)
        refs.KIND_ES_EN.clear()
    elif evidence == "proper names":
        saved["PROPER"] = names.build_profile
        original = names.build_profile

        def no_proper(*a, **k):
            p = original(*a, **k)
            return names.DocProfile(p.doc_id, p.title, p.names, frozenset())
        globals()["build_profile"] = no_proper
    try:
        yield
    finally:
        if "FUZZY" in saved:
            refs.process.extract = saved["FUZZY"]
        if "KIND" in saved:
            refs.KIND_ES_EN.update(saved["KIND"])
        if "PROPER" in saved:
            globals()["build_profile"] = saved["PROPER"]


def _print(title: str, figures: dict[str, dict[str, int]]) -> None:
    print(f"\n{title}")
    for name, row in figures.items():
        print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in row.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=Path(__file__).resolve().parents[2] / "shared/eval/corpora")
    parser.add_argument("--ablate", action="store_true")
    parser.add_argument("--kinds", action="store_true", help="the kind-reference set (module docstring)")
    args = parser.parse_args()
    if args.kinds:
        _print("kind references (bench/data/kindrefs_questions.json)", measure_kinds(args.corpora))
        return
    _print("all evidence", measure(args.corpora))
    if args.ablate:
        for evidence in ("fuzzy", "spanish kinds", "proper names"):
            with _without(evidence):
                _print(f"without {evidence}", measure(args.corpora))


if __name__ == "__main__":
    main()
