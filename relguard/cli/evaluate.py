"""``relguard evaluate``: the targeted attack and utility measures against baselines, as tables and plots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from relguard.cli.common import workers_count
from relguard.errors import ConfigError
from relguard.settings import DEFAULT_ENCODER, check_entity_epsilon, check_epsilon, check_k, check_lam

if TYPE_CHECKING:
    from relguard.evaluation.datasets import EvalDataset

EXAMPLES = """examples:
  relguard evaluate --dataset hotpotqa --limit 20 --out out/eval/hotpotqa
  relguard evaluate --dataset 2wiki --sweeps --out out/eval/2wiki
  relguard evaluate --dataset redocred --limit 25 --trials 3 --out out/eval/redocred
  relguard evaluate --dataset assets/sample_corpus --no-presidio --out out/eval/sample
  relguard evaluate --dataset hotpotqa --limit 5 --baselines trip-rag,promptgraph --out out/eval/seed
  relguard evaluate --dataset 2wiki --limit 20 --baselines none --out out/eval/2wiki
  eval "$(bash scripts/local-llm.sh --background)"   # a reader model for --qa
  relguard evaluate --qa --dataset hotpotqa --out out/eval/qa-hotpotqa           # 50 questions, ε=5,1
  relguard evaluate --qa --dataset 2wiki --trials 3 --out out/eval/qa-2wiki
"""
QA_EPSILONS = (5.0, 1.0)
QA_LIMIT = 50
QA_TRIALS = 1


def _floats(text: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in text.split(",") if v.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated numbers, got {text!r}") from exc


def _ints(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"expected comma-separated integers, got {text!r}") from exc


def add_parser(commands: argparse._SubParsersAction) -> None:
    run = commands.add_parser(
        "evaluate",
        help="measure leakage (targeted attack) and utility against baselines; writes tables and plots",
        description="Run the offline targeted reconstruction attack and utility measures on a dataset for no "
        "defence, RelGuard over ε (with and without null), sentence deletion, Presidio masking and the seed papers' "
        "sanitizers (TRIP-RAG, PA-HDP, PromptGraph; --baselines).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("--dataset", required=True, help="hotpotqa, 2wiki, redocred, or a file/folder of documents")
    run.add_argument("--data-dir", default=None, help="folder holding the named datasets (default ../shared/data)")
    run.add_argument(
        "--limit", type=int, default=None, help="first N questions (documents for redocred/PATH; --qa: default 50)"
    )
    run.add_argument("--out", required=True, help="output folder for CSV, markdown and PNG files")
    run.add_argument("--epsilons", type=_floats, default=None, help="ε values (default 10,5,1,0.1; --qa: 5,1)")
    run.add_argument("--no-null-epsilons", type=_floats, default=(5.0, 1.0), help="ε values of the w/o-null ablation")
    run.add_argument(
        "--entity-epsilons",
        type=_floats,
        default=(),
        help="per-entity budgets E to add (RelGuard per entity: each group at E / max(n(s), n(o))); default none",
    )
    run.add_argument("--lam", type=float, default=1.0, help="λ of the comparison (default 1)")
    run.add_argument("--k", type=int, default=10, help="K of the comparison (default 10)")
    run.add_argument(
        "--trials", type=int, default=None, help="releases per setting, reported as mean ± std (default 3; --qa: 1)"
    )
    run.add_argument("--sweeps", action="store_true", help="also sweep λ and K at ε=5 (paper Fig. 3)")
    run.add_argument("--lams", type=_floats, default=(0.01, 0.1, 0.5, 1.0, 2.0), help="λ values of the sweep")
    run.add_argument("--ks", type=_ints, default=(5, 10, 15, 20), help="K values of the sweep")
    run.add_argument("--no-presidio", action="store_true", help="skip the Presidio masking baseline")
    run.add_argument(
        "--baselines",
        default="all",
        help="seed-paper sanitizers to compare: comma-separated trip-rag,pa-hdp,promptgraph, 'all' (default) or "
        "'none'; each at its paper's defaults and matched to RelGuard's utility at ε=5 (slow: minutes per 100 docs)",
    )
    run.add_argument("--extractor", default="spacy", help="extractor for RelGuard and the attacker (default spacy)")
    run.add_argument("--candidates", default="inventory", help="candidate-pool backend (default: inventory)")
    run.add_argument(
        "--allow-remote-llm",
        action="store_true",
        help="allow an LLM endpoint that is not on this machine (the documents are sent there)",
    )
    run.add_argument("--encoder", default=DEFAULT_ENCODER, help="sentence-transformers model name or path")
    run.add_argument(
        "--workers", type=workers_count, default=None, help="spaCy extraction processes (default: every core)"
    )
    run.add_argument("--quiet", action="store_true", help="no progress lines")
    qa = run.add_argument_group("downstream QA (--qa: the paper's utility measure)")
    qa.add_argument(
        "--qa",
        action="store_true",
        help="instead of the attack sweep: a reader model answers the questions from the top BM25 passages of the "
        "original corpus and of releases at each ε; writes qa.md and qa_*.csv with EM/F1 and the loss",
    )
    qa.add_argument(
        "--qa-limit", type=int, default=None, metavar="N", help="ask only the first N of the loaded questions"
    )
    qa.add_argument(
        "--qa-passages", type=int, default=5, metavar="N", help="passages retrieved per question (default 5)"
    )
    qa.add_argument(
        "--seed", type=int, default=None, help="teaching seed for repeatable releases (not private; default OS entropy)"
    )
    qa.add_argument("--base-url", default=None, help="reader endpoint (default $OPENAI_BASE_URL, else OpenAI)")
    qa.add_argument("--llm-model", default=None, help="reader model name (default $RELGUARD_LLM_MODEL)")
    qa.add_argument("--api-key-env", default=None, help="variable holding the API key (default OPENAI_API_KEY)")
    qa.add_argument("--no-cache", action="store_true", help="ask the reader again instead of reusing cached replies")
    run.set_defaults(handler=run_evaluate)


def run_evaluate(args: argparse.Namespace) -> int:
    from relguard.evaluation.comparators.compare import parse_baselines
    from relguard.evaluation.sweep import run_evaluation, write_outputs

    if args.qa:
        return run_qa_evaluation(args)
    if args.seed is not None or args.qa_limit is not None:
        raise ConfigError("--seed and --qa-limit apply to --qa only")
    args.epsilons = args.epsilons or (10.0, 5.0, 1.0, 0.1)
    args.trials = 3 if args.trials is None else args.trials
    for value in (*args.epsilons, *args.no_null_epsilons):
        check_epsilon(value)
    for value in args.entity_epsilons:
        check_entity_epsilon(value)
    for value in (args.lam, *args.lams):
        check_lam(value)
    for value in (args.k, *args.ks):
        check_k(value)
    if args.trials < 1:
        raise ConfigError(f"--trials must be at least 1 (got {args.trials})")
    seed_sanitizers = parse_baselines(args.baselines)
    dataset = _dataset(args, limit=args.limit)
    log = _log(quiet=args.quiet)
    result = run_evaluation(
        dataset,
        epsilons=args.epsilons,
        lam=args.lam,
        k=args.k,
        trials=args.trials,
        no_null_epsilons=args.no_null_epsilons,
        entity_epsilons=args.entity_epsilons,
        lams=args.lams if args.sweeps else (),
        ks=args.ks if args.sweeps else (),
        presidio=not args.no_presidio,
        seed_sanitizers=seed_sanitizers,
        extractor=_extractor(args.extractor, args.workers, allow_remote=args.allow_remote_llm),
        candidates=_remote(registry_name=args.candidates, kind="candidates", allow_remote=args.allow_remote_llm),
        encoder=args.encoder,
        log=log,
    )
    written = write_outputs(result, args.out)
    print(f"evaluated {dataset.name} ({dataset.note}); wrote {len(written)} files to {args.out}:")
    for path in written:
        print(f"  {path}")
    return 0


def _dataset(args: argparse.Namespace, *, limit: int | None) -> EvalDataset:
    """The dataset ``--dataset`` names, its first ``limit`` items, from ``--data-dir`` when given."""
    from relguard.evaluation.datasets import load_dataset

    return load_dataset(args.dataset, data_dir=Path(args.data_dir) if args.data_dir else None, limit=limit)


def _log(*, quiet: bool) -> Callable[[str], None]:
    """Progress lines on stderr; none with ``--quiet``."""

    def log(message: str) -> None:
        if not quiet:
            print(message, file=sys.stderr)

    return log


def _remote(*, registry_name: str, kind: str, allow_remote: bool):
    """An LLM backend built here with ``allow_remote`` when the flag was given; otherwise the name, built later."""
    if not allow_remote or registry_name not in ("llm", "union"):
        return registry_name
    from relguard import registry

    return registry.create(kind, registry_name, allow_remote=True)


def _extractor(name: str, workers: int | None, *, allow_remote: bool = False):
    """spaCy spread over ``workers`` processes (default every core); other extractors by name, in this process."""
    if name != "spacy":
        return _remote(registry_name=name, kind="extractor", allow_remote=allow_remote)
    from relguard.extract.parallel import ParallelExtractor, default_workers

    return ParallelExtractor(name, workers=workers or default_workers())


def run_qa_evaluation(args: argparse.Namespace) -> int:
    """``--qa``: check settings and the reader's configuration first, then read, prepare, draw and read again."""
    from relguard.evaluation.qa import run_qa, write_qa
    from relguard.evaluation.reader import Reader, reader_config

    epsilons = args.epsilons or QA_EPSILONS
    for value in epsilons:
        check_epsilon(value)
    check_lam(args.lam)
    check_k(args.k)
    trials = QA_TRIALS if args.trials is None else args.trials
    for flag, value in (("--trials", trials), ("--limit", args.limit), ("--qa-limit", args.qa_limit)):
        if value is not None and value < 1:
            raise ConfigError(f"{flag} must be at least 1 (got {value})")
    if args.qa_passages < 1:
        raise ConfigError(f"--qa-passages must be at least 1 (got {args.qa_passages})")
    config = reader_config(model=args.llm_model, base_url=args.base_url, api_key_env=args.api_key_env)
    reader = Reader(config, cache=not args.no_cache)
    dataset = _dataset(args, limit=args.limit or QA_LIMIT)
    log = _log(quiet=args.quiet)
    progress, close = _question_bar(not args.quiet)
    try:
        result = run_qa(
            dataset,
            reader=reader,
            epsilons=epsilons,
            lam=args.lam,
            k=args.k,
            releases=trials,
            seed=args.seed,
            limit=args.qa_limit,
            passages=args.qa_passages,
            extractor=_extractor(args.extractor, args.workers),
            candidates=args.candidates,
            encoder=args.encoder,
            progress=progress,
            log=log,
        )
    finally:
        close()
    written = write_qa(result, args.out)
    print(f"QA on {dataset.name} ({result.questions} questions, reader {reader.name}); wrote {len(written)} files:")
    for path in written:
        print(f"  {path}")
    return 0


def _question_bar(enabled: bool):
    """A tqdm bar per corpus read (questions answered of questions), on stderr, and a closer."""
    if not enabled:
        return None, lambda: None
    from tqdm import tqdm

    bars: dict[str, object] = {}

    def update(label: str, done: int, total: int) -> None:
        if label not in bars:
            if done >= total:
                return
            for old in bars.values():
                old.close()  # type: ignore[attr-defined]
            bars.clear()
            bars[label] = tqdm(total=total, unit="question", desc=f"QA {label}", file=sys.stderr, leave=False)
        bar = bars[label]
        bar.n = done  # type: ignore[attr-defined]
        bar.refresh()  # type: ignore[attr-defined]
        if done >= total:
            bars.pop(label).close()  # type: ignore[attr-defined]

    def close() -> None:
        for bar in bars.values():
            bar.close()  # type: ignore[attr-defined]

    return update, close
