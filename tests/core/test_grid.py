"""The review grid (core/grid.py): real text contracts, the real embedding model, bm25s and LanceDB,
the passages answer (no model). Each cell is answered inside its own document only."""

from __future__ import annotations

import json

import pymupdf
import pytest
from openpyxl import load_workbook

from core.cli import main
from core.grid import GridColumn, GridStore, columns_from_file, rows_key, run_grid, templates
from core.grid_export import export_grid
from core.passages import PassagesBackend
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace


ALPHA = """SUPPLY AGREEMENT

This Supply Agreement is entered into between Alpha Widgets LLC ("Supplier") and Northwind Stores Inc. ("Buyer").

1. Delivery. Supplier shall deliver the Products to the Buyer's warehouse within fifteen days of each purchase order.

2. Governing Law. This Agreement shall be governed by and construed in accordance with the laws of the State of Delaware, without regard to its conflict of laws principles.

3. Payment. Buyer shall pay each invoice within thirty days of its receipt.
"""

BETA = """CONSULTING AGREEMENT

This Consulting Agreement is made between Beta Advisory Ltd ("Consultant") and Northwind Stores Inc. ("Client").

1. Services. Consultant shall advise the Client on the layout of its stores and report monthly.

2. Fees. Client shall pay Consultant a fee of 2,000 dollars per month, within thirty days of each invoice.

3. Term. This Agreement begins on the Effective Date and continues for one year.
"""

COLUMNS = [GridColumn(id="law", question="Which law governs the agreement?", clause="governing_law"),
           GridColumn(id="noncompete", question="Is there a non-compete restriction on the consultant?",
                      clause="non_compete")]


@pytest.fixture()
def workspace(tmp_path):
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "alpha_supply.txt").write_text(ALPHA, encoding="utf-8")
    (folder / "beta_consulting.txt").write_text(BETA, encoding="utf-8")
    ws = Workspace("review", Settings())
    run(index_folders(ws, [folder]))
    return ws, folder


def _grid(ws, **kw):
    return run(run_grid(ws, COLUMNS, grid="dd", settings=ws.settings, backend=PassagesBackend(), **kw))


def test_each_cell_is_answered_inside_its_own_document_and_resumes(workspace) -> None:
    ws, folder = workspace
    shown: list = []
    cells = {(c.doc_id, c.column_id): c for c in _grid(ws, on_cell=shown.append)}
    alpha, beta = sorted({d for d, _ in cells})
    assert alpha.endswith("alpha_supply.txt") and beta.endswith("beta_consulting.txt")
    law = cells[(alpha, "law")]
    assert law.status == "answered"
    assert "laws of the State of Delaware" in law.quote and law.page == 1
    assert law.citation is not None and law.citation.doc_id == alpha
    # Beta has no governing-law clause: never answered from Alpha's clause
    assert cells[(beta, "law")].status != "answered"
    assert all(c.doc_id == beta for cl in (cells[(beta, "law")].answer.claims) for c in cl.citations)
    assert cells[(beta, "noncompete")].status != "answered"
    assert len(shown) == 4
    # an abstained cell keeps the evidence its decision read: every retrieved chunk's best span score
    nc = cells[(beta, "noncompete")]
    assert nc.place_scores and set(nc.evidence) == {"near", "lead", "gap", "first", "form_margin", "log_odds"}
    # ... and its fees and term sentences read less like a non-compete clause than like other clause types:
    # "not found", not weak, and it says what was searched (the clause type's wording, the passages scored)
    from core.grid_decision import FORM_THRESHOLD, present_log_odds

    assert nc.evidence["form_margin"] < 0 and nc.evidence["log_odds"] < FORM_THRESHOLD
    assert nc.evidence["log_odds"] == pytest.approx(present_log_odds(nc.evidence["form_margin"], nc.evidence["near"]),
                                                    abs=1e-3)
    assert nc.status == "not_found" and "non_compete" in nc.searched_clauses
    assert nc.searched_passages == len(nc.answer.trace.context) >= 1
    ranked = sorted(nc.place_scores, reverse=True)  # the evidence is the stored place scores'
    two = len(ranked) >= 2  # fewer than two places: gap and first are 0
    assert nc.evidence["gap"] == pytest.approx(ranked[0] - ranked[1] if two else 0.0, abs=1e-4)
    assert nc.evidence["first"] == pytest.approx(nc.place_scores[0] - ranked[0] if two else 0.0, abs=1e-4)
    assert nc.evidence["near"] == pytest.approx(nc.answer.trace.passage_best_score / nc.answer.trace.passage_threshold)

    # a second run reuses every stored cell (nothing recomputed) ...
    stamps = {k: c.computed_at for k, c in cells.items()}
    again = {(c.doc_id, c.column_id): c for c in _grid(ws)}
    assert {k: c.computed_at for k, c in again.items()} == stamps

    # ... a reviewer's marks stay with the cell ...
    GridStore(ws.dir).annotate("dd", alpha, "law", reviewed=True, note="checked against the signed copy")
    # ... and a changed document recomputes only its own cells
    (folder / "beta_consulting.txt").write_text(BETA + "\n4. Law. This Agreement is governed by the laws of "
                                                "the State of New York.\n", encoding="utf-8")
    run(index_folders(ws, [folder]))
    third = {(c.doc_id, c.column_id): c for c in _grid(ws)}
    assert third[(alpha, "law")].computed_at == stamps[(alpha, "law")]
    assert third[(alpha, "law")].reviewed and third[(alpha, "law")].note == "checked against the signed copy"
    assert third[(beta, "law")].computed_at > stamps[(beta, "law")]
    assert third[(beta, "law")].status == "answered" and "New York" in third[(beta, "law")].quote


def test_exports_hold_every_cell_with_its_status_quote_and_page(workspace, tmp_path) -> None:
    ws, _ = workspace
    cells = _grid(ws)
    by_key = {(c.doc_id, c.column_id): c for c in cells}
    docs = sorted({c.doc_id for c in cells})
    alpha = docs[0]
    # tryout 5: the reviewer's note was in the JSON only
    note = "checked against the signed copy"
    by_key[(alpha, "law")] = GridStore(ws.dir).annotate("dd", alpha, "law", reviewed=True, note=note)

    xlsx = export_grid(tmp_path / "g.xlsx", COLUMNS, docs, by_key, workspace="review")
    sheet = load_workbook(xlsx)["Grid"]
    rows = list(sheet.values)
    assert rows[0][0] == "document" and rows[0][1] == COLUMNS[0].question and rows[0][6] == "law: reviewer's note"
    assert rows[1][0] == alpha and "Delaware" in rows[1][3] and rows[1][2] == "answered · reviewed" and rows[1][5] == 1
    assert rows[1][6] == note and rows[2][6] in ("", None)

    csv_text = export_grid(tmp_path / "g.csv", COLUMNS, docs, by_key).read_text(encoding="utf-8-sig")
    beta_law = by_key[(docs[1], "law")]
    assert "laws of the State of Delaware" in csv_text and beta_law.status != "answered"
    assert ("not found in this document" if beta_law.status == "not_found" else "weak (closest passage") in csv_text

    data = json.loads(export_grid(tmp_path / "g.json", COLUMNS, docs, by_key).read_text(encoding="utf-8"))
    assert {(c["doc_id"], c["column_id"]) for c in data["cells"]} == set(by_key)

    assert note in csv_text
    with pymupdf.open(export_grid(tmp_path / "g.pdf", COLUMNS, docs, by_key, workspace="review")) as pdf:
        text = " ".join(" ".join(p.get_text().split()) for p in pdf)
    assert "Which law governs the agreement?" in text and "Delaware" in text
    # a passages cell's answer is its quote: the memo writes it once (it printed every cell twice, tryout 5)
    assert by_key[(alpha, "law")].text == by_key[(alpha, "law")].quote
    assert text.count("State of Delaware") == 1 and f"Reviewer's note: {note}" in text

    with pytest.raises(ValueError, match="g.ods"):
        export_grid(tmp_path / "g.ods", COLUMNS, docs, by_key)


def test_exports_print_each_text_once_and_keep_the_reviewers_words(workspace, tmp_path) -> None:
    """Tryout 5 #13: the PDF memo printed a passages cell's text twice (answer, then the same quote); a reviewer's
    note was only in the JSON; a corrected cell's quote was not said to be the machine's."""
    from core.grid_export import MACHINE_QUOTE

    ws, _ = workspace
    cells = {(c.doc_id, c.column_id): c for c in _grid(ws)}
    docs = sorted({d for d, _ in cells})
    alpha = docs[0]
    law = cells[(alpha, "law")]
    assert " ".join(law.text.split()) == " ".join(law.quote.split())  # a passages answer is its quote
    sentence = "laws of the State of Delaware"
    with pymupdf.open(export_grid(tmp_path / "once.pdf", COLUMNS, docs, cells, workspace="review")) as pdf:
        text = " ".join(" ".join(p.get_text() for p in pdf).split())
    assert text.count(sentence) == 1 and "(p. 1)" in text
    # a cell that is no answer shows its closest passage as such, never as if it answered
    shown_elsewhere = [c for c in cells.values() if c.status != "answered" and c.quote]
    assert text.count("Closest passage, not an answer:") == len(shown_elsewhere) >= 1

    store = GridStore(ws.dir)
    cells[(alpha, "law")] = store.annotate("dd", alpha, "law", correction="Delaware (cl. 2)",
                                           note="checked against the signed copy")
    cells[(docs[1], "law")] = store.annotate("dd", docs[1], "law", note="ask the client for the signed copy")
    sheet = list(load_workbook(export_grid(tmp_path / "m.xlsx", COLUMNS, docs, cells))["Grid"].values)
    assert sheet[0][1:7] == (COLUMNS[0].question, "law: status", "law: quote", "law: page label", "law: page",
                             "law: reviewer's note")
    assert sheet[1][1] == "Delaware (cl. 2)" and sheet[1][6] == "checked against the signed copy"
    assert sheet[1][2] == f"answered · corrected by reviewer ({MACHINE_QUOTE})" and sentence in sheet[1][3]
    assert sheet[2][6] == "ask the client for the signed copy"
    csv_text = export_grid(tmp_path / "m.csv", COLUMNS, docs, cells).read_text(encoding="utf-8-sig")
    assert "checked against the signed copy" in csv_text and "ask the client for the signed copy" in csv_text
    assert MACHINE_QUOTE in csv_text
    with pymupdf.open(export_grid(tmp_path / "m.pdf", COLUMNS, docs, cells, workspace="review")) as pdf:
        text = " ".join(" ".join(p.get_text() for p in pdf).split())
    assert "Delaware (cl. 2)" in text and "Machine's quote:" in text and text.count(sentence) == 1
    assert "Reviewer's note: checked against the signed copy" in text
    assert "Reviewer's note: ask the client for the signed copy" in text


def test_cli_grid_from_a_questions_file_and_its_errors(workspace, tmp_path, capsys) -> None:
    questions = tmp_path / "questions.txt"
    questions.write_text("# due diligence\nWhich law governs the agreement?\n\nWhen must invoices be paid?\n")
    out = tmp_path / "grid.csv"
    assert main(["grid", "-w", "review", "--questions", str(questions), "--backend", "passages",
                 "--docs", "alpha_supply.txt", "--out", str(out), "-q"]) == 0
    printed = capsys.readouterr().out
    assert "alpha_supply.txt" in printed and "beta_consulting.txt" not in printed
    assert "q1 — answered" in printed and "State of Delaware" in printed and "(p. 1)" in printed
    assert "q2 — " in printed  # every column of the file is a cell, answered or not
    assert out.exists()

    # tryout 5: `--docs "WESTERN COPPER"` was refused; documents are named as `ask --doc` names them
    assert main(["grid", "-w", "review", "--questions", str(questions), "--backend", "passages",
                 "--docs", "ALPHA SUPPLY", "--out", str(out), "-q"]) == 0
    printed = capsys.readouterr().out
    assert "alpha_supply.txt" in printed and "beta_consulting.txt" not in printed
    assert main(["grid", "-w", "review", "--questions", str(questions), "--docs", "gamma", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--docs gamma: no such document in workspace 'review'" in err
    assert "contracts/alpha_supply.txt" in err and "contracts/beta_consulting.txt" in err

    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    assert main(["grid", "-w", "review", "--questions", str(empty)]) == 2
    assert "empty.txt: no question in the file" in capsys.readouterr().err
    assert main(["grid", "-w", "review", "--template", "leases"]) == 2
    assert "commercial" in capsys.readouterr().err

    # --docs resolves names as ask's --doc does (any part of a file name, any case; tryout 5 #13d) ...
    assert main(["grid", "-w", "review", "--questions", str(questions), "--backend", "passages",
                 "--docs", "ALPHA SUPPLY", "-q"]) == 0
    printed = capsys.readouterr().out
    assert "contracts/alpha_supply.txt" in printed and "beta_consulting" not in printed
    # the whole workspace's grid of the same name keeps its own row list beside the 1-document one (tryout 5 #13e)
    assert main(["grid", "-w", "review", "--questions", str(questions), "--backend", "passages", "-q"]) == 0
    capsys.readouterr()
    alpha, beta = "contracts/alpha_supply.txt", "contracts/beta_consulting.txt"
    saved = GridStore(workspace[0].dir).grids()
    assert {k: rows for k, (_cols, rows) in saved.items()} == {("questions", rows_key([alpha])): [alpha],
                                                               ("questions", "all"): [alpha, beta]}
    # ... and a name that matches nothing lists every document, the most alike first
    assert main(["grid", "-w", "review", "--questions", str(questions), "--docs", "beta consultng"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "error: --docs beta consultng: no such document in workspace 'review'. Documents:"
    assert err[1:] == ["  contracts/beta_consulting.txt", "  contracts/alpha_supply.txt"]


def test_templates_exist_in_both_languages_and_name_known_clause_types() -> None:
    from core.clauses import vocabulary

    known = {c.id for c in vocabulary().clauses}
    for lang in ("en", "es"):
        ts = templates(lang)
        assert set(ts) == {"commercial", "nda"}
        for t in ts.values():
            assert t.columns and all(c.clause in known for c in t.columns)
    assert templates("es")["commercial"].columns[5].question == "¿Qué ley rige el contrato?"


def test_columns_file_errors_name_the_file(tmp_path) -> None:
    bad = tmp_path / "cols.json"
    bad.write_text('{"question": "x"}')
    with pytest.raises(ValueError, match="cols.json: expected a JSON list"):
        columns_from_file(bad)
    bad.write_text('[{"id": "a", "question": "one?"}, {"id": "a", "question": "two?"}]')
    with pytest.raises(ValueError, match="two columns share an id"):
        columns_from_file(bad)
    ok = tmp_path / "cols2.json"
    ok.write_text('["Which law governs?", {"id": "term", "question": "How long?", "clause": "expiration_date"}]')
    assert [(c.id, c.clause) for c in columns_from_file(ok)] == [("q1", ""), ("term", "expiration_date")]


GAMMA_SECTIONS = [
    ("1. Definitions", "In this Agreement, \"Products\" means the office chairs listed in Schedule A, and \"Territory\" "
     "means the State of Ohio. \"Business Day\" means a day on which banks in Columbus are open for business."),
    ("2. Orders", "Distributor shall place written purchase orders with Gamma Furniture Inc. at least ten Business "
     "Days before the requested delivery date. Gamma may refuse an order that exceeds its monthly capacity."),
    ("3. Prices", "Prices are those of Schedule B. Gamma may change the prices once a year on sixty days' written "
     "notice; prices of accepted orders do not change."),
    ("4. Assignment", "Neither party may assign or transfer this Agreement, or any of its rights or obligations under "
     "it, without the prior written consent of the other party, which shall not be unreasonably withheld. Any "
     "assignment made without that consent is void."),
    ("5. Change of control", "A merger of the Distributor with another company, or the sale of more than half of its "
     "shares, counts as an assignment of this Agreement for the purposes of section 4."),
    ("6. Warranty", "Gamma warrants that the Products are free from defects in materials and workmanship for two years "
     "from delivery. This warranty does not cover wear, misuse or repairs made by others."),
    ("7. Notices", "Notices under this Agreement are given in writing to the addresses on the first page, by courier "
     "or by registered mail, and take effect on receipt."),
]
GAMMA = "DISTRIBUTION AGREEMENT\n\n" + "\n\n".join(f"{h}. {t} " * 3 for h, t in GAMMA_SECTIONS) + "\n"


def test_a_cell_shows_its_clause_and_further_places_all_source_text(tmp_path) -> None:
    """A cell shows its best passage inside its clause, then the best passages of other retrieved chunks:
    distinct places, all source text of the cell's own document; a 'not found' cell shows none."""
    from core.grid import CELL_VERSION, GridCell

    folder = tmp_path / "gamma"
    folder.mkdir()
    (folder / "gamma_distribution.txt").write_text(GAMMA, encoding="utf-8")
    (folder / "alpha_supply.txt").write_text(ALPHA, encoding="utf-8")
    ws = Workspace("gamma", Settings())
    run(index_folders(ws, [folder]))
    gamma = next(d["doc_id"] for d in ws.documents() if d["doc_id"].endswith("gamma_distribution.txt"))
    col = GridColumn(id="assign", question="Can the agreement be assigned to another company?", clause="anti_assignment")
    (cell,) = run(run_grid(ws, [col], grid="g", doc_ids=[gamma], settings=ws.settings, backend=PassagesBackend()))
    assert cell.version == CELL_VERSION
    assert 2 <= len(cell.passages) <= 3
    chunks = ws.get_chunks(p.chunk_id for p in cell.passages)
    for p in cell.passages:
        chunk = chunks[p.chunk_id]
        assert chunk.doc_id == gamma
        assert chunk.text[p.start:p.end] == p.text or p.source == "answer"
        assert p.context is not None and chunk.text[p.context.start:p.context.end] == p.context.text
        assert p.text in p.context.text
    for i, a in enumerate(cell.passages):  # distinct places: no two passages of one clause
        for b in cell.passages[i + 1:]:
            assert a.text != b.text
            if a.chunk_id == b.chunk_id:
                assert a.context.end <= b.context.start or b.context.end <= a.context.start
    assert any("without the prior written consent of the other party" in p.shown_text for p in cell.passages)
    # the first shown passage is the answer's own best passage (its cell text)
    assert cell.passages[0].source == "answer" and cell.text == cell.passages[0].text
    nf = GridCell(doc_id=gamma, column_id="x", question="q", status="not_found", passages=cell.passages)
    assert nf.shown == [] and cell.shown == (cell.passages if cell.status != "not_found" else [])


def test_a_stopped_grid_resumes_and_cells_of_an_older_rule_are_recomputed(workspace) -> None:
    from core.errors import Cancelled

    ws, _ = workspace
    stop: list = []  # the user stops the run once the first cell is shown
    with pytest.raises(Cancelled):
        _grid(ws, cancel=lambda: bool(stop), on_cell=stop.append)
    kept = GridStore(ws.dir).cells("dd")
    assert len(kept) == 1  # the cell computed before the stop was stored at once
    (key, first), = kept.items()
    cells = {(c.doc_id, c.column_id): c for c in _grid(ws)}
    assert len(cells) == 4 and cells[key].computed_at == first.computed_at  # resumed, not recomputed

    # a cell stored by an older rule (version 1) is recomputed even though its document is unchanged
    store = GridStore(ws.dir)
    store.put("dd", cells[key].model_copy(update={"version": 1}))
    again = {(c.doc_id, c.column_id): c for c in _grid(ws)}
    assert again[key].computed_at > first.computed_at
    assert all(again[k].computed_at == cells[k].computed_at for k in cells if k != key)


def test_the_not_found_decision_reads_the_clause_form_and_the_document() -> None:
    """evidence(): the best place against the document's other retrieved places, and whether a shown span
    reads like the clause type's contract wording (real embedding model); the logistic model decides
    weak / not found from near and form, and without a clause type the closeness ratio decides."""
    import math

    from core.grid import cell_from_answer
    from core.grid_cells import ShownPassage
    from core.grid_decision import clause_form, evidence, present_probability
    from core.types import Abstention, Answer, Trace

    ev = evidence(0.9, [0.60, 0.95, 0.50, 0.55, 0.70], form=0.7)
    assert ev == {"near": 0.9, "lead": pytest.approx(0.35), "gap": pytest.approx(0.25),
                  "first": pytest.approx(-0.35), "form": 0.7}
    assert evidence(0.8, [0.7]) == {"near": 0.8, "lead": 0.0, "gap": 0.0, "first": 0.0}
    assert evidence(None, []) == {"near": 0.0, "lead": 0.0, "gap": 0.0, "first": 0.0}
    coef = (-10.0, (2.0, 12.0))  # a hand-made model on (near, form)
    assert present_probability(ev, coef) == pytest.approx(1 / (1 + math.exp(-(-10 + 1.8 + 8.4))))
    assert present_probability({"near": 1.0}, coef) is None  # no clause type, no form: no model decision

    law = "This Agreement shall be governed by the laws of the State of New York."
    pay = "The Buyer shall pay each invoice within thirty days of its receipt."
    assert clause_form(["governing_law"], [pay, law]) > 0.6 > clause_form(["governing_law"], [pay])
    assert clause_form([], [law]) is None and clause_form(["no_such_type"], [law]) is None

    def abstained(best: float, types: list[str]) -> Answer:
        return Answer(question="q", workspace="w", status="abstained", kind="passages",
                      abstention=Abstention(message="m", query="q", consulted=[]),
                      trace=Trace(passage_best_score=best, passage_threshold=1.0, clause_types=types))

    col = GridColumn(id="c", question="Which law governs?")

    def shown(text: str) -> list[ShownPassage]:
        return [ShownPassage(chunk_id="k", text=text, start=0, end=len(text))]

    places = [0.9, 0.8, 0.7]
    coef = (-9.0, (0.0, 15.0))  # weak when form >= 0.6, whatever the closeness
    # same closeness (0.9), the span's form decides: a governing-law sentence is weak, a payment term not found
    reads = cell_from_answer("d", col, abstained(0.9, ["governing_law"]), passages=shown(law), coef=coef,
                             place_scores=places)
    other = cell_from_answer("d", col, abstained(0.9, ["governing_law"]), passages=shown(pay), coef=coef,
                             place_scores=places)
    assert reads.status == "weak" and reads.text == law and reads.evidence["form"] > 0.6
    assert other.status == "not_found" and other.evidence["form"] < 0.6
    assert other.place_scores == places
    # no clause type: the ratio rule (closeness 0.9 >= 0.85 -> weak; 0.5 -> not found)
    assert cell_from_answer("d", col, abstained(0.9, []), passages=shown(pay), coef=coef, place_scores=places).status == "weak"
    assert cell_from_answer("d", col, abstained(0.5, []), passages=shown(pay), coef=coef, place_scores=places).status == "not_found"


def test_a_model_abstention_shows_the_passages_at_most_as_weak(workspace) -> None:
    """When the model abstains (the embedded demo model did on every CUAD cell), the cell is the passages
    decision for the same question and document, never 'answered': the governing-law clause shows as
    weak, an absent non-compete stays 'not found'."""
    from core.grid import _passages_fallback

    ws, _ = workspace
    alpha, beta = sorted(d["doc_id"] for d in ws.documents())
    law = _passages_fallback(ws, alpha, COLUMNS[0], ws.settings, "h", lambda: False)
    assert law.status == "weak" and law.answer.kind == "passages"
    assert any("laws of the State of Delaware" in p.shown_text for p in law.shown)
    assert law.shown[0].text == law.text
    nc = _passages_fallback(ws, beta, COLUMNS[1], ws.settings, "h", lambda: False)
    assert nc.status == "not_found" and nc.shown == []


def test_an_unknown_document_lists_the_closest_names_not_the_first_eight() -> None:
    """Tryout 5: the error listed the first 8 of 32 documents, without the one meant."""
    from core.cli_ask import documents_hint

    class Listing:  # the one method the hint reads of a Workspace
        def documents(self):
            names = [f"m/{c}{c}_SUPPLY AGREEMENT.txt" for c in "ABCDEFGHIJ"] + ["m/WESTERN COPPER - NON-COMPETITION.txt"]
            return [{"doc_id": n} for n in names]

    hint = documents_hint(Listing(), ["western coper"])
    assert hint.startswith("11 documents; closest: m/WESTERN COPPER - NON-COMPETITION.txt, ")
    assert hint.count(", ") == 7  # 8 names

def test_a_grid_saved_before_row_sets_keeps_its_rows(tmp_path) -> None:
    """A grid.sqlite written when one name held one row list: its rows are kept, and a later run over another row
    set of that name is saved beside them, not over them."""
    import sqlite3

    db = sqlite3.connect(tmp_path / "grid.sqlite")
    db.execute("CREATE TABLE grids (grid TEXT PRIMARY KEY, columns TEXT NOT NULL, doc_ids TEXT NOT NULL, "
               "updated REAL NOT NULL)")
    db.execute("INSERT INTO grids VALUES ('commercial', ?, ?, 1.0)",
               (json.dumps([COLUMNS[0].model_dump()]), json.dumps(["a.txt", "b.pdf"])))
    db.commit()
    db.close()
    store = GridStore(tmp_path)
    assert store.grids() == {("commercial", rows_key(["a.txt", "b.pdf"])): ([COLUMNS[0]], ["a.txt", "b.pdf"])}
    store.save_grid("commercial", COLUMNS, ["a.txt", "b.pdf", "c.txt"], whole=True)
    store.save_grid("commercial", COLUMNS, ["b.pdf", "a.txt"])  # the same row set as the old one, newer
    saved = GridStore(tmp_path).grids()
    assert list(saved) == [("commercial", rows_key(["a.txt", "b.pdf"])), ("commercial", "all")]
    assert saved[("commercial", "all")] == (COLUMNS, ["a.txt", "b.pdf", "c.txt"])
    assert saved[("commercial", rows_key(["a.txt", "b.pdf"]))] == (COLUMNS, ["b.pdf", "a.txt"])
