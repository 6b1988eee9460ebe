"""``verbatim index``: folders into a workspace, with progress on stderr (a tqdm bar on a terminal,
one line per file elsewhere), optionally on Ray (``--ray``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from core.cli_format import print_report
from core.settings import Settings


class _IndexLines:
    """Progress of ``verbatim index`` on stderr.

    On a terminal, a tqdm bar (pages of work, with :class:`core.progress.IndexProgress`'s
    estimate). Elsewhere (a log, a pipe, CI) one line per file read and one per
    :data:`CHUNK_LINE_EVERY` chunks of a long file, and a line per
    :data:`SKIPPED_LINE_EVERY` unchanged files skipped; tqdm's in-place bar would write
    nothing readable there (issue #16: "prints nothing but the final summary").
    """

    CHUNK_LINE_EVERY = 256
    SKIPPED_LINE_EVERY = 500

    def __init__(self, plan, quiet: bool, tty: bool) -> None:
        from core.progress import IndexProgress

        self.progress = IndexProgress(plan)
        self.quiet, self.tty = quiet, tty
        self.reading = {p.doc_id for p in plan if p.read}
        self.total_pages = sum(p.pages for p in plan if p.read)
        self.bar = None
        self._last_item = ""
        self._chunk_line = 0
        self._skipped = 0
        if tty and not quiet:
            from tqdm import tqdm

            self.bar = tqdm(total=max(1, self.total_pages), unit="page", file=sys.stderr,
                            bar_format="{l_bar}{bar}| {n:.0f}/{total_fmt} pages {postfix}")

    def eta_text(self) -> str:
        from core.progress import format_eta

        return format_eta(self.progress.eta_s)

    def __call__(self, event) -> None:
        self.progress.update(event)
        if event.stage == "wait":  # another writer holds the workspace: say who, even with --quiet
            print(event.message, file=sys.stderr, flush=True)
            return
        if self.quiet:
            return
        if self.bar is not None:
            self.bar.n = self.progress.fraction * self.bar.total
            self.bar.set_postfix_str(f"{event.item or event.message}"[-40:] + f" · {self.eta_text()}")
            return
        if event.stage not in ("index", "embed") or not event.total:
            return
        where = f"[{event.done + 1}/{event.total}]"
        if event.item != self._last_item and event.stage == "index":
            self._last_item, self._chunk_line = event.item, 0
            if event.item in self.reading:
                print(f"{where} {event.item} · {self.eta_text()}", file=sys.stderr, flush=True)
            else:
                self._skipped += 1
                if self._skipped % self.SKIPPED_LINE_EVERY == 0:
                    print(f"{where} {self._skipped} unchanged files skipped", file=sys.stderr, flush=True)
        elif event.stage == "embed":
            from core.progress import CHUNKS_DONE

            m = CHUNKS_DONE.search(event.message)
            if m and int(m.group(1)) - self._chunk_line >= self.CHUNK_LINE_EVERY and int(m.group(1)) < int(m.group(2)):
                self._chunk_line = int(m.group(1))
                print(f"{where} {event.item}: {m.group(1)}/{m.group(2)} chunks · {self.eta_text()}",
                      file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class _StopOnInterrupt:
    """Ctrl+C during ``verbatim index``: the first press asks the run to stop at its next cancellation
    point (within one embedding batch) and keep what it embedded — committed, a large file's parts
    included, so the next run goes on from there; a second press stops at once (``KeyboardInterrupt``:
    what was committed is kept). Called as the run's ``cancel`` check."""

    def __init__(self) -> None:
        self.requested = False
        self._old = None

    def __call__(self) -> bool:
        return self.requested

    def __enter__(self) -> _StopOnInterrupt:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():  # signals reach the main thread only
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, _signum, _frame) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True
        print("stopping: saving what is embedded (Ctrl+C again to stop at once)", file=sys.stderr, flush=True)

    def __exit__(self, *_exc) -> None:
        if self._old is not None:
            import signal

            signal.signal(signal.SIGINT, self._old)


def cmd_index(args: argparse.Namespace, settings: Settings) -> int:
    from core.progress import manifest_files, plan_index

    # Without --rebuild, an index built with other settings raises IndexMismatchError,
    # whose message (printed by main) names the --rebuild command.
    # Check the folders before opening (and so creating) the workspace: a typo must not
    # leave an empty workspace behind (tester, session 3).
    ray_address = _ray_address(args)
    not_folders = [f for f in args.folders or [] if not Path(f).is_dir()]
    if not_folders:
        print("error: not a folder: " + ", ".join(str(f) for f in not_folders), file=sys.stderr)
        return 2
    from core.pipeline import index_folders, run
    from core.store import Workspace

    ws = Workspace.reset(args.workspace, settings) if args.rebuild else Workspace(args.workspace, settings)
    folders = args.folders or ws.folders()
    if not folders:
        print("error: no folder given and the workspace has none recorded", file=sys.stderr)
        return 2
    lines = _IndexLines(plan_index(folders, manifest_files(ws.dir), ws.dir, settings.follow_links), quiet=args.quiet, tty=sys.stderr.isatty())
    stop = _StopOnInterrupt()
    if ray_address is None:
        work = index_folders(ws, folders, cancel=stop)
    else:
        from core.cluster import ray_index

        work = ray_index(ws, folders, None if ray_address == "local" else ray_address, cancel=stop,
                         num_cpus=args.ray_cpus, embed_actors=args.ray_actors)
    try:
        with stop:
            report = run(work, lines)
    finally:
        lines.close()
    print_report(report)
    if stop.requested:
        print("interrupted: what was embedded is kept; run 'verbatim index' again to go on", file=sys.stderr)
        return 130
    excluded = [d for d in ws.documents() if d["status"] != "active"]
    if excluded:  # quarantined or superseded: indexed, but never searched until released
        print(f"  not searched ({len(excluded)}):")
        for d in excluded:
            print(f"    {d['doc_id']}: {d['status']}" + (f" — {d['reason']}" if d.get("reason") else ""))
    return 0


def _ray_address(args: argparse.Namespace) -> str | None:
    """The Ray address of ``index --ray [ADDRESS]`` (``"local"``, ``"auto"``, ``HOST:PORT``), or ``None`` without ``--ray``.

    ``--ray`` takes an optional value, so ``index --ray FOLDER`` would read the
    folder as the address: a value that is neither ``local``/``auto`` nor an
    address (addresses have a ``:``) is given back to the folders.
    """
    value = getattr(args, "ray", None)
    if value is None or value in ("local", "auto") or ":" in value:
        return value
    args.folders = [value, *(args.folders or [])]
    return "local"

