"""Installation self-test: ``verbatim-desktop --self-test`` / ``python -m core selftest``.

Proves, on the machine it runs on and with nothing but the installed (or frozen)
application, that the whole pipeline works offline:

1. index the bundled sample corpus (``resources/sample/docs``) into a workspace
   inside a temporary data folder (``VERBATIM_HOME``), removed afterwards;
2. ask a question the sample answers, with the embedded llama.cpp model (never
   Ollama: no auto-detection, no server probe), and check every citation shown is
   verified: it names a delivered chunk, is the source's own text at its offsets,
   and has highlight rectangles on its page;
3. ask a question the sample does not answer and check the result is an abstention,
   once here and once through the engine process the window uses (:mod:`core.engine`);
4. render the cited page with its highlight to a PNG (:func:`core.ingest.render_page_png`)
   and check the highlight changed the pixels;
5. during all of it, refuse every non-loopback socket connection made through
   Python's ``socket`` module (and record it): a refused attempt fails the test.

Headless: imports no Qt. Settings come from built-in defaults plus the values
below; ``VERBATIM_*`` variables of the caller are ignored for the run (so a
user's ``VERBATIM_BACKEND=ollama`` cannot turn the self-test into a network
call), except ``VERBATIM_EMBEDDING_MODEL`` and ``VERBATIM_GGUF``, which choose the
model files to test.

What the embedded model does: SmolLM2-135M-Instruct is far too small to answer
reliably. On the sample, at temperature 0 and seed 42, it abstained on all five
answerable questions tried (top_k 6 and 1): it either declares no answer or
loops inside a quote until the token budget ends, giving truncated JSON. So the
self-test does not require ``answered`` (a flaky installer check is worse than
none); it requires what the pipeline guarantees whatever the model does: every
citation shown is verified, the unanswerable question abstains, and the
verifier accepts a quote copied from the retrieved chunk (with highlight
rectangles) while rejecting an invented one. ``top_k=1`` and a 256-token budget
keep the model's turn short.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

# Question answered by the sample corpus (NIST FIPS 199), with the embedded model's
# settings that make it cite reliably; and one the corpus does not answer.
ANSWERABLE = "What is a loss of integrity?"
UNANSWERABLE = "What is the boiling point of mercury on Mars?"
SELFTEST_SETTINGS = {"backend": "embedded", "top_k": 1, "embedded_answer_tokens": 256}
_KEEP_ENV = {"VERBATIM_EMBEDDING_MODEL", "VERBATIM_GGUF"}


@dataclass
class Check:
    """One named check and its outcome (``detail`` is one line for the report)."""

    name: str
    ok: bool
    detail: str = ""
    note: bool = False  # passed, but worth reading (shown as [note])


@dataclass
class SelfTestReport:
    """All checks of a run; ``ok`` is True only when every check passed."""

    checks: list[Check] = field(default_factory=list)
    blocked_connections: list[str] = field(default_factory=list)
    png_path: Path | None = None
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return bool(self.checks) and all(c.ok for c in self.checks)

    @property
    def failed(self) -> list[str]:
        return [c.name for c in self.checks if not c.ok]

    def add(self, name: str, ok: bool, detail: str = "", note: bool = False) -> bool:
        self.checks.append(Check(name, ok, detail, note))
        return ok


def _is_loopback(address: object) -> bool:
    """True for AF_UNIX paths and loopback IPv4/IPv6 addresses; host names are not resolved."""
    if isinstance(address, (str, bytes)):  # AF_UNIX socket path
        return True
    if isinstance(address, tuple) and address:
        host = address[0]
        if host == "localhost":
            return True
        try:
            return ipaddress.ip_address(host).is_loopback
        except ValueError:
            return False
    return False


@contextmanager
def no_network(blocked: list[str]) -> Iterator[None]:
    """Refuse non-loopback ``socket.connect``/``connect_ex`` for the block, recording each attempt.

    Covers everything that connects through Python's ``socket`` module (httpx,
    urllib, requests, huggingface_hub). Native code that opens its own sockets
    (Rust/C++ libraries) is not seen here; ``.ci/build-frozen`` additionally runs
    the frozen self-test without a network namespace when ``unshare`` allows it.
    """
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def guard(sock: socket.socket, address: object) -> None:
        if not _is_loopback(address):
            blocked.append(repr(address))
            raise ConnectionRefusedError(f"self-test: network connection to {address!r} refused")

    def connect(sock, address):  # type: ignore[no-untyped-def]
        guard(sock, address)
        return real_connect(sock, address)

    def connect_ex(sock, address):  # type: ignore[no-untyped-def]
        guard(sock, address)
        return real_connect_ex(sock, address)

    socket.socket.connect = connect  # type: ignore[method-assign]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
    try:
        yield
    finally:
        socket.socket.connect = real_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = real_connect_ex  # type: ignore[method-assign]


@contextmanager
def _isolated_env(home: Path) -> Iterator[None]:
    """``VERBATIM_HOME=home`` and no other ``VERBATIM_*`` setting for the block; restored after.

    The dependencies' cache folders (:func:`core.offline.cache_env`) move into ``home``
    too, so the run leaves nothing in the user's real data folder.
    """
    from core.offline import cache_env

    caches = cache_env(home)
    saved = {k: v for k, v in os.environ.items() if k.startswith("VERBATIM_") or k in caches}
    for key in saved:
        if key not in _KEEP_ENV:
            del os.environ[key]
    os.environ["VERBATIM_HOME"] = str(home)
    os.environ.update(caches)
    try:
        yield
    finally:
        for key in [k for k in os.environ if k.startswith("VERBATIM_") or k in caches]:
            del os.environ[key]
        os.environ.update(saved)


def _check_citations(report: SelfTestReport, ws, answer) -> object | None:  # noqa: ANN001
    """Independently re-check every citation of ``answer``; returns the first one (or None)."""
    from core.normalize import normalized
    from core.paths import sample_corpus_dir

    delivered = ws.get_chunks(answer.trace.context)
    sample = sample_corpus_dir().resolve()
    problems: list[str] = []
    first = None
    count = 0
    for claim in answer.claims:
        if not claim.citations:
            problems.append(f"claim without citation: {claim.text[:60]!r}")
        for cit in claim.citations:
            count += 1
            first = first or cit
            chunk = delivered.get(cit.chunk_id)
            if chunk is None:
                problems.append(f"{cit.chunk_id}: not a delivered chunk")
                continue
            if cit.quote not in chunk.text or (
                    not chunk.segments and chunk.text[cit.start - chunk.start : cit.end - chunk.start] != cit.quote):
                problems.append(f"{cit.chunk_id}: quote is not the source text at [{cit.start}, {cit.end})")
            if len(normalized(cit.quote)) < 15:
                problems.append(f"{cit.chunk_id}: quote shorter than 15 characters")
            if not cit.rects:
                problems.append(f"{cit.doc_id} p.{cit.page}: no highlight rectangles")
            if Path(cit.path).resolve().parent != sample:
                problems.append(f"{cit.path}: not a sample document")
    if answer.status == "abstained" and answer.claims:
        problems.append("an abstention carries claims")
    if answer.status != "abstained" and count == 0:
        problems.append(f"status {answer.status} without any citation")
    report.add(
        "every shown citation verified", not problems,
        "; ".join(problems) if problems else f"{count} citation(s) shown, each re-checked against its chunk and page",
    )
    return first if not problems else None


def run_selftest(out: TextIO | None = None, png_dir: Path | None = None) -> SelfTestReport:
    """Run the self-test, printing progress and the report to ``out`` (default stdout).

    Checks (each named in the report): ``models found``, ``sample indexed``,
    ``answerable question``, ``every shown citation verified``, ``unanswerable
    question abstained``, ``verifier``, ``page rendered with highlight``, ``no network``.
    ``answerable question`` passes with any status but is shown as a note when
    the embedded model abstained (see the module docstring); ``every shown
    citation verified`` and ``verifier`` (a quote copied from the retrieved chunk
    verifies with highlight rectangles, an invented one is rejected) hold
    whatever the model says.

    Args:
        png_dir: where to keep the rendered page (``selftest-page.png``); default:
            the temporary folder, deleted with it.

    Returns:
        The report; never raises for a failed check (an unexpected exception is
        recorded as the check ``unexpected error``).
    """
    out = out or sys.stdout
    report = SelfTestReport()
    t0 = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="verbatim-selftest-"))

    def say(line: str) -> None:
        print(line, file=out, flush=True)

    say(f"Verbatim self-test (temporary data folder {tmp})")
    try:
        with _isolated_env(tmp / "home"), no_network(report.blocked_connections):
            _run_checks(report, say, tmp, png_dir)
    except Exception as exc:  # noqa: BLE001 - the report must name whatever broke
        report.add("unexpected error", False, f"{type(exc).__name__}: {exc}")
    finally:
        report.add(
            "no network", not report.blocked_connections,
            "no connection attempted" if not report.blocked_connections
            else "refused: " + ", ".join(report.blocked_connections[:5]),
        )
        shutil.rmtree(tmp, ignore_errors=True)
    report.seconds = time.perf_counter() - t0
    say("")
    for c in report.checks:
        say(f"  [{'FAILED' if not c.ok else 'note' if c.note else 'ok'}] {c.name}: {c.detail}")
    say(f"Self-test {'passed' if report.ok else 'FAILED: ' + ', '.join(report.failed)} in {report.seconds:.0f} s")
    return report


def _run_checks(report: SelfTestReport, say, tmp: Path, png_dir: Path | None) -> None:  # noqa: ANN001
    from core.generate import EmbeddedBackend
    from core.ingest import render_page_png
    from core.paths import embedding_model_dir, gguf_model_path, sample_corpus_dir
    from core.pipeline import answer_question, index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    settings = Settings(**SELFTEST_SETTINGS)
    sample = sample_corpus_dir()
    emb, gguf = embedding_model_dir(), gguf_model_path()
    if not report.add("models found", (emb / "config.json").exists() and gguf.exists(),
                      f"embedding {emb}; chat {gguf}"):
        return

    say(f"Indexing {sample} ...")
    ws = Workspace("selftest", settings)
    index = run(index_folders(ws, [sample]))
    if not report.add("sample indexed", index.documents >= 2 and index.chunks > 0 and not index.failures,
                      f"{index.documents} documents, {index.pages} pages, {index.chunks} chunks in {index.seconds:.0f} s"
                      + (f"; failures: {[f.reason for f in index.failures]}" if index.failures else "")):
        return

    say("Loading the embedded model ...")
    backend = EmbeddedBackend(settings)  # never make_backend('auto'): no Ollama probe

    say(f"Asking: {ANSWERABLE}")
    answer = run(answer_question(ws, ANSWERABLE, settings, backend=backend))
    quotes = [f"{c.doc_id} p.{c.page}: \u201c{c.quote[:70]}\u201d" for cl in answer.claims for c in cl.citations]
    # Graded as a note, not a failure: the 135M embedded model often loops inside a quote
    # until the token budget ends (invalid JSON) or abstains, on questions the sample
    # answers (measured: 0 of 5 answered at temperature 0). What must hold is below.
    report.add("answerable question", True,
               f"status {answer.status}" + (f"; {quotes[0]}" if quotes else
                                            " (the embedded model gave no verified quote; honest abstention)"),
               note=answer.status == "abstained")
    cited = _check_citations(report, ws, answer)

    say(f"Asking: {UNANSWERABLE}")
    other = run(answer_question(ws, UNANSWERABLE, settings, backend=backend))
    report.add("unanswerable question abstained", other.status == "abstained" and not other.claims,
               f"status {other.status}")

    say("Asking again through the engine process ...")
    _check_engine(report, settings)

    say("Checking the verifier on a retrieved passage ...")
    probe = _check_verifier(report, ws, answer.trace.context, settings)
    cited = cited or probe

    if cited is not None:
        plain = render_page_png(cited.path, cited.page, [])
        png = render_page_png(cited.path, cited.page, cited.rects)
        target = (png_dir or tmp) / "selftest-page.png"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(png)
        report.png_path = target if png_dir else None
        report.add("page rendered with highlight", png.startswith(b"\x89PNG\r\n\x1a\n") and png != plain,
                   f"{Path(cited.path).name} page {cited.page}, {len(png) // 1024} KiB"
                   + (f" -> {target}" if png_dir else ""))
    else:
        report.add("page rendered with highlight", False, "no verified citation to render")


def _check_engine(report: SelfTestReport, settings) -> None:  # noqa: ANN001
    """The window's engine process (:mod:`core.engine`) starts here — in a frozen app this proves
    ``multiprocessing.freeze_support`` works — and answers the unanswerable question with an abstention."""
    from core.engine import Engine, answer_op, ping

    engine = Engine(warm_up=False)
    try:
        pid = engine.call(ping)["pid"]
        answer = engine.call(answer_op, "selftest", UNANSWERABLE, settings)
        report.add("engine process", pid != os.getpid() and answer.status == "abstained",
                   f"process {pid}: status {answer.status}")
    except Exception as exc:  # noqa: BLE001 - reported as a failed check, never a crash
        report.add("engine process", False, f"{type(exc).__name__}: {exc}")
    finally:
        engine.close(timeout=30)


def _check_verifier(report: SelfTestReport, ws, context: list[str], settings) -> object | None:  # noqa: ANN001
    """Feed the verifier one quote copied from a retrieved chunk and one invented quote.

    Independent of what the model says: the copied quote must verify exactly with
    highlight rectangles, the invented one must be rejected. Returns the verified
    citation (for the page render), or None.
    """
    from core.ingest import span_rects
    from core.types import ModelAnswer, ModelCitation, ModelClaim
    from core.verify import verify_claims

    chunks = ws.get_chunks(context[:1])
    if not chunks:
        report.add("verifier", False, "no chunk was retrieved for the answerable question")
        return None
    chunk = next(iter(chunks.values()))
    line = max((ln.strip() for ln in chunk.text.splitlines()), key=len)
    copied = line[:80].rsplit(" ", 1)[0] if len(line) > 80 else line
    invented = "The boiling point of mercury on Mars is exactly 42 degrees."
    model = ModelAnswer(
        answer_found=True, complete_answer=True, conflicting_evidence=False, missing="",
        claims=[ModelClaim(text="copied", citations=[ModelCitation(chunk_id=chunk.chunk_id, quote=copied)]),
                ModelClaim(text="invented", citations=[ModelCitation(chunk_id=chunk.chunk_id, quote=invented)])],
    )
    claims, rejected = verify_claims(
        model, chunks, min_quote_chars=settings.min_quote_chars, fuzzy_threshold=settings.fuzzy_threshold,
        rects=lambda c, s, e: span_rects(c.path, c.page, s, e),
    )
    ok = (len(claims) == 1 and claims[0].text == "copied" and claims[0].citations[0].rects
          and any(r.claim == "invented" for r in rejected))
    report.add("verifier", bool(ok),
               f"copied quote verified on {chunk.doc_id} p.{chunk.page}, invented quote rejected" if ok
               else f"unexpected result: {len(claims)} claim(s) kept, rejected {[r.reason.value for r in rejected]}")
    return claims[0].citations[0] if ok else None


def main(argv: list[str] | None = None) -> int:
    """Run the self-test; exit code 0 when every check passed, 1 otherwise."""
    import argparse

    parser = argparse.ArgumentParser(prog="verbatim selftest", description=__doc__.splitlines()[0])
    parser.add_argument("--png-dir", type=Path, default=None, help="keep the rendered page here")
    args = parser.parse_args(argv)
    return 0 if run_selftest(png_dir=args.png_dir).ok else 1
