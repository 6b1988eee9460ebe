"""Progress of an indexing run as a user sees it: which files wait, which is being read, how long is left.

Three pieces, no Qt (the window and the command line share them):

* :func:`plan_index` lists the files a run will visit, each with its size, its
  pages (a PDF's page count, read from its cross-reference table in about a
  millisecond; other formats estimated from their size) and whether it must be read (new or changed by size/mtime, the same test
  :meth:`core.store.Workspace.index` uses to skip a file) — the "queued" list.
* :class:`EtaEstimator` turns measured throughput into seconds left.
* :class:`IndexProgress` follows a run's :class:`~core.types.ProgressEvent`
  stream (``scan``, ``index``, ``embed``, ``committed``, ``done``) against the plan.

Why the ETA is the product's own code: the estimate libraries give (tqdm's
``rate``, Qt's nothing) is items per second over the last few items, and
an item here is a file. Files differ by a factor of 100 in size, unchanged files
take no time, and that is what made the window's estimate swing from 1 min 09 s
to 8 min 42 s to 15 s on 14 contracts (issue #16). Here the work is measured in
pages still to read, the time per file is fitted over the whole run
(``seconds ≈ a + b × pages``), the current file's share comes from its chunks
embedded so far, and the shown value is smoothed and may move only within a bound
set by the work left. Bytes are no measure: in the recorded run of
``tests/data/progress/cuad15.json`` a 3.6 MB scanned-looking contract of 8 pages
took 4.3 s, a 306 kB one of 59 pages 46 s.
"""

from __future__ import annotations

import math
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.types import ProgressEvent

#: "<file>: 64/179 chunks", the message of core.store's "embed" progress events.
CHUNKS_DONE = re.compile(r"(\d+)/(\d+) chunks")


@dataclass(frozen=True)
class PlannedFile:
    """One file an indexing run visits.

    Attributes:
        doc_id: ``<folder name>/<path inside it>`` (as :meth:`core.store.Workspace.index` names it).
        path: absolute path.
        size: bytes.
        pages: pages (PDF page count; other formats estimated, :func:`estimated_pages`).
        read: True when the run must read it (new, or size/mtime changed); False for a
            file the run skips as unchanged.
    """

    doc_id: str
    path: str
    size: int
    read: bool
    pages: int = 1


def manifest_files(workspace_dir: str | Path) -> dict[str, tuple[int, float]]:
    """doc_id → (size in bytes, mtime) of the documents the manifest holds whole (read-only; ``{}`` if none;
    a document a stopped run left partially indexed is left out, so the plan reads it again)."""
    db_path = Path(workspace_dir) / "manifest.sqlite"
    if not db_path.exists():
        return {}
    conn = sqlite3.connect(f"{db_path.absolute().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        files = {d: (s, m) for d, s, m in conn.execute("SELECT doc_id, size, mtime FROM documents")}
    except sqlite3.Error:
        conn.close()
        return {}
    try:  # a document left partially indexed is read again (core.store.indexing): never counted unchanged
        for (doc_id,) in conn.execute("SELECT doc_id FROM partial_documents"):
            files.pop(doc_id, None)
    except sqlite3.Error:
        pass  # a manifest from before partial documents: none
    finally:
        conn.close()
    return files


#: Bytes per page assumed for formats without pages (about 3,000 characters of text a page).
BYTES_PER_PAGE = {".txt": 3000, ".md": 3000, ".html": 6000, ".htm": 6000, ".docx": 15000}


def estimated_pages(path: Path, size: int) -> int:
    """Pages of ``path``: a PDF's page count (PyMuPDF opens only its cross-reference table), else
    ``size`` ÷ :data:`BYTES_PER_PAGE` (at least 1). A PDF that does not open counts as 1 page."""
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        import pymupdf

        try:
            with pymupdf.open(path) as doc:
                return max(1, doc.page_count)
        except Exception:  # noqa: BLE001 - damaged or unreadable: the run reports it; 1 page of work
            return 1
    return max(1, round(size / BYTES_PER_PAGE.get(suffix, 3000)))


def manifest_folders(workspace_dir: str | Path) -> list[str]:
    """The folders the manifest records (read-only; ``[]`` if none)."""
    db_path = Path(workspace_dir) / "manifest.sqlite"
    if not db_path.exists():
        return []
    conn = sqlite3.connect(f"{db_path.absolute().as_uri()}?mode=ro", uri=True, timeout=10)
    try:
        return [r[0] for r in conn.execute("SELECT path FROM folders ORDER BY path")]
    except sqlite3.Error:
        return []
    finally:
        conn.close()


def plan_index(folders: list[str | Path], known: dict[str, tuple[int, float]],
               workspace_dir: str | Path | None = None, follow_links: bool | None = None) -> list[PlannedFile]:
    """The files an indexing run of ``folders`` visits, in the run's order.

    Args:
        folders: the run's folders (missing ones are skipped: the run reports them).
        known: the manifest's documents, :func:`manifest_files`.
        workspace_dir: the workspace's folder, whose manifest's folder labels make the
            document ids (:mod:`core.store.docids`); ``None``: a new workspace.
        follow_links: the ``follow_links`` setting (``None``: ``Settings()``'s).

    Returns:
        One :class:`PlannedFile` per supported file; files that cannot be stat'ed count
        as to be read with size 0 and 1 page. Unchanged files are not opened (0 pages).
    """
    from core.store.docids import plan_labels, plan_scan, read_ranked_folders

    if follow_links is None:
        from core.settings import Settings

        follow_links = Settings().follow_links
    out: list[PlannedFile] = []
    roots = [r for r in (Path(f).expanduser().resolve() for f in folders) if r.is_dir()]
    ranked, roots = plan_labels(read_ranked_folders(workspace_dir) if workspace_dir else [], roots)
    for path, doc_id, _root in plan_scan(ranked, roots, follow_links=follow_links).files:
        try:
            st = path.stat()
        except OSError:
            out.append(PlannedFile(doc_id, str(path), 0, True, 1))
            continue
        prev = known.get(doc_id)
        unchanged = prev is not None and prev[0] == st.st_size and prev[1] == st.st_mtime
        pages = estimated_pages(path, st.st_size) if not unchanged else 0
        out.append(PlannedFile(doc_id, str(path), st.st_size, not unchanged, pages))
    return out


class EtaEstimator:
    """Seconds left from measured throughput over the whole run; ``None`` until meaningful.

    Each :meth:`update` gives the work done and the total (any unit; :class:`IndexProgress`
    uses pages of the files to read, with the current file's embedded share) and, optionally,
    an independent estimate of the seconds left (``model_s``, e.g. a per-file fit); the
    raw estimate is ``model_s`` when given, else work left ÷ (work done ÷ elapsed).

    The shown estimate:

    * is ``None`` ("estimating…") until ``min_seconds`` have passed since the first
      update *and* ``min_fraction`` of the work is done;
    * follows the raw estimate through exponential smoothing with time constant
      ``tau_s`` (Brown's simple exponential smoothing, with the factor
      ``1 − exp(−Δt/τ)`` for irregular update times);
    * counts down with the clock between raw changes, and moves at most
      ``swing_per_s`` of the time left per second of elapsed time (capped at
      ``max_swing`` per update): a swing is justified only by the work left, never
      by one file being faster or slower than the last.

    Args:
        clock: seconds, monotonic (tests pass recorded times to :meth:`update` instead).
    """

    def __init__(self, min_seconds: float = 5.0, min_fraction: float = 0.03, tau_s: float = 8.0,
                 swing_per_s: float = 0.1, max_swing: float = 0.25, clock=time.monotonic) -> None:
        self.min_seconds, self.min_fraction, self.tau_s = min_seconds, min_fraction, tau_s
        self.swing_per_s, self.max_swing = swing_per_s, max_swing
        self._clock = clock
        self._t0: float | None = None
        self._w0 = 0.0
        self._last_t: float | None = None
        self.eta_s: float | None = None

    def update(self, work_done: float, work_total: float, now: float | None = None,
               model_s: float | None = None) -> float | None:
        """Record progress at ``now`` (default: the clock); returns the estimate in seconds, or ``None``."""
        now = self._clock() if now is None else now
        if self._t0 is None:
            self._t0, self._w0, self._last_t = now, work_done, now
            return None
        elapsed = now - self._t0
        done = work_done - self._w0
        left = max(0.0, work_total - work_done)
        if left <= 0:
            self.eta_s, self._last_t = 0.0, now
            return 0.0
        if elapsed < self.min_seconds or work_total <= 0 or work_done / work_total < self.min_fraction or done <= 0:
            return self.eta_s
        raw = model_s if model_s is not None else left * elapsed / done
        if not math.isfinite(raw) or raw < 0:
            return self.eta_s
        dt = max(0.0, now - (self._last_t or now))
        self._last_t = now
        if self.eta_s is None:
            self.eta_s = raw
            return raw
        expected = max(0.0, self.eta_s - dt)
        smoothed = expected + (1.0 - math.exp(-dt / self.tau_s)) * (raw - expected)
        bound = max(1.0, expected * min(self.max_swing, self.swing_per_s * max(dt, 0.5)))
        self.eta_s = min(max(smoothed, expected - bound), expected + bound)
        return self.eta_s


def fit_file_time(samples: list[tuple[int, float]]) -> tuple[float, float] | None:
    """Least-squares fit of ``seconds ≈ a + b × pages`` over finished files, both ≥ 0.

    ``samples`` are ``(pages, seconds)``. ``a`` is the per-file cost (open, commit), ``b``
    the cost per page. Fewer than three files, or page counts all equal, fit the mean rate
    alone (``a`` = 0). ``None`` without samples.
    """
    if not samples:
        return None
    n = len(samples)
    total_b = sum(b for b, _ in samples)
    total_s = sum(s for _, s in samples)
    if n < 3 or total_b <= 0:
        return (0.0, total_s / total_b) if total_b > 0 else (total_s / n, 0.0)
    mean_b, mean_s = total_b / n, total_s / n
    var = sum((b - mean_b) ** 2 for b, _ in samples)
    if var <= 0:
        return 0.0, total_s / total_b
    slope = sum((b - mean_b) * (s - mean_s) for b, s in samples) / var
    intercept = mean_s - slope * mean_b
    if slope < 0:  # bigger files were faster: no size effect measurable, per-file cost only
        return mean_s, 0.0
    if intercept < 0:  # no per-file cost measurable: through the origin
        return 0.0, total_s / total_b
    return intercept, slope


@dataclass
class IndexProgress:
    """One indexing run followed event by event against its :func:`plan_index` plan.

    Feed it every :class:`ProgressEvent` of the run with :meth:`update`; read
    :attr:`eta_s` (``None`` = "estimating…"), :meth:`state` of a document,
    :attr:`files_done`/:attr:`files_total`, :attr:`chunks_done` and :attr:`fraction`.

    Without a plan (``plan=None``) it still counts files from the events, and the ETA
    falls back to files as the unit of work.
    """

    plan: list[PlannedFile] | None = None
    estimator: EtaEstimator = field(default_factory=EtaEstimator)
    current: str = ""  # doc_id being read or embedded
    current_fraction: float = 0.0  # its embedded share, 0..1
    files_done: int = 0
    files_total: int = 0
    chunks_done: int = 0
    committed: int = 0  # "committed" events seen (each a batch the manifest now holds)
    finished: bool = False
    eta_s: float | None = None
    _index: int = -1
    _started_at: float | None = None
    _file_started: float | None = None
    _file_chunks: int = 0
    _processed: set[str] = field(default_factory=set)
    _samples: list[tuple[int, float]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._pages = {p.doc_id: p.pages for p in self.plan or [] if p.read}
        self._to_read = [p for p in self.plan or [] if p.read]
        self._work_total = float(sum(p.pages for p in self._to_read))

    @property
    def to_read(self) -> list[PlannedFile]:
        """Planned files the run must read (new or changed)."""
        return self._to_read

    def state(self, doc_id: str) -> str:
        """``"queued"`` (to read, not reached), ``"indexing"`` (being read, or read but not yet
        committed), ``"visited"`` (reached and finished in this run) or ``""`` (not in the plan)."""
        if doc_id == self.current and not self.finished:
            return "indexing"
        if doc_id in self._processed:
            return "visited"
        if any(p.doc_id == doc_id for p in self._to_read):
            return "queued"
        return ""

    def pending(self) -> list[str]:
        """Doc ids of the files still to read, in order (the current one first)."""
        return [p.doc_id for p in self._to_read if p.doc_id not in self._processed]

    def _work_done(self) -> float:
        if self.plan is None:
            return self.files_done + self.current_fraction
        done = sum(self._pages.get(d, 0) for d in self._processed if d != self.current)
        if self.current and self.current not in self._processed:
            done += self._pages.get(self.current, 0) * self.current_fraction
        return float(done)

    @property
    def fraction(self) -> float:
        """Share of the work done, 0..1 (pages of the files to read; files without a plan)."""
        total = self._work_total if self.plan is not None else float(self.files_total)
        if self.finished:
            return 1.0
        return min(1.0, self._work_done() / total) if total > 0 else 0.0

    def _model_seconds_left(self, now: float) -> float | None:
        """Seconds left from a per-file fit over the files finished so far (:func:`fit_file_time`)."""
        fit = fit_file_time(self._samples)
        if fit is None or self.plan is None:
            return None
        a, b = fit
        left = 0.0
        for p in self._to_read:
            if p.doc_id in self._processed:
                continue
            predicted = a + b * p.pages
            if p.doc_id == self.current and self._file_started is not None:
                spent = now - self._file_started
                by_share = predicted * (1.0 - self.current_fraction)
                predicted = max(by_share, predicted - spent, 0.0)
            left += predicted
        return left

    def update(self, event: ProgressEvent, now: float | None = None) -> None:
        """Take one event of the run (``now``: monotonic seconds, default the clock)."""
        now = time.monotonic() if now is None else now
        if self._started_at is None:
            self._started_at = now
        if event.total:
            self.files_total = event.total
        if event.stage in ("index", "embed") and event.total:
            item = getattr(event, "item", "") or ""
            if event.done != self._index or (item and item != self.current):
                self._finish_current(now)
                self._index = event.done
                self.current, self.current_fraction = item, 0.0
                self._file_started, self._file_chunks = now, 0
            self.files_done = event.done
            m = CHUNKS_DONE.search(event.message or "") if event.stage == "embed" else None
            if m and int(m.group(2)) > 0:
                self.current_fraction = min(1.0, int(m.group(1)) / int(m.group(2)))
                self._file_chunks = int(m.group(1))
        elif event.stage == "committed":
            self.committed += 1
        elif event.stage == "done":
            self._finish_current(now)
            self.finished = True
            self.files_done = event.total
            self.current = ""
            self.eta_s = 0.0
            return
        work_total = self._work_total if self.plan is not None else float(self.files_total)
        if work_total > 0:
            model = self._model_seconds_left(now) if len(self._samples) >= 2 else None
            self.eta_s = self.estimator.update(self._work_done(), work_total, now=now, model_s=model)

    def _finish_current(self, now: float) -> None:
        if self._index < 0:
            return
        doc = self.current
        self.chunks_done += self._file_chunks
        self._file_chunks = 0
        if doc and doc not in self._processed:
            self._processed.add(doc)
            size = self._pages.get(doc)
            if size is not None and self._file_started is not None and any(p.doc_id == doc for p in self._to_read):
                self._samples.append((size, max(0.0, now - self._file_started)))
        self.current = ""
        self.current_fraction = 0.0


def format_duration(seconds: float) -> str:
    """``1 h 02 min``, ``3 min 05 s`` or ``12 s`` (the same in English and Spanish)."""
    s = round(max(0.0, seconds))
    if s >= 3600:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    if s >= 60:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s} s"


def format_eta(eta_s: float | None) -> str:
    """``about 3 min 05 s left``, or ``estimating…`` while :class:`EtaEstimator` has no estimate (English;
    the window words it in its own language)."""
    return "estimating…" if eta_s is None else f"about {format_duration(eta_s)} left"
