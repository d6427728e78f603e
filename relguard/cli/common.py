"""What the sub-commands share: the settings flags, settings and backends from them, the progress bar."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from relguard.engine.backends import Backends
from relguard.settings import FLAGS, LLM_FLAGS, Settings, from_values

EXAMPLES = """examples:
  relguard sanitize assets/sample_corpus --out out/release --epsilon 5 --lam 1 --k 10
  relguard sanitize notes.jsonl --out out/notes --epsilon 1 --mapping
  relguard inspect assets/sample_corpus/acme.txt --epsilon 1

privacy parameters:
  --epsilon  how much a reader may learn about each relation: 0.1 strong privacy, 10 weak
  --lam      the distance of deleting a relation; smaller deletes more (paper default 1)
  --k        how many public candidate predicates each relation is drawn from (paper default 10)
"""
INPUTS_HELP = "files or folders (.txt, .md, .jsonl, .csv, .parquet, .pdf, .docx, .html)"


def add_settings_flags(parser: argparse.ArgumentParser, *, privacy: bool = True) -> None:
    """The settings flags of :data:`~relguard.settings.FLAGS`; LLM-only flags under their own heading.

    Every default is None (:func:`~relguard.settings.from_values` then takes the settings' own defaults), so a
    flag given on the command line can be told from one left out: ``--epsilon`` next to ``--entity-epsilon`` is
    refused even when it names the default ε.
    """
    llm = parser.add_argument_group("LLM backends (--extractor llm / --candidates llm)")
    for spec in FLAGS:
        if spec.section == "privacy" and not privacy:
            continue
        target = llm if spec.flag in LLM_FLAGS else parser
        if spec.type is bool:
            target.add_argument(spec.flag, action="store_true", default=None, help=spec.help)
        else:
            target.add_argument(spec.flag, type=spec.type, default=None, help=spec.help)


def settings_of(args: argparse.Namespace) -> Settings:
    """The run's :class:`~relguard.settings.Settings`, validated once, here, with the seed when given."""
    return from_values(args, seed=getattr(args, "seed", None))


def backends_of(settings: Settings) -> Backends:
    return Backends.from_settings(settings.backends)


def progress_bar(enabled: bool) -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A tqdm bar on stderr updated with (done, total), and a function that closes it."""
    if not enabled:
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=0, unit="doc", desc="extracting", file=sys.stderr, leave=False)

    def update(done: int, total: int) -> None:
        bar.total = total
        bar.n = done
        bar.refresh()

    return update, bar.close


#: What each stage of a batch run is called on the progress bar.
STAGES = {"extracting": "extracting", "drawing": "drawing outcomes", "rewriting": "rewriting"}


def stage_bar(enabled: bool) -> tuple[Callable[[str, int, int], None] | None, Callable[[], None]]:
    """A tqdm bar on stderr for each stage of a batch run, with its rate and time left, and a closer."""
    if not enabled:
        return None, lambda: None
    from tqdm import tqdm

    current: dict[str, object] = {}

    def update(stage: str, done: int, total: int) -> None:
        bar = current.get(stage)
        if bar is None:
            for old in current.values():
                old.close()  # type: ignore[attr-defined]
            current.clear()
            counted = {} if total else {"bar_format": "{desc} {elapsed}"}
            bar = current[stage] = tqdm(
                total=total or None,
                unit="doc",
                desc=STAGES.get(stage, stage),
                file=sys.stderr,
                leave=False,
                dynamic_ncols=True,
                **counted,
            )
        bar.total = total or None  # type: ignore[attr-defined]
        bar.n = done  # type: ignore[attr-defined]
        bar.refresh()  # type: ignore[attr-defined]

    def close() -> None:
        for bar in current.values():
            bar.close()  # type: ignore[attr-defined]

    return update, close


def workers_count(value: str) -> int:
    """``--workers``: a whole number of processes, at least 1 (argparse type)."""
    try:
        number = int(value)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"--workers must be a whole number of processes, at least 1 (got {value!r})")
    return number
