"""The bundled sentence-transformers model run by OpenVINO: offline export, hash check, embedder.

Export (:func:`export_ir`): the installed weights (``model.safetensors`` of the model folder) are
loaded by transformers/PyTorch and converted with ``openvino.convert_model`` (dynamic batch and
sequence length), saved in float32 (``compress_to_fp16=False``) as ``model.xml``/``model.bin`` in
``<data folder>/models/<model name>-openvino/`` — or at build time into the installer's
``resources/models/<model name>-openvino/``. Nothing is downloaded. Beside the IR,
``export.json`` records the SHA-256 of the source weights and of both IR files; :func:`load_ir`
accepts an IR only when the weights installed now have the recorded hash (a changed model is
exported again) and both files still have theirs (a damaged or swapped file is never run).

Inference (:class:`OpenVINOEmbedder`) reproduces sentence-transformers' pipeline for this model
(``modules.json``: Transformer → mean Pooling → Normalize): the model folder's
``tokenizer.json`` (Hugging Face ``tokenizers``, truncation at ``max_seq_length`` word pieces
from ``sentence_bert_config.json``, whitespace stripped first as sentence-transformers does),
the IR's last hidden state, the attention-masked mean, L2 normalization. Texts are sorted by
their number of word pieces before batching (less padding) and returned in the caller's order;
the requests of one call run on OpenVINO's streams at once (:class:`OpenVINOEmbedder`).
"""

from __future__ import annotations

import hashlib
import json
import threading
from pathlib import Path
from types import SimpleNamespace

import numpy as np

#: Most texts per inference request (measured in bench/embedding_backends.py: 8-32 alike).
OV_BATCH = 16
#: OpenVINO ``PERFORMANCE_HINT`` (bench/README.md, 2026-12-02 "streams" section).
OV_HINT = "THROUGHPUT"
_INPUTS = ("input_ids", "attention_mask", "token_type_ids")
_FILES = ("model.xml", "model.bin")


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes (read in 1 MiB blocks)."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _weights(model_dir: Path) -> Path:
    for name in ("model.safetensors", "pytorch_model.bin"):
        if (model_dir / name).exists():
            return model_dir / name
    raise FileNotFoundError(f"{model_dir}: no model.safetensors or pytorch_model.bin")


def export_ir(model_dir: Path, out_dir: Path) -> Path:
    """Convert the model folder's weights to an OpenVINO IR in ``out_dir``; returns ``out_dir``.

    Needs torch and transformers (at build time or on a machine that has them). Written into a
    sibling ``.partial`` folder and renamed, so a killed export leaves no half IR.

    Raises:
        FileNotFoundError: ``model_dir`` has no weights.
        ImportError: torch, transformers or openvino is missing.
    """
    import warnings

    import core.offline  # noqa: F401 — openvino_telemetry blocked before openvino loads
    import openvino as ov
    import torch
    from transformers import AutoModel

    source = _weights(model_dir)
    model = AutoModel.from_pretrained(str(model_dir)).eval()
    example = {
        "input_ids": torch.ones((2, 16), dtype=torch.long),
        "attention_mask": torch.ones((2, 16), dtype=torch.long),
        "token_type_ids": torch.zeros((2, 16), dtype=torch.long),
    }
    with torch.inference_mode(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings of transformers' masking code: not the user's business
        ir = ov.convert_model(model, example_input=example)
    tmp = out_dir.with_name(out_dir.name + ".partial")
    tmp.mkdir(parents=True, exist_ok=True)
    ov.save_model(ir, str(tmp / "model.xml"), compress_to_fp16=False)
    record = {"source": source.name, "source_sha256": sha256_file(source), "openvino": ov.get_version(),
              "files": {name: sha256_file(tmp / name) for name in _FILES}}
    (tmp / "export.json").write_text(json.dumps(record, indent=2), encoding="utf-8")
    if out_dir.exists():
        import shutil

        shutil.rmtree(out_dir)
    tmp.replace(out_dir)
    return out_dir


def ir_matches(model_dir: Path, ir_dir: Path) -> bool:
    """Whether ``ir_dir`` holds an IR exported from ``model_dir``'s weights as installed now,
    with both IR files unchanged since export (SHA-256 against ``export.json``)."""
    try:
        record = json.loads((ir_dir / "export.json").read_text(encoding="utf-8"))
        if record["source_sha256"] != sha256_file(_weights(model_dir)):
            return False
        return all(sha256_file(ir_dir / name) == record["files"][name] for name in _FILES)
    except (OSError, KeyError, ValueError):
        return False


def ir_dir_for(model_dir: Path) -> list[Path]:
    """Where the IR of ``model_dir`` may live, in order: ``resources/models/<name>-openvino`` (an
    installer that carries one, exported at build time), ``<name>-openvino`` beside the model
    folder (shared by every process that uses that folder), ``<data folder>/models/<name>-openvino``.
    The last two are written at run time, the first writable one."""
    from core.paths import data_dir, resource_path

    name = model_dir.name + "-openvino"
    return [resource_path("models", name), model_dir.parent / name, data_dir() / "models" / name]


_export_lock = threading.Lock()


def load_ir(model_dir: Path) -> Path:
    """The checked IR folder of ``model_dir``, exported first (beside the model folder, else in the
    data folder) when none passes :func:`ir_matches`.

    Raises:
        ImportError: no valid IR and torch/transformers/openvino cannot export one, or the
            exported one fails its hash check.
    """
    places = ir_dir_for(model_dir)
    with _export_lock:
        for ir in places:
            if ir_matches(model_dir, ir):
                return ir
        from filelock import FileLock

        for own in places[1:]:
            try:
                own.parent.mkdir(parents=True, exist_ok=True)
                # processes too (Ray actors, the window and the CLI) export one at a time
                with FileLock(str(own) + ".lock"):
                    if not ir_matches(model_dir, own):
                        export_ir(model_dir, own)
            except OSError:
                continue  # read-only place: the next one
            if ir_matches(model_dir, own):
                return own
            raise ImportError(f"{own}: the exported OpenVINO model fails its hash check")
    raise ImportError(f"no writable place for the OpenVINO model of {model_dir}")


def _check_supported(model_dir: Path) -> None:
    """Refuse a model folder whose sentence-transformers pipeline this class does not reproduce:
    modules other than Transformer → mean Pooling (→ Normalize), or non-empty prompts.

    Raises:
        ValueError: naming what differs (:func:`core.store.embedding.make_embedder` then uses PyTorch).
    """
    modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
    kinds = [m["type"].rsplit(".", 1)[-1] for m in modules]
    if kinds not in (["Transformer", "Pooling"], ["Transformer", "Pooling", "Normalize"]):
        raise ValueError(f"{model_dir}: modules {kinds} are not Transformer, mean Pooling, Normalize")
    pooling = next(m for m in modules if m["type"].endswith("Pooling"))
    config = json.loads((model_dir / pooling["path"] / "config.json").read_text(encoding="utf-8"))
    if not config.get("pooling_mode_mean_tokens") or any(
            v for k, v in config.items() if k.startswith("pooling_mode") and k != "pooling_mode_mean_tokens"):
        raise ValueError(f"{model_dir}: pooling is not the mean of the token vectors")
    if any(_prompts(model_dir).values()):
        raise ValueError(f"{model_dir}: the model has prompts (instruction prefixes)")


def _prompts(model_dir: Path) -> dict[str, str]:
    """The model's sentence-transformers prompts (``config_sentence_transformers.json``), default
    ``{"query": "", "text": ""}``."""
    path = model_dir / "config_sentence_transformers.json"
    prompts = {}
    if path.exists():
        prompts = json.loads(path.read_text(encoding="utf-8")).get("prompts") or {}
    return {"query": prompts.get("query", ""), "text": prompts.get("text", prompts.get("document", "")), **prompts}


class OpenVINOEmbedder:
    """Sentence embeddings of a sentence-transformers (BERT, mean pooling) model through OpenVINO.

    Offers what the pipeline uses of llama-index's embedding classes:
    ``get_text_embedding_batch(texts) -> list[list[float]]`` and
    ``get_query_embedding(text) -> list[float]``; vectors are L2-normalized float32 of the
    model's width (384 for all-MiniLM-L6-v2). Thread-safe (each call has its own infer requests).

    A call's texts are tokenized together, sorted by their number of word pieces (less padding)
    and cut into at most ``batch`` texts per inference request; the requests of one call run
    concurrently on the compiled model's streams (``ov.AsyncInferQueue``). With the default
    ``PERFORMANCE_HINT`` ``THROUGHPUT`` OpenVINO makes one stream per physical core, each on one
    thread: no per-operation synchronisation between threads, and a core taken by another job
    (the parsing of the next file, :mod:`core.store.indexing`) slows one stream instead of stalling
    both (measured in bench/embedding_backends.py, bench/README.md).

    Args:
        model_dir: the sentence-transformers model folder (tokenizer and configuration).
        precision: OpenVINO ``INFERENCE_PRECISION_HINT``: ``"bf16"`` or ``"f32"``.
        ir_dir: a checked IR folder (default: :func:`load_ir`, which exports when needed).
        threads: ``INFERENCE_NUM_THREADS`` (0: OpenVINO's default, every physical core).
        batch: most texts per inference request.
        hint: OpenVINO ``PERFORMANCE_HINT``: ``"THROUGHPUT"`` (default) or ``"LATENCY"`` (one
            stream using every thread: the earlier setting, kept for the benchmark).
    """

    def __init__(self, model_dir: Path, precision: str = "bf16", ir_dir: Path | None = None,
                 threads: int = 0, batch: int = OV_BATCH, hint: str = OV_HINT) -> None:
        import openvino as ov
        from tokenizers import Tokenizer

        self.model_dir = Path(model_dir)
        _check_supported(self.model_dir)
        self.precision = precision
        self.batch = batch
        self.hint = hint
        ir = ir_dir or load_ir(self.model_dir)
        config = {"INFERENCE_PRECISION_HINT": precision, "PERFORMANCE_HINT": hint}
        if threads:
            config["INFERENCE_NUM_THREADS"] = threads
        self._ov = ov
        self._compiled = ov.Core().compile_model(str(ir / "model.xml"), "CPU", config)
        try:
            self.streams = max(1, int(self._compiled.get_property("OPTIMAL_NUMBER_OF_INFER_REQUESTS")))
        except RuntimeError:
            self.streams = 1
        max_len = 256
        st_config = self.model_dir / "sentence_bert_config.json"
        if st_config.exists():
            max_len = int(json.loads(st_config.read_text(encoding="utf-8")).get("max_seq_length", max_len))
        self.max_length = max_len
        tok = Tokenizer.from_file(str(self.model_dir / "tokenizer.json"))
        tok.enable_truncation(max_length=max_len)
        tok.no_padding()
        self._tokenizer = tok
        # sentence-transformers' prompts of this model (none for queries or texts): what the passage
        # scorer (core.passages) reads as ``embedder._model.prompts`` to embed a question together
        # with sentences in one call, as it does with the PyTorch embedder.
        self._model = SimpleNamespace(prompts=_prompts(self.model_dir))
        self._names = {p.get_any_name() for p in self._compiled.inputs}

    def _feed(self, encs: list) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """Padded model inputs of tokenized texts, and their attention mask ``(n, width)``."""
        width = max(len(e.ids) for e in encs)
        n = len(encs)
        ids = np.zeros((n, width), dtype=np.int64)
        mask = np.zeros((n, width), dtype=np.int64)
        types = np.zeros((n, width), dtype=np.int64)
        for i, e in enumerate(encs):
            k = len(e.ids)
            ids[i, :k], mask[i, :k], types[i, :k] = e.ids, e.attention_mask, e.type_ids
        feed = {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        return {k: v for k, v in feed.items() if k in self._names}, mask

    @staticmethod
    def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Attention-masked mean of the token vectors, L2-normalized: ``(n, dim)`` float32."""
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden.astype(np.float32) * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return pooled / np.clip(norms, 1e-12, None)

    def embed(self, texts: list[str]) -> np.ndarray:
        """``(len(texts), dim)`` float32 unit vectors, in the order of ``texts``."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        encs = self._tokenizer.encode_batch([t.strip() for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encs[i].ids))
        # at least one request per stream (both cores busy), at most ``batch`` texts per request
        parts = min(len(order), max(self.streams, -(-len(order) // self.batch)))
        if parts == 1:
            feed, mask = self._feed(encs)
            request = self._compiled.create_infer_request()
            hidden = request.infer(feed)[self._compiled.outputs[0]]
            return self._pool(hidden, mask)
        groups = [order[len(order) * g // parts:len(order) * (g + 1) // parts] for g in range(parts)]
        results: list[tuple[list[int], np.ndarray] | None] = [None] * parts
        masks = {}

        def done(request, g: int) -> None:  # in OpenVINO's thread: pool while the output is this request's
            results[g] = (groups[g], self._pool(request.get_output_tensor(0).data, masks[g]))

        queue = self._ov.AsyncInferQueue(self._compiled, min(parts, self.streams))
        queue.set_callback(done)
        for g, idx in enumerate(groups):
            feed, masks[g] = self._feed([encs[i] for i in idx])
            queue.start_async(feed, g)
        queue.wait_all()
        out: np.ndarray | None = None
        for item in results:
            if item is None:
                raise RuntimeError("an OpenVINO inference request returned no result")
            idx, vecs = item
            if out is None:
                out = np.zeros((len(texts), vecs.shape[1]), dtype=np.float32)
            out[idx] = vecs
        return out

    def get_text_embedding_batch(self, texts: list[str], **_: object) -> list[list[float]]:
        """Vectors of ``texts`` (list of lists of floats), as llama-index's embeddings return them."""
        return self.embed(list(texts)).tolist()

    def get_text_embedding(self, text: str) -> list[float]:
        """Vector of one text."""
        return self.embed([text])[0].tolist()

    def get_query_embedding(self, query: str) -> list[float]:
        """Vector of a question (this model uses no query instruction: same as a text)."""
        return self.embed([query])[0].tolist()
