"""The composition ledger: every draw of a corpus is a release of it, and the ε of releases add up.

A reader who sees two draws of one corpus learns from both: k private draws at ε per relation give k·ε per
relation and, per document, the sum of each draw's ε·m (m its most relation groups in one document). So
"redraw until it reads well" must be neither free nor invisible (DESIGN invariant 14): the report says which
draw of the corpus it is, how many were made at these settings, and what they spend together.

Only public information decides what counts as "this corpus": the names of its document files (the output files
carry them). A digest of the inputs would tell a reader whether the corpus changed between two draws — a function
of the original relations (invariant 12) — so contents are never compared; a draw of an edited corpus under the
same names still counts, which can only over-count. Where the earlier draws are seen is the face's: the app's
session, or the release folder a CLI run writes into (:func:`folder_history`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from relguard.errors import ConfigError

#: How earlier draws are counted, in the words the report prints under the ledger and in its limits. One text for
#: every face, so the app's zip and its replay on the command line read alike.
COUNTED = (
    "Draws are counted where they are made: in the app, every draw it recorded on this machine (its state folder "
    "keeps them across reloads and tabs) of documents with the same names; on the command line, from the release "
    "folder's own history (a release written into a folder whose report.json is a release with a document file of "
    "the same name continues that ledger, and a private --config replay continues the replayed release's). Draws "
    "made elsewhere "
    "are not seen, and contents are never compared (a digest of the inputs would depend on the original "
    "relations): keep one folder per corpus, and publish one draw."
)
#: A ledger entry's fields, each a public setting or public structure of one draw.
ENTRY_FIELDS = ("draw", "epsilon", "lambda", "k", "entity_epsilon", "private", "max_groups_in_one_document")


@dataclass(frozen=True)
class DrawHistory:
    """The earlier draws a release was made after, as ledger entries (none: this is the first draw seen).
    ``documents``, when given, are the document files the earlier release held: its ledger continues only for a
    release sharing one of them (a folder reused for another corpus starts a new ledger)."""

    earlier: tuple[Mapping, ...] = ()
    documents: frozenset[str] | None = None

    def applies_to(self, documents: Iterable[str]) -> tuple[Mapping, ...]:
        if self.documents is None or self.documents & set(documents):
            return self.earlier
        return ()


def draw_entry(
    *, epsilon: float, lam: float, k: int, entity_epsilon: float | None, private: bool, max_groups: int
) -> dict:
    """One ledger entry (numbered when the ledger is built)."""
    return {
        "draw": 0,
        "epsilon": float(epsilon),
        "lambda": float(lam),
        "k": int(k),
        "entity_epsilon": None if entity_epsilon is None else float(entity_epsilon),
        "private": bool(private),
        "max_groups_in_one_document": int(max_groups),
    }


def _bound(exponent: float) -> float | str:
    return math.exp(exponent) if exponent < 700 else "inf"


def draws_block(history: DrawHistory, current: Mapping, *, documents: Iterable[str]) -> dict:
    """The report's ``draws``: this draw's number, the counts, the ledger and what its private draws spend."""
    ledger = [dict(entry, draw=number) for number, entry in enumerate((*history.applies_to(documents), current), 1)]
    private = [entry for entry in ledger if entry["private"]]
    settings = ("epsilon", "lambda", "k", "entity_epsilon")
    total = math.fsum(entry["epsilon"] for entry in private)
    per_document = math.fsum(entry["epsilon"] * entry["max_groups_in_one_document"] for entry in private)
    return {
        "this_draw": len(ledger),
        "at_these_settings": sum(all(e[s] == current[s] for s in settings) for e in ledger),
        "private": len(private),
        "ledger": ledger,
        "total_epsilon": total,
        "total_per_document_epsilon": per_document,
        "worst_case_per_relation_bound": _bound(total),
        "worst_case_per_document_bound": _bound(per_document),
        "composition": "each draw is another release of the same corpus: k private draws at epsilon per relation "
        "spend k * epsilon per relation, and per document the sum of each draw's epsilon * m; teaching draws carry "
        "no guarantee to add (they are not private releases)",
        "counted": COUNTED,
    }


def folder_history(out: str | Path) -> DrawHistory:
    """The ledger a release folder already holds (its report.json), to continue when a release is written there.

    A folder without a report starts a ledger; a report from before the ledger counts as one draw; a report that
    cannot be read is an error, since writing over it would lose its draws from the count.
    """
    path = Path(out) / "report.json"
    if not path.exists():
        return DrawHistory(documents=frozenset())
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        documents = frozenset(name for name in report["files"]["outputs"] if name.startswith("documents/"))
        block = report.get("draws")  # none in a release from before the ledger: one draw, at its own settings
        earlier = [_entry_of_report(report)] if block is None else [_checked(entry) for entry in block["ledger"]]
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(
            f"{path}: the release already in --out cannot be read ({type(exc).__name__}: {exc}), so its draws "
            "cannot be counted; move that release away or choose another --out"
        ) from exc
    return DrawHistory(tuple(earlier), documents=documents)


def _entry_of_report(report: Mapping) -> dict:
    params, guarantee = report["parameters"], report["guarantee"]
    return _checked(
        {
            "epsilon": params["epsilon"],
            "lambda": params["lambda"],
            "k": params["k"],
            "entity_epsilon": params.get("entity_epsilon"),
            "private": report["private_release"],
            "max_groups_in_one_document": guarantee["max_groups_in_one_document"],
        }
    )


def _checked(entry: Mapping) -> dict:
    """A ledger entry read from a file, each field of the type it must have (ValueError otherwise)."""
    numbers = [entry["epsilon"], entry["lambda"]] + ([entry["entity_epsilon"]] if entry.get("entity_epsilon") else [])
    whole = [entry["k"], entry["max_groups_in_one_document"]]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and v >= 0 for v in numbers):
        raise ValueError(f"a ledger entry's epsilon and lambda must be numbers >= 0, got {dict(entry)}")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in whole):
        raise ValueError(f"a ledger entry's k and max_groups_in_one_document must be whole numbers, got {dict(entry)}")
    if not isinstance(entry["private"], bool):
        raise ValueError(f"a ledger entry's private must be true or false, got {dict(entry)}")
    return draw_entry(
        epsilon=entry["epsilon"],
        lam=entry["lambda"],
        k=entry["k"],
        entity_epsilon=entry.get("entity_epsilon"),
        private=entry["private"],
        max_groups=entry["max_groups_in_one_document"],
    )


def same_corpus(a: Sequence[str], b: Sequence[str]) -> bool:
    """Whether two draws are of one corpus, by public information only: they share a document name."""
    return bool(set(a) & set(b))
