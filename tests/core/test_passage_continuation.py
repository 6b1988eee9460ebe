"""The passages answer shows a passage's clause in its chunk as delivered with its small-to-big continuation
(core.passage_context.in_delivered): a clause whose sentence is cut at the chunk's end is shown whole, and the
evaluator's check of a shown clause (core.eval_passages.checked_contexts) accepts it against its own store."""
from __future__ import annotations

from core.passage_context import clause_context, in_delivered
from core.sentences import sentence_spans
from tests.conftest import CORPORA

MJ = CORPORA / "cuad" / "pdf" / "MJBIOTECH,INC_12_06_2018-EX-99.01-JOINT VENTURE AGREEMENT.PDF"


def test_a_clause_cut_at_a_chunk_end_is_shown_whole_and_checks_against_the_store(tmp_path) -> None:
    from core.eval_passages import checked_contexts
    from tests.conftest import indexed_in_small_chunks

    with indexed_in_small_chunks(tmp_path, MJ) as (ws, _):
        chunks = ws.get_chunks(ws.manifest.chunk_ids())
        # MJ Biotech's clause on a joint venture continued past its fixed term is one sentence; small chunks
        # without overlap cut it after "…remain the same as they were at the".
        cut = next(c for c in chunks.values() if c.text.rstrip().endswith("remain the same as they were at the"))
        s, e = sentence_spans(cut.text, cut.lang)[-1]
        span = cut.text[s:e]
        stored = clause_context(cut, [(s, e)])
        assert "at will" not in stored.text  # as stored, the clause stops where the chunk does
        [(whole, s2, e2)] = in_delivered(ws.manifest, {span: (cut, s, e)}).values()
        # the same span, moved into the delivered text
        assert whole.chunk_id == cut.chunk_id and whole.text[s2:e2] == span and cut.text in whole.text
        shown = clause_context(whole, [(s2, e2)])
        assert span in shown.text
        assert shown.text.rstrip().endswith("so far as those terms are consistent with a\nJoint Venture at will.")
        # the evaluator recomputes the delivery from its own store and accepts both clauses; a clause whose
        # offsets do not hold its text is left out
        assert checked_contexts(ws, [stored, shown]) == [stored.text, shown.text]
        wrong = shown.model_copy(update={"start": shown.start + 1})
        assert checked_contexts(ws, [wrong]) == []
