"""The app's state on disk: the draw ledger, the review edits and the policies, so a reload or a new tab goes on.

A browser reload starts a new Streamlit session; without this, the report of the next draw would say "first
recorded draw of this corpus" and the analyst's review edits would be gone. The folder is local to this machine
and never part of a release: ``$RELGUARD_STATE``, else ``$XDG_STATE_HOME/relguard``, else
``~/.local/state/relguard``.

- ``draws.jsonl``: every draw the app made, one :class:`~relguard.studio.draws.Draw` a line, of any corpus; a
  session counts the draws of its corpus among them the way it always has, by shared document names
  (:func:`~relguard.release.draws.same_corpus`), never by content.
- ``corpora/<key>.json``: per set of document names, the review edits, the exclusion policy's text and whether
  the sensitive-predicate list is on. The review is confidential (it names positions and entities), so the folder
  is created readable by its owner only.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, MutableMapping
from pathlib import Path

from relguard.errors import RelGuardError
from relguard.extract.review import Review
from relguard.studio.draws import Draw

STATE_ENV = "RELGUARD_STATE"


def state_folder(environ: Mapping[str, str]) -> Path:
    """Where the app keeps its state (see the module docstring)."""
    if environ.get(STATE_ENV):
        return Path(environ[STATE_ENV]).expanduser()
    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base).expanduser() / "relguard"


def corpus_key(names: Iterable[str]) -> str:
    """The file name of a corpus's record: its document names, sorted (local only, so a digest of names is fine)."""
    return hashlib.sha256("\n".join(sorted(set(names))).encode("utf-8")).hexdigest()[:24]


class StateStore:
    """The state folder; every read and write is whole-line or whole-file, so two tabs never see half a record."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _ready(self) -> Path:
        (self.folder / "corpora").mkdir(parents=True, exist_ok=True, mode=0o700)
        return self.folder

    def draws(self) -> list[Draw]:
        """Every draw recorded, in order; a line that cannot be read (a crash mid-write) is skipped."""
        path = self.folder / "draws.jsonl"
        found: list[Draw] = []
        if not path.is_file():
            return found
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                values = json.loads(line)
                found.append(Draw(**{**values, "corpus": tuple(values["corpus"])}))
            except (ValueError, TypeError, KeyError):
                continue
        return found

    def add_draw(self, draw: Draw) -> None:
        line = json.dumps(dataclasses.asdict(draw), ensure_ascii=False) + "\n"
        with open(self._ready() / "draws.jsonl", "a", encoding="utf-8") as file:
            file.write(line)

    def corpus(self, names: Iterable[str]) -> dict | None:
        """The record of the corpus with exactly these document names, or None."""
        path = self.folder / "corpora" / f"{corpus_key(names)}.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def save_corpus(self, names: Iterable[str], record: Mapping) -> None:
        names = sorted(set(names))
        path = self._ready() / "corpora" / f"{corpus_key(names)}.json"
        staged = path.with_suffix(f".{os.getpid()}.tmp")
        staged.write_text(json.dumps({"documents": names, **record}, ensure_ascii=False), encoding="utf-8")
        staged.replace(path)


def restore(state: MutableMapping, store: StateStore) -> None:
    """A new session's draws, and its corpus's review and policies when this exact set of documents was seen
    before; a session that already has edits or a policy keeps its own."""
    if not state["draw_log"]:
        sync_draws(state, store)
    names = list(state["documents"])
    record = store.corpus(names) if names else None
    if record is None or len(state["review"]) or state["exclusion_policy"]:
        return
    try:
        state["review"] = Review.from_json(record.get("review") or "[]", where=f"{store.folder} (saved review)")
    except RelGuardError:
        return
    state["exclusion_policy"] = str(record.get("exclusion_policy") or "")
    state["sensitive_policy"] = bool(record.get("sensitive_policy", True))


def remember(state: Mapping, store: StateStore) -> None:
    """Save the corpus's review and policies (after every change the prepared corpus sees)."""
    if state["documents"]:
        record = {
            "review": state["review"].to_json(),
            "exclusion_policy": state["exclusion_policy"],
            "sensitive_policy": bool(state["sensitive_policy"]),
        }
        store.save_corpus(state["documents"], record)


def sync_draws(state: MutableMapping, store: StateStore) -> None:
    """Take in the draws other sessions (a reload, a new tab) recorded, so the next draw's number follows them."""
    recorded = {d.number: d for d in store.draws()}
    mine = {d.number: d for d in state["draw_log"]}
    log = sorted({**mine, **recorded}.values(), key=lambda d: d.number)
    state["draw_log"] = log
    state["draws"] = max([state["draws"], *(d.number for d in log)])
