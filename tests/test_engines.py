"""Same release, any face: the in-memory pipeline, the local batch engine on worker processes and Ray Data.

With one teaching seed every face must write the same files byte for byte — documents, report.json, report.md,
config.toml, the Parquet copy — and the same confidential mapping: the draw is the same OpenDP sampler over the same
group table, each document is rewritten by the same function from the same outcome table, and one assembly writes
the reports. The corpus mixes text files, a ``.jsonl`` file whose ``id`` repeats words of its paragraph (HotpotQA
titles do), and a Parquet file with extra columns. Ray runs on the session's local instance with 2 CPUs.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from relguard.cli import main
from relguard.cli.common import settings_of
from relguard.cli.parser import build_parser
from relguard.engine import run_local, run_ray, write_release
from relguard.evaluation.datasets import load_dataset
from relguard.extract.parallel import PARALLEL_FROM_CHARS
from relguard.io import read_documents
from relguard.pipeline import sanitize
from relguard.release.config import RunConfig, RunOptions
from relguard.verify.public import public_file_problems, read_release_files
from tests.polling import wait_for

#: One worker runs this file whole (`scripts/test.sh` distributes with ``--dist loadgroup``): the Ray instance
#: starts once per worker process, and split across both workers the file would start two of them on two cores.
pytestmark = pytest.mark.xdist_group("engines")


def test_the_file_runs_as_one_group_under_loadgroup(request):
    """Under ``--dist loadgroup`` xdist names a grouped test ``…@engines`` and sends the group to one worker;
    pytest 9 ignores the name xdist writes, so the group split silently (pyproject pins pytest < 9)."""
    if not getattr(request.config.option, "loadgroup", False):  # set on a worker of --dist loadgroup
        pytest.skip("runs under pytest-xdist's --dist loadgroup (scripts/test.sh)")
    assert request.node.nodeid.endswith("@engines")


ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "sample_corpus"
SEED = ["--seed", "11", "--epsilon", "2", "--k", "8", "--keep-fields", "id,title"]  # fields as written, on every face


@pytest.fixture(scope="session")
def corpus(tmp_path_factory, shared_data) -> Path:
    """Sample files, the 30 HotpotQA paragraphs of 3 questions as .jsonl (id = title) and 6 Re-DocRED documents as
    Parquet with a score column: every kind of input each face reads, 40 documents (more than one batch of 32, so
    that batches meet), small enough that three faces and Ray fit the suite's time."""
    pytest.importorskip("pyarrow")
    import pyarrow
    import pyarrow.parquet

    folder = tmp_path_factory.mktemp("corpus")
    for path in sorted(SAMPLE.glob("*.txt"))[:4]:
        shutil.copy(path, folder / path.name)
    documents = load_dataset("hotpotqa", data_dir=shared_data, limit=3).documents
    lines = [json.dumps({"id": d.name, "text": d.text}, ensure_ascii=False) for d in documents]
    (folder / "hotpot.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    redocred = load_dataset("redocred", data_dir=shared_data, limit=6).documents
    table = pyarrow.table(
        {"title": [d.name for d in redocred], "text": [d.text for d in redocred], "score": list(range(len(redocred)))}
    )
    pyarrow.parquet.write_table(table, folder / "redocred.parquet")
    return folder


def run_config(corpus: Path, *extra: str) -> RunConfig:
    args = build_parser().parse_args(["sanitize", str(corpus), "--out", "unused", *SEED, *extra])
    return RunConfig(settings_of(args), (str(corpus),), RunOptions(parquet=True))


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def in_memory(corpus, tmp_path_factory):
    """The release drawn in this process, its folder and its mapping kept apart."""
    run = run_config(corpus)
    documents, hashes = read_documents([corpus], **run.settings.inputs.reading)
    p = run.settings.privacy
    release = sanitize(documents, epsilon=p.epsilon, lam=p.lam, k=p.k, seed=p.seed, input_hashes=hashes)
    out, apart = tmp_path_factory.mktemp("memory"), tmp_path_factory.mktemp("memory-mapping")
    write_release(release, out, mapping=apart / "mapping.json", run=run)
    return out, apart / "mapping.json", release


@pytest.fixture(scope="session")
def local(corpus, tmp_path_factory) -> tuple[Path, Path]:
    out, apart = tmp_path_factory.mktemp("local"), tmp_path_factory.mktemp("local-mapping")
    run_local(run_config(corpus), out=out, workers=2, mapping=apart / "mapping.json")
    return out, apart / "mapping.json"


def test_local_engine_on_two_processes_writes_the_in_memory_release(in_memory, local):
    """Byte for byte: documents, reports, config.toml, the Parquet copy and, kept apart, the mapping."""
    (memory, memory_mapping, _), (streamed, streamed_mapping) = in_memory, local
    mine, theirs = files_of(memory), files_of(streamed)
    assert {"documents/redocred.parquet.jsonl", "documents.parquet", "config.toml", "report.md"} <= set(mine)
    assert set(mine) == set(theirs)
    differ = [name for name in mine if mine[name] != theirs[name]]
    assert differ == [], differ
    assert memory_mapping.read_bytes() == streamed_mapping.read_bytes()
    assert not [name for name in mine if "CONFIDENTIAL" in name]


def test_the_parquet_copy_repeats_the_documents_and_passes_the_public_checks(local):
    local, _ = local
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


def test_the_report_counts_what_the_release_shows(corpus, in_memory, local):
    """The report's counts, computed from per-document tallies on the workers, against the in-memory release
    (the same bytes, by the test above) counted here."""
    documents, _ = read_documents([corpus])
    release = in_memory[2]
    report = json.loads((local[0] / "report.json").read_text())
    out = release.documents
    assert report["counts"] == {
        "documents": len(documents),
        "documents_changed": sum(1 for d in out if d.removed_sentences or d.filled_spans or d.withheld_sentences),
        "sentences": sum(len(d.sentences) for d in release.extraction.documents),
        "sentences_removed": sum(len(d.removed_sentences) for d in out),
        "sentences_withheld": sum(len(d.withheld_sentences) for d in out),
        "sentences_unfillable": sum(len(d.unfillable_sentences) for d in out),
        "sentences_restated": sum(len(d.restated_sentences) for d in out),
        "sentences_connected": sum(len(d.connected_sentences) for d in out),
        "slots": sum(len(o.group.occurrences) for o in release.outcomes),
        "groups": len(release.outcomes),
        "groups_deleted": sum(o.deleted for o in release.outcomes),
    }
    per_document: dict[str, int] = {}
    for occurrence in (occ for o in release.outcomes for occ in o.group.occurrences):
        per_document[occurrence.document] = per_document.get(occurrence.document, 0) + 1
    assert report["slots_per_document"] == dict(sorted(per_document.items()))


def test_ray_engine_on_two_cpus_writes_the_local_release(corpus, local, tmp_path, ray_instance):
    from ray.data import DataContext

    out, apart = tmp_path / "ray", tmp_path / "apart" / "mapping.json"
    context = DataContext.get_current()
    strategy = context.shuffle_strategy
    run_ray(run_config(corpus), out=out, mapping=apart)
    assert context.shuffle_strategy == strategy  # the run's sort shuffle is its own, not the caller's
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # the staging folder is gone
    mine, theirs = files_of(out), files_of(local[0])
    assert set(mine) == set(theirs)
    differ = [name for name in theirs if theirs[name] != mine[name]]
    assert differ == [], differ
    assert apart.read_bytes() == local[1].read_bytes()

    _actors_give_the_local_distance_rows(ray_instance)

    bad = tmp_path / "bad"
    shutil.copytree(corpus, bad)
    (bad / "zz_empty.txt").write_bytes(b"")
    with pytest.raises(Exception, match=r"zz_empty.txt: the file is empty") as caught:
        run_ray(run_config(bad), out=tmp_path / "bad-out")
    assert type(caught.value).__module__.startswith("relguard")
    assert not (tmp_path / "bad-out").exists() or not any((tmp_path / "bad-out").rglob("*"))


def _actors_give_the_local_distance_rows(ray) -> None:
    """Distance rows computed on two Ray actors, in batches of 2 groups, are this process's rows to the bit."""
    import numpy as np

    from relguard.candidates.pools import build_pools
    from relguard.embed import OnnxEncoder
    from relguard.engine import ray as engine
    from relguard.engine.outcomes import distance_matrix
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
    from relguard.engine.backends import candidates_from

    generator = candidates_from(BackendSettings(), encoder=here)  # the actors' pools: the sensitive policy on
    pools = build_pools({(k[1], k[3]) for k in table.keys}, generator=generator, k=8)
    local = distance_matrix([(key, table.predicates[key]) for key in table.keys], pools, here)
    assert remote.shape == (5, 8)
    assert np.array_equal(remote, local)


def test_cli_engine_flags_give_one_line_on_misuse(tmp_path, capsys):
    cases = [
        (["--workers", "0"], "--workers must be a whole number of processes, at least 1"),
        (["--ray-address", "auto"], "--ray-address needs --engine ray"),
    ]
    for extra, message in cases:
        try:
            code = main(["sanitize", str(SAMPLE), "--out", str(tmp_path / "o"), *extra])
        except SystemExit as exc:  # argparse's own usage errors
            code = exc.code
        err = capsys.readouterr().err
        assert code != 0 and message in err, (extra, err)
        assert "Traceback" not in err and len(err.strip().splitlines()) <= 2
    assert not (tmp_path / "o").exists()


def test_a_killed_batch_job_leaves_no_worker_behind(tmp_path):
    """SIGKILL on `relguard sanitize` (no chance to clean up): its extraction workers end with it."""
    psutil = pytest.importorskip("psutil")
    big = tmp_path / "big.jsonl"
    text = " ".join((SAMPLE / "atlas_shipping.txt").read_text(encoding="utf-8").split())
    copies = PARALLEL_FROM_CHARS // len(text) + 20  # over PARALLEL_FROM_CHARS: two workers start
    big.write_text("".join(json.dumps({"id": f"atlas#{i}", "text": text}) + "\n" for i in range(copies)))
    job = subprocess.Popen(
        [sys.executable, "-m", "relguard.cli", "sanitize", str(big), "--out", str(tmp_path / "o"), "--workers", "2",
         "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    parent = psutil.Process(job.pid)

    def two_workers() -> list:
        assert job.poll() is None, "the job ended before its workers started"
        found = [p for p in parent.children() if "spawn_main" in " ".join(p.cmdline())]
        return found if len(found) == 2 else []

    workers = wait_for(two_workers, timeout=60, what="the pool to start two workers")
    job.kill()
    job.wait()
    _, alive = psutil.wait_procs(workers, timeout=20)
    for process in alive:
        process.kill()
    assert not alive, f"{len(alive)} worker(s) outlived the killed job"


def test_the_draws_embeddings_on_the_workers_are_the_floats_this_process_computes(corpus):
    """The local engine embeds the draw's typed sentences on its extraction workers (one ONNX thread each) and
    reads them back into the driver's encoder: every vector must equal, bit for bit, the one a fresh encoder here
    computes, and a worker on another runtime (torch: same weights, other floats) must be refused."""
    from relguard.embed import DEFAULT_MODEL, FP32, OnnxEncoder, predicate_text
    from relguard.engine.embed_pool import embed_on_workers
    from relguard.errors import ModelError
    from relguard.extract.parallel import WorkerPool

    pair = ("PERSON", "ORG")
    texts = [predicate_text(p, pair) for p in ("works_for", "founded", "sued", "was_the_chief_executive_of")]
    texts += [f"A person met organization number {n} of the consortium in its annual meeting." for n in range(40)]
    here, there = OnnxEncoder(DEFAULT_MODEL), OnnxEncoder(DEFAULT_MODEL)
    with WorkerPool(extractor="spacy", workers=2) as pool:
        assert embed_on_workers(pool, there, texts, backend=FP32, model=DEFAULT_MODEL) == len(texts)
        assert there.encoded == 0, "the driver's encoder embedded texts itself"
        assert embed_on_workers(pool, there, texts, backend=FP32, model=DEFAULT_MODEL) == 0  # all cached now
        assert np.array_equal(there.embed_texts(texts), here.embed_texts(texts))
        with pytest.raises(ModelError, match="a worker loaded encoder"):
            embed_on_workers(pool, OnnxEncoder(DEFAULT_MODEL), texts[:3], backend="torch", model=DEFAULT_MODEL)
        workers = list(pool.executor._processes.values())
    assert [p.exitcode for p in workers] == [0, 0]  # joined on leaving the pool, having skipped the teardown


def test_ray_actors_read_a_relative_policy_or_pool_file_from_the_drivers_folder(tmp_path, monkeypatch):
    """An actor's working directory is not the driver's: `--exclude-predicates exclusion-policy.txt` failed on
    Ray only (tests/test_settings_walk.py found it). The actors get the paths resolved where the run started."""
    pytest.importorskip("ray")
    from relguard.engine.ray import _for_actors
    from relguard.settings import BackendSettings

    monkeypatch.chdir(tmp_path)
    resolved = _for_actors(BackendSettings(exclude_predicates="policy.txt", pool_file="../report.json"))
    assert resolved.exclude_predicates == str(tmp_path / "policy.txt")
    assert resolved.pool_file == str((tmp_path / ".." / "report.json").resolve())
    assert _for_actors(BackendSettings()) == BackendSettings()
    assert _for_actors(BackendSettings(exclude_predicates="/abs/p.txt")).exclude_predicates == "/abs/p.txt"
