"""Every path that makes a release honours every setting: the CLI, ``--self-audit``, Ray and the app (issues 38, 41).

The self-audit path once assembled its own call and dropped the per-entity budget and the verbalizer. This walk
enumerates every field of :class:`relguard.settings.Settings` and every run option from the dataclasses, so a field
added later fails here until it gets a case or a stated reason, and runs ``relguard sanitize … --seed 7`` with it
three ways: plain, with ``--self-audit`` and with ``--engine ray``. Every file but those that record the audit must
be the same bytes (documents, the Parquet copy, slots.jsonl), and report.json the same but for the self-audit's own
entry. Where the app offers the setting (its sidebar, review and export pages, as session state), the app's path —
:class:`~relguard.studio.session.Studio` prepares and draws with teaching seed 7, the Export page's
``export_release`` writes — gives the plain run's documents, slots.jsonl, report.json and report.md to the byte.
The LLM settings run against the local OpenAI-protocol test server (real HTTP).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from relguard import cli
from relguard.extract.review import Review, SetType
from relguard.io import read_documents
from relguard.release.config import RunOptions
from relguard.settings import Settings
from relguard.studio.export import export_release
from relguard.studio.session import Resources, Studio
from tests.llm_replies import DOCS, respond
from tests.llm_server import ScriptedLLM, system_prompt

#: Fields no run can vary here, and why.
NOT_VARIED = {
    "privacy.seed": "both runs of every case use --seed 7: comparing two releases byte for byte needs one seed",
    "backends.encoder": "only all-MiniLM-L6-v2 is on this machine and nothing may be downloaded at run time; its "
    "runtime is varied (backends.encoder_runtime)",
    "options.self_audit": "the flag under test: every case runs with and without it",
}
#: The LLM flags: one local endpoint for the extractor, the pools and the verbalizer alike.
LLM = ("--llm-model", "test-model", "--api-key-env", "RELGUARD_TEST_KEY", "--allow-remote-llm")


#: The file name the app gives the exclusion policy in its zip (the CLI records the name it was given).
POLICY = "exclusion-policy.txt"
#: What the app offers, as the session state its pages set, per settings field: the value the CLI case gives it.
#: ``BASE_URL`` stands for the test server's address.
APP: dict[str, dict[str, object]] = {
    "privacy.epsilon": {"epsilon": 0.5},
    "privacy.lam": {"lam": 0.3},
    "privacy.k": {"k": 5},
    "privacy.entity_epsilon": {"entity_budget": True, "epsilon": 1.0},
    "privacy.budget": {"draw_budget": 100.0},
    "backends.extractor": {"extractor_name": "llm", "llm_model": "test-model", "llm_base_url": "BASE_URL"},
    "backends.llm_model": {"extractor_name": "llm", "llm_model": "test-model", "llm_base_url": "BASE_URL"},
    "backends.base_url": {"extractor_name": "llm", "llm_model": "test-model", "llm_base_url": "BASE_URL"},
    "backends.candidates": {"candidates_name": "llm", "k": 5, "llm_model": "test-model", "llm_base_url": "BASE_URL"},
    "backends.exclude_predicates": {"exclusion_policy": "founded\n"},
    "backends.no_sensitive_policy": {"sensitive_policy": False},
    "inputs.review": {"review": Review((SetType("Alice Smith", "ORG"),))},
    "options.mark_slots": {},  # an export option: the Export page's toggle
}
#: Fields the app does not offer, and why.
NOT_IN_APP = {
    "backends.encoder_runtime": "the app loads the bundled encoder on its default runtime (same d_R)",
    "backends.api_key_env": "the app reads the key from OPENAI_API_KEY; the test server asks for none",
    "backends.allow_remote_llm": "the app asks the analyst to confirm an endpoint off this machine; the test "
    "server is on it",
    "backends.pool_file": "pools from a file are a replay of an earlier release, which the CLI runs",
    "backends.slots": "the app releases in the default slot mode",
    "backends.verbalizer": "the app fills slots with the built-in forms",
    "inputs.max_bytes": "the app reads uploads at the library's default limit (20 MB a file; "
    ".streamlit/config.toml caps an upload at 25 MB)",
    "inputs.text_field": 'the app reads the "text" field of uploaded .jsonl records, the default',
    "inputs.keep_fields": "the app keeps no record fields",
    "options.parquet": "the app exports a zip, not a Parquet copy",
    "options.allow_withheld": "the CLI's exit status only: the app warns of withheld sentences on its Export page "
    "and the release is the same",
    "options.no_notice": "the app's release always carries its notice",
}


def _answer(body: dict) -> str:
    """The scripted model: extraction, typing and pools as tests.llm_replies answers them, and one phrase per
    placeholder for the verbalizer."""
    if "placeholder" in system_prompt(body).lower():
        return json.dumps({"1": "runs"})
    return respond(body)


def _cases(tmp_path: Path) -> dict[str, list[str]]:
    """Per settings field, flags that give it a value other than its default (files it reads written here)."""
    policy = tmp_path / POLICY  # named as the app names it in its zip; the walk runs in tmp_path
    policy.write_text("founded\n", encoding="utf-8")
    review = tmp_path / "review.json"
    review.write_text(Review((SetType("Alice Smith", "ORG"),)).to_json(), encoding="utf-8")
    return {
        "privacy.epsilon": ["--epsilon", "0.5"],
        "privacy.lam": ["--lam", "0.3"],
        "privacy.k": ["--k", "5"],
        "privacy.entity_epsilon": ["--entity-epsilon", "1"],
        "backends.extractor": ["--extractor", "llm", *LLM],
        "backends.candidates": ["--candidates", "llm", "--k", "5", *LLM],
        "backends.encoder_runtime": ["--encoder-runtime", "torch"],
        "backends.llm_model": ["--extractor", "llm", *LLM],
        "backends.base_url": ["--extractor", "llm", *LLM],
        "backends.api_key_env": ["--extractor", "llm", *LLM],
        "backends.allow_remote_llm": ["--extractor", "llm", *LLM],
        "backends.pool_file": ["--candidates", "pool-file", "--pool-file", "POOLS"],
        "backends.slots": ["--slots", "stretches"],
        "backends.verbalizer": ["--verbalizer", "llm", *LLM],
        "backends.exclude_predicates": ["--exclude-predicates", POLICY],
        "inputs.max_bytes": ["--max-bytes", "4000"],
        "inputs.text_field": ["--text-field", "body"],
        "inputs.keep_fields": ["--text-field", "body", "--keep-fields", "id"],
        "inputs.review": ["--review", review.name],
        "options.parquet": ["--parquet"],
        "options.allow_withheld": ["--allow-withheld"],
        "options.mark_slots": ["--mark-slots"],
        "options.no_notice": ["--no-notice"],
        "backends.no_sensitive_policy": ["--no-sensitive-policy"],
        "privacy.budget": ["--budget", "100"],
    }


def _fields() -> list[str]:
    """Every field of the settings, and every run option (how a run writes: the Parquet copy, the marks, ...)."""
    settings = [
        f"{section.name}.{inner.name}"
        for section in dataclasses.fields(Settings)
        for inner in dataclasses.fields(section.default_factory())  # type: ignore[misc]
    ]
    return settings + [f"options.{option.name}" for option in dataclasses.fields(RunOptions)]


#: Files the self-audit writes differently by design: its own entry in report.md, ``self_audit = true`` in config.
_RECORDS_THE_AUDIT = ("report.json", "report.md", "config.toml")


def _release(folder: Path) -> tuple[dict[str, bytes], dict]:
    """Every file of a release but those that record the audit, and report.json."""
    files = {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.relative_to(folder).as_posix() not in _RECORDS_THE_AUDIT
    }
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    return files, report


def test_every_settings_field_has_a_case_or_a_reason(tmp_path):
    cases = _cases(tmp_path)
    assert set(cases) | set(NOT_VARIED) == set(_fields()), "a new settings field needs a case in _cases or a reason"
    assert not set(cases) & set(NOT_VARIED)


def test_every_settings_field_has_an_app_case_or_a_reason():
    fields = set(_fields())
    assert set(APP) | set(NOT_IN_APP) | set(NOT_VARIED) == fields, "a new field needs a case in APP or a reason"
    assert not set(APP) & set(NOT_IN_APP) and set(APP) <= fields


def _llm(flags: list[str]) -> bool:
    return any(flags[n : n + 2] == [flag, "llm"] for n in range(len(flags)) for flag in LLM_BACKENDS)


#: The flags that choose an LLM backend, which the Ray engine refuses (its calls are counted in one process).
LLM_BACKENDS = ("--extractor", "--candidates", "--verbalizer")

#: The files the app's export and the plain run both write: the app's zip adds its config (other inputs) and the
#: policy file, the CLI's folder the Parquet copy or nothing else.
_APP_FILES = ("report.json", "report.md", "slots.jsonl")


def _app_files(
    source: Path, resources: Resources, changes: dict, *, mark_slots: bool, base_url: str, state: Path
) -> dict[str, bytes]:
    """The files the app's Export page puts in its zip for the documents of ``source``, with the CLI's defaults,
    teaching seed 7 and ``changes`` in the session state (the review written to review.json, as the page does)."""
    studio = Studio({}, environ={"RELGUARD_STATE": str(state)})
    studio.init()
    studio.add(*read_documents([source]))
    defaults = Settings().privacy
    studio.state.update(epsilon=defaults.epsilon, lam=defaults.lam, k=defaults.k, teaching_seed=True, seed=7)
    studio.state.update({k: base_url if v == "BASE_URL" else v for k, v in changes.items()})
    studio.draw(studio.prepared(resources))
    exported = export_release(
        studio.public_release(),
        inputs=[str(source)],
        review="review.json" if studio.review else None,
        mark_slots=mark_slots,
        policy=studio.state["exclusion_policy"],
    )
    return {n: b for n, b in exported.files.items() if n.startswith("documents/") or n in _APP_FILES}


@pytest.mark.slow
def test_every_path_releases_what_the_plain_run_releases_for_every_setting(
    tmp_path, monkeypatch, capsys, ray_instance, resources
):
    monkeypatch.setenv("RELGUARD_TEST_KEY", "not-a-secret")
    monkeypatch.setenv("RELGUARD_LLM_CACHE", str(tmp_path / "llm-cache"))
    monkeypatch.chdir(tmp_path)
    texts = tmp_path / "in"
    texts.mkdir()
    for name, text in DOCS.items():
        (texts / name).write_text(text, encoding="utf-8")
    records = tmp_path / "records"
    records.mkdir()
    (records / "docs.jsonl").write_text(
        "".join(json.dumps({"id": name, "body": text}) + "\n" for name, text in DOCS.items()), encoding="utf-8"
    )
    pools = tmp_path / "pools"
    assert cli.main(["sanitize", str(texts), "--out", str(pools), "--seed", "7", "--quiet"]) == 0
    cases = _cases(tmp_path)
    done: dict[tuple[str, ...], str] = {}
    compared = {"app": 0, "ray": 0}
    with ScriptedLLM(responder=_answer) as server:
        for name, flags in cases.items():
            flags = [str(pools / "report.json") if f == "POOLS" else f for f in flags]
            if "--llm-model" in flags:
                flags += ["--base-url", server.base_url]
            source = records if "--text-field" in flags else texts
            if tuple(flags) in done:  # the same flags cover another field: one run is enough
                continue
            done[tuple(flags)] = name
            base = ["sanitize", str(source), "--seed", "7", "--quiet", *flags]
            for run, extra in {"plain": [], "audited": ["--self-audit"]}.items():
                assert cli.main([*base, "--out", str(tmp_path / f"{name}-{run}"), *extra]) == 0, (name, run)
            on_ray = cli.main([*base, "--out", str(tmp_path / f"{name}-ray"), "--engine", "ray"])
            if _llm(flags):  # Ray runs the offline backends: it refuses an LLM one in one line, and writes nothing
                assert on_ray == 1 and "use --engine local" in capsys.readouterr().err, name
                assert not (tmp_path / f"{name}-ray").exists(), name
            else:
                assert on_ray == 0, (name, "ray", capsys.readouterr().err)
            capsys.readouterr()
            documents, report = _release(tmp_path / f"{name}-plain")
            documents_audited, report_audited = _release(tmp_path / f"{name}-audited")
            assert documents_audited == documents, name
            assert report_audited.pop("self_audit")["passed"] is True, name
            assert report_audited == report, name
            if not _llm(flags):
                assert _release(tmp_path / f"{name}-ray") == (documents, report), f"{name} on Ray"
                compared["ray"] += 1
            if name in APP:
                state = tmp_path / f"{name}-app-state"
                app = _app_files(
                    source,
                    resources,
                    APP[name],
                    mark_slots=name == "options.mark_slots",
                    base_url=server.base_url,
                    state=state,
                )
                plain = {**documents, "report.json": (tmp_path / f"{name}-plain" / "report.json").read_bytes()}
                plain |= {"report.md": (tmp_path / f"{name}-plain" / "report.md").read_bytes()}
                mine = {n: b for n, b in plain.items() if n in app or n.startswith("documents/")}
                assert set(app) == set(mine), f"{name} in the app"
                differ = [n for n in app if app[n] != mine[n]]
                assert differ == [], f"{name} in the app: {differ}"
                compared["app"] += 1
    assert len(done) >= 12
    assert compared["app"] >= 9 and compared["ray"] >= 12


def test_self_audit_keeps_the_per_entity_budget(tmp_path, capsys):
    """The issue's reproducer: with ``--entity-epsilon 1 --self-audit`` the groups were drawn at ε = 1 each and
    the report said ``entity_epsilon: null`` while config.toml recorded 1.0; the documents differed."""
    source = tmp_path / "in"
    source.mkdir()
    for name, text in DOCS.items():
        (source / name).write_text(text, encoding="utf-8")
    base = ["sanitize", str(source), "--entity-epsilon", "1", "--seed", "11", "--quiet"]
    assert cli.main([*base, "--out", str(tmp_path / "plain")]) == 0
    mapping = tmp_path / "private" / "map.json"
    assert cli.main([*base, "--out", str(tmp_path / "audited"), "--self-audit", "--mapping", str(mapping)]) == 0
    capsys.readouterr()
    assert mapping.stat().st_mode & 0o777 == 0o600  # rewritten with the audit over the originals, still private
    assert json.loads(mapping.read_text(encoding="utf-8"))["self_audit"]["passed"] is True
    documents, report = _release(tmp_path / "plain")
    documents_audited, report_audited = _release(tmp_path / "audited")
    assert report_audited["parameters"]["entity_epsilon"] == 1.0
    assert "epsilons_by_pool" in report_audited["entity_level"]
    assert report_audited.pop("self_audit")["passed"] is True
    assert (documents_audited, report_audited) == (documents, report)
