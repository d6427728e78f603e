"""The public-file check on a release folder as written, on every path: the CLI's local engine and the app's zip.

(Ray writes the local engine's folder byte for byte, ``tests/test_engines.py``, so the check on the local folder is
the check on Ray's; running Ray here again would cost the suite a second Ray release.)

Each path releases the sample corpus with one teaching seed into a folder (the folders are byte-identical),
the confidential mapping apart. The folder passes the check as written; then it is corrupted by hand — a deleted
sentence pasted back, an original relation pasted into the report, the mapping copied in, an input's digest pasted —
and the check must fail, naming the file, whichever path wrote the folder.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from pathlib import Path

import pytest

from relguard.cli import main
from relguard.io import read_documents
from relguard.pipeline import Backends, prepare
from relguard.settings import Settings
from relguard.studio.export import export_release
from relguard.verify.folder import corpus_of, folder_leaks
from relguard.verify.public import public_file_problems, read_release_files

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "assets" / "sample_corpus"
SEED = ["--seed", "11", "--epsilon", "2", "--k", "8"]
PATHS = ("local", "app")


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def releases(tmp_path_factory) -> dict[str, tuple[Path, Path]]:
    """Per path, (release folder, its mapping kept apart)."""
    root = tmp_path_factory.mktemp("paths")
    made = {}
    out, apart = root / "local", root / "local-mapping.json"
    argv = ["sanitize", str(SAMPLE), "--out", str(out), "--mapping", str(apart), "--engine", "local", *SEED]
    assert main([*argv, "--quiet"]) == 0
    made["local"] = (out, apart)
    documents, hashes = read_documents([SAMPLE])
    backends = Backends.from_settings(Settings().backends)  # as the app builds them: the sensitive list on
    release = prepare(documents, k=8, input_hashes=hashes, backends=backends).draw(epsilon=2.0, lam=1.0, seed=11)
    exported = export_release(release, inputs=[str(SAMPLE)])
    zipfile.ZipFile(io.BytesIO(exported.zip)).extractall(root / "app")
    (root / "app-mapping.json").write_bytes(exported.mapping)
    made["app"] = (root / "app", root / "app-mapping.json")
    return made


@pytest.fixture(scope="module")
def corpus(releases):
    return corpus_of(releases["local"][0])


def test_every_path_writes_the_same_folder_and_it_passes_as_written(releases, corpus):
    local = files_of(releases["local"][0])
    assert {"config.toml", "report.json", "report.md"} <= set(local)
    for path in PATHS:
        folder, mapping = releases[path]
        assert files_of(folder) == local, path
        assert folder_leaks(folder, mapping=mapping, corpus=corpus) == [], path
        assert public_file_problems(read_release_files(folder), input_digests=corpus.input_hashes.values()) == []


def _deleted_sentence(corpus, mapping: Path) -> tuple[str, str]:
    """(document file, text) of a sentence the release deleted: a group drawn null."""
    recorded = json.loads(mapping.read_text())
    gone = next(o for o in recorded["outcomes"] if o["sampled"] is None)
    occurrence = gone["relations"][0]["occurrences"][0]
    doc = next(d for d in corpus.extraction.documents if d.document.name == occurrence["document"])
    return f"documents/{doc.document.name}", doc.sentence_text(occurrence["sentence"])


def _substituted_window(corpus, mapping: Path) -> str:
    """An original relation in its sentence: the words the release replaced."""
    recorded = json.loads(mapping.read_text())
    kept = next(o for o in recorded["outcomes"] if o["sampled"] and not o["relations"][0]["kept"])
    occurrence = kept["relations"][0]["occurrences"][0]
    doc = next(d for d in corpus.extraction.documents if d.document.name == occurrence["document"])
    return doc.sentence_text(occurrence["sentence"])


@pytest.mark.parametrize("path", PATHS)
def test_a_folder_corrupted_by_hand_fails_the_check(path, releases, corpus, tmp_path):
    folder, mapping = releases[path]

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(folder, target)
        return target

    broken = copy("sentence")  # a deleted sentence pasted back into its document
    name, sentence = _deleted_sentence(corpus, mapping)
    with open(broken / name, "a", encoding="utf-8") as stream:
        stream.write(" " + sentence)
    leaks = folder_leaks(broken, mapping=mapping, corpus=corpus)
    assert any(leak.kind == "sentence" and leak.file == name for leak in leaks), leaks

    broken = copy("report")  # an original relation pasted into the report
    with open(broken / "report.md", "a", encoding="utf-8") as stream:
        stream.write("\nNotes: " + _substituted_window(corpus, mapping) + "\n")
    leaks = folder_leaks(broken, mapping=mapping, corpus=corpus)
    assert any(leak.kind == "relation" and leak.file == "report.md" for leak in leaks), leaks

    broken = copy("mapping")  # the confidential mapping copied into the folder
    shutil.copy(mapping, broken / "notes.json")
    problems = public_file_problems(read_release_files(broken))
    assert any("notes.json holds the confidential mapping" in p for p in problems), problems
    assert any(leak.kind == "audit" for leak in folder_leaks(broken, mapping=mapping, corpus=corpus))

    broken = copy("digest")  # the digest of an input file pasted into the report
    digest = next(iter(corpus.input_hashes.values()))
    with open(broken / "report.md", "a", encoding="utf-8") as stream:
        stream.write(f"\nchecksum {digest}\n")
    problems = public_file_problems(read_release_files(broken), input_digests=corpus.input_hashes.values())
    assert problems == ["report.md holds the SHA-256 of an input file"]


def test_relguard_audit_fails_a_corrupted_folder_and_any_confidential_file_in_it(releases, tmp_path, capsys):
    """One run of the command a privacy officer types, on a folder with both kinds of damage."""
    folder, mapping = releases["local"]
    broken = tmp_path / "broken"
    shutil.copytree(folder, broken)
    shutil.copy(mapping, broken / "CONFIDENTIAL-old.json")
    with open(broken / "documents" / "atlas_shipping.txt", "a", encoding="utf-8") as stream:
        stream.write(" " + (SAMPLE / "atlas_shipping.txt").read_text(encoding="utf-8"))
    assert main(["audit", "--release", str(broken), "--mapping", str(mapping)]) == 3
    failing = [line for line in capsys.readouterr().out.splitlines() if "FAIL" in line]
    assert any("the confidential file CONFIDENTIAL-old.json is in the release folder" in line for line in failing)
    assert any("leak scan of the folder" in line and "documents/atlas_shipping.txt" in line for line in failing)


def test_an_untouched_document_passes_and_an_input_digest_elsewhere_still_fails(tmp_path, capsys):
    """Issue 38: a document with no slot is written as read, so report.json lists its input's SHA-256 as an
    output's; that is the digest of a public file, not a leak. An input's digest that no output file has stays
    one (it confirms a guess of text the release changed)."""
    source = tmp_path / "in"
    source.mkdir()
    (source / "plain.txt").write_text("The weather was fine all week.\n", encoding="utf-8")
    (source / "rel.txt").write_text("Alice Smith founded Acme Corp in 2001.\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = ["sanitize", str(source), "--out", str(out), "--seed", "3", "--quiet", "--no-notice"]
    assert main(argv) == 0  # without the notice line an untouched document is its input byte for byte
    assert (out / "documents" / "plain.txt").read_bytes() == (source / "plain.txt").read_bytes()
    capsys.readouterr()
    assert main(["audit", "--release", str(out), str(source)]) == 0, capsys.readouterr().out
    assert "public files: outcomes and public information only" in capsys.readouterr().out
    _, hashes = read_documents([source])
    files = read_release_files(out)
    assert public_file_problems(files, input_digests=hashes.values()) == []
    changed = hashes[next(name for name in hashes if name.endswith("rel.txt"))]
    assert files["documents/rel.txt"] != (source / "rel.txt").read_bytes()
    leaked = dict(files, **{"report.md": files["report.md"] + f"\n{changed}\n".encode()})
    problems = public_file_problems(leaked, input_digests=hashes.values())
    assert problems == ["report.md holds the SHA-256 of an input file"]
