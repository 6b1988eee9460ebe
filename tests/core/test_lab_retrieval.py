"""Retrieval on the lab (tests/data/lab; its provenance is in tests/data/README.md): every answerable case finds its gold quotes in the top k.

Here the lab's folders form one workspace (workspace isolation and quarantine
come with issue #5); the check is retrieval recall@k at the default k.
"""

from __future__ import annotations

import json

import pytest

from core.normalize import normalized
from core.pipeline import index_folders, retrieve, run
from core.settings import Settings
from core.store import Workspace
from core.types import Trace
from tests.conftest import data_home, LAB


def _answerable():
    cases = [json.loads(line) for line in (LAB / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return [pytest.param(c, id=c["case_id"]) for c in cases if not c["must_abstain"]]


@pytest.fixture(scope="module")
def lab_ws(tmp_path_factory) -> Workspace:
    with data_home(tmp_path_factory.mktemp("lab-home")):
        ws = Workspace("lab", Settings())
        report = run(index_folders(ws, [LAB / "corpus" / d for d in ("public", "norte", "sur")]))
    assert report.failures == [] and report.documents == 8
    return ws


@pytest.mark.parametrize("case", _answerable())
def test_gold_quotes_within_top_k(lab_ws: Workspace, case: dict) -> None:
    settings = Settings()
    ranked = retrieve(lab_ws, case["question"], settings, Trace())
    assert len(ranked) <= settings.top_k
    delivered = [normalized(s.chunk.text) for s in ranked]
    for quote in case["gold_quotes"]:
        assert any(normalized(quote) in text for text in delivered), (
            f"{case['case_id']}: gold quote not in top {settings.top_k}: {quote!r}"
        )
    for doc in case["expected_docs"]:
        assert any(s.chunk.doc_id.endswith(doc) for s in ranked)
