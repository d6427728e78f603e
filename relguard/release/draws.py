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

from relguard.errors import BudgetError, ConfigError
from relguard.io.read import input_files
from relguard.privacy.bounds import composed_epsilon
from relguard.settings import PrivacySettings

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


@dataclass(frozen=True)
class DrawHistory:
    """The earlier draws a release was made after, as ledger entries (none: this is the first draw seen).
    ``documents``, when given, are the document files the earlier release held: its ledger continues only for a
    release sharing one of them (a folder reused for another corpus starts a new ledger). ``budget`` is the cap set
    on the corpus's private draws (:class:`Accountant`), which the report states with what it leaves."""

    earlier: tuple[Mapping, ...] = ()
    documents: frozenset[str] | None = None
    budget: float | None = None

    def applies_to(self, documents: Iterable[str]) -> tuple[Mapping, ...]:
        if self.documents is None or self.documents & set(documents):
            return self.earlier
        return ()

    def applies_to_inputs(self, names: Iterable[str]) -> tuple[Mapping, ...]:
        """:meth:`applies_to` before any output exists: an input ``x.pdf`` is written as ``documents/x.pdf.txt``
        (a name plus a suffix, :data:`~relguard.release.report.NAMING`), so its name or that name and a dot."""
        if self.documents is None:
            return self.earlier
        wanted = [f"documents/{name}" for name in names]
        shared = any(held == w or held.startswith(w + ".") for held in self.documents for w in wanted)
        return self.earlier if shared else ()


@dataclass(frozen=True)
class Accountant:
    """Refuses a private draw that would take its corpus past a budget, before the draw is made.

    The budget is on what a reader who sees every draw learns: the ε of a corpus's private draws add up
    (:func:`~relguard.privacy.bounds.composed_epsilon`), so what is spent is the sum over the ledger's private
    entries. Teaching draws carry no guarantee and are never published, so they spend nothing and are never
    refused. ``budget`` None sets no cap (the ledger still counts).
    """

    budget: float | None = None

    @staticmethod
    def spent(ledger: Iterable[Mapping]) -> float:
        return composed_epsilon([entry["epsilon"] for entry in ledger if entry["private"]])

    def remaining(self, ledger: Iterable[Mapping]) -> float | None:
        """What the budget leaves for further private draws (None: no budget set)."""
        return None if self.budget is None else max(self.budget - self.spent(ledger), 0.0)

    def charge(self, ledger: Sequence[Mapping], *, epsilon: float, private: bool, where: str) -> None:
        """Raise :class:`~relguard.errors.BudgetError` when this draw would pass the budget; ``where`` names
        the ledger (the release folder, the session) in the message."""
        if self.budget is None or not private:
            return
        spent = self.spent(ledger)
        if spent + epsilon <= self.budget * (1 + 1e-12):
            return
        earlier = sum(bool(entry["private"]) for entry in ledger)
        raise BudgetError(
            f"{where}: a private draw at epsilon = {epsilon:g} would take this corpus past its budget of "
            f"{self.budget:g}: {earlier} earlier private draw{'s' if earlier != 1 else ''} already spent {spent:g}, "
            f"{max(self.budget - spent, 0.0):g} is left. Publish one of the draws already made, or, knowing a reader "
            "who sees every draw learns their epsilon added up, set a larger budget (--budget)"
        )


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


def charge_folder(history: DrawHistory, inputs: Sequence[str], *, privacy: PrivacySettings, out: str | Path) -> None:
    """Refuse, before any work, a draw of ``inputs`` that the ledger of the release folder ``out`` (``history``,
    :func:`folder_history`) has no budget left for."""
    names = [name for _, name in input_files(inputs)]
    ledger = history.applies_to_inputs(names)
    Accountant(privacy.budget).charge(
        ledger,
        epsilon=privacy.epsilon,
        private=privacy.seed is None,
        where=f"{Path(out) / 'report.json'} (the ledger of --out)",
    )


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
        **(
            {"budget": history.budget, "budget_left": Accountant(history.budget).remaining(ledger)}
            if history.budget is not None
            else {}
        ),
    }


def folder_history(out: str | Path, *, budget: float | None = None) -> DrawHistory:
    """The ledger a release folder already holds (its report.json), to continue when a release is written there.

    A folder without a report starts a ledger; a report from before the ledger counts as one draw; a report that
    cannot be read is an error, since writing over it would lose its draws from the count.
    """
    path = Path(out) / "report.json"
    if not path.exists():
        return DrawHistory(documents=frozenset(), budget=budget)
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
    return DrawHistory(tuple(earlier), documents=documents, budget=budget)


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
