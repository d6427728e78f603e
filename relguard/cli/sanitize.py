"""``relguard sanitize``: read a corpus, draw a release, write its public files (and the mapping on request)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from relguard.candidates.llm import LLMCandidates
from relguard.cli.common import (
    EXAMPLES,
    INPUTS_HELP,
    add_settings_flags,
    backends_of,
    progress_bar,
    settings_of,
    stage_bar,
    workers_count,
)
from relguard.engine import run_local, run_ray
from relguard.errors import ConfigError
from relguard.extract.review import Review
from relguard.io import read_documents
from relguard.llm.estimate import estimate
from relguard.pipeline import sanitize
from relguard.release import write_release
from relguard.release.confidential import confidential_counts
from relguard.release.report import build_report
from relguard.textable import plural
from relguard.verify import audit_with_backends

#: Exit status when the leak scan withheld sentences and --allow-withheld was not given.
WITHHELD_EXIT = 4


def add_parser(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser(
        "sanitize",
        help="write a sanitized corpus and its public report",
        description="Sanitize files or folders of documents (.txt, .md, .jsonl with one document per line, .csv, "
        ".parquet, .pdf, .docx, .html).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("inputs", nargs="+", metavar="INPUT", help=INPUTS_HELP)
    run.add_argument("--out", required=True, help="output folder (created if missing)")
    run.add_argument(
        "--seed", type=int, default=None, help="fixed seed for demos and teaching: the output is NOT a private release"
    )
    run.add_argument(
        "--mapping",
        action="store_true",
        help="also write the CONFIDENTIAL original→sampled mapping (kept apart; never publish it)",
    )
    run.add_argument("--audit", action="store_true", dest="mapping", help=argparse.SUPPRESS)
    run.add_argument(
        "--self-audit", action="store_true", help="run `relguard audit` on this release and record it in the report"
    )
    run.add_argument(
        "--allow-withheld",
        action="store_true",
        help="exit 0 even when the leak scan withheld sentences (they are never published; see docs/reliability.md)",
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    engine = run.add_argument_group("engine (how the run is spread; the release is the same bytes either way)")
    engine.add_argument(
        "--workers",
        type=workers_count,
        default=None,
        help="extraction processes (default: every core, or 1 for an input under 200 kB)",
    )
    engine.add_argument(
        "--engine", choices=("local", "ray"), default="local", help="local processes (default) or Ray Data"
    )
    engine.add_argument(
        "--ray-address", default=None, help="join this Ray cluster (ray://HOST:10001 or auto); default: start one"
    )
    engine.add_argument("--parquet", action="store_true", help="also write documents.parquet (one row a document)")
    run.add_argument("--dry-run", action="store_true", help="estimate the LLM calls and tokens of this run and stop")
    add_settings_flags(run)
    run.set_defaults(handler=run_sanitize)


def run_sanitize(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    if args.ray_address and args.engine != "ray":
        raise ConfigError("--ray-address needs --engine ray")
    if args.dry_run:
        documents, _ = read_documents(
            args.inputs, max_bytes=settings.inputs.max_bytes, text_field=settings.inputs.text_field
        )
        backends = backends_of(settings)
        print(
            estimate(
                documents, extractor=backends.extractor, candidates=backends.candidates, k=settings.privacy.k
            ).describe()
        )
        return 0
    if args.self_audit:
        if args.engine != "local" or args.parquet:
            raise ConfigError(
                "--self-audit runs in one process and writes no Parquet; drop --engine/--parquet, or run "
                "`relguard audit --release OUT INPUT...` on the finished release"
            )
        return _audited(args, settings)
    backends = backends_of(settings) if settings.backends.uses_llm else None
    update, close = stage_bar(not args.quiet)
    try:
        if args.engine == "ray":
            result = run_ray(
                args.inputs, settings, out=args.out, workers=args.workers, address=args.ray_address,
                mapping=args.mapping, parquet=args.parquet, progress=update,
            )  # fmt: skip
        else:
            result = run_local(
                args.inputs, settings, out=args.out, workers=args.workers, mapping=args.mapping,
                parquet=args.parquet, progress=update, backends=backends,
            )  # fmt: skip
    finally:
        close()
    if backends is not None and settings.backends.pool_file and isinstance(backends.candidates, LLMCandidates):
        backends.candidates.export(settings.backends.pool_file)
    private = confidential_counts(result.mapping_rows) if args.mapping else None
    return _summary(result.report, private, args, settings.privacy)


def _audited(args: argparse.Namespace, settings) -> int:
    """The in-memory run with the full self-audit recorded in its report (teaching-sized corpora)."""
    privacy = settings.privacy
    documents, hashes = read_documents(
        args.inputs, max_bytes=settings.inputs.max_bytes, text_field=settings.inputs.text_field
    )
    backends = backends_of(settings)
    review = Review.read(settings.inputs.review) if settings.inputs.review else None
    update, close = progress_bar(not args.quiet and len(documents) > 1)
    try:
        release = sanitize(
            documents, epsilon=privacy.epsilon, lam=privacy.lam, k=privacy.k, seed=privacy.seed,
            backends=backends, input_hashes=hashes, progress=update, review=review,
        )  # fmt: skip
    finally:
        close()
    audit, release = audit_with_backends(release, extractor=backends.extractor, candidates=backends.candidates)
    print(audit.table())
    write_release(release, args.out, mapping=args.mapping)
    if settings.backends.pool_file and isinstance(backends.candidates, LLMCandidates):
        backends.candidates.export(settings.backends.pool_file)
    private = confidential_counts(release) if args.mapping else None
    return _summary(build_report(release), private, args, privacy)


def _summary(report: dict, private: dict | None, args: argparse.Namespace, privacy) -> int:
    """The one summary line (public counts only), the warnings, and the exit status."""
    counts = report["counts"]
    out = Path(args.out)
    print(
        f"wrote {plural(counts['documents'], 'document')} to {out / 'documents'}: "
        f"{counts['slots']} relation slots in {counts['groups']} groups, {counts['groups_deleted']} groups deleted, "
        f"{counts['sentences_removed']} of {counts['sentences']} sentences removed, "
        f"{counts['sentences_withheld']} withheld "
        f"(ε={privacy.epsilon:g}, λ={privacy.lam:g}, K={privacy.k}); report: {out / 'report.md'}"
    )
    unprotected = report["coverage"]["sentences_with_two_entities_and_no_slot"]
    if unprotected:
        print(
            f"not protected: {unprotected} sentences name two or more entities but hold no relation slot "
            "(relations the extractor missed are released as written; see the report)"
        )
    if privacy.seed is not None:
        print("warning: a fixed --seed was used; this output is NOT a private release", file=sys.stderr)
    if private is not None:
        print(
            f"CONFIDENTIAL mapping written ({private['unchanged']} of {private['relations']} relations kept their "
            f"original predicate, {private['same_words']} more read in their original words); keep it apart from "
            "the release",
            file=sys.stderr,
        )
    withheld = counts["sentences_withheld"]
    if not withheld:
        return 0
    where = "listed in the confidential mapping" if args.mapping else "rerun with --mapping to list them"
    print(
        f"relguard: {withheld} sentence{'s' if withheld != 1 else ''} withheld: the leak scan still found an "
        f"original relation there, so {'they were' if withheld != 1 else 'it was'} left out of the release "
        f"({where}); please report it with the RelGuard version"
        + ("" if args.allow_withheld else f"; exit status {WITHHELD_EXIT} (pass --allow-withheld to accept)"),
        file=sys.stderr,
    )
    return 0 if args.allow_withheld else WITHHELD_EXIT
