"""``relguard sanitize``: read a corpus, draw a release, write its public files (the mapping apart, on request).

Every run goes through the release core (:mod:`relguard.engine`): streamed on every core (the default) or on Ray
(``--engine ray``). ``--self-audit`` is that same run, then ``relguard audit`` on the folder it wrote, recorded in
its report: the audited release is the plain release, whatever the settings. Every release folder gets its
config.toml, and ``--config`` replays one.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from relguard.candidates.exclusion import unwrapped
from relguard.candidates.llm import LLMCandidates
from relguard.cli.common import (
    EXAMPLES,
    INPUTS_HELP,
    add_settings_flags,
    backends_of,
    settings_of,
    stage_bar,
    workers_count,
)
from relguard.engine import Backends, Finished, run_local, run_ray
from relguard.engine.marks import CLOSE, OPEN, SLOTS_FIELD, SLOTS_FILE
from relguard.errors import ConfigError
from relguard.extract.review import Review
from relguard.io import atomic_write, read_documents
from relguard.llm.estimate import estimate
from relguard.pipeline import prepare
from relguard.release.confidential import MappingRow, confidential_bytes, confidential_counts, confidential_document
from relguard.release.config import SIGNED, RunConfig, RunOptions, read_config, recorded_of, resolve_inputs
from relguard.release.draws import DrawHistory, charge_folder, folder_history
from relguard.release.entity import summary_words
from relguard.release.report import counts_words, loss_words
from relguard.release.signoff import DECISION_NAMES, REFUSED, checked_sign_off, date_of, decision_of
from relguard.settings import FLAGS
from relguard.textable import plural

#: Exit status when the leak scan withheld sentences and --allow-withheld was not given.
WITHHELD_EXIT = 4
#: The run options (:class:`RunOptions`), each given by the flag of its name.
_OPTIONS = tuple(option.name for option in dataclasses.fields(RunOptions))
#: Flags that change what a release is: with --config they come from the config, never from the command line.
_RELEASE_FLAGS = ("seed", *_OPTIONS)


def add_parser(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser(
        "sanitize",
        help="write a sanitized corpus and its public report",
        description="Sanitize files or folders of documents (.txt, .md, .jsonl with one document per line, .csv, "
        ".parquet, .pdf, .docx, .html), or replay a release from its config.toml (--config).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument(
        "inputs", nargs="*", metavar="INPUT", help=f"{INPUTS_HELP}; with --config, they replace its inputs"
    )
    run.add_argument("--out", required=True, help="output folder (created if missing)")
    run.add_argument(
        "--config",
        default=None,
        metavar="CONFIG",
        help="replay a release from its config.toml: settings, inputs, review and policies (add only --out, "
        "--mapping and engine flags)",
    )
    run.add_argument(
        "--seed", type=int, default=None, help="fixed seed for demos and teaching: the output is NOT a private release"
    )
    run.add_argument(
        "--mapping",
        default=None,
        metavar="PATH",
        help="also write the CONFIDENTIAL original→sampled mapping to PATH, outside --out (never publish it)",
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
    run.add_argument(
        "--verbose",
        action="store_true",
        help="also print confidential numbers: the mapping's counts and the self-audit over the original relations",
    )
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
    run.add_argument(
        "--mark-slots",
        action="store_true",
        help=f"also mark every filled slot inside the text, between {OPEN} and {CLOSE} (the ranges are always in "
        f"the {SLOTS_FIELD} field of .jsonl records and in {SLOTS_FILE} for text files)",
    )
    run.add_argument(
        "--no-notice",
        action="store_true",
        help="leave out the one-line notice that the relations were drawn at random at ε (by default it opens every "
        "text file and is the relguard_notice field of every .jsonl record)",
    )
    run.add_argument("--dry-run", action="store_true", help="estimate the LLM calls and tokens of this run and stop")
    add_sign_off_flags(run)
    add_settings_flags(run)
    run.set_defaults(handler=run_sanitize, parser_defaults={a.dest: a.default for a in run._actions})


def add_sign_off_flags(parser: argparse.ArgumentParser) -> None:
    """The sign-off recorded in report.json, report.md and config.toml (public: the officer's own words)."""
    sign = parser.add_argument_group(
        "sign-off (recorded in the report and config; give --reviewer, --decision and --signed-on together)"
    )
    sign.add_argument("--reviewer", default=None, metavar="NAME", help="who reviewed this release")
    sign.add_argument(
        "--decision",
        type=_decision,
        default=None,
        metavar="DECISION",
        help=f"the reviewer's decision: {', '.join(DECISION_NAMES)} (a --seed run can never be approved)",
    )
    sign.add_argument("--signed-on", type=_date, default=None, metavar="YYYY-MM-DD", help="the date of the review")
    sign.add_argument(
        "--sign-notes", default=None, metavar="TEXT", help="notes; an approval with conditions writes them here"
    )


def _decision(value: str) -> str:
    decision = decision_of(value)
    if decision not in DECISION_NAMES.values():
        raise argparse.ArgumentTypeError(f"must be one of {', '.join(DECISION_NAMES)} (got {value!r})")
    return decision


def _date(value: str) -> str:
    try:
        return date_of(value).isoformat()
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def signed_run(run: RunConfig, args: argparse.Namespace) -> RunConfig:
    """``run`` with the sign-off its flags give, checked before any work (:func:`checked_sign_off`)."""
    given = {"reviewer": args.reviewer, "date": args.signed_on, "decision": args.decision, "notes": args.sign_notes}
    sign_off = checked_sign_off(given, private_release=run.settings.privacy.seed is None)
    return dataclasses.replace(run, sign_off=sign_off)


def run_of(args: argparse.Namespace, parser_defaults: dict) -> tuple[RunConfig, dict[str, str]]:
    """The run the command line asks for: from its flags, or replayed from ``--config`` (and what it recorded)."""
    if args.config is None:
        if not args.inputs:
            raise ConfigError("relguard sanitize needs INPUT files or folders, or --config CONFIG to replay a release")
        options = RunOptions(**{name: getattr(args, name) for name in _OPTIONS})
        return RunConfig(settings_of(args), tuple(args.inputs), options), {}
    given = [f"--{name.replace('_', '-')}" for name in _RELEASE_FLAGS if getattr(args, name) != parser_defaults[name]]
    given += [spec.flag for spec in FLAGS if getattr(args, _dest(spec.flag)) != parser_defaults[_dest(spec.flag)]]
    if given:
        raise ConfigError(
            f"--config gives every setting of the release it replays; drop {given[0]} (or edit the config)"
        )
    run, recorded = read_config(args.config)
    if args.inputs:
        return RunConfig(run.settings, tuple(args.inputs), run.options), recorded
    return RunConfig(run.settings, run.inputs, run.options, tuple(resolve_inputs(run.inputs, args.config))), recorded


def _dest(flag: str) -> str:
    return flag[2:].replace("-", "_")


def history_of_run(args: argparse.Namespace, run: RunConfig) -> DrawHistory:
    """The draws this release follows: those of the release folder it is written into, or, for a private replay
    into a new folder, those of the release whose config it replays (its report.json beside config.toml): a
    replay without a seed is a fresh draw of that corpus, so its count goes on. A teaching replay reproduces its
    draw to the byte and adds nothing."""
    budget = run.settings.privacy.budget
    history = folder_history(args.out, budget=budget)
    if history.earlier or args.config is None or run.settings.privacy.seed is not None:
        return history
    replayed = Path(args.config).parent
    return folder_history(replayed, budget=budget) if (replayed / "report.json").is_file() else history


def run_sanitize(args: argparse.Namespace) -> int:
    run, recorded = run_of(args, args.parser_defaults)
    run = dataclasses.replace(signed_run(run, args), history=history_of_run(args, run))
    settings = run.settings
    if args.ray_address and args.engine != "ray":
        raise ConfigError("--ray-address needs --engine ray")
    if args.dry_run:
        documents, _ = read_documents(run.paths, **settings.inputs.reading)
        backends = backends_of(settings)
        print(
            estimate(
                documents, extractor=backends.extractor, candidates=backends.candidates, k=settings.privacy.k
            ).describe()
        )
        return 0
    charge_folder(run.history, run.paths, privacy=settings.privacy, out=args.out)
    backends = backends_of(settings) if settings.backends.uses_llm else None
    update, close = stage_bar(not args.quiet)
    try:
        if args.engine == "ray":
            finished = run_ray(
                run, out=args.out, workers=args.workers, address=args.ray_address, mapping=args.mapping, progress=update
            )
        else:
            finished = run_local(
                run, out=args.out, workers=args.workers, mapping=args.mapping, progress=update, backends=backends
            )
    finally:
        close()
    _export_pools(backends, settings.backends.pool_file)
    if run.options.self_audit:
        finished = _self_audit(args, run, finished, backends)
    return _summary(finished.report, finished.mapping_rows, args, run, recorded)


def _self_audit(args: argparse.Namespace, run: RunConfig, finished: Finished, backends: Backends | None) -> Finished:
    """``relguard audit --release OUT INPUT... --record`` on the release just written, whatever its settings.

    The release is the plain run's, byte for byte: the audit reads the written folder (its report, its public
    files) and the inputs again, so no setting can be dropped on the way. The public report gets the audit of
    public inputs only; the audit over the original relations is printed with ``--verbose`` and kept in the
    confidential mapping, never in the release.
    """
    from relguard.verify import audit_report, read_release_files, record_in_release, render_table

    settings = run.settings
    documents, hashes = read_documents(run.paths, **settings.inputs.reading)
    review = Review.read(settings.inputs.review) if settings.inputs.review else None
    corpus = prepare(
        documents,
        k=settings.privacy.k,
        backends=backends or backends_of(settings),
        input_hashes=hashes,
        review=review,
    )
    files = read_release_files(args.out)
    full = audit_report(finished.report, prepared=corpus, public=files, input_digests=tuple(hashes.values()))
    public = audit_report(finished.report, public=files)
    record_in_release(args.out, public)
    print(full.table() if args.verbose else render_table(public.to_dict()))
    if args.mapping:
        private = {**finished.confidential, "self_audit": full.to_dict()}
        document = confidential_document(finished.mapping_rows, private)
        atomic_write(Path(args.mapping), confidential_bytes(document), mode=0o600)  # the owner's alone, as written
    report = {**finished.report, "self_audit": public.to_dict()}
    return dataclasses.replace(finished, report=report, confidential=private if args.mapping else finished.confidential)


def _export_pools(backends: Backends | None, pool_file: str | None) -> None:
    """LLM pools are written back to the pool file, so a later run reuses them without the LLM."""
    candidates = unwrapped(backends.candidates) if backends is not None else None
    if pool_file and isinstance(candidates, LLMCandidates):
        candidates.export(pool_file)


def _summary(report: dict, rows: list[MappingRow], args: argparse.Namespace, run: RunConfig, recorded: dict) -> int:
    """The one summary line (public counts only), the warnings, and the exit status."""
    counts, privacy = report["counts"], run.settings.privacy
    out = Path(args.out)
    print(
        f"wrote {plural(counts['documents'], 'document')} to {out / 'documents'}: {counts_words(counts)}, "
        f"{counts['sentences_withheld']} withheld, slot mode {report['slot_mode']} "
        f"({summary_words(report)}); report: {out / 'report.md'}"
    )
    for entry in report.get("documents_losing_text") or []:
        print(f"lost text: {loss_words(entry)}; read it before publishing")
    cover = report["coverage"]
    if cover["sentences_not_protected"]:
        print(
            f"not protected: {cover['sentences_with_two_entities_and_no_slot']} sentences name two or more entities "
            f"but hold no relation slot, {cover['sentences_with_an_untyped_name']} hold a name no entity stands for "
            "(relations the extractor missed are released as written; see the report)"
        )
    fields = report.get("record_fields") or {}
    if left := fields.get("left_out"):
        print(
            f"left out: the record {'field' if len(left) == 1 else 'fields'} {', '.join(left)} (only the text field "
            "is sanitized; --keep-fields NAME releases one as written)"
        )
    if counts["sentences_unfillable"]:
        print(f"deleted: {counts['sentences_unfillable']} sentences where no wording of the drawn relation fits")
    if counts.get("sentences_restated"):
        print(f"restated: {counts['sentences_restated']} sentences as a plain statement of their drawn relations")
    if counts.get("sentences_connected"):
        print(
            f"connected: {counts['sentences_connected']} sentences kept with a neutral connector, their drawn "
            "relations stated after them"
        )
    for key, value in recorded_of(report).items():
        if key in recorded and recorded[key] != value:
            print(f"note: {key} is {value}, the replayed release recorded {recorded[key]}", file=sys.stderr)
    if privacy.seed is not None:
        print("warning: a fixed --seed was used; this output is NOT a private release", file=sys.stderr)
    if recorded.get(SIGNED) and not run.sign_off:
        print(
            f"note: the replayed release was signed off ({recorded[SIGNED]}); this draw is a new release with no "
            "sign-off until you give it one (--reviewer, --decision and --signed-on)",
            file=sys.stderr,
        )
    if run.sign_off.get("decision") == REFUSED:
        print(f"warning: recorded as '{REFUSED}' by {run.sign_off['reviewer']}: do not publish it", file=sys.stderr)
    if args.mapping:
        line = f"CONFIDENTIAL mapping written to {args.mapping}; keep it apart from the release"
        if args.verbose and rows:
            private = confidential_counts(rows)
            line += (
                f" ({private['unchanged']} of {private['relations']} relations kept their original predicate, "
                f"{private['same_words']} more read in their original words)"
            )
        print(line, file=sys.stderr)
    withheld = counts["sentences_withheld"]
    if not withheld:
        return 0
    where = "listed in the confidential mapping" if args.mapping else "rerun with --mapping PATH to list them"
    allowed = run.options.allow_withheld
    print(
        f"relguard: {plural(withheld, 'sentence')} withheld: the leak scan still found an "
        f"original relation there, so {'they were' if withheld != 1 else 'it was'} left out of the release "
        f"({where}); please report it with the RelGuard version"
        + ("" if allowed else f"; exit status {WITHHELD_EXIT} (pass --allow-withheld to accept)"),
        file=sys.stderr,
    )
    return 0 if allowed else WITHHELD_EXIT
