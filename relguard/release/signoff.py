"""The sign-off of a release: who reviewed it, what they decided and when — and which sign-offs cannot stand.

The fields are the officer's own words and go into the public report (they are public and depend on no relation).
Two faces use the same rules: the app's Export gate (:func:`sign_off_gate`: nothing is exported until a named
reviewer approved *this* draw on a given date) and ``relguard sanitize --reviewer --decision --signed-on``
(:func:`checked_sign_off`: the release is written either way, so a sign-off is only refused when it cannot be
true). A draw made with a fixed teaching seed is not a private release (DESIGN invariant 8): no sign-off may
approve it, on either face.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass

from relguard.errors import ConfigError

APPROVED = "approved for release"
CONDITIONAL = "approved with conditions (see notes)"
REFUSED = "not approved"
DECISIONS = (APPROVED, CONDITIONAL, REFUSED)
#: The short names ``--decision`` takes, each standing for one decision's words.
DECISION_NAMES = {"approved": APPROVED, "approved-with-conditions": CONDITIONAL, "not-approved": REFUSED}
FIELDS = ("reviewer", "date", "decision", "notes")
TEACHING = "this draw used a fixed teaching seed, so it is NOT a private release and cannot be approved"


@dataclass(frozen=True)
class Refusal:
    """One reason a sign-off cannot stand: the field at fault (``seed`` for a teaching draw) and why."""

    field: str
    reason: str


def decision_of(text: str) -> str:
    """A decision as the report words it, from those words or a short name of :data:`DECISION_NAMES`."""
    text = " ".join(str(text or "").split())
    return DECISION_NAMES.get(text.lower(), text)


def date_of(text: str) -> datetime.date:
    """A review date written YYYY-MM-DD (ValueError otherwise: another spelling is read differently in places)."""
    text = str(text).strip()
    try:
        if len(text) != 10:
            raise ValueError(text)
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise ValueError(f"must be a date written YYYY-MM-DD, got {text!r}") from None


def refusals(sign_off: Mapping[str, str], *, private_release: bool, approval: bool) -> tuple[Refusal, ...]:
    """Every reason ``sign_off`` (reviewer, date as YYYY-MM-DD, decision, notes) cannot stand on a release.

    ``private_release`` is the release's own flag (False for a teaching-seed draw); ``approval`` asks for an
    approval (the export gate) rather than any complete decision (a record of the run).
    """
    reviewer, date, decision, notes = (str(sign_off.get(name) or "").strip() for name in FIELDS)
    decision = decision_of(decision)
    found = []
    if not private_release and (approval or decision in (APPROVED, CONDITIONAL)):
        found.append(Refusal("seed", TEACHING))
    if not reviewer:
        found.append(Refusal("reviewer", "the reviewer's name is missing"))
    if not date:
        found.append(Refusal("date", "the date of the review is missing"))
    else:
        try:
            date_of(date)
        except ValueError as exc:
            found.append(Refusal("date", f"the date {exc}"))
    if not decision:
        found.append(Refusal("decision", "the decision is missing"))
    elif decision not in DECISIONS:
        found.append(Refusal("decision", f"the decision {decision!r} is not one of: {', '.join(DECISIONS)}"))
    elif decision == REFUSED and approval:
        found.append(Refusal("decision", "the decision is 'not approved': a release not approved is not exported"))
    elif decision == CONDITIONAL and not notes:
        found.append(Refusal("notes", "an approval with conditions needs the conditions written in the notes"))
    return tuple(found)


@dataclass(frozen=True)
class Gate:
    """Whether the drawn release may be exported, and each reason it may not (empty when it may)."""

    refusals: tuple[str, ...]

    @property
    def open(self) -> bool:
        return not self.refusals

    def message(self) -> str:
        return "Export is locked until the sign-off is complete: " + "; ".join(self.refusals) + "."


def sign_off_gate(sign_off: Mapping[str, str], *, private_release: bool, teaching_hint: str = "") -> Gate:
    """The export gate for ``sign_off``: open only for a complete approval of a private draw.

    ``teaching_hint`` follows the teaching-seed refusal (what to do instead, in the face's own terms).
    """
    found = refusals(sign_off, private_release=private_release, approval=True)
    return Gate(tuple(r.reason + (teaching_hint if r.field == "seed" else "") for r in found))


def signed_fields(sign_off: Mapping[str, str]) -> dict[str, str]:
    """The sign-off as the report prints it: every field that holds text, in the fixed order."""
    fields = {key: " ".join(str(sign_off.get(key) or "").split()) for key in FIELDS}
    fields["notes"] = str(sign_off.get("notes") or "").strip()  # notes keep their lines
    if fields["decision"]:
        fields["decision"] = decision_of(fields["decision"])
    return {key: value for key, value in fields.items() if value}


#: The ``relguard sanitize`` flag of each field, for the one-line errors of :func:`checked_sign_off`.
FLAG_OF = {
    "reviewer": "--reviewer",
    "date": "--signed-on",
    "decision": "--decision",
    "notes": "--sign-notes",
    "seed": "--seed",
}


def checked_sign_off(sign_off: Mapping[str, str], *, private_release: bool) -> dict[str, str]:
    """The sign-off a run records, or ConfigError naming the flag: none at all, or reviewer, date and decision
    together, never an approval of a teaching draw and never conditions left unwritten."""
    fields = signed_fields(sign_off)
    if not fields:
        return {}
    found = refusals(fields, private_release=private_release, approval=False)
    if not found:
        return fields
    first = found[0]
    if first.field == "seed":
        raise ConfigError(
            f"--decision {fields.get('decision')!r}: {TEACHING}; drop --seed for a private release, or record "
            "--decision not-approved"
        )
    given = ", ".join(FLAG_OF[name] for name in ("reviewer", "date", "decision"))
    together = f" ({given} go together)" if "missing" in first.reason else ""
    raise ConfigError(f"{FLAG_OF[first.field]}: {first.reason}{together}")
