"""Embedding backends (issue #26): OpenVINO agrees with PyTorch, the exported model is checked by
hash, the backend's vector family decides whether a workspace opens, Ollama's /api/embed against
recorded exchanges (tests/fixtures/ollama/embed_*.json, replayed as in test_ollama.py)."""

from __future__ import annotations

import core  # noqa: F401  (offline switches first)

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

import core.embedding as embedding
from core.embedding.ollama_embed import OllamaEmbedder
from core.embedding.openvino_model import OpenVINOEmbedder, ir_matches, load_ir
from core.errors import IndexMismatchError, ModelUnavailableError
from core.paths import embedding_model_dir
from core.pipeline import index_folders, run
from core.settings import Settings
from core.store import Workspace, get_embedder
from core.store.embedding import embedding_model_id, make_embedder
from tests.core.test_ollama import HOST, Replay, load

DATA = Path(__file__).resolve().parents[1] / "data"

TEXTS = [
    "Termination for Convenience. Either party may terminate this Agreement upon thirty (30) days' written notice.",
    "   This Agreement shall be governed by the laws of the State of New York.   ",
    "x",
    "Cláusula de confidencialidad: las partes se obligan a no divulgar la información recibida. " * 30,  # > 256 pieces
    "IN NO EVENT SHALL EITHER PARTY'S TOTAL LIABILITY EXCEED THE FEES PAID IN THE TWELVE MONTHS BEFORE THE CLAIM.",
]


@pytest.fixture(scope="module")
def torch_embedder():
    return make_embedder("cpu", backend="torch")


@pytest.fixture(scope="module")
def ir() -> Path:
    """The IR exported once for the session's model folder (beside it, shared by the session)."""
    return load_ir(embedding_model_dir())


def test_openvino_shares_the_float_vector_family() -> None:
    """Backends adopted as compatible must be in the family a workspace's fingerprint leaves out."""
    assert {embedding.VECTOR_FAMILY[b] for b in ("torch", "openvino-bf16", "openvino-f32")} == {"float"}


@pytest.mark.parametrize("precision", ["bf16", "f32"])
def test_openvino_vectors_agree_with_pytorch_in_order(precision: str, ir: Path, torch_embedder) -> None:
    ov = OpenVINOEmbedder(embedding_model_dir(), precision=precision, ir_dir=ir, batch=2)  # several batches
    ref = np.asarray(torch_embedder.get_text_embedding_batch(TEXTS), dtype=np.float32)
    got = np.asarray(ov.get_text_embedding_batch(TEXTS), dtype=np.float32)
    assert got.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)
    cos = (got * ref).sum(axis=1)
    # measured 0.99996 min in bf16 on CUAD chunks (bench/README.md); unrelated texts are far below
    assert cos.min() > 0.999, cos
    assert (got @ ref.T).argmax(axis=1).tolist() == list(range(len(TEXTS)))  # order kept across length sorting
    q = np.asarray(ov.get_query_embedding("Can the agreement be ended early?"))
    assert float(q @ np.asarray(torch_embedder.get_query_embedding("Can the agreement be ended early?"))) > 0.999


def test_ir_is_refused_when_a_file_or_the_weights_change(ir: Path, tmp_path: Path) -> None:
    model = embedding_model_dir()
    copy = tmp_path / "ir"
    shutil.copytree(ir, copy)
    assert ir_matches(model, copy)
    with open(copy / "model.bin", "r+b") as f:  # one byte of the weights' IR flipped
        f.seek(1000)
        byte = f.read(1)
        f.seek(1000)
        f.write(bytes([byte[0] ^ 0xFF]))
    assert not ir_matches(model, copy)
    shutil.copy(ir / "model.bin", copy / "model.bin")
    assert ir_matches(model, copy)
    record = json.loads((copy / "export.json").read_text())
    record["source_sha256"] = "0" * 64  # exported from other weights than the installed ones
    (copy / "export.json").write_text(json.dumps(record))
    assert not ir_matches(model, copy)


def test_select_backend_reads_the_override(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("VERBATIM_EMBEDDING_BACKEND", "torch")
    assert embedding.select_backend() == "torch"
    monkeypatch.setenv("VERBATIM_EMBEDDING_BACKEND", "openvino-f32")
    assert embedding.select_backend() == "openvino-f32"
    monkeypatch.setenv("VERBATIM_EMBEDDING_BACKEND", "onnx")
    with pytest.raises(ValueError, match="onnx"):
        embedding.select_backend()
    monkeypatch.setenv("VERBATIM_EMBEDDING_BACKEND", "auto")
    assert embedding.select_backend() == ("openvino-bf16" if embedding.openvino_bf16_supported() else "torch")


def test_auto_backend_without_openvino_is_pytorch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openvino", None)  # a machine without the package
    assert not embedding.openvino_bf16_supported()
    assert embedding.select_backend() == "torch"


def _indexed(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lease.txt").write_text("The tenant shall pay the rent on the first day of each month.\n", encoding="utf-8")
    ws = Workspace("fam", Settings())
    run(index_folders(ws, [folder]))
    return folder


def test_compatible_backend_opens_and_incompatible_asks_for_rebuild(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _indexed(tmp_path)
    assert "embedding_vectors" not in Workspace("fam", Settings()).fingerprint()
    for backend in ("torch", "openvino-bf16", "openvino-f32"):  # the float family: opens
        monkeypatch.setenv("VERBATIM_EMBEDDING_BACKEND", backend)
        Workspace("fam", Settings())
    monkeypatch.setitem(embedding.VECTOR_FAMILY, "openvino-f32", "int8")  # a backend whose vectors drift
    monkeypatch.setenv("VERBATIM_EMBEDDING_BACKEND", "openvino-f32")
    with pytest.raises(IndexMismatchError) as info:
        Workspace("fam", Settings())
    assert info.value.differences == {"embedding_vectors": (None, "int8")}


def test_commit_records_the_backend_that_embedded(tmp_path: Path) -> None:
    _indexed(tmp_path)
    meta = Workspace("fam", Settings()).manifest.meta()
    from core.store.embedding import embedding_backend_name

    assert meta["embedding_backend"] == embedding_backend_name(get_embedder())


# --- Ollama /api/embed -----------------------------------------------------------


def test_ollama_embed_sends_the_documented_request_and_normalizes() -> None:
    rec = load("embed_multiple.json")
    replay = Replay(rec)
    emb = OllamaEmbedder("all-minilm", host=HOST, transport=replay.transport)
    vecs = np.asarray(emb.get_text_embedding_batch(["Why is the sky blue?", "Why is the grass green?"]))
    assert replay.bodies("/api/embed")[0]["model"] == "all-minilm"
    assert replay.bodies("/api/embed")[0]["input"] == ["Why is the sky blue?", "Why is the grass green?"]
    raw = np.asarray(rec["response"]["body"]["embeddings"])
    assert vecs.shape == (2, 10)
    assert np.allclose(vecs, raw / np.linalg.norm(raw, axis=1, keepdims=True), atol=1e-6)
    assert emb.backend_name == "ollama:all-minilm"


def test_ollama_embed_count_mismatch_and_missing_model_are_clear_errors() -> None:
    emb = OllamaEmbedder("all-minilm", host=HOST, transport=Replay(load("embed_multiple.json")).transport)
    with pytest.raises(ModelUnavailableError, match="2 embeddings for 1 inputs"):
        emb.get_query_embedding("Why is the sky blue?")
    missing = OllamaEmbedder("bge-m3", host=HOST, transport=Replay(load("embed_model_not_found.json")).transport)
    with pytest.raises(ModelUnavailableError, match="ollama pull bge-m3"):
        missing.get_text_embedding_batch(["Why is the sky blue?", "Why is the grass green?"])


def test_ollama_model_is_a_model_change_for_the_workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _indexed(tmp_path)
    monkeypatch.setenv("VERBATIM_EMBEDDING_MODEL", "ollama:bge-m3")
    assert embedding_model_id() == "ollama:bge-m3"
    assert isinstance(make_embedder("cpu"), OllamaEmbedder)
    with pytest.raises(IndexMismatchError, match="embedding_model"):
        Workspace("fam", Settings())


def test_a_model_with_another_pipeline_is_refused_and_pytorch_runs_it(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """CLS pooling (or prompts) is not what the OpenVINO embedder reproduces: it refuses before any
    export, and make_embedder falls back to today's path."""
    src = embedding_model_dir()
    model = tmp_path / "cls-model"
    shutil.copytree(src, model, ignore=shutil.ignore_patterns("*.safetensors", "*.bin"))
    (model / "model.safetensors").symlink_to(src / "model.safetensors")
    cfg = json.loads((model / "1_Pooling" / "config.json").read_text())
    cfg.update(pooling_mode_cls_token=True, pooling_mode_mean_tokens=False)
    (model / "1_Pooling" / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(ValueError, match="mean"):
        OpenVINOEmbedder(model, precision="f32")
    assert not (tmp_path / "cls-model-openvino").exists()  # nothing exported
    monkeypatch.setenv("VERBATIM_EMBEDDING_MODEL", str(model))
    assert not isinstance(make_embedder("cpu", backend="openvino-bf16"), OpenVINOEmbedder)
