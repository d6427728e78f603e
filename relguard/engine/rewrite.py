"""One document through the rewrite of a batch run: mask, fill from the outcome table, leak-scan, serialize.

The same steps as :func:`relguard.rewrite.reconstruct` and :func:`relguard.pipeline.withhold_leaks`, one
document at a time, so a worker needs only the document's extraction and the corpus-wide outcome table.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from relguard.release.leakscan import Drawn, Forms, scan_document
from relguard.rewrite import FormVerbalizer, Sampled, fill, mask
from relguard.types import Document, DocumentExtraction, PairKey, SanitizedDocument

#: Rounds of the per-document leak scan; one settles every case seen (see relguard.pipeline.WITHHOLD_ROUNDS).
WITHHOLD_ROUNDS = 3


@dataclass(frozen=True)
class Piece:
    """One document's part of the public output: the file it belongs to and the bytes it adds there."""

    file: str
    data: bytes
    sanitized: SanitizedDocument
    withheld: tuple[dict, ...] = ()


def output_piece(original: Document, text: str) -> tuple[str, bytes]:
    """The bytes a sanitized document adds to its output file, as :func:`relguard.io.serialize_documents` lays
    out a whole corpus: a text document is its own file; a ``.jsonl`` record is one line of its source's file."""
    if original.line is None:
        return original.source or original.name, text.encode("utf-8")
    record = {key: json.loads(value) for key, value in original.fields}
    record["text"] = text
    return original.source, (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")


def rewrite_document(
    doc: DocumentExtraction,
    *,
    index: Mapping[PairKey, int],
    sampled: Mapping[int, Sampled],
    drawn: Drawn,
    forms: Forms,
) -> Piece:
    """Rewrite one document from the outcome table; a sentence the leak scan still flags is withheld."""
    verbalize = FormVerbalizer(forms)
    masked = mask(doc, index)
    withheld: set[int] = set()
    reasons: list[dict] = []
    out = fill(masked, sampled, verbalize)
    for _ in range(WITHHOLD_ROUNDS):
        file, data = output_piece(doc.document, out.text)
        text = data.decode("utf-8") if doc.document.line is None else _record_text(data)
        fresh = [
            leak
            for leak in scan_document(doc, text, drawn, forms=forms, withheld=withheld, file=f"documents/{file}")
            if leak.sentence not in withheld
        ]
        if not fresh:
            break
        for leak in fresh:
            withheld.add(leak.sentence)
            reasons.append({"document": leak.document, "sentence": leak.sentence, "kind": leak.kind,
                            "span": leak.text, "text": doc.sentence_text(leak.sentence)})  # fmt: skip
        out = fill(masked, sampled, verbalize, withheld=withheld)
    file, data = output_piece(doc.document, out.text)
    return Piece(file, data, out, tuple(reasons))


def _record_text(line: bytes) -> str:
    record = json.loads(line)
    return "\n".join(str(v) for v in record.values())
