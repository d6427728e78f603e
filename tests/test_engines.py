"""Same release, any engine: the in-memory pipeline, the local batch engine on worker processes and Ray Data.

With one teaching seed every engine must write the same public files byte for byte (the creation time in the
report aside) and the same confidential mapping: the draw is the same OpenDP sampler over the same group table,
and each document is rewritten from the same outcome table. The corpus mixes text files, a ``.jsonl`` file whose
``id`` repeats words of its paragraph (HotpotQA titles do), and a Parquet file with extra columns. Ray runs on a
local instance with 2 CPUs.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from relguard.cli.common import settings_of
from relguard.cli.parser import build_parser
from relguard.engine import run_local, run_ray
from relguard.engine.tally import Tally
from relguard.evaluation.datasets import default_data_dir, load_dataset
from relguard.extract.parallel import PARALLEL_FROM_CHARS, extract_stream
from relguard.io import read_documents
from relguard.pipeline import sanitize
from relguard.release import write_release
from relguard.release.confidential import MAPPING_FILE
from relguard.release.report import summarize
from relguard.verify.public import public_file_problems, read_release_files

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "sample_corpus"
SEED = ["--seed", "11", "--epsilon", "2", "--k", "8"]
CREATED = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    """Sample files, 40 HotpotQA paragraphs as .jsonl (id = title) and 20 more as Parquet with a score column."""
    pytest.importorskip("pyarrow")
    import pyarrow
    import pyarrow.parquet

    folder = tmp_path_factory.mktemp("corpus")
    for path in sorted(SAMPLE.glob("*.txt"))[:4]:
        shutil.copy(path, folder / path.name)
    data = default_data_dir()
    assert data is not None, "the shared datasets were not found: set RELGUARD_DATA_DIR or check out ../shared/data"
    documents = load_dataset("hotpotqa", data_dir=data, limit=40).documents
    lines = [json.dumps({"id": d.name, "text": d.text}, ensure_ascii=False) for d in documents[:40]]
    (folder / "hotpot.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    redocred = load_dataset("redocred", data_dir=data, limit=20).documents
    table = pyarrow.table({"title": [d.name for d in redocred], "text": [d.text for d in redocred],
                           "score": list(range(len(redocred)))})  # fmt: skip
    pyarrow.parquet.write_table(table, folder / "redocred.parquet")
    return folder


def _settings(corpus: Path, *extra: str):
    return settings_of(build_parser().parse_args(["sanitize", str(corpus), "--out", "unused", *SEED, *extra]))


def _files(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): CREATED.sub(b"(creation time)", p.read_bytes())
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def in_memory(corpus, tmp_path_factory) -> Path:
    settings = _settings(corpus)
    documents, hashes = read_documents([corpus])
    p = settings.privacy
    release = sanitize(documents, epsilon=p.epsilon, lam=p.lam, k=p.k, seed=p.seed, input_hashes=hashes)
    out = tmp_path_factory.mktemp("memory")
    write_release(release, out, mapping=True)
    return out


@pytest.fixture(scope="module")
def local(corpus, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("local")
    run_local([str(corpus)], _settings(corpus), out=out, workers=2, mapping=True, parquet=True)
    return out


def test_local_engine_on_two_processes_writes_the_in_memory_release(in_memory, local):
    """Byte for byte, except that the local run was also asked for the Parquet copy, which its report lists."""
    memory, streamed = _files(in_memory), _files(local)
    assert MAPPING_FILE in memory and "documents/redocred.parquet.jsonl" in memory
    assert set(streamed) == set(memory) | {"documents.parquet"}
    digest = json.loads(streamed["report.json"])["files"]["outputs"]["documents.parquet"]
    listed = f',\n      "documents.parquet": "{digest}"'.encode()
    assert listed in streamed["report.json"]
    streamed["report.json"] = streamed["report.json"].replace(listed, b"")
    streamed["report.md"] = streamed["report.md"].replace(f"| `documents.parquet` | `{digest}` |\n".encode(), b"")
    differ = [name for name in memory if memory[name] != streamed[name]]
    assert differ == [], differ


def test_the_parquet_copy_repeats_the_documents_and_passes_the_public_checks(local):
    files = read_release_files(local)
    assert "documents.parquet" in files
    report = json.loads(files["report.json"])
    assert "documents.parquet" in report["files"]["outputs"]
    assert public_file_problems(files) == []
    import pyarrow
    import pyarrow.parquet

    table = pyarrow.parquet.read_table(local / "documents.parquet").to_pylist()
    table[0]["text"] += " Alice Smith founded Acme Corp."
    broken = local.parent / "broken.parquet"
    pyarrow.parquet.write_table(pyarrow.Table.from_pylist(table), broken)
    problems = public_file_problems({**files, "documents.parquet": broken.read_bytes()})
    assert problems and "does not repeat documents/" in problems[0]


def test_the_streamed_tallies_are_the_in_memory_summary(corpus, local):
    """The report's counts come from per-document tallies; they must equal summarize() on the whole release."""
    documents, _ = read_documents([corpus])
    settings = _settings(corpus)
    p = settings.privacy
    release = sanitize(documents, epsilon=p.epsilon, lam=p.lam, k=p.k, seed=p.seed)
    expected = summarize(release)
    report = json.loads((local / "report.json").read_text())
    assert report["counts"] == dict(expected.counts)
    assert report["coverage"] == dict(expected.coverage)
    assert report["slots_per_document"] == dict(expected.slots_per_document)
    tally = Tally()
    for doc in extract_stream(documents, extractor="spacy", workers=1):
        tally.extracted(doc)
    assert tally.documents == len(documents) == report["counts"]["documents"]


def test_ray_engine_on_two_cpus_writes_the_local_release(corpus, local, tmp_path):
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        out = tmp_path / "ray"
        run_ray([str(corpus)], _settings(corpus), out=out, mapping=True, parquet=True)
        assert not [p for p in out.iterdir() if p.name.startswith(".")]  # the staging folder is gone
        mine, theirs = _files(out), _files(local)
        assert set(mine) == set(theirs)
        differ = [name for name in theirs if theirs[name] != mine[name]]
        assert differ == [], differ

        _actors_give_the_local_distance_rows(ray)

        bad = tmp_path / "bad"
        shutil.copytree(corpus, bad)
        (bad / "zz_empty.txt").write_bytes(b"")
        with pytest.raises(Exception, match=r"zz_empty.txt: the file is empty") as caught:
            run_ray([str(bad)], _settings(bad), out=tmp_path / "bad-out")
        assert type(caught.value).__module__.startswith("relguard")
        assert not (tmp_path / "bad-out").exists() or not any((tmp_path / "bad-out").rglob("*"))
    finally:
        ray.shutdown()


def _actors_give_the_local_distance_rows(ray) -> None:
    """Distance rows computed on two Ray actors, in batches of 2 groups, are this process's rows to the bit."""
    import numpy as np

    from relguard import registry
    from relguard.candidates.pools import build_pools
    from relguard.embed import OnnxEncoder
    from relguard.engine import ray as engine
    from relguard.engine.draw import distance_matrix
    from relguard.engine.tally import GroupTable
    from relguard.settings import BackendSettings

    words = ["born_in", "co_founded", "was_appointed_chief_executive_of", "of", "married_to", "sold_his_stake_to"]
    table = GroupTable({
        ("Alice Smith", "PERSON", "Acme Corp", "ORG"): {"co_founded", "sold_his_stake_to"},
        ("Alice Smith", "PERSON", "Bob Jones", "PERSON"): {"married_to"},
        ("Dublin", "GPE", "Ohio", "GPE"): {"of", "born_in"},
        ("Bob Jones", "PERSON", "Acme Corp", "ORG"): set(words[2:4]),
        ("Acme Corp", "ORG", "Ohio", "GPE"): {"born_in"},
    })  # fmt: skip
    rows = [{"key": json.dumps(key), "predicates": json.dumps(sorted(table.predicates[key]))} for key in table.keys]
    actor = {"backends": BackendSettings(), "k": 8}
    groups = (
        ray.data.from_items(rows, override_num_blocks=3)
        .map_batches(engine._Distances, fn_constructor_kwargs=actor, batch_size=2, concurrency=2, batch_format="pandas")
        .take_all()
    )
    here = OnnxEncoder()  # the default runtime, as the actors load it, with an empty cache
    remote = engine._distances_in_key_order(groups, table, encoder_id=here.model_id, k=8)
    pools = build_pools({(k[1], k[3]) for k in table.keys}, generator=registry.create("candidates", "inventory"), k=8)
    local = distance_matrix([(key, table.predicates[key]) for key in table.keys], pools, here)
    assert remote.shape == (5, 8)
    assert np.array_equal(remote, local)


def test_cli_engine_flags_give_one_line_on_misuse(tmp_path):
    cases = [
        (["--workers", "0"], "--workers must be a whole number of processes, at least 1"),
        (["--ray-address", "auto"], "--ray-address needs --engine ray"),
        (["--self-audit", "--parquet"], "--self-audit runs in one process and writes no Parquet"),
    ]
    for extra, message in cases:
        done = subprocess.run(
            [sys.executable, "-m", "relguard.cli", "sanitize", str(SAMPLE), "--out", str(tmp_path / "o"), *extra],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode != 0 and message in done.stderr, (extra, done.stderr)
        assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) <= 2


def test_a_killed_batch_job_leaves_no_worker_behind(corpus, tmp_path):
    """SIGKILL on `relguard sanitize` (no chance to clean up): its extraction workers end with it."""
    psutil = pytest.importorskip("psutil")
    big = tmp_path / "big.jsonl"
    line = (corpus / "hotpot.jsonl").read_text(encoding="utf-8").splitlines()[0]
    record = json.loads(line)
    copies = PARALLEL_FROM_CHARS // len(record["text"]) + 20  # over PARALLEL_FROM_CHARS: two workers start
    big.write_text(
        "".join(json.dumps({"id": f"{record['id']}#{i}", "text": record["text"]}) + "\n" for i in range(copies)),
        encoding="utf-8",
    )
    job = subprocess.Popen(
        [sys.executable, "-m", "relguard.cli", "sanitize", str(big), "--out", str(tmp_path / "o"), "--workers", "2",
         "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    parent = psutil.Process(job.pid)
    workers: list = []
    for _ in range(600):  # up to 60 s for the pool to start
        workers = [p for p in parent.children() if "spawn_main" in " ".join(p.cmdline())]
        if len(workers) == 2:
            break
        job.poll()
        assert job.returncode is None, "the job ended before its workers started"
        time.sleep(0.1)
    assert len(workers) == 2, "the pool never started two workers"
    job.kill()
    job.wait()
    _, alive = psutil.wait_procs(workers, timeout=20)
    for process in alive:
        process.kill()
    assert not alive, f"{len(alive)} worker(s) outlived the killed job"
