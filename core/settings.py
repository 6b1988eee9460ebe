"""User settings: one pydantic-settings model, persisted as JSON in the data folder.

Environment variables ``VERBATIM_<FIELD>`` override the file (e.g.
``VERBATIM_OLLAMA_HOST``, ``VERBATIM_BACKEND``), which is how the CLI and tests
configure a run without touching the user's saved settings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.errors import CoreError
from core.paths import data_dir

SCHEMA_VERSION = 1


class Settings(BaseSettings):
    """Every tunable of the pipeline, with bounds; see each field's description."""

    model_config = SettingsConfigDict(env_prefix="VERBATIM_", extra="ignore", validate_assignment=True)

    schema_version: int = SCHEMA_VERSION

    # generation
    backend: Literal["auto", "ollama", "passages", "embedded"] = Field(
        "auto", description="What answers ('Answer with'): 'ollama' (a model writes, every quote verified), "
        "'passages' (the matching passages themselves, no model), 'embedded' (the small demo model); "
        "'auto' uses Ollama when it answers with the model, else passages.",
    )
    ollama_host: str = Field("http://127.0.0.1:11434", description="Ollama server URL (loopback by default).")
    ollama_model: str = Field("qwen2.5:7b-instruct", description="Ollama model name, as in `ollama pull <model>`.")
    request_timeout_s: float = Field(300.0, gt=0, le=3600, description="Timeout of one generation call, seconds.")
    seed: int = Field(42, description="Sampling seed (temperature is always 0).")
    answer_tokens: int = Field(768, ge=64, le=8192, description="Token budget for the model's answer.")
    max_context_tokens: int = Field(
        8192, ge=1024, le=131072, description="Upper bound of num_ctx (prompt + answer), tokens."
    )
    embedded_answer_tokens: int = Field(
        384, ge=64, le=4096, description="Token budget for the embedded model's answer (it is slow)."
    )
    embedded_context_tokens: int = Field(
        4096, ge=1024, le=8192, description="Context window of the embedded llama.cpp model, tokens."
    )

    stream_answers: bool = Field(
        True, description="Stream the model's reply and verify each claim as its JSON object closes (core.streaming); "
        "the final answer is the same either way.",
    )

    # passages answer (core.passages)
    passages_max: int = Field(5, ge=1, le=20, description="Clauses a passages answer shows at most (a second "
                              "sentence of a shown clause is one more highlight of it, core.passages.select_spans).")
    passages_per_chunk: int = Field(2, ge=1, le=10, description="Passages taken from one chunk at most.")
    passages_candidates_per_chunk: int = Field(
        4, ge=0, le=100, description="Sentences per retrieved chunk embedded and scored, those sharing most of the "
        "question's terms (core.passages.candidate_units); 0 scores every sentence (slower).",
    )
    passages_term_weight: float = Field(
        0.5, ge=0, le=5, description="Weight of the question's terms found in a span beside its cosine (core.passages)."
    )
    passages_min_score: float = Field(
        0.70, ge=-1, le=10,
        description="A passages answer scored against the question as asked abstains when its best span scores below "
        "this: the mean of the thresholds 5-fold cross-validation over documents chose on those cases of CUAD, "
        "XQuAD-es and the lab (bench/passages.py, 10 partitions: 0.70 ± 0.05; objective: abstain as much as possible "
        "with at most 5 % false abstentions).",
    )
    passages_min_score_scoped: float = Field(
        0.51, ge=-1, le=10,
        description="The same threshold for a question scored without the words naming its document "
        "(core.passages.scoring_query: retrieval searched inside the documents it names): a question stripped of its "
        "names scores lower against every span, so it has its own threshold, chosen the same way on those cases "
        "(0.51 ± 0.02).",
    )
    passages_min_score_cross: float = Field(
        0.50, ge=-1, le=10,
        description="passages_min_score for a question in another language than the chunk of its best span "
        "(core.passage_gate.min_score; issue #20). 5-fold cross-validation over documents on those cases of XQuAD-es "
        "(English questions) and cuad_natural (Spanish questions) chose 0.34 ± 0.01 (objective 'budget') or "
        "0.41 ± 0.02 ('balanced'), which answer the lab's must-abstain LAB-12 (an English question in a Spanish "
        "workspace, 0.47): raised to 0.50 so that the lab's gate holds — a choice informed by the lab, and "
        "an abstention now shows its closest passages as weak (bench/README.md, issue #20).",
    )
    passages_min_score_cross_scoped: float = Field(
        0.26, ge=-1, le=10,
        description="passages_min_score_scoped for a question in another language than the chunk of its best span, "
        "chosen the same way (0.258 ± 0.042).",
    )
    passages_decision: Literal["evidence", "score"] = Field(
        "evidence",
        description="How a passages answer decides to answer or abstain for a question that names its document, "
        "asks for a clause type the vocabulary recognises and is answered in its own language or by an English span "
        "(core.passage_gate.WORDING_LANG): 'evidence' (a logistic model over the best span's score, how closely a span "
        "is worded like the clause asked for, and same-language synonyms; core.passage_decision, chosen by "
        "cross-validation grouped by contract, issue #20) or 'score' (the best span's score against "
        "passages_min_score_scoped). 'evidence' also abstains when no retrieved sentence has the asked clause "
        "type's form (core.passage_decision.FORM_MIN_MARGIN). Other questions always use the thresholds.",
    )
    grid_weak_ratio: float = Field(
        0.85, ge=0, le=2,
        description="Review grid: a cell whose passages answer abstained is 'weak' (its passages shown, marked as not "
        "an answer) when its best passage scored at least this share of the threshold it missed, else 'not found' "
        "(core/grid.py). The mean of the ratios chosen by 5-fold cross-validation grouped by CUAD contract "
        "(3 contracts a fold; best balanced accuracy on 4 folds), 0.80-0.90, for cells that show their clause and "
        "further places (issue #25, 2026-12-02; bench/grid.py weak-ratio; bench/README.md). Used when the "
        "question names no clause type; otherwise core.grid_decision's model of closeness and clause form decides.",
    )

    # retrieval
    top_k: int = Field(6, ge=1, le=50, description="Chunks delivered to the model.")
    bm25_candidates: int = Field(30, ge=1, le=500, description="BM25 candidates before fusion.")
    dense_candidates: int = Field(30, ge=1, le=500, description="Dense candidates before fusion.")
    rrf_k: int = Field(60, ge=1, le=1000, description="Reciprocal rank fusion constant (Cormack et al. 2009).")
    scoped_rrf_k: int = Field(
        5, ge=1, le=1000, description="Reciprocal rank fusion constant inside a scope of one to three documents "
        "(their rankings hold most of their chunks; chosen by 5-fold cross-validation over contracts, bench/ranking.py)."
    )
    sentence_weight: float = Field(
        0.5, ge=0, le=5, description="Inside a scope of one to three documents, each keyword query is also ranked by "
        "the chunks' best sentences (core.sentence_rank), weighted this share of the query's own ranking "
        "(0: off; cross-validated, bench/ranking.py)."
    )
    primary_keep: int = Field(
        1, ge=0, le=5, description="The top this-many chunks of the question's own BM25 and dense rankings are always "
        "among the delivered ones, however the clause-wording and vocabulary rankings rank them (0: off; chosen by "
        "cross-validation over contracts, bench/README.md 'Primary hits kept')."
    )
    resolve_references: bool = Field(
        True, description="Search inside the documents a question names (core.docrefs), with the naming words removed."
    )
    clause_expansion: bool = Field(
        True, description="Also search with the contract wording of the clause types a question asks about (core.clauses)."
    )
    wording_weight: float = Field(
        3.0, ge=0, le=5, description="Weight of each clause-wording ranking in the fusion (question rankings weigh 1; "
        "chosen by 5-fold cross-validation over contracts, bench/wording.py)."
    )
    clause_meaning: bool = Field(
        True, description="When no listed phrase names a clause type, match the question to the nearest type by "
        "embedding similarity (core.clauses.match_by_meaning) and search its wording too."
    )
    lexicon_expansion: bool = Field(
        True, description="Also search (BM25) with the question's terms in English and Spanish from the bilingual "
        "legal vocabulary (core.lexicon)."
    )
    lexicon_weight: float = Field(
        0.5, ge=0, le=5, description="Weight of the bilingual-vocabulary BM25 ranking in the fusion (cross-validated, "
        "bench/wording.py)."
    )
    scoped_lexicon_weight: float = Field(
        1.0, ge=0, le=5, description="The same inside a scope of one to three documents, with scoped_rrf_k and the "
        "sentence rankings (cross-validated there, bench/ranking.py; at 1.0 over a whole workspace it cost one "
        "XQuAD-es quote ranked 6th)."
    )
    gloss_weight: float = Field(
        2.0, ge=0, le=5, description="Weight of the dense ranking of the question rendered word for word (or translated "
        "by the model) into the documents' language, only when the question's language differs from theirs "
        "(cross-validated, bench/wording.py)."
    )
    translate_questions: bool = Field(
        True, description="Ollama only: a question whose language is none of the searched documents' is translated "
        "into theirs by the model (one more call) and searched in both languages (core.translate)."
    )
    rerank: Literal["off", "ollama"] = Field(
        "off", description="'ollama': the Ollama model grades the top candidates and they are reordered (one more "
        "call per question; never with the embedded model)."
    )
    rerank_candidates: int = Field(20, ge=2, le=50, description="Candidates graded by the optional rerank.")
    hyde: bool = Field(
        False, description="Ollama only: the model writes the passage a document would hold to answer, which is "
        "searched too (HyDE; one more call per question)."
    )
    scoped_top_k: int = Field(
        10, ge=1, le=50, description="Chunks delivered when the question is searched inside one to three documents "
        "(more of the named document; the token budget still drops what does not fit)."
    )

    # chunking (word-piece tokens of the embedding model; see core/chunking.py)
    chunk_tokens: int = Field(
        256, ge=64, le=256,
        description="Maximum tokens of a chunk as embedded (context line and [CLS]/[SEP] included); "
        "the embedding model reads at most 256.",
    )
    chunk_overlap_tokens: int = Field(
        48, ge=0, le=128, description="Tokens repeated at the start of a chunk that continues a long section."
    )

    # indexing
    index_commit_chunks: int = Field(
        512, ge=1, le=100_000,
        description="Chunks embedded between two atomic commits of the index; a crash loses at most this much work.",
    )

    # ingestion
    ocr_enabled: bool = Field(
        True, description="OCR scanned PDF pages with Tesseract when it is installed (else they are reported)."
    )

    follow_links: bool = Field(
        False, description="Follow symbolic links (and Windows junctions) whose target lies outside the added "
        "folders. Off by default: a folder is a boundary (another client's files must never enter this "
        "workspace); links not followed are named in the index report (core.ingest.files.walk_folders).",
    )

    watch_folders: bool = Field(
        True, description="Watch the indexed folders and re-index (incrementally) when files are added, changed "
        "or removed (the desktop window; core.watch.FolderWatcher).",
    )

    # verification
    min_quote_chars: int = Field(15, ge=1, le=200, description="Shortest acceptable quote, characters (normalized).")
    fuzzy_threshold: float = Field(
        92.0, ge=50, le=100, description="Minimum rapidfuzz partial_ratio (0-100) for a fuzzy quote match."
    )
    check_facts: bool = Field(
        True, description="Remove claims whose numbers, dates or amounts are not in their quotes (core.facts), "
        "or whose negation differs from their quotes' (core.polarity)."
    )
    support_check: Literal["off", "judge"] = Field(
        "off",
        description="'judge': the Ollama model labels each verified claim supported/neutral/contradicted by its "
        "quotes and unsupported claims are removed (one extra call per claim; never with the embedded model).",
    )
    widen_on_incomplete: bool = Field(
        True, description="When the model says its answer is incomplete, retrieve once more, wider, and regenerate."
    )
    widen_factor: int = Field(2, ge=1, le=10, description="Candidate and context multiplier of the wider round.")

    # models and user interface
    embedding_model: str = Field(
        "", description="Folder of a sentence-transformers embedding model, or 'ollama:<model>' for Ollama's "
        "/api/embed (e.g. a multilingual model you pulled); empty uses the bundled all-MiniLM-L6-v2 (English). "
        "Changing it requires re-indexing."
    )
    ui_language: Literal["system", "en", "es"] = Field(
        "system", description="Language of the window: the system's, English or Spanish."
    )

    @classmethod
    def settings_file(cls) -> Path:
        """The JSON file the settings persist to."""
        return data_dir() / "settings.json"

    @classmethod
    def load(cls) -> "Settings":
        """Load saved settings (environment variables still win).

        Raises:
            CoreError: the file exists but is not valid; the message names it.
        """
        path = cls.settings_file()
        saved: dict = {}
        if path.exists():
            try:
                saved = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise CoreError(f"{path}: settings file is not valid JSON ({exc})") from exc
        try:
            env_only = cls()
            merged = {**saved, **env_only.model_dump(exclude_unset=True)}
            return cls(**merged)
        except ValidationError as exc:
            raise CoreError(f"{path}: invalid settings: {exc}") from exc

    def save(self) -> Path:
        """Write the settings atomically; returns the file path."""
        path = self.settings_file()
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.model_dump_json(indent=2), encoding="utf-8")
        tmp.replace(path)
        return path
