"""``relguard audit``: re-derive the guarantee for a corpus or a written release, as a pass/fail table.

Exit status 0 when every check passes, 3 when one fails (1 stays for a user's error).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from pathlib import Path

from relguard.cli.common import INPUTS_HELP, add_settings_flags, backends_of, settings_of
from relguard.errors import ConfigError
from relguard.io import atomic_write, read_documents
from relguard.pipeline import prepare

FAILED_EXIT = 3


def add_parser(commands: argparse._SubParsersAction) -> None:
    audit = commands.add_parser(
        "audit",
        help="re-derive the relation-DP guarantee for a corpus or a written release (pass/fail table)",
        description="Check the exact bound ε·d_R over original relations, candidates and near-duplicates, "
        "test the OpenDP sampler against the exact probabilities (χ²), check relation groups and that pools "
        "depend only on type pairs, the entity-level bound (all of one entity's relations, exact over the product "
        "of its groups' laws; with --entity-epsilon every entity within e^E), and that a release's public files "
        "hold outcomes and public information only. INPUT documents give the original relations; --release DIR "
        "audits a written release.",
    )
    audit.add_argument("inputs", nargs="*", metavar="INPUT", help=INPUTS_HELP)
    audit.add_argument("--release", default=None, help="a release folder (or its report.json) to audit")
    audit.add_argument(
        "--mapping",
        default=None,
        metavar="PATH",
        help="with --release: also leak-scan the folder's files as written, against the inputs (from its "
        "config.toml, or INPUT) and the outcomes this CONFIDENTIAL mapping records",
    )
    audit.add_argument("--record", action="store_true", help="record the audit in the release's report.json/.md")
    audit.add_argument("--json", default=None, help="also write the audit as JSON to this file")
    add_settings_flags(audit)
    audit.set_defaults(handler=run_audit)


def run_audit(args: argparse.Namespace) -> int:
    from relguard.verify import audit_prepared, audit_report, read_release_files, read_report, record_in_release
    from relguard.verify.folder import corpus_of, folder_check

    if not args.inputs and not args.release:
        raise ConfigError("relguard audit needs INPUT documents or --release DIR (a written release)")
    settings = settings_of(args)
    report = read_report(args.release) if args.release else None
    if report is not None:
        params = report["parameters"]
        epsilon, lam, k = params["epsilon"], params["lambda"], params["k"]
        budget = f"E={params['entity_epsilon']:g} per entity" if params.get("entity_epsilon") is not None else ""
        print(f"auditing release {args.release}: {budget or f'ε={epsilon:g}'}, λ={lam:g}, K={k} (from its report.json)")
    else:
        epsilon, lam, k = settings.privacy.epsilon, settings.privacy.lam, settings.privacy.k
    prepared = None
    digests: tuple[str, ...] = ()
    if args.mapping and not args.release:
        raise ConfigError("--mapping needs --release DIR: it leak-scans that folder's files")
    if args.inputs:
        documents, hashes = read_documents(
            args.inputs, max_bytes=settings.inputs.max_bytes, text_field=settings.inputs.text_field
        )
        digests = tuple(hashes.values())
        prepared = prepare(documents, k=k, backends=backends_of(settings))
    elif args.mapping:
        prepared = corpus_of(args.release)
        digests = tuple(prepared.input_hashes.values())
    if prepared is not None:
        print(
            f"{len(prepared.documents)} documents, {len(prepared.groups)} relation groups, {len(prepared.pools)} pools"
        )
    files = read_release_files(args.release) if report is not None else None
    if report is not None:
        audit = audit_report(report, prepared=prepared, public=files, input_digests=digests)
    else:
        audit = audit_prepared(prepared, epsilon=epsilon, lam=lam, entity_epsilon=settings.privacy.entity_epsilon)
    if args.mapping:
        scanned = folder_check(args.release, mapping=args.mapping, corpus=prepared)
        audit = dataclasses.replace(audit, checks=(*audit.checks, scanned))
    print(audit.table())
    for note in audit.notes:
        print(f"note: {note}")
    if args.json:
        atomic_write(Path(args.json), (json.dumps(audit.to_dict(), indent=2, ensure_ascii=False) + "\n").encode())
    if args.record:
        if not args.release:
            raise ConfigError("--record needs --release DIR: it writes into that release's report")
        recorded = audit if prepared is None else audit_report(report, public=files)
        for path in record_in_release(args.release, recorded):
            print(f"recorded in {path}")
    return 0 if audit.passed else FAILED_EXIT
