"""``sanitize --self-audit`` releases what the plain run releases, for every setting (issue 38).

The self-audit path once assembled its own call and dropped the per-entity budget and the verbalizer. This test
walks every field of :class:`relguard.settings.Settings` and every run option — enumerated from the dataclasses,
so a field added later fails here until it gets a case or a stated reason — and runs ``relguard sanitize …
--seed 7`` with and without ``--self-audit``: every file but those that record the audit must be the same bytes
(documents, the Parquet copy, slots.jsonl) and report.json the same but for the self-audit's own entry. The LLM
settings run against the local OpenAI-protocol test server (real HTTP).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from relguard import cli
from relguard.extract.review import Review, SetType
from relguard.release.config import RunOptions
from relguard.settings import Settings
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


def _answer(body: dict) -> str:
    """The scripted model: extraction, typing and pools as tests.llm_replies answers them, and one phrase per
    placeholder for the verbalizer."""
    if "placeholder" in system_prompt(body).lower():
        return json.dumps({"1": "runs"})
    return respond(body)


def _cases(tmp_path: Path) -> dict[str, list[str]]:
    """Per settings field, flags that give it a value other than its default (files it reads written here)."""
    policy = tmp_path / "never.txt"
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
        "backends.exclude_predicates": ["--exclude-predicates", str(policy)],
        "inputs.max_bytes": ["--max-bytes", "4000"],
        "inputs.text_field": ["--text-field", "body"],
        "inputs.keep_fields": ["--text-field", "body", "--keep-fields", "id"],
        "inputs.review": ["--review", str(review)],
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


@pytest.mark.slow
def test_self_audit_releases_what_the_plain_run_releases_for_every_setting(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RELGUARD_TEST_KEY", "not-a-secret")
    monkeypatch.setenv("RELGUARD_LLM_CACHE", str(tmp_path / "llm-cache"))
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
    with ScriptedLLM(responder=_answer) as server:
        for name, flags in cases.items():
            flags = [str(pools / "report.json") if f == "POOLS" else f for f in flags]
            if "--llm-model" in flags:
                flags += ["--base-url", server.base_url]
            source = records if "--text-field" in flags else texts
            if tuple(flags) in done:  # the same flags cover another field: one run is enough
                continue
            done[tuple(flags)] = name
            plain, audited = tmp_path / f"{name}-plain", tmp_path / f"{name}-audited"
            base = ["sanitize", str(source), "--seed", "7", "--quiet", *flags]
            assert cli.main([*base, "--out", str(plain)]) == 0, (name, capsys.readouterr())
            assert cli.main([*base, "--out", str(audited), "--self-audit"]) == 0, (name, capsys.readouterr())
            capsys.readouterr()
            documents, report = _release(plain)
            documents_audited, report_audited = _release(audited)
            assert documents_audited == documents, name
            assert report_audited.pop("self_audit")["passed"] is True, name
            assert report_audited == report, name
    assert len(done) >= 12


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
