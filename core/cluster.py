"""Indexing on a Ray cluster: the per-document work spread over Ray Data, one writer on the driver.

``verbatim index --ray [ADDRESS]`` (:func:`ray_index`). What runs where:

* **Driver** (the process that runs the command, holding the workspace's writer
  lock): the scan, the cheap look at each file (size/mtime unchanged, moved
  files re-keyed: :func:`core.store.indexing.triage_file`), then, as results
  stream back, failures and quarantine status recorded
  (:func:`~core.store.indexing.settle_prepared`,
  :func:`~core.store.indexing.document_write`) and the commits in batches into
  the manifest, LanceDB and BM25 (:func:`~core.store.indexing.run_indexing`).
  Only the driver writes the workspace, so the result is the same format the
  desktop app opens.
* **Ray Data stages** on the cluster: ``map_batches`` of reading, parsing,
  chunking and the quarantine screen (:func:`~core.store.indexing.prepare_document`,
  one task per file), then ``map_batches`` of embedding on a pool of actors
  (:class:`_EmbedChunks`, one per GPU when the cluster has GPUs, else CPU actors),
  one row per chunk so a long document is spread over the pool.

The files are read by the workers: the indexed folders must be visible at the
same path on every node (shared storage), as they are with a local Ray. A file
that cannot be read comes back as a failure naming it, like in a local run.
Ray is an optional dependency (``pip install .[cluster]``).
"""

from __future__ import annotations

import logging
import os
import pickle
import warnings
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.errors import Cancelled, IndexError_
from core.store.commit import DocumentWrite
from core.store.embedding import EMBED_BATCH
from core.store.indexing import (
    CancelCheck,
    CommitBatches,
    IndexScan,
    PreparedDocument,
    container_of,
    document_write,
    forget_stale_attachments,
    prepare_document,
    run_indexing,
    settle_prepared,
    triage_file,
)
from core.types import FileError, IndexReport, ProgressEvent

if TYPE_CHECKING:
    from core.store.workspace import Workspace

log = logging.getLogger(__name__)

#: Chunk rows per embedding actor call (a multiple of the model's batch of :data:`EMBED_BATCH`).
EMBED_ROWS = 4 * EMBED_BATCH
#: Driver-side rows per streamed batch (between two cancel checks).
STREAM_ROWS = 256
#: Environment variables the workers need to behave like the driver (the embedding model folder).
_FORWARDED_ENV = ("VERBATIM_EMBEDDING_MODEL",)


def ray_available() -> bool:
    """Whether the optional ``ray[data]`` dependency is installed (``pip install .[cluster]``)."""
    try:
        import ray  # noqa: F401
        import ray.data  # noqa: F401
    except ImportError:
        return False
    return True


def _import_ray():
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError as exc:
        raise IndexError_("indexing on Ray needs the optional 'cluster' extra: pip install 'verbatim[cluster]' "
                          "(or pip install 'ray[data]')") from exc
    return ray


def runtime_env() -> dict[str, Any]:
    """Ray ``runtime_env`` for the workers: this process's ``core`` package and the model's environment.

    ``py_modules`` ships the driver's ``core`` to every worker, so the cluster
    prepares and embeds with exactly the driver's code (its dependencies —
    PyMuPDF, sentence-transformers, the model package — must be installed on
    the nodes).
    """
    env = {k: os.environ[k] for k in _FORWARDED_ENV if k in os.environ}
    return {"py_modules": [str(Path(__file__).resolve().parent)], "env_vars": env}


@contextmanager
def ray_session(address: str | None = None, num_cpus: int | None = None) -> Iterator[Any]:
    """Connect to Ray for the block: an existing connection, a cluster at ``address``, or a local Ray.

    Args:
        address: ``None`` starts a local Ray on this machine (``num_cpus`` CPUs,
            default all; no dashboard); ``"auto"`` joins the cluster started
            here with ``ray start --head`` (or ``RAY_ADDRESS``); ``"HOST:PORT"``
            or ``"ray://HOST:10001"`` a remote one.
        num_cpus: CPUs of the local Ray (ignored when joining a cluster).

    Yields the ``ray`` module. Shuts down only a Ray this call started.

    Raises:
        IndexError_: Ray is not installed, or the cluster cannot be reached.
    """
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    kwargs: dict[str, Any] = {"runtime_env": runtime_env(), "logging_level": logging.WARNING,
                              "log_to_driver": False}
    if address:
        kwargs["address"] = address
    else:
        kwargs.update(num_cpus=num_cpus, include_dashboard=False)
    try:
        with warnings.catch_warnings():
            # Ray's processes are forked and exec'ed at once: LanceDB's fork hook warns for nothing.
            warnings.filterwarnings("ignore", message="lancedb fork support", category=RuntimeWarning)
            ray.init(**kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise IndexError_(f"cannot connect to the Ray cluster at {address or 'a new local Ray'}: {exc}") from exc
    try:
        yield ray
    finally:
        ray.shutdown()


def ray_index(
    ws: Workspace, folders: list[str | Path], address: str | None = None, cancel: CancelCheck | None = None,
    *, num_cpus: int | None = None, embed_actors: int | None = None, gpus_per_actor: float | None = None,
) -> Generator[ProgressEvent, None, IndexReport]:
    """Index ``folders`` into ``ws`` with the per-document work on Ray; same contract as :meth:`Workspace.index`.

    The result equals a local :meth:`~core.store.Workspace.index` of the same
    folders (chunk ids, texts, vectors within float tolerance, statuses,
    failures); progress events are ``scan``, ``index`` (one per file as its
    result reaches the driver, ``done`` counting files settled), ``committed``
    and ``done``.

    Args:
        address: see :func:`ray_session` (``None``: a local Ray, ``"auto"``: the running cluster).
        cancel: polled before each file is triaged, between streamed batches and before each
            document whose results arrived is written; documents queued so far are committed,
            the rest is left to the next run (Ray's remaining tasks are dropped with the stream).
        num_cpus: CPUs of a local Ray.
        embed_actors: embedding actors (default: one per GPU of the cluster, else half its CPUs, at least 1).
        gpus_per_actor: GPUs per embedding actor (default: 1 when the cluster has GPUs, else 0).

    Raises:
        IndexError_: Ray missing or unreachable, a folder missing, another process
            indexing the workspace, or the cluster failed (the message says why;
            batches committed before stay).
    """
    with ray_session(address, num_cpus) as ray:
        body = partial(_ray_body, ray=ray, embed_actors=embed_actors, gpus_per_actor=gpus_per_actor)
        return (yield from run_indexing(ws, folders, body, cancel))


@dataclass
class _Pending:
    """One document on its way back to the driver: its header row, then its chunks' vectors."""

    prepared: PreparedDocument | None = None
    expected: int = -1
    vectors: dict[int, list[float]] = field(default_factory=dict)

    def complete(self) -> bool:
        return self.prepared is not None and len(self.vectors) == self.expected


def _ray_body(
    ws: Workspace, scan: IndexScan, report: IndexReport, batches: CommitBatches, cancel: CancelCheck,
    *, ray, embed_actors: int | None, gpus_per_actor: float | None,
) -> Generator[ProgressEvent, None, None]:
    """The run's body on Ray (:data:`core.store.indexing.RunBody`): triage here, prepare and embed there."""
    from core.settings import Settings

    total = len(scan.files)
    items: list[dict[str, Any]] = []
    done = 0
    for path, doc_id, root in scan.files:
        if cancel():
            raise Cancelled()
        st = triage_file(ws, scan, report, path, doc_id, root)
        if st is None or isinstance(st, DocumentWrite):
            if st is not None:
                batches.add(st, count=False)
            yield ProgressEvent(stage="index", done=done, total=total, message=path.name, item=doc_id)
            done += 1
            continue
        prev = scan.known.get(doc_id)
        items.append({"path": str(path), "doc_id": doc_id, "root": str(root), "size": st.st_size,
                      "mtime": st.st_mtime, "known_sha256": prev[2] if prev else ""})
    if not items:
        return
    resources = ray.cluster_resources()
    cluster_gpus = resources.get("GPU", 0)
    per_actor_gpu = gpus_per_actor if gpus_per_actor is not None else (1.0 if cluster_gpus >= 1 else 0.0)
    if embed_actors is None:
        embed_actors = int(cluster_gpus // per_actor_gpu) if per_actor_gpu else int(resources.get("CPU", 2) // 2)
    embed_actors = max(1, embed_actors)
    prepare_kw = {"chunk_tokens": ws.settings.chunk_tokens, "overlap_tokens": ws.settings.chunk_overlap_tokens,
                  "ocr": Settings().ocr_enabled}
    cpus = int(resources.get("CPU", 1))
    # Up to one reading task per CPU, and never the actors' pool size: Ray Data fuses a
    # task stage into the next actor stage of the same size and resources, which would
    # read the files inside the (few) embedding actors.
    prepare_tasks = max(2, cpus) if max(2, cpus) != embed_actors else embed_actors + 1
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False  # the run's own progress events say where it is
    logging.getLogger("ray.data").setLevel(logging.WARNING)
    # ... and Ray Data's notice that its bars are off is noise on the user's stderr.
    logging.getLogger("ray.data._internal.progress").setLevel(logging.ERROR)
    ds = ray.data.from_items(items, override_num_blocks=min(len(items), 1000))
    ds = ds.map_batches(_prepare_rows, fn_kwargs=prepare_kw, batch_size=1, batch_format="pandas",
                        compute=ray.data.TaskPoolStrategy(size=prepare_tasks))
    ds = ds.map_batches(
        _EmbedChunks, fn_constructor_kwargs={"device": "cuda" if per_actor_gpu else "cpu"},
        batch_size=EMBED_ROWS, batch_format="pandas", compute=ray.data.ActorPoolStrategy(size=embed_actors),
        num_gpus=per_actor_gpu or None, num_cpus=1,
    )
    pending: dict[str, _Pending] = {}
    try:
        stream = ds.iter_batches(batch_size=STREAM_ROWS, batch_format="pandas")
        for frame in stream:
            if cancel():
                raise Cancelled()
            for doc_id, ordinal, payload, vector in zip(frame["doc_id"], frame["ord"], frame["payload"],
                                                        frame["vector"]):
                entry = pending.setdefault(doc_id, _Pending())
                if ordinal < 0:
                    entry.prepared = pickle.loads(payload)  # our own bytes, made by _prepare_rows
                    entry.expected = len(entry.prepared.chunks)
                else:
                    entry.vectors[int(ordinal)] = [float(x) for x in vector]
                if not entry.complete():
                    continue
                del pending[doc_id]
                if cancel():  # per document too: a streamed batch may hold a whole archive's results
                    raise Cancelled()
                prepared = entry.prepared
                if container_of(doc_id) == doc_id:  # a file (an attachment is counted with its message)
                    yield ProgressEvent(stage="index", done=done, total=total, message=prepared.path.name,
                                        item=doc_id)
                    done += 1
                if not settle_prepared(ws, report, prepared):
                    continue
                forget_stale_attachments(scan, prepared)
                vectors = [entry.vectors[i] for i in range(entry.expected)]
                batches.add(document_write(ws, report, prepared, vectors))
                if batches.full():
                    event = batches.commit(done, total)
                    if event is not None:
                        yield event
    except (Cancelled, GeneratorExit):
        raise
    except Exception as exc:
        if type(exc).__module__.startswith("ray"):
            raise IndexError_(f"indexing on Ray failed: {exc}") from exc
        raise
    if pending:  # never expected: every file sends a header and one row per chunk
        raise IndexError_("indexing on Ray lost results for: " + ", ".join(sorted(pending)))


def _prepare_rows(frame, *, chunk_tokens: int, overlap_tokens: int, ocr: bool):
    """Ray Data stage: each file row → one header row (the pickled :class:`PreparedDocument`) + one row per chunk.

    Runs on a worker. Any error reading a file becomes that file's failure
    (``PreparedDocument.error``), never a failed task: one bad file must not
    stop an archive's run.
    """
    import pandas as pd

    rows: list[dict[str, Any]] = []
    for item in frame.to_dict("records"):
        path, root = Path(item["path"]), Path(item["root"])
        try:
            prepared = prepare_document(
                path, item["doc_id"], root, int(item["size"]), float(item["mtime"]),
                chunk_tokens=chunk_tokens, overlap_tokens=overlap_tokens,
                known_sha256=item["known_sha256"] or None, ocr=ocr,
            )
        except Exception as exc:  # noqa: BLE001 - reported as the file's failure, like IngestError
            prepared = PreparedDocument(doc_id=item["doc_id"], path=path, root=root, size=int(item["size"]),
                                        mtime=float(item["mtime"]),
                                        error=FileError(path=str(path), reason=f"could not be read ({exc!r})"))
        # an e-mail's attachments travel as documents of their own (the message keeps their ids)
        parts, prepared.attachments = [prepared, *prepared.attachments], []
        for part in parts:
            rows.append({"doc_id": part.doc_id, "ord": -1, "text": "", "payload": pickle.dumps(part)})
            rows += [{"doc_id": part.doc_id, "ord": i, "text": c.embedding_text(), "payload": b""}
                     for i, c in enumerate(part.chunks)]
    return pd.DataFrame(rows, columns=["doc_id", "ord", "text", "payload"])


class _EmbedChunks:
    """Ray Data actor: embeds the chunk rows of a batch (header rows pass through with an empty vector).

    One model per actor, loaded once (:func:`core.store.embedding.make_embedder`),
    on ``device`` (``"cuda"`` for GPU actors).
    """

    def __init__(self, device: str = "cpu") -> None:
        from core.store.embedding import make_embedder

        self.embedder = make_embedder(device)

    def __call__(self, frame):
        texts = [t for t, o in zip(frame["text"], frame["ord"]) if o >= 0]
        vectors = iter(self.embedder.get_text_embedding_batch(texts) if texts else [])
        out = frame.drop(columns=["text"])
        out["vector"] = [next(vectors) if o >= 0 else [] for o in frame["ord"]]
        return out
