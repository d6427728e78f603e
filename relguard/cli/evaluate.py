"""``relguard evaluate``: the targeted attack and utility measures against baselines, as tables and plots."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from relguard.cli.common import workers_count
from relguard.errors import ConfigError
from relguard.evaluation.comparators.compare import parse_baselines
from relguard.evaluation.datasets import load_dataset
from relguard.evaluation.sweep import run_evaluation, write_outputs
from relguard.settings import DEFAULT_ENCODER, check_epsilon, check_k, check_lam

EXAMPLES = """examples:
  relguard evaluate --dataset hotpotqa --limit 20 --out out/eval/hotpotqa
  relguard evaluate --dataset 2wiki --sweeps --out out/eval/2wiki
  relguard evaluate --dataset redocred --limit 25 --trials 3 --out out/eval/redocred
  relguard evaluate --dataset assets/sample_corpus --no-presidio --out out/eval/sample
  relguard evaluate --dataset hotpotqa --limit 5 --baselines trip-rag,promptgraph --out out/eval/seed
  relguard evaluate --dataset 2wiki --limit 20 --baselines none --out out/eval/2wiki
"""


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
    run.add_argument("--limit", type=int, default=None, help="first N questions (documents for redocred/PATH)")
    run.add_argument("--out", required=True, help="output folder for CSV, markdown and PNG files")
    run.add_argument("--epsilons", type=_floats, default=(10.0, 5.0, 1.0, 0.1), help="ε values (default 10,5,1,0.1)")
    run.add_argument("--no-null-epsilons", type=_floats, default=(5.0, 1.0), help="ε values of the w/o-null ablation")
    run.add_argument("--lam", type=float, default=1.0, help="λ of the comparison (default 1)")
    run.add_argument("--k", type=int, default=10, help="K of the comparison (default 10)")
    run.add_argument("--trials", type=int, default=3, help="releases per setting, reported as mean ± std (default 3)")
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
    run.set_defaults(handler=run_evaluate)


def run_evaluate(args: argparse.Namespace) -> int:

    for value in (*args.epsilons, *args.no_null_epsilons):
        check_epsilon(value)
    for value in (args.lam, *args.lams):
        check_lam(value)
    for value in (args.k, *args.ks):
        check_k(value)
    if args.trials < 1:
        raise ConfigError(f"--trials must be at least 1 (got {args.trials})")
    seed_sanitizers = parse_baselines(args.baselines)
    dataset = load_dataset(args.dataset, data_dir=Path(args.data_dir) if args.data_dir else None, limit=args.limit)

    def log(message: str) -> None:
        if not args.quiet:
            print(message, file=sys.stderr)

    result = run_evaluation(
        dataset,
        epsilons=args.epsilons,
        lam=args.lam,
        k=args.k,
        trials=args.trials,
        no_null_epsilons=args.no_null_epsilons,
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
