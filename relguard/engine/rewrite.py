"""One document through the rewrite: mask, fill from the outcome table, leak-scan, withhold, serialize.

Every face rewrites here — the in-memory draw, the local batch engine, the Ray actors — so a document gets the
same bytes wherever it is rewritten, from its extraction and the corpus-wide outcome table alone. This module is
the only caller of the rewrite steps: :func:`mask_document` of :func:`relguard.rewrite.mask`,
:func:`rewrite_document` of :func:`relguard.rewrite.fill` (and of :func:`relguard.rewrite.frames.read_frames`),
:func:`document_leaks` of
:func:`relguard.release.leakscan.scan_document` and :func:`fills_by_sentence` of
:func:`relguard.rewrite.fill.filled_sentences`.

A sentence in which the leak scan still finds an original relation (an extractor's span that missed part of
the expression) is withheld: taken out like a deleted one, listed in the confidential file and counted in the
public report. Withholding a sentence removes text and writes none, so it cannot create a new leak; one round
settles every case, and :data:`WITHHOLD_ROUNDS` bounds the loop should that reasoning ever fail (the public-file
check then blocks the release).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from relguard.engine.marks import SLOTS_FIELD, Ranges, refuse_slots_field, unmarked, written
from relguard.engine.notice import NOTICE_FIELD, without_notice
from relguard.engine.outcomes import OutcomeTable
from relguard.engine.tally import Relations, Tally
from relguard.release.leakscan import Leak, Needle, scan_document
from relguard.rewrite import FormVerbalizer, MaskedDocument, fill, mask
from relguard.rewrite.frames import read_frames
from relguard.rewrite.sentences import filled_sentences
from relguard.rewrite.verbalize import Verbalizer
from relguard.types import Document, DocumentExtraction, Forms, PairKey, SanitizedDocument

WITHHOLD_ROUNDS = 3


@dataclass(frozen=True)
class Piece:
    """One document's part of a release: the public file it belongs to, the bytes it adds there, what the
    rewrite did, its public tallies, the sentences withheld (with reasons, confidential) and its mapping rows;
    ``text`` is the document's text as written there and ``marks`` where its fills are in it
    (:mod:`relguard.engine.marks`)."""

    document: str
    file: str
    record: bool
    data: bytes
    sanitized: SanitizedDocument
    tally: Tally
    withheld: tuple[dict, ...] = ()
    relations: Relations | None = None
    text: str = ""
    marks: Ranges = ()


def output_name(original: Document) -> str:
    """The public file a document is written to, under ``documents/``: its own name, or its ``.jsonl`` source."""
    return original.source if original.line is not None else (original.source or original.name)


def output_piece(original: Document, text: str, slots: Ranges = ()) -> bytes:
    """The bytes a sanitized document adds to its output file: a text document is its own file; a ``.jsonl``
    record is one line of its source's file, its other fields as they were, and the ranges of its fills
    (``slots``) in the field :data:`~relguard.engine.marks.SLOTS_FIELD`."""
    if original.line is None:
        return text.encode("utf-8")
    refuse_slots_field(original)
    record = {key: json.loads(value) for key, value in original.fields}
    record["text"] = text
    record[SLOTS_FIELD] = [list(r) for r in slots]
    return (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def public_text(data: bytes, *, record: bool, marked: bool = False, notice: str | None = None) -> str:
    """What a reader sees of a document's output: its text, or every value of its ``.jsonl`` record (decoded,
    so an escape cannot hide a hit; a line that is not a JSON object is read as it stands). A release
    ``marked`` inline is read without its marks: the words the leak scan compares are the author's and the fills';
    a release's ``notice`` (:mod:`relguard.engine.notice`) is its own words, read without.
    """
    text = data.decode("utf-8", errors="replace")
    if record:
        try:
            values = json.loads(text)
        except ValueError:
            values = None
        if isinstance(values, dict):
            if notice and values.get(NOTICE_FIELD) == notice:
                del values[NOTICE_FIELD]
            text = "\n".join(str(v) for v in values.values())
    else:
        text = without_notice(text, notice)
    return unmarked(text) if marked else text


def mask_document(doc: DocumentExtraction, index: Mapping[PairKey, int]) -> MaskedDocument:
    """The document with every relation span a placeholder numbered by its group (``index``: key → number)."""
    return mask(doc, index)


def document_leaks(
    doc: DocumentExtraction,
    text: str,
    table: OutcomeTable,
    *,
    forms: Forms,
    withheld: Iterable[int],
    file: str,
    needles: tuple[list[Needle], Counter] | None = None,
) -> list[Leak]:
    """Every leak of ``doc``'s output ``text`` (its public file ``documents/<file>``) given the outcomes
    (``needles``: :func:`~relguard.release.leakscan.document_needles` of the same, if the caller has them)."""
    file = f"documents/{file}"
    return scan_document(doc, text, table.drawn, forms=forms, withheld=withheld, file=file, needles=needles)


def rewrite_document(
    doc: DocumentExtraction,
    table: OutcomeTable,
    *,
    forms: Forms,
    mapping: bool = False,
    verbalize: Verbalizer | None = None,
    inline_marks: bool = False,
) -> Piece:
    """Rewrite one document from the outcome table; a sentence the leak scan still flags is withheld.

    ``mapping`` also collects the document's rows of the confidential mapping. The fill words each slot through
    ``verbalize`` (default: the pool backend's ``forms``), which a test replaces with a broken one to see the leak
    scan withhold what it writes. ``inline_marks`` writes every fill between marks (``--mark-slots``); the leak
    scan reads the text without them, which holds the same words.
    """
    verbalize = verbalize or FormVerbalizer(forms)
    masked = mask_document(doc, table.index)
    record = doc.document.line is not None
    file = output_name(doc.document)
    withheld: set[int] = set()
    reasons: list[dict] = []
    frames = read_frames(masked)  # a parse of the masked text: read once, for every fill of the document
    out = fill(masked, table.sampled, verbalize, frames=frames)
    for _ in range(WITHHOLD_ROUNDS):
        text = public_text(output_piece(doc.document, out.text), record=record)
        leaks = document_leaks(doc, text, table, forms=forms, withheld=withheld, file=file)
        fresh = [leak for leak in leaks if leak.sentence not in withheld]
        if not fresh:
            break
        for leak in fresh:
            withheld.add(leak.sentence)
            reasons.append(withheld_reason(doc, leak))
        out = fill(masked, table.sampled, verbalize, frames=frames, withheld=withheld)
    return piece_of(doc, out, withheld=reasons, index=table.index if mapping else None, inline_marks=inline_marks)


def withheld_reason(doc: DocumentExtraction, leak: Leak) -> dict:
    """What the confidential file says about a withheld sentence: where, why, and the sentence itself."""
    return {
        "document": leak.document,
        "sentence": leak.sentence,
        "kind": leak.kind,
        "span": leak.text,
        "text": doc.sentence_text(leak.sentence),
    }


def piece_of(
    doc: DocumentExtraction,
    out: SanitizedDocument,
    *,
    withheld: Iterable[dict] = (),
    index: Mapping[PairKey, int] | None = None,
    inline_marks: bool = False,
) -> Piece:
    """The piece of a rewritten document: its bytes (fills marked inline with ``inline_marks``), tallies and
    (with the table's ``index``) its mapping rows."""
    text, marks = written(doc.document, out.text, out.slots, inline_marks=inline_marks)
    return Piece(
        doc.document.name,
        output_name(doc.document),
        doc.document.line is not None,
        output_piece(doc.document, text, marks),
        out,
        Tally.of(doc, out),
        tuple(withheld),
        Relations.of(doc, index) if index is not None else None,
        text,
        marks,
    )


def fills_by_sentence(
    doc: DocumentExtraction, table: OutcomeTable, *, forms: Forms
) -> dict[int, tuple[str, tuple[tuple[int, int], ...]]]:
    """Each kept sentence that holds a slot as it reads in the output, with where its fills are (for review)."""
    return filled_sentences(mask_document(doc, table.index), table.sampled, FormVerbalizer(forms))
