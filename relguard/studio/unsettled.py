"""Every unprotected sentence, and whether the officer settled it: one count for every page and the report.

A sentence is unprotected when it names two or more entities and holds no slot, or holds a name no entity stands
for (:func:`relguard.extract.unprotected.unprotected_in`, the report's ``coverage.sentences_not_protected``). The
officer settles one by adding a slot (it is then no longer unprotected) or by dismissing its queue items with a
reason (:class:`relguard.extract.review.Dismiss`); an approving sign-off needs every one settled
(:func:`relguard.studio.signoff.sign_off_gate`). The sentences themselves are confidential: the app and the
confidential mapping list them, the public report only counts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from relguard.extract.review import Dismiss, Review
from relguard.extract.unprotected import UnprotectedSentence, unprotected_in
from relguard.studio.queue import UNTYPED
from relguard.studio.review import UNSLOTTED
from relguard.textable import plural
from relguard.types import Extraction


@dataclass(frozen=True)
class Unprotected:
    """The corpus's unprotected sentences and those of them still open (not settled by a dismissal)."""

    sentences: tuple[UnprotectedSentence, ...]
    open: tuple[UnprotectedSentence, ...]

    def words(self) -> str:
        """ "3 unprotected sentences: 2 settled, 1 still open" — as Documents, Review and Export say it."""
        said = f"{plural(len(self.sentences), 'unprotected sentence')}"
        if not self.sentences:
            return said
        return f"{said}: {len(self.sentences) - len(self.open)} settled, {len(self.open)} still open"


def unprotected(extraction: Extraction, review: Review) -> Unprotected:
    """Every unprotected sentence of ``extraction`` (review edits applied), and those ``review`` left open."""
    dismissed = review.dismissed()
    found = tuple(s for doc in extraction.documents for s in unprotected_in(doc))
    return Unprotected(found, tuple(s for s in found if not _settled(s, dismissed)))


def _settled(sentence: UnprotectedSentence, dismissed: set[tuple[str, str, str]]) -> bool:
    if sentence.reason == "no slot":
        return (UNSLOTTED, sentence.document, f"sentence {sentence.sentence}") in dismissed
    keys = [(UNTYPED, sentence.document, f"{sentence.sentence}:{name}") for name in sentence.entities]
    return all(key in dismissed for key in keys)


def listed(extraction: Extraction, review: Review) -> list[dict]:
    """The unprotected sentences by document, with their text and whether settled (confidential: the text)."""
    status = unprotected(extraction, review)
    by_name = {d.document.name: d for d in extraction.documents}
    return [
        {
            "document": s.document,
            "sentence": s.sentence,
            "reason": s.reason,
            "names": list(s.entities),
            "text": by_name[s.document].sentence_text(s.sentence),
            "settled": s not in status.open,
        }
        for s in status.sentences
    ]


def dismissals(status: Unprotected, reason: str) -> list[Dismiss]:
    """The edits that settle every open sentence of ``status`` with one ``reason`` (the officer read them all)."""
    found: list[Dismiss] = []
    for s in status.open:
        if s.reason == "no slot":
            found.append(Dismiss(UNSLOTTED, s.document, f"sentence {s.sentence}", reason))
        else:
            found += [Dismiss(UNTYPED, s.document, f"{s.sentence}:{name}", reason) for name in s.entities]
    return found
