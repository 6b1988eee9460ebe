"""Archive scale (issue #15): synthetic workspaces through the real index path, timed at several sizes.

Usage::

    python bench/scale.py --sizes 10000 119000 [--real-model 10000] [--runs 3] [--work DIR]

For each size, a folder of synthetic contract-like TXT files (numbered clauses,
parties, amounts, dates, identifiers; made once per size and seed under
``--work``) is indexed by ``Workspace.index`` — the product's own path: parse,
chunk, screen, embed, commit, BM25, LanceDB upkeep — with the embedding model
replaced by a hashed stand-in (:class:`HashEmbedder`, 384 dimensions), so the
store is what is measured. ``--real-model N`` indexes N chunks once with the
real all-MiniLM-L6-v2 to tie the two. Each measurement runs in its own child
process (peak RSS is the child's ``ru_maxrss``); the child imports the
libraries before the clock starts, as the engine process does at warm-up.

Printed per size: index seconds (and ms per chunk outside the stand-in
embedding), open → first retrieval, BM25 / dense / hybrid retrieval p50 (all
documents eligible, one document excluded, a two-document scope), ANN recall@10
against an exact scan, one small file added until searchable (seconds, peak
RSS), peak RSS indexing and querying, disk size (manifest, BM25, LanceDB) and
LanceDB versions/data files kept; then growth ratios between sizes. Medians of
``--runs`` passes over the query set. Not a pass/fail test.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

WS = "scale"
DIM = 384
CHARS_PER_CHUNK = 950  # measured: synthetic clauses give about one chunk per 950 characters

QUERIES = [
    "payment of invoices within thirty days",
    "termination for convenience with prior written notice",
    "governing law and jurisdiction of the courts",
    "limitation of liability for indirect damages",
    "confidential information disclosure to third parties",
    "renewal term of the agreement",
    "insurance coverage required of the supplier",
    "assignment of the agreement without consent",
    "force majeure events and notice",
    "audit rights over records and books",
    "late payment interest rate",
    "intellectual property ownership of deliverables",
    "warranty period for defects",
    "indemnification against third party claims",
    "service levels and credits",
    "data protection and personal data processing",
]

# --- synthetic corpus --------------------------------------------------------------------

_FIRST = ["Acme", "Borealis", "Cobalt", "Dunmore", "Everline", "Fairhaven", "Granite", "Halcyon", "Ironwood",
          "Juniper", "Kestrel", "Lakeshore", "Meridian", "Northgate", "Orchard", "Pinecrest", "Quarry", "Redfern",
          "Silverline", "Tidewater", "Upland", "Vantage", "Westbrook", "Yarrow", "Zenith"]
_SUFFIX = ["Holdings Ltd", "Logistics S.L.", "Systems Inc.", "Partners LLP", "Industries GmbH", "Services Corp.",
           "Energy plc", "Foods S.A.", "Analytics LLC", "Construction Ltd"]
_CLAUSES = [
    ("Definitions", "In this Agreement the following terms have the meanings set out below. \"Services\" means the "
     "services described in Schedule {n}. \"Deliverables\" means all documents, software and materials produced by "
     "the Supplier for the Customer under this Agreement. \"Business Day\" means a day other than a Saturday, Sunday "
     "or public holiday in {city}."),
    ("Term and Renewal", "This Agreement commences on {date} and continues for an initial term of {years} years. "
     "Thereafter it renews automatically for successive periods of {months} months unless either party gives at "
     "least {days} days' written notice of non-renewal before the end of the then current term."),
    ("Fees and Payment", "The Customer shall pay the fees of {amount} per month. The Supplier shall invoice monthly "
     "in arrears and the Customer shall pay each undisputed invoice within {days} days of receipt. Late payments "
     "bear interest at {rate} per cent per annum above the base rate of {bank} from the due date until payment."),
    ("Service Levels", "The Supplier shall meet the service levels in Schedule {n}. If availability in any month "
     "falls below {pct} per cent, the Customer is entitled to a service credit of {rate} per cent of the monthly "
     "fees for each full percentage point below the target, up to a maximum of {cap} per cent."),
    ("Confidentiality", "Each party shall keep confidential all Confidential Information of the other party and "
     "shall not disclose it to any third party except to its employees, advisers and subcontractors who need to "
     "know it for the purposes of this Agreement, and who are bound by obligations of confidentiality no less "
     "strict than these. This obligation survives termination for {years} years."),
    ("Data Protection", "To the extent the Supplier processes personal data on behalf of the Customer, it shall do "
     "so only on documented instructions, implement appropriate technical and organisational measures, notify "
     "the Customer of any personal data breach within {hours} hours, and delete or return all personal data at "
     "the end of the provision of the Services, as required by Article {art} of the Regulation."),
    ("Intellectual Property", "All intellectual property rights in the Deliverables vest in the Customer on "
     "creation. The Supplier grants the Customer a non-exclusive, royalty-free licence to use any pre-existing "
     "materials incorporated in the Deliverables, reference {ref}, for the purposes of the Customer's business."),
    ("Warranties", "The Supplier warrants that the Services will be performed with reasonable skill and care and "
     "that the Deliverables will be free from material defects for a period of {months} months from acceptance. "
     "The Supplier shall remedy any defect notified during the warranty period at its own cost within {days} days."),
    ("Limitation of Liability", "Neither party shall be liable for any indirect or consequential loss, loss of "
     "profit or loss of data. Each party's total liability in any contract year is limited to {amount} or "
     "{pct} per cent of the fees paid in that year, whichever is greater, save for liability that cannot be "
     "limited by law."),
    ("Indemnity", "The Supplier shall indemnify the Customer against all losses arising from any claim by a third "
     "party that the Deliverables infringe that third party's intellectual property rights, provided that the "
     "Customer notifies the Supplier promptly and allows it to conduct the defence of the claim {ref}."),
    ("Insurance", "The Supplier shall maintain professional indemnity insurance of not less than {amount} per claim "
     "and public liability insurance of not less than {amount2} with a reputable insurer, and shall produce the "
     "certificates on request within {days} days."),
    ("Audit", "The Customer may, on {days} days' notice and not more than once in any year, audit the Supplier's "
     "records and books relating to the Services, including time sheets and invoices under purchase order {ref}."),
    ("Termination", "Either party may terminate this Agreement with immediate effect by written notice if the other "
     "party commits a material breach which is not remedied within {days} days of notice. The Customer may "
     "terminate for convenience on {months} months' prior written notice, paying the fees due to the date of "
     "termination."),
    ("Force Majeure", "Neither party is liable for delay caused by events beyond its reasonable control, including "
     "flood, fire, epidemic, strike or failure of a utility, provided it notifies the other party within {hours} "
     "hours and uses reasonable endeavours to mitigate. If the event lasts more than {days} days either party may "
     "terminate."),
    ("Assignment", "Neither party may assign, novate or subcontract any of its rights or obligations without the "
     "prior written consent of the other party, not to be unreasonably withheld, except to an affiliate within "
     "the {company} group."),
    ("Governing Law", "This Agreement and any dispute arising out of it are governed by the laws of {country}. The "
     "courts of {city} have exclusive jurisdiction, without prejudice to interim relief in any competent court."),
]
_CITIES = ["London", "Madrid", "Dublin", "Frankfurt", "Lisbon", "Amsterdam", "Milan", "Paris", "Vienna", "Oslo"]
_COUNTRIES = ["England and Wales", "Spain", "Ireland", "Germany", "Portugal", "the Netherlands", "Italy", "France"]


def _party(rng: random.Random) -> str:
    return f"{rng.choice(_FIRST)} {rng.choice(_FIRST)} {rng.choice(_SUFFIX)}"


def contract_text(seed: int, chars: int) -> str:
    """A synthetic contract of about ``chars`` characters (deterministic in ``seed``)."""
    rng = random.Random(seed)
    a, b = _party(rng), _party(rng)
    ref = f"MSA-{seed:07d}"
    parts = [f"MASTER SERVICES AGREEMENT {ref}\n\nThis Agreement is made between {a} (the \"Supplier\") and "
             f"{b} (the \"Customer\").\n"]
    n, size = 1, len(parts[0])
    while size < chars:
        title, body = _CLAUSES[(n - 1 + seed) % len(_CLAUSES)]
        text = body.format(
            n=rng.randint(1, 9), city=rng.choice(_CITIES), country=rng.choice(_COUNTRIES),
            date=f"{rng.randint(1, 28)} {rng.choice(['January', 'March', 'June', 'October'])} {rng.randint(2015, 2026)}",
            years=rng.randint(1, 7), months=rng.randint(3, 36), days=rng.choice([5, 10, 14, 30, 45, 60, 90]),
            hours=rng.choice([24, 48, 72]), amount=f"EUR {rng.randint(1, 900) * 1000:,}",
            amount2=f"EUR {rng.randint(1, 90) * 100000:,}", rate=rng.randint(1, 12), pct=rng.randint(90, 100),
            cap=rng.randint(10, 40), bank=rng.choice(["the European Central Bank", "the Bank of England"]),
            art=rng.randint(20, 40), ref=f"{ref}/{rng.randint(100, 999)}", company=a.split()[0],
        )
        clause = f"\n{n}. {title.upper()}\n\n{n}.1 {text}\n\n{n}.2 {rng.choice(_CLAUSES)[1][:400].format_map(_Blank())}\n"
        parts.append(clause)
        size += len(clause)
        n += 1
    return "".join(parts)


class _Blank(dict):
    def __missing__(self, key: str) -> str:
        return "the agreed " + key


def make_corpus(folder: Path, chunks: int, seed: int = 15) -> int:
    """Write contracts totalling about ``chunks`` chunks under ``folder`` (kept for reuse); returns files."""
    done = folder / ".complete"
    if done.exists():
        return int(done.read_text())
    shutil.rmtree(folder, ignore_errors=True)
    rng = random.Random(seed)
    total, i = 0, 0
    while total < chunks * CHARS_PER_CHUNK:
        size = int(rng.lognormvariate(11.3, 0.6))  # median ~80 kB (~85 chunks), a long tail
        sub = folder / f"batch{i // 500:04d}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"contract-{i:06d}.txt").write_text(contract_text(seed * 1_000_003 + i, size), encoding="utf-8")
        total += size
        i += 1
    done.write_text(str(i))
    return i


# --- stand-in embedder --------------------------------------------------------------------


class HashEmbedder:
    """Hashed bag of words and word pairs, 384 dimensions, L2-normalized (a stand-in for MiniLM).

    Deterministic across processes (CRC-32 of each feature), so a query embeds
    the same in every child; similar texts get similar vectors, so ANN recall is
    measured on structured data, not noise.
    """

    def __init__(self) -> None:
        import numpy as np

        self.np = np
        self.seconds = 0.0

    def _one(self, text: str):
        np = self.np
        words = text.lower().split()
        feats = words + [a + " " + b for a, b in zip(words, words[1:])]
        h = np.fromiter((zlib.crc32(f.encode()) for f in feats), dtype=np.uint32, count=len(feats))
        vec = np.bincount(h % DIM, weights=np.where(h & 0x80000000, 1.0, -1.0), minlength=DIM)
        norm = float(np.linalg.norm(vec)) or 1.0
        return (vec / norm).tolist()

    def get_text_embedding_batch(self, texts, **_kw):
        t = time.perf_counter()
        out = [self._one(t_) for t_ in texts]
        self.seconds += time.perf_counter() - t
        return out

    def get_query_embedding(self, query: str):
        return self._one(query)


# --- children -------------------------------------------------------------------------------


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _statm_mb() -> tuple[float, float]:
    """(resident, resident without file-backed pages) in MiB, from ``/proc/self/statm`` (Linux; proc(5))."""
    with open("/proc/self/statm") as f:
        fields = f.read().split()
    page = os.sysconf("SC_PAGE_SIZE") / 2**20
    return int(fields[1]) * page, (int(fields[1]) - int(fields[2])) * page


def _cpu_s() -> float:
    """CPU seconds of this process, all threads (the machine is shared: wall time includes waiting)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _warm_up() -> None:
    """What the engine process loads at start-up (core.engine.WARM_UP_STEPS), minus the embedding model."""
    import lancedb  # noqa: F401
    import pyarrow  # noqa: F401

    from core.chunking import get_tokenizer
    from core.textproc import detect_language

    get_tokenizer()
    detect_language("warm up the language identifier / preparar el identificador de idioma")


def _use_embedder(real: bool):
    from core.store import embedding

    if real:
        return embedding.get_embedder()
    stand_in = HashEmbedder()
    embedding.use_embedder(stand_in)
    return stand_in


def child_index(folder: str, real: bool, commit_chunks: int) -> dict:
    """Index ``folder`` into workspace ``scale``; timings by stage."""
    import core.store.indexing as indexing
    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    import core.store.bm25 as bm25
    import core.store.commit as commit

    embedder = _use_embedder(real)
    stages: dict[str, float] = {}
    stack: list[str] = []  # the stages running now, innermost last

    def timed(name, fn):
        def wrapper(*a, **kw):
            t = time.perf_counter()
            stack.append(name)
            try:
                return fn(*a, **kw)
            finally:
                stack.pop()
                stages[name] = stages.get(name, 0.0) + time.perf_counter() - t
        return wrapper

    for name in ("parse_file", "chunk_pages", "commit_batch", "finish_run", "_screened_status"):
        setattr(indexing, name, timed(name, getattr(indexing, name)))
    commit.maintain_vectors = timed("maintain_vectors", commit.maintain_vectors)  # inside commit_batch/finish_run
    bm25.Bm25Index.update = timed("bm25_update", bm25.Bm25Index.update)
    # Resident memory sampled every 0.2 s with the stage it was taken in (ru_maxrss gives the
    # peak, not when it happened), in all and without file-backed pages (memory-mapped BM25
    # segments and LanceDB files count in RSS but are page cache the kernel can drop).
    rss_by_stage: dict[str, float] = {}
    anon_by_stage: dict[str, float] = {}
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.2):
            rss, anon = _statm_mb()
            where = stack[-1] if stack else "other"
            rss_by_stage[where] = max(rss_by_stage.get(where, 0.0), rss)
            anon_by_stage[where] = max(anon_by_stage.get(where, 0.0), anon)

    _warm_up()
    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu, t = _cpu_s(), time.perf_counter()
    ws = Workspace(WS, Settings(index_commit_chunks=commit_chunks))
    report = run(index_folders(ws, [folder]))
    total, cpu = time.perf_counter() - t, _cpu_s() - cpu
    done.set()
    embed_s = embedder.seconds if not real else 0.0
    return {"seconds": total, "cpu_s": cpu, "chunks": report.chunks, "documents": report.documents,
            "embed_s": embed_s, "stages": stages, "peak_rss_mb": _peak_rss_mb(),
            "rss_by_stage_mb": {k: round(v) for k, v in sorted(rss_by_stage.items(), key=lambda kv: -kv[1])},
            "anon_rss_by_stage_mb": {k: round(v) for k, v in sorted(anon_by_stage.items(), key=lambda kv: -kv[1])}}


def child_query(runs: int) -> dict:
    """Open the workspace as a reader, then time retrieval."""
    from core.retrieval import retrieve
    from core.settings import Settings
    from core.store import Workspace
    from core.types import Trace

    _use_embedder(False)
    _warm_up()
    settings = Settings()
    t = time.perf_counter()
    ws = Workspace(WS, settings, create=False, recover=False)
    t_open = time.perf_counter() - t
    retrieve(ws, QUERIES[0], settings, Trace())
    t_first = time.perf_counter() - t - t_open
    docs = [d["doc_id"] for d in ws.documents()]
    rng = random.Random(1)
    excluded = {rng.choice(docs)}
    scope = set(rng.sample(docs, 2))

    calls = {
        "bm25": lambda q: ws.bm25_search(q, settings.bm25_candidates, set()),
        "dense": lambda q: ws.dense_search(q, settings.dense_candidates, set()),
        "retrieve": lambda q: retrieve(ws, q, settings, Trace()),
        # as the engine answers: a new Workspace object per question (process-wide caches only)
        "retrieve_fresh": lambda q: retrieve(Workspace(WS, settings, create=False, recover=False), q, settings,
                                             Trace()),
        "bm25_excl": lambda q: ws.bm25_search(q, settings.bm25_candidates, excluded),
        "dense_excl": lambda q: ws.dense_search(q, settings.dense_candidates, excluded),
        "retrieve_excl": lambda q: retrieve_excluding(q),
        "bm25_scope": lambda q: ws.bm25_search(q, settings.bm25_candidates, set(), scope),
        "dense_scope": lambda q: ws.dense_search(q, settings.dense_candidates, set(), scope),
    }

    def retrieve_excluding(q: str):
        original = ws.ineligible_doc_ids
        ws.ineligible_doc_ids = lambda: set(excluded)  # as if the document were superseded
        try:
            return retrieve(ws, q, settings, Trace())
        finally:
            ws.ineligible_doc_ids = original

    out = {"open_s": t_open, "first_s": t_first}
    walls: dict[str, list[float]] = {name: [] for name in calls}
    cpus: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(runs):
        for q in QUERIES:
            for name, fn in calls.items():  # interleaved: the machine's load drifts over a run
                c0, t0 = _cpu_s(), time.perf_counter()
                fn(q)
                walls[name].append((time.perf_counter() - t0) * 1000)
                cpus[name].append((_cpu_s() - c0) * 1000)
    for name in calls:
        out[f"{name}_ms"] = statistics.median(walls[name])
        out[f"{name}_cpu_ms"] = statistics.median(cpus[name])
    out["recall10"] = ann_recall(ws, 10)
    out["peak_rss_mb"] = _peak_rss_mb()
    out["rss_end_mb"], out["anon_rss_end_mb"] = _statm_mb()
    return out


def ann_recall(ws, k: int) -> float | None:
    """recall@k of the ANN search against an exact scan, over the query set (None: no ANN index)."""
    table = ws.vectors.table()
    if table is None or not any(ix.columns == ["vector"] for ix in table.list_indices()):
        return None
    from core.store.embedding import get_embedder

    embedder = get_embedder()
    found = total = 0
    for q in QUERIES:
        vec = embedder.get_query_embedding(q)
        version = int(ws.manifest.meta()["lance_version"])
        ann = ws.vectors.search(vec, k, set(), None, version)
        exact = table.search(vec).bypass_vector_index().limit(k).select(["id", "_distance"]).to_arrow()
        truth = set(exact.column("id").to_pylist())
        found += len(truth & set(ann))
        total += len(truth)
    return found / total if total else None


def child_ann(runs: int, questions: str = "") -> dict:
    """IVF_HNSW_SQ against IVF_PQ on the workspace's table: build time, dense p50, recall@10 vs exact.

    ``questions``: a JSONL file of evaluation cases whose ``question`` fields are the
    queries (the real corpora); default the synthetic query set. The index the
    workspace had is rebuilt at the end.
    """
    import numpy as np
    from lancedb.index import HnswSq, IvfPq

    import core.store.vectors as vectors
    from core.settings import Settings
    from core.store import Workspace
    from core.store.embedding import get_embedder

    if not questions:
        _use_embedder(False)
    _warm_up()
    queries = QUERIES if questions in ("", "-") else [
        json.loads(line)["question"] for line in Path(questions).read_text(encoding="utf-8").splitlines() if line.strip()]
    ws = Workspace(WS, Settings())
    table = ws.vectors.table()
    rows = table.count_rows()
    embedder = get_embedder()
    vecs = [np.asarray(embedder.get_query_embedding(q), dtype=np.float32) for q in queries]
    truth = [set(table.search(v).bypass_vector_index().limit(10).select(["id", "_distance"]).to_arrow()
                 .column("id").to_pylist()) for v in vecs]
    out = {"rows": rows, "queries": len(queries)}
    sqrt_parts = max(1, int(round(rows ** 0.5)))
    configs = [(f"IVF_HNSW_SQ partitions={p}", HnswSq(distance_type="l2", num_partitions=p), grid)
               for p, grid in ((sqrt_parts, [(n, 4, ef) for n in (10, 20, 40) for ef in (100, 200)]),
                               (max(1, rows // 25_000), [(n, 4, ef) for n in (2, 5) for ef in (100, 200)]))]
    configs.append((f"IVF_PQ partitions={sqrt_parts}", IvfPq(distance_type="l2", num_partitions=sqrt_parts),
                    [(n, r, 100) for n in (20, 40) for r in (4, 20)]))
    for name, config, grid in configs:
        t = time.perf_counter()
        table.create_index("vector", config=config, replace=True)
        build = time.perf_counter() - t
        for nprobes, refine, ef in grid:
            times, found = [], 0
            for _ in range(runs):
                for v, exact in zip(vecs, truth):
                    t0 = time.perf_counter()
                    got = (table.search(v).limit(10).nprobes(nprobes).refine_factor(refine).ef(max(ef, 10 * refine))
                           .select(["id", "_distance"]).to_arrow().column("id").to_pylist())
                    times.append((time.perf_counter() - t0) * 1000)
                    found += len(exact & set(got))
            out[f"{name} nprobes={nprobes} refine={refine} ef={ef}"] = {
                "build_s": round(build, 1), "p50_ms": round(statistics.median(times), 2),
                "recall10": round(found / (runs * sum(map(len, truth))), 4)}
    t = time.perf_counter()
    times = []
    for v in vecs:
        t0 = time.perf_counter()
        table.search(v).bypass_vector_index().limit(10).select(["id", "_distance"]).to_arrow()
        times.append((time.perf_counter() - t0) * 1000)
    out["exact scan"] = {"p50_ms": round(statistics.median(times), 2)}
    vectors.VectorTable._create_ann(table, rows)  # noqa: SLF001 - back to the workspace's own index
    return out


def child_add_one(folder: str) -> dict:
    """Add one small file and index: seconds until searchable, peak RSS."""
    from core.pipeline import index_folders, run
    from core.settings import Settings
    from core.store import Workspace

    _use_embedder(False)
    _warm_up()
    new = Path(folder) / "added" / f"new-{time.time_ns()}.txt"
    new.parent.mkdir(exist_ok=True)
    new.write_text(contract_text(7, 4000), encoding="utf-8")
    cpu, t = _cpu_s(), time.perf_counter()
    ws = Workspace(WS, Settings())
    report = run(index_folders(ws, [folder]))
    found = ws.bm25_search("MSA-0000007", 5, set())
    seconds, cpu = time.perf_counter() - t, _cpu_s() - cpu
    rss = _peak_rss_mb()
    new.unlink()
    run(index_folders(ws, [folder]))  # leave the workspace as it was
    return {"seconds": seconds, "cpu_s": cpu, "chunks": report.chunks,
            "searchable": any("new-" in c for c in found), "peak_rss_mb": rss}


def _du(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) if path.exists() else 0


def disk(home: Path) -> dict:
    ws = home / "workspaces" / WS
    lance = ws / "lance" / "chunks.lance"
    return {"manifest_mb": _du(ws / "manifest.sqlite") / 1e6 + _du(ws / "manifest.sqlite-wal") / 1e6,
            "bm25_mb": _du(ws / "bm25") / 1e6, "lance_mb": _du(ws / "lance") / 1e6,
            "lance_versions": len(list((lance / "_versions").glob("*.manifest"))) if lance.exists() else 0,
            "lance_data_files": len(list((lance / "data").glob("*"))) if lance.exists() else 0}


def _child(args: list[str], home: Path) -> dict:
    env = dict(os.environ, VERBATIM_HOME=str(home))
    out = subprocess.run([sys.executable, __file__, "--child", *args], env=env, capture_output=True, text=True,
                         cwd=REPO)
    if out.returncode != 0:
        raise SystemExit(f"child {args} failed:\n{out.stderr[-4000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(size: int, work: Path, runs: int, real: bool, commit_chunks: int, reuse: bool = False) -> dict:
    corpus = work / f"corpus-{size}"
    files = make_corpus(corpus, size)
    home = work / f"home-{size}{'-real' if real else ''}-{commit_chunks}"
    res = {"size": size, "files": files, "real_model": real, "commit_chunks": commit_chunks}
    saved = home / "index.json"
    if reuse and saved.exists():  # measured before: query this workspace again
        res["index"] = json.loads(saved.read_text())
    else:
        shutil.rmtree(home, ignore_errors=True)
        res["index"] = _child(["index", str(corpus), "1" if real else "0", str(commit_chunks)], home)
        saved.write_text(json.dumps(res["index"]))
    if not real and runs:
        res["query"] = _child(["query", str(runs)], home)
        res["add_one"] = _child(["add_one", str(corpus)], home)
    res["disk"] = disk(home)
    print(json.dumps(res), flush=True)
    return res


def table(results: list[dict]) -> None:
    print("\nLatencies: p50 ms wall (CPU, all threads).")
    print("\n| chunks | index s: wall (CPU); outside embedding, CPU ms/chunk | open → first result | bm25 p50 | dense p50 "
          "| retrieve p50 | retrieve p50, new Workspace per question "
          "| bm25 / dense / retrieve p50, 1 doc excluded | bm25 / dense p50, 2-doc scope | ANN recall@10 "
          "| one file added: s, peak RSS "
          "| peak RSS indexing / querying | disk: manifest + BM25 + LanceDB (versions, data files) |")
    print("|" + "---|" * 13)
    for r in results:
        ix, q, add, d = r["index"], r.get("query"), r.get("add_one"), r["disk"]
        per_chunk = (ix["cpu_s"] - ix["embed_s"]) / max(ix["chunks"], 1) * 1000
        label = f"{ix['chunks']:,}" + (" (real model)" if r["real_model"] else "")
        cells = [label, f"{ix['seconds']:.0f} ({ix['cpu_s']:.0f}); {per_chunk:.2f}"]
        if q:
            rec = "—" if q["recall10"] is None else f"{q['recall10']:.3f}"
            def ms(name: str) -> str:
                return f"{q[name + '_ms']:.1f} ({q[name + '_cpu_ms']:.1f})"

            cells += [f"{q['open_s']:.2f} s + {q['first_s']:.2f} s", ms("bm25"), ms("dense"), ms("retrieve"),
                      ms("retrieve_fresh") if "retrieve_fresh_ms" in q else "—",
                      f"{ms('bm25_excl')} / {ms('dense_excl')} / {ms('retrieve_excl')}",
                      f"{ms('bm25_scope')} / {ms('dense_scope')}", rec,
                      f"{add['seconds']:.2f} s (CPU {add['cpu_s']:.2f}), {add['peak_rss_mb']:.0f} MB",
                      f"{ix['peak_rss_mb']:.0f} / {q['peak_rss_mb']:.0f} MB"]
        else:
            cells += ["—"] * 9 + [f"{ix['peak_rss_mb']:.0f} MB"]
        cells.append(f"{d['manifest_mb']:.0f} + {d['bm25_mb']:.0f} + {d['lance_mb']:.0f} MB "
                     f"({d['lance_versions']}, {d['lance_data_files']})")
        print("| " + " | ".join(cells) + " |")
    synth = [r for r in results if not r["real_model"]]
    for a, b in zip(synth, synth[1:]):
        ratio = b["index"]["chunks"] / a["index"]["chunks"]
        qa, qb = a["query"], b["query"]
        da = sum(a["disk"][k] for k in ("manifest_mb", "bm25_mb", "lance_mb"))
        db = sum(b["disk"][k] for k in ("manifest_mb", "bm25_mb", "lance_mb"))
        print(f"\n{a['index']['chunks']:,} → {b['index']['chunks']:,} chunks (×{ratio:.1f}): index time "
              f"×{b['index']['seconds'] / a['index']['seconds']:.1f}, retrieve p50 ×{qb['retrieve_ms'] / qa['retrieve_ms']:.1f}, "
              f"dense p50 ×{qb['dense_ms'] / qa['dense_ms']:.1f}, open ×{qb['open_s'] / max(qa['open_s'], 1e-3):.1f}, "
              f"disk ×{db / da:.1f}, peak RSS indexing ×{b['index']['peak_rss_mb'] / a['index']['peak_rss_mb']:.2f}, "
              f"querying ×{qb['peak_rss_mb'] / qa['peak_rss_mb']:.2f}")


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--child":
        kind, rest = sys.argv[2], sys.argv[3:]
        import core  # noqa: F401
        if kind == "index":
            out = child_index(rest[0], rest[1] == "1", int(rest[2]))
        elif kind == "query":
            out = child_query(int(rest[0]))
        elif kind == "ann":
            out = child_ann(int(rest[0]), rest[1] if len(rest) > 1 else "")
        else:
            out = child_add_one(rest[0])
        print(json.dumps(out))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 119_000], help="target chunks per workspace")
    parser.add_argument("--real-model", type=int, default=0, help="also index this many chunks with the real model")
    parser.add_argument("--runs", type=int, default=3, help="passes over the query set (p50 over all)")
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "verbatim-scale")
    parser.add_argument("--commit-chunks", type=int, nargs="+", default=[512],
                        help="index_commit_chunks values to compare (each size is indexed once per value; "
                             "queries are measured on the first)")
    parser.add_argument("--reuse", action="store_true",
                        help="query workspaces indexed by an earlier run (their index figures are kept)")
    parser.add_argument("--ann", action="store_true", help="compare IVF_HNSW_SQ and IVF_PQ on the largest size")
    parser.add_argument("--ann-real", type=Path, metavar="CORPORA",
                        help="compare them on the real corpora (e.g. ../shared/eval/corpora), real model")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    results = []
    for size in args.sizes:
        results.append(measure(size, args.work, args.runs, False, args.commit_chunks[0], args.reuse))
        for other in args.commit_chunks[1:]:
            r = measure(size, args.work, 0, False, other)
            print(f"{size:,} chunks, index_commit_chunks {other}: index {r['index']['seconds']:.0f} s "
                  f"(CPU {r['index']['cpu_s']:.0f} s), commits {r['index']['stages'].get('commit_batch', 0):.0f} s")
    if args.real_model:
        results.append(measure(args.real_model, args.work, args.runs, True, args.commit_chunks[0], args.reuse))
    table(results)
    if args.ann:
        size = max(args.sizes)
        home = args.work / f"home-{size}-{args.commit_chunks[0]}"
        print(f"\nANN indexes on the {size:,}-chunk synthetic workspace (stand-in vectors):")
        print(json.dumps(_child(["ann", str(args.runs)], home), indent=1))
        if args.real_model:
            home = args.work / f"home-{args.real_model}-real-{args.commit_chunks[0]}"
            print(f"\nANN indexes on the {args.real_model:,}-chunk synthetic workspace (all-MiniLM-L6-v2 vectors):")
            print(json.dumps(_child(["ann", str(args.runs), "-"], home), indent=1))
    if args.ann_real:
        ann_real(args.ann_real, args.work, args.runs)


def ann_real(corpora: Path, work: Path, runs: int) -> None:
    """ANN against exact on the real corpora (CUAD txt, XQuAD-es, the PDFs), all-MiniLM-L6-v2, their questions."""
    home = work / "home-real-corpora"
    shutil.rmtree(home, ignore_errors=True)
    folders = [corpora / "cuad" / "txt", corpora / "xquad_es" / "txt", corpora / "pdfs"]
    questions = work / "real-questions.jsonl"
    lines = []
    for name in ("cuad", "xquad_es"):
        lines += [x for x in (corpora / name / "cases.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = dict(os.environ, VERBATIM_HOME=str(home))
    code = ("import sys; from core.pipeline import index_folders, run; from core.store import Workspace; "
            "print(run(index_folders(Workspace('scale'), sys.argv[1:])).chunks)")
    out = subprocess.run([sys.executable, "-c", code, *map(str, folders)], env=env, capture_output=True, text=True,
                         cwd=REPO)
    if out.returncode != 0:
        raise SystemExit(out.stderr[-3000:])
    print(f"\nANN indexes on the real corpora ({out.stdout.strip().splitlines()[-1]} chunks, all-MiniLM-L6-v2, "
          f"{len(lines)} evaluation questions):")
    print(json.dumps(_child(["ann", str(runs), str(questions)], home), indent=1))


if __name__ == "__main__":
    main()
