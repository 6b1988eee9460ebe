"""The passages answer abstains when no retrieved sentence has the asked clause's form (core/clause_form.py,
core.passage_decision.FORM_MIN_MARGIN), on a real text contract, the real embedding model, bm25s and the
passages answer (no model)."""

from __future__ import annotations

import pytest

from core import passage_decision as pd
from core.clause_form import form_margin
from core.passages import PassagesBackend
from core.pipeline import answer_question, index_folders, run
from core.settings import Settings
from core.store import Workspace
from tests.conftest import data_home

# Written for these tests (not from an evaluation set): a sponsorship whose warranty clause has no duration
# (a question about how long the warranties last must not be answered with it) and whose governing-law clause
# is there (answered as before); and a second contract, so that naming the first scopes the question to it.
SPONSOR = """SPONSORSHIP AGREEMENT

This Sponsorship Agreement is made between Lakeside Media LLC (the "Company") and Redrock Oil, Inc. ("Sponsor").

1. Sponsorship. Sponsor shall sponsor the weekly outdoor television show produced by the Company.

2. Term. This Agreement shall commence on the Effective Date and shall remain in effect for three (3) years, after which it shall expire.

3. Fees. Sponsor shall pay the Company five thousand dollars for each episode, within thirty days of the invoice.

4. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of Texas.

5. Logo License. The Company grants Sponsor a non-exclusive license to use the Company's name and logo in its advertising during the term of this Agreement.

6. Warranties. Each party represents and warrants that it has full power and authority to enter into and perform this Agreement.

7. Notices. Notices shall be given in writing to the addresses stated above.
"""

ENDORSE = """ENDORSEMENT AGREEMENT

This Endorsement Agreement is made between Redrock Oil, Inc. ("Redrock") and Pine Valley Outfitters ("Endorser").

1. Endorsement. Endorser shall endorse Redrock's lubricants in its stores and catalogues.

2. Renewal. This Agreement shall automatically renew for successive one (1) year periods unless either party gives written notice of non-renewal at least sixty (60) days before the end of the then current term.

3. Fees. Redrock shall pay Endorser two thousand dollars each month.
"""


@pytest.fixture(scope="module")
def workspace(tmp_path_factory):
    root = tmp_path_factory.mktemp("form")
    folder = root / "contracts"
    folder.mkdir()
    (folder / "lakeside_sponsorship.txt").write_text(SPONSOR, encoding="utf-8")
    (folder / "redrock_endorsement.txt").write_text(ENDORSE, encoding="utf-8")
    with data_home(root / "home"):  # a module fixture runs before the per-test home: its own data folder
        ws = Workspace("form", Settings())
        run(index_folders(ws, [folder]))
        yield ws


def _ask(ws, question: str, **settings):
    s = ws.settings.model_copy(update=settings) if settings else ws.settings
    return run(answer_question(ws, question, s, backend=PassagesBackend(), follow_up=False))


def test_a_warranty_without_a_duration_does_not_answer_how_long_the_warranties_last(workspace) -> None:
    ws = workspace
    q = "How long do the warranties under the Lakeside sponsorship agreement last?"
    answer = _ask(ws, q)
    tr = answer.trace
    assert tr.clause_types == ["warranty_duration"] and tr.scope is not None and tr.scope.doc_ids
    # the score decision alone answers (the warranty clause scores over the threshold) ...
    assert tr.passage_best_score >= tr.passage_threshold
    # ... but no retrieved sentence reads like warranty-duration wording more than like another type's
    assert tr.passage_form_margin is not None and tr.passage_form_margin < pd.FORM_MIN_MARGIN
    assert answer.status == "abstained" and not answer.claims
    # the closest passages are still shown, as weak: the warranty clause among them
    assert any("represents and warrants" in c.text for c in answer.abstention.candidates)
    # the margin is the clause_form one over the retrieved chunks, and the older decision still answers
    chunks = ws.get_chunks(tr.context)
    assert form_margin(tr.clause_types, [chunks[c] for c in tr.context]) == pytest.approx(tr.passage_form_margin)
    assert _ask(ws, q, passages_decision="score").trace.passage_form_margin is None


def test_a_clause_that_is_there_is_still_answered(workspace) -> None:
    answer = _ask(workspace, "Which law governs the Lakeside sponsorship agreement?")
    assert answer.trace.clause_types == ["governing_law"]
    assert answer.trace.passage_form_margin > pd.FORM_MIN_MARGIN + 0.1
    assert answer.status == "answered" and any("State of Texas" in c.text for c in answer.claims)


def test_form_rejects_only_a_margin_under_the_bar() -> None:
    assert pd.form_rejects(pd.FORM_MIN_MARGIN - 0.001)
    assert not pd.form_rejects(pd.FORM_MIN_MARGIN) and not pd.form_rejects(0.2) and not pd.form_rejects(None)
