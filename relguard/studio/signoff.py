"""The sign-off as the app's session holds it, and the Export gate in the app's words.

The rules are the library's (:mod:`relguard.release.signoff`, the same ones ``relguard sanitize --reviewer
--decision --signed-on`` checks); here the session's fields become the report's block, and the teaching-seed
refusal says what to do on the app's pages.
"""

from __future__ import annotations

from collections.abc import Mapping

from relguard.release.signoff import APPROVED, CONDITIONAL, DECISIONS, FIELDS, REFUSED, Gate, signed_fields
from relguard.release.signoff import sign_off_gate as _gate
from relguard.textable import plural

__all__ = ["APPROVED", "CONDITIONAL", "DECISIONS", "FIELDS", "REFUSED", "Gate", "sign_off_gate", "sign_off_of"]
#: What the app tells an analyst whose draw used the teaching seed.
TEACHING_HINT = " — turn the teaching seed off on Tune and draw again"


def sign_off_gate(sign_off: Mapping[str, str], *, private_release: bool, unsettled: int = 0) -> Gate:
    """The Export gate (:func:`relguard.release.signoff.sign_off_gate`) with the app's advice for a teaching draw;
    ``unsettled`` unprotected sentences still open (:mod:`relguard.studio.unsettled`) keep it locked too: an officer
    approves a release only after deciding about every sentence it releases unprotected."""
    gate = _gate(sign_off, private_release=private_release, teaching_hint=TEACHING_HINT)
    if not unsettled:
        return gate
    said = plural(unsettled, "unprotected sentence is", "unprotected sentences are")
    return Gate((*gate.refusals, f"{said} still open: on Review, add a slot or dismiss each with a reason"))


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
