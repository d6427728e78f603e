"""The sign-off gate of the Export page: which release may leave the building, and why not when it may not.

A release is exported only when a named reviewer approved *this* draw on a given date: the fields are the
officer's own words and go into the public report, so each must be there before the zip is offered. A draw made
with a fixed teaching seed is not a private release (DESIGN invariant 8), so no sign-off can approve it; and every
draw of a corpus is a new release that spends ε again (invariant 14), so the gate also says how many there were.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

APPROVED = "approved for release"
CONDITIONAL = "approved with conditions (see notes)"
REFUSED = "not approved"
DECISIONS = (APPROVED, CONDITIONAL, REFUSED)
FIELDS = ("reviewer", "date", "decision", "notes")


@dataclass(frozen=True)
class Gate:
    """Whether the drawn release may be exported, and each reason it may not (empty when it may)."""

    refusals: tuple[str, ...]

    @property
    def open(self) -> bool:
        return not self.refusals

    def message(self) -> str:
        return "Export is locked until the sign-off is complete: " + "; ".join(self.refusals) + "."


def sign_off_gate(sign_off: Mapping[str, str], *, private_release: bool) -> Gate:
    """The gate for ``sign_off`` (reviewer, date as ISO text, decision, notes) on a release.

    ``private_release`` is the release's own flag (False for a teaching-seed draw, which nothing can approve).
    """
    reviewer = str(sign_off.get("reviewer") or "").strip()
    date = str(sign_off.get("date") or "").strip()
    decision = str(sign_off.get("decision") or "").strip()
    notes = str(sign_off.get("notes") or "").strip()
    refusals = []
    if not private_release:
        refusals.append(
            "this draw used a fixed teaching seed, so it is NOT a private release and cannot be approved — turn "
            "the teaching seed off on Tune and draw again"
        )
    if not reviewer:
        refusals.append("write the reviewer's name")
    if not date:
        refusals.append("pick the date of the review")
    if not decision:
        refusals.append("pick a decision")
    elif decision not in DECISIONS:
        refusals.append(f"the decision {decision!r} is not one of: {', '.join(DECISIONS)}")
    elif decision == REFUSED:
        refusals.append("the decision is 'not approved': a release that was not approved is not exported")
    elif decision == CONDITIONAL and not notes:
        refusals.append("an approval with conditions needs the conditions written in the notes")
    return Gate(tuple(refusals))


def signed_fields(sign_off: Mapping[str, str]) -> dict[str, str]:
    """The sign-off as the report prints it: every field that holds text, in the fixed order."""
    return {key: str(sign_off[key]).strip() for key in FIELDS if str(sign_off.get(key) or "").strip()}


def sign_off_of(state: Mapping) -> dict[str, str]:
    """The sign-off as the app's session holds it (``sign_reviewer``, ``sign_date`` as a date, ``sign_decision``,
    ``sign_notes``), in the report's form."""
    date = state.get("sign_date")
    fields = {
        "reviewer": state.get("sign_reviewer") or "",
        "date": date.isoformat() if hasattr(date, "isoformat") else str(date or ""),
        "decision": state.get("sign_decision") or "",
        "notes": state.get("sign_notes") or "",
    }
    return signed_fields(fields)
