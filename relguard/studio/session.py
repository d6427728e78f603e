"""What the app's pages share for one browser session, and every operation on it — plain Python, no Streamlit.

:class:`Studio` works over any mutable mapping; the app hands it Streamlit's session state, so each key lives
there (pages bind widgets to them) while the logic lives here, testable without a browser. It owns the
session's documents, the settings the sidebar shows, the corpus prepared for them (one path with the CLI:
:func:`relguard.pipeline.prepare`, extractions cached by content), the drawn release with the settings it was
drawn at, and the ledger of exports that compose.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from pathlib import Path

from relguard import llm
from relguard.candidates import exclusion
from relguard.candidates.exclusion import ExclusionPolicy
from relguard.candidates.sensitive import sensitive_policy
from relguard.engine.tally import most_groups_in_one_document
from relguard.extract.review import Edit, Review
from relguard.io import read_documents
from relguard.io.formats import UploadResult
from relguard.pipeline import Backends, Prepared, prepare
from relguard.privacy.bounds import composed_epsilon
from relguard.privacy.closeness import default_threshold
from relguard.privacy.expected import OutcomeModel
from relguard.release.draws import Accountant
from relguard.settings import BackendSettings
from relguard.studio.draws import Draw, DrawCount, count_of, history_of, ledger_of
from relguard.studio.endpoint import LLMEndpointChoice
from relguard.studio.resources import ExtractionCache, Resources, content_key, document_key
from relguard.studio.signoff import Gate, sign_off_gate, sign_off_of
from relguard.studio.state import StateStore, remember, restore, state_folder, sync_draws
from relguard.studio.unsettled import unprotected
from relguard.types import Document, Release

__all__ = ["CANDIDATES", "DEFAULTS", "EXTRACTORS", "ExtractionCache", "Resources", "Studio", "content_key"]
EXTRACTORS = ("spacy", "llm")
CANDIDATES = ("inventory", "llm")

DEFAULTS: dict[str, object] = {
    "documents": {},  # name -> Document, in load order
    "hashes": {},  # input file name -> sha256 (confidential: never shown in a public file)
    "upload_errors": [],  # (file name, message)
    "seen_uploads": set(),  # file ids already read
    "sample_loaded": False,
    "prepared": None,
    "prepared_key": None,
    "model": None,
    "epsilon": 1.0,
    "lam": 1.0,
    "k": 10,
    "selected": 0,
    "teaching_seed": False,
    "entity_budget": False,  # ε is each entity's budget E: every group drawn at E / max(n(s), n(o))
    "seed": 42,
    "release": None,
    "release_seed": None,
    "exports": [],  # (corpus key, epsilon, draw number) of every exported release, for the composition warning
    "draws": 0,  # releases drawn in this session; numbers the drawn release, so a re-download is not a new one
    "risk": None,  # the last attack on a release (Risk & utility page), kept with the release it measured
    "extractor_name": "spacy",
    "candidates_name": "inventory",
    "llm_base_url": None,  # None: filled from OPENAI_BASE_URL when the session starts
    "llm_model": None,  # None: filled from RELGUARD_LLM_MODEL when the session starts
    "llm_remote_confirmed": "",  # the endpoint not on this machine that the analyst agreed to send documents to
    "usage": None,  # calls and tokens of the LLM backends for the current prepared corpus (confidential view)
    "review": Review(),  # the analyst's edits of the extraction, applied before the draw
    "release_key": None,  # what the drawn release was drawn from: documents, K, backends, review, ε, λ
    "sign_reviewer": "",  # the sign-off (Export), kept across pages; printed in report.md
    "sign_date": None,
    "sign_decision": None,  # cleared by every new draw: a decision approves one draw
    "sign_notes": "",
    "draw_log": [],  # every Draw of this session (relguard.studio.draws): draws compose
    "draw_budget": None,  # the most ε this corpus's private draws may spend together (None: no cap)
    "exclusion_policy": "",  # the policy file's text the pools are built under (public; "" for none)
    "sensitive_policy": True,  # the built-in sensitive-predicate list kept out of the pools (on by default)
}


class Studio(LLMEndpointChoice):
    """The session's state and the operations the pages call; ``state`` is the mapping it lives in."""

    def __init__(self, state: MutableMapping, *, environ: Mapping[str, str] | None = None) -> None:
        self.state = state
        self.environ = os.environ if environ is None else environ
        self.store = StateStore(state_folder({**os.environ, **self.environ}))  # a given environ adds to the process's

    def init(self, *, sample: Path | None = None) -> None:
        """Create every key with its default (copies, so sessions never share containers), once per session."""
        for key, value in DEFAULTS.items():
            if key not in self.state:
                self.state[key] = value.copy() if hasattr(value, "copy") else value
        if self.state["llm_base_url"] is None:
            self.state["llm_base_url"] = self.environ.get(llm.BASE_URL_ENV, "")
        if self.state["llm_model"] is None:
            self.state["llm_model"] = self.environ.get(llm.MODEL_ENV, "")
        if sample is not None and not self.state["documents"] and not self.state.get("sample_autoloaded"):
            self.state["sample_autoloaded"] = True
            self.load_sample(sample)
        if not self.state.get("state_restored"):
            self.state["state_restored"] = True
            restore(self.state, self.store)

    # -- documents

    @property
    def documents(self) -> list[Document]:
        return list(self.state["documents"].values())

    def add(self, documents: Sequence[Document], hashes: Mapping[str, str]) -> None:
        for d in documents:
            self.state["documents"][d.name] = d
        self.state["hashes"].update(hashes)
        restore(self.state, self.store)

    def add_uploads(self, result: UploadResult) -> None:
        """Documents of one upload batch; its errors join the list, which stays until the analyst dismisses it.

        A rejected file must not vanish from view because another file was uploaded after it; an error about a
        file that has now loaded under the same name is over, and goes.
        """
        self.add(result.documents, result.hashes)
        listed = [error for error in self.state["upload_errors"] if error[0] not in result.hashes]
        self.state["upload_errors"] = listed + [error for error in result.errors if error not in listed]

    def dismiss_errors(self) -> None:
        self.state["upload_errors"] = []

    def load_sample(self, folder: Path) -> None:
        documents, hashes = read_documents([folder])
        self.add(documents, hashes)
        self.state["sample_loaded"] = True

    def clear(self) -> None:
        for key in ("documents", "hashes", "upload_errors"):
            self.state[key] = DEFAULTS[key].copy()
        self.state["prepared"] = self.state["prepared_key"] = self.state["model"] = None
        self.state["release"] = self.state["release_key"] = None
        self.state["review"] = Review()  # its edits name the documents just removed; kept, they would block every page
        self.state["sample_loaded"] = False

    # -- backends and the prepared corpus

    def prepared(self, resources: Resources, *, progress: Callable[[int, int], None] | None = None) -> Prepared | None:
        """The session's corpus prepared for its current K and backends (recomputed only when they change)."""
        documents = self.documents
        if not documents:
            return None
        key = self._corpus_key()
        names = key[2]
        if self.state["prepared_key"] == key:
            return self.state["prepared"]
        remember(self.state, self.store)
        backends = self._backends(resources, names)
        uses_llm = "llm" in names
        result = prepare(
            documents,
            k=self.state["k"],
            backends=backends,
            input_hashes=self.state["hashes"],
            progress=progress,
            cache=None if names[0] == "llm" else resources.cache,
            key=document_key,
            review=self.state["review"],
            pool_cache=resources.pools,
        )
        self.state["model"] = OutcomeModel.from_prepared(
            result, close_threshold=default_threshold(resources.encoder.name)
        )
        self.state["prepared"], self.state["prepared_key"] = result, key
        self.state["usage"] = llm.run_usage(backends.extractor, backends.candidates) if uses_llm else None
        if self.state["selected"] >= len(result.groups):
            self.state["selected"] = 0
        return result

    def _corpus_key(self) -> tuple:
        """Everything the prepared corpus depends on: documents, K, backends, and the review edits."""
        names = self.backend_choice()
        endpoint = (self.state["llm_base_url"], self.state["llm_model"]) if "llm" in names else None
        review, policies = (
            self.state["review"].to_json(),
            (self.state["exclusion_policy"], self.state["sensitive_policy"]),
        )
        return (content_key(self.documents), self.state["k"], names, endpoint, review, policies)

    def _backends(self, resources: Resources, names: tuple[str, str]) -> Backends:
        """The offline backends from the process-wide resources, LLM ones fresh per run (so usage is this run's);
        the pools under the session's exclusion policy."""
        built = self._named_backends(resources, names)
        sensitive = sensitive_policy() if self.state["sensitive_policy"] else None
        candidates = exclusion.with_exclusions(
            exclusion.unwrapped(built.candidates), self.policy(), sensitive=sensitive
        )
        return Backends(built.extractor, candidates, built.encoder)

    def _named_backends(self, resources: Resources, names: tuple[str, str]) -> Backends:
        if "llm" not in names:
            return Backends(resources.extractor, resources.candidates, resources.encoder)
        settings = BackendSettings(
            extractor=names[0],
            candidates=names[1],
            llm_model=self.state["llm_model"] or None,
            base_url=self.state["llm_base_url"] or None,
            allow_remote_llm=self.remote_confirmed(),
        )
        built = Backends.from_settings(settings)
        return Backends(
            built.extractor if names[0] == "llm" else resources.extractor,
            built.candidates if names[1] == "llm" else resources.candidates,
            resources.encoder,
        )

    # -- the drawn release

    def budget(self) -> dict[str, float]:
        """The draw's budget as :meth:`~relguard.pipeline.Prepared.draw` takes it: ε per relation, or E per entity."""
        return {"entity_epsilon" if self.state["entity_budget"] else "epsilon": self.state["epsilon"]}

    def group_epsilons(self, prepared: Prepared):
        """The ε each relation group would be drawn at with the current settings (one per group)."""
        return prepared.group_epsilons(**self.budget())

    def draw(self, prepared: Prepared) -> Release:
        """Draw a release, unless its private draw would take this corpus past the budget (a BudgetError)."""
        seed = self.state["seed"] if self.state["teaching_seed"] else None
        self.accountant().charge(
            self.ledger(), epsilon=self.state["epsilon"], private=seed is None, where="this session's draws"
        )
        release = prepared.draw(lam=self.state["lam"], seed=seed, **self.budget())
        self.state["release"], self.state["release_seed"] = release, seed
        self.state["release_key"] = self._release_key()
        sync_draws(self.state, self.store)
        self.state["draws"] += 1
        self.state["draw_log"].append(entry := self._draw_entry(seed is not None, release))
        self.store.add_draw(entry)
        self.state["sign_decision"] = None
        return release

    def _draw_entry(self, teaching: bool, release: Release) -> Draw:
        """The log's entry for a draw: its corpus by document names (public), never by content (a digest of the
        texts would tell whether a relation was reworded between two draws)."""
        s, corpus = self.state, tuple(d.name for d in self.documents)
        m = most_groups_in_one_document(release.extraction.documents)
        return Draw(s["draws"], corpus, s["epsilon"], s["lam"], s["k"], s["entity_budget"], teaching, m)

    def accountant(self) -> Accountant:
        return Accountant(self.state["draw_budget"])

    def ledger(self) -> list[dict]:
        """This session's draws of the current corpus, as ledger entries (what the budget is charged against)."""
        return ledger_of(self.state["draw_log"], tuple(d.name for d in self.documents))

    def budget_left(self) -> float | None:
        """The ε the budget leaves for further private draws of this corpus (None: no budget set)."""
        return self.accountant().remaining(self.ledger())

    def draw_count(self) -> DrawCount | None:
        """The drawn release's count among this session's draws of its corpus, or None before any draw."""
        return count_of(self.state["draw_log"], self.state["draws"])

    def gate(self) -> Gate:
        """Whether the drawn release may be exported with the current sign-off (:mod:`relguard.studio.signoff`)."""
        release, signed = self.state["release"], sign_off_of(self.state)
        still = len(unprotected(release.extraction, self.review).open)
        return sign_off_gate(signed, private_release=release.guarantee.private_release, unsettled=still)

    def _release_key(self) -> dict:
        return {
            "corpus": self._corpus_key(),
            "epsilon": self.state["epsilon"],
            "lam": self.state["lam"],
            "entity_budget": self.state["entity_budget"],
        }

    def current_release(self, prepared: Prepared | None = None) -> Release | None:
        """The drawn release, stale or not (:meth:`stale_reason` says whether it still matches the settings)."""
        return self.state["release"]

    def stale_reason(self) -> str | None:
        """Why the drawn release no longer matches what the pages show, or None when it does.

        A release drawn at ε = 1 stays the ε = 1 release when the slider moves; pages say so and Export refuses
        it until it is drawn again, so what is exported is always what the page showed.
        """
        release, then = self.state["release"], self.state["release_key"]
        if release is None or then is None:
            return None
        g, now = release.guarantee, self._release_key()
        changes = []
        if now["epsilon"] != then["epsilon"]:
            changes.append(f"ε moved from {g.epsilon:g} to {self.state['epsilon']:g}")
        if now["lam"] != then["lam"]:
            changes.append(f"λ moved from {g.lam:g} to {self.state['lam']:g}")
        if now["entity_budget"] != then.get("entity_budget", False):
            changes.append(f"the per-entity budget was switched {'on' if now['entity_budget'] else 'off'}")
        old, new = then["corpus"], now["corpus"]
        labels = (
            "the documents changed",
            f"K moved from {g.k} to {self.state['k']}",
            "the backends changed",
            "the LLM endpoint changed",
            "the review edits changed",
            "the exclusion policy changed (or the sensitive-predicate switch)",
        )
        changes += [label for label, a, b in zip(labels, old, new, strict=True) if a != b]
        return "; ".join(changes) or None

    # -- the exclusion policy

    def policy(self) -> ExclusionPolicy | None:
        """The exclusion policy the session's pools are built under (:mod:`relguard.candidates.exclusion`)."""
        text = self.state["exclusion_policy"]
        return exclusion.parse_policy(text, name=exclusion.POLICY_FILE) if text else None

    def set_policy(self, everywhere: Sequence[str], per_pair: Mapping[tuple[str, str], Sequence[str]]) -> None:
        """Exclude ``everywhere`` from every pool and ``per_pair`` from one type pair's; the pools are built again
        and a drawn release becomes stale."""
        self.state["exclusion_policy"] = exclusion.policy_text(everywhere, per_pair)

    # -- the review

    @property
    def review(self) -> Review:
        return self.state["review"]

    def edit(self, change: Edit) -> None:
        """Record an analyst's edit; the corpus is prepared again and a drawn release becomes stale."""
        self.state["review"] = self.state["review"].add(change)

    def undo(self, index: int) -> None:
        self.state["review"] = self.state["review"].without(index)

    # -- what an export publishes

    def public_release(self) -> Release:
        """The drawn release with what the analyst adds to its public report: the sign-off, the earlier draws of
        its corpus in this session (the ledger) and the attack.

        Only public-safe parts go in: the sign-off is the analyst's own words, the ledger public settings counted
        by document names, and the attack's connection-level scores compare entity pairs (public structure) with
        what the released text shows.
        """
        release = self.state["release"]
        provenance = dict(release.provenance)
        signed = sign_off_of(self.state)
        if signed:
            provenance["sign_off"] = signed
        budget = self.state["draw_budget"]
        provenance["draw_history"] = history_of(self.state["draw_log"], self.state["draws"], budget=budget)
        attack = self.state["risk"]
        confidential = dict(release.confidential)
        if attack is not None and attack.release is release:
            provenance["attack"] = attack.public_summary()
            confidential["attack"] = attack.confidential_summary()
        return dataclasses.replace(release, provenance=provenance, confidential=confidential)

    # -- exports

    def corpus_key(self) -> str:
        return content_key(self.documents)

    def earlier_exports(self) -> list[float]:
        """ε of every other release of this corpus already exported in this session.

        Downloading the drawn release again publishes nothing new, so it never counts against itself; a new draw
        of the same corpus is a new release, and its ε composes with every earlier one's.
        """
        key, current = self.corpus_key(), self.state["draws"]
        return [epsilon for corpus, epsilon, draw in self.state["exports"] if corpus == key and draw != current]

    def composed(self, epsilon: float) -> float:
        """The total ε if this release is published next to the earlier ones (releases compose)."""
        return composed_epsilon([*self.earlier_exports(), epsilon])

    def record_export(self, epsilon: float) -> None:
        entry = (self.corpus_key(), epsilon, self.state["draws"])
        if entry not in self.state["exports"]:
            self.state["exports"].append(entry)
