"""The ``relguard`` command: batch sanitization and inspection of corpora.

Every error a user can cause ends in one readable line on stderr and a
non-zero exit code (1 for bad input or settings, 2 for bad usage); tracebacks
are for bugs only.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from relguard.errors import RelGuardError

EXAMPLES = """examples:
  relguard sanitize assets/sample_corpus --out out/release --epsilon 5 --lam 1 --k 10
  relguard sanitize notes.jsonl --out out/notes --epsilon 1 --audit
  relguard inspect assets/sample_corpus/acme.txt --epsilon 1

privacy parameters:
  --epsilon  how much a reader may learn about each relation: 0.1 strong privacy, 10 weak
  --lam      the distance of deleting a relation; smaller deletes more (paper default 1)
  --k        how many public candidate predicates each relation is drawn from (paper default 10)
"""


def _epsilon_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--epsilon", type=float, default=5.0, help="privacy budget ε ≥ 0 (default 5)")
    parser.add_argument("--lam", type=float, default=1.0, help="deletion distance λ ≥ 0 (default 1)")
    parser.add_argument("--k", type=int, default=10, help="candidates per pool, K ≥ 1 (default 10)")


def _backend_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--extractor", default="spacy", help="extractor backend (default: spacy, offline)")
    parser.add_argument("--candidates", default="inventory", help="candidate-pool backend (default: inventory)")
    parser.add_argument("--encoder", default="all-MiniLM-L6-v2", help="sentence-transformers model name or path")
    parser.add_argument(
        "--max-bytes", type=int, default=20 * 1024 * 1024, help="refuse input files larger than this (default 20 MB)"
    )
    parser.add_argument("--text-field", default="text", help="field holding the text in .jsonl input (default text)")
    llm = parser.add_argument_group("LLM backends (--extractor llm / --candidates llm)")
    llm.add_argument(
        "--base-url",
        default=None,
        help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (default: $OPENAI_BASE_URL, else OpenAI)",
    )
    llm.add_argument("--llm-model", default=None, help="model name (default: $RELGUARD_LLM_MODEL)")
    llm.add_argument(
        "--api-key-env",
        default=None,
        help="environment variable holding the API key (default OPENAI_API_KEY; not needed for most local servers)",
    )
    llm.add_argument(
        "--pool-file",
        default=None,
        help="public pool file: read by --candidates pool-file; with "
        "--candidates llm, pools found in it are reused and all pools used are written back to it",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="relguard",
        description="Sanitize documents with relation differential privacy before a GraphRAG system indexes "
        "them: each relation between two named entities is replaced by a public candidate or deleted.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from relguard import __version__

    parser.add_argument("--version", action="version", version=f"relguard {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = commands.add_parser(
        "sanitize",
        help="write a sanitized corpus and its public report",
        description="Sanitize files or folders of .txt/.md documents, or .jsonl with one document per line.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("inputs", nargs="+", metavar="INPUT", help="files or folders (.txt, .md, .jsonl)")
    run.add_argument("--out", required=True, help="output folder (created if missing)")
    _epsilon_args(run)
    run.add_argument(
        "--seed", type=int, default=None, help="fixed seed for demos and teaching: the output is NOT a private release"
    )
    run.add_argument(
        "--audit", action="store_true", help="also write the CONFIDENTIAL original→sampled mapping (kept apart)"
    )
    run.add_argument(
        "--self-audit", action="store_true", help="run `relguard audit` on this release and record it in the report"
    )
    run.add_argument(
        "--allow-withheld",
        action="store_true",
        help="exit 0 even when the leak scan withheld sentences (they are never published; see docs/reliability.md)",
    )
    run.add_argument("--quiet", action="store_true", help="no progress bar")
    run.add_argument("--dry-run", action="store_true", help="estimate the LLM calls and tokens of this run and stop")
    _backend_args(run)

    look = commands.add_parser(
        "inspect",
        help="show triples, types, pools and probability tables of documents",
        description="Print what RelGuard extracts from documents and how it would perturb each relation.",
    )
    look.add_argument("inputs", nargs="+", metavar="INPUT", help="files or folders (.txt, .md, .jsonl)")
    _epsilon_args(look)
    _backend_args(look)
    audit = commands.add_parser(
        "audit",
        help="re-derive the relation-DP guarantee for a corpus or a written release (pass/fail table)",
        description="Check the exact bound ε·d_R over original relations, candidates and near-duplicates, "
        "test the OpenDP sampler against the exact probabilities (χ²), and check that pools depend only on "
        "type pairs. INPUT documents give the original relations; --release DIR audits a written release.",
    )
    audit.add_argument("inputs", nargs="*", metavar="INPUT", help="files or folders (.txt, .md, .jsonl)")
    audit.add_argument("--release", default=None, help="a release folder (or its report.json) to audit")
    audit.add_argument("--record", action="store_true", help="record the audit in the release's report.json/.md")
    audit.add_argument("--json", default=None, help="also write the audit as JSON to this file")
    _epsilon_args(audit)
    _backend_args(audit)
    from relguard.evaluation.command import add_evaluate_parser

    add_evaluate_parser(commands)
    return parser


def _progress(enabled: bool):
    if not enabled:
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=0, unit="doc", desc="extracting", file=sys.stderr, leave=False)

    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    return update, bar.close


def _backends(args: argparse.Namespace) -> tuple[object, object]:
    """Backend objects for the LLM names (they need options), plain names for the rest."""
    from relguard.llm import build_backends

    return build_backends(
        extractor=args.extractor,
        candidates=args.candidates,
        model=args.llm_model,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        pool_file=args.pool_file,
        encoder=args.encoder,
    )


def _sanitize(args: argparse.Namespace) -> int:
    from relguard.io import read_documents
    from relguard.mechanism import check_epsilon, check_k, check_lam
    from relguard.pipeline import sanitize
    from relguard.report import confidential_counts, release_counts, write_release

    check_epsilon(args.epsilon), check_lam(args.lam), check_k(args.k)
    documents, hashes = read_documents(args.inputs, max_bytes=args.max_bytes, text_field=args.text_field)
    extractor, candidates = _backends(args)
    if args.dry_run:
        from relguard.llm.estimate import estimate

        print(estimate(documents, extractor=extractor, candidates=candidates, k=args.k).describe())
        return 0
    show = not args.quiet and len(documents) > 1
    update, close = _progress(show)
    try:
        release = sanitize(
            documents,
            epsilon=args.epsilon,
            lam=args.lam,
            k=args.k,
            seed=args.seed,
            extractor=extractor,
            candidates=candidates,
            encoder=args.encoder,
            input_hashes=hashes,
            progress=update,
        )
    finally:
        close()
    if getattr(args, "self_audit", False):
        from relguard.selfaudit import audit_with_backends

        audit, release = audit_with_backends(release, extractor=extractor, candidates=candidates)
        print(audit.table())
    write_release(release, args.out, audit=args.audit)
    if args.pool_file and hasattr(candidates, "export"):
        candidates.export(args.pool_file)
    counts = release_counts(release)
    print(
        f"wrote {counts['documents']} documents to {Path(args.out) / 'documents'}: "
        f"{counts['slots']} relation slots in {counts['groups']} groups, {counts['groups_deleted']} groups deleted, "
        f"{counts['sentences_removed']} of {counts['sentences']} sentences removed, "
        f"{counts['sentences_withheld']} withheld "
        f"(ε={args.epsilon:g}, λ={args.lam:g}, K={args.k}); report: {Path(args.out) / 'report.md'}"
    )
    if args.seed is not None:
        print("warning: a fixed --seed was used; this output is NOT a private release", file=sys.stderr)
    if args.audit:
        private = confidential_counts(release)
        print(
            f"CONFIDENTIAL file written ({private['unchanged']} of {private['relations']} relations kept their "
            "original predicate); keep it apart from the release",
            file=sys.stderr,
        )
    withheld = counts["sentences_withheld"]
    if withheld:
        where = "listed in the confidential file" if args.audit else "rerun with --audit to list them"
        print(
            f"relguard: {withheld} sentence{'s' if withheld != 1 else ''} withheld: the leak scan still found an "
            f"original relation there, so {'they were' if withheld != 1 else 'it was'} left out of the release "
            f"({where}); please report it with the RelGuard version"
            + ("" if args.allow_withheld else "; exit status 4 (pass --allow-withheld to accept)"),
            file=sys.stderr,
        )
        if not args.allow_withheld:
            return 4
    return 0


def _inspect(args: argparse.Namespace) -> int:
    from relguard.io import read_documents
    from relguard.mechanism import check_epsilon, check_lam
    from relguard.pipeline import prepare

    check_epsilon(args.epsilon), check_lam(args.lam)
    documents, _ = read_documents(args.inputs, max_bytes=args.max_bytes, text_field=args.text_field)
    extractor, candidates = _backends(args)
    prepared = prepare(documents, k=args.k, extractor=extractor, candidates=candidates, encoder=args.encoder)
    probabilities = prepared.probabilities(epsilon=args.epsilon, lam=args.lam)
    print(f"{len(documents)} documents, {len(prepared.triples)} canonical triples")
    print(f"ε={args.epsilon:g} λ={args.lam:g} K={args.k}; encoder {prepared.encoder_id}")
    for index, triple in enumerate(prepared.triples):
        pool = prepared.pool_for(triple)
        print()
        print(
            f"[{index}] ({triple.subject} [{triple.subject_type}], {triple.predicate}, "
            f"{triple.object} [{triple.object_type}])"
        )
        for occ in triple.occurrences:
            print(f"    in {occ.document} sentence {occ.sentence}: {occ.text!r} at {occ.start}-{occ.end}")
        print(f"    pool {triple.subject_type}->{triple.object_type} ({pool.source}):")
        row = probabilities[index]
        for j, predicate in enumerate(pool.predicates):
            print(f"      {predicate:<32} d_R={prepared.distances[index, j]:.3f}  P={row[j]:.4f}")
        print(f"      {'(null: delete)':<32} d={args.lam:<9g}  P={row[-1]:.4f}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    previous = _terminate_as_interrupt()
    try:
        if args.command == "evaluate":
            from relguard.evaluation.command import run_evaluate

            return run_evaluate(args)
        if args.command == "audit":
            from relguard.selfaudit import run_cli

            return run_cli(args)
        return _sanitize(args) if args.command == "sanitize" else _inspect(args)
    except RelGuardError as exc:
        print(f"relguard: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("relguard: interrupted; no partial file was left as complete", file=sys.stderr)
        return 130
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _terminate_as_interrupt():
    """Make SIGTERM unwind like Ctrl-C, so temporary files are removed instead of left behind by a hard exit.

    Returns the handler it replaced (None when not on the main thread, where handlers cannot be set)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, interrupt)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
