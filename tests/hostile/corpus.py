"""Hostile and broken inputs, generated at test time, each with the outcome RelGuard promises.

``expected`` is ``"ok"`` (processed) or a regular expression the one-line error must match. ``cli`` is what
``relguard sanitize`` does with the file (the CLI reads every format through the app's own parser).
``make_corpus(folder)`` writes every file and returns the cases; big files are made here, never committed.
"""

from __future__ import annotations

import io
import json
import unicodedata
import zipfile
from dataclasses import dataclass
from pathlib import Path

SENTENCE = "Alice Smith founded Acme Corporation in 1990. "
TWENTY_MB = 20 * 1024 * 1024


@dataclass(frozen=True)
class Case:
    name: str
    data: bytes
    expected: str
    cli: str
    why: str


def _long_sentence() -> bytes:
    words = "Alice Smith founded Acme Corporation and then "
    text = (words * (100_000 // len(words) + 1))[:100_000]
    return (text + ".").encode()


def _docx_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("word/document.xml", b" " * (250 * 1024 * 1024))
    return buffer.getvalue()


def _zip_slip_docx() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("../../evil.txt", "escaped")
    return buffer.getvalue()


def cases() -> list[Case]:
    nfd = unicodedata.normalize("NFD", "Zoë Saldaña founded Café Müller GmbH in Zürich. ")
    return [
        Case("empty.txt", b"", r"is empty", r"is empty", "nothing to read"),
        Case("whitespace.txt", b" \n\t\r\n  \n", r"only whitespace", r"only whitespace", "nothing to read"),
        Case("binary.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)), r"binary", r"binary", "NUL"),
        Case("invalid_utf8.txt", b"Alice Smith founded \xc3\x28 Acme.", r"not valid UTF-8 \(byte 20",
             r"not valid UTF-8", "bad byte"),
        Case("utf16_bom.txt", (SENTENCE * 3).encode("utf-16"), "ok", "ok", "BOM-marked UTF-16 is decoded"),
        Case("big.txt", b"a" * (TWENTY_MB + 1), r"over the limit of 20,971,520.*--max-bytes", r"over the limit",
             "20 MB + 1 byte, refused before reading"),
        Case("long_sentence.txt", _long_sentence(), "ok", "ok", "100,000 characters, no sentence end"),
        Case("broken.pdf", b"%PDF-1.7\n1 0 obj <<>> garbage", r"not a readable PDF", r"not a readable PDF",
             "truncated PDF"),
        Case("broken.docx", b"PK\x03\x04 not really a zip", r"not a readable Word", r"not a readable Word",
             "not a zip"),
        Case("bomb.docx", _docx_bomb(), r"zip bomb", r"zip bomb", "250 MB of XML in 250 KB"),
        Case("zipslip.docx", _zip_slip_docx(), r"not a readable Word", r"not a readable Word",
             "member named ../../evil.txt is never extracted"),
        Case("broken_lines.jsonl", b'{"text": "' + SENTENCE.encode() + b'"}\n{"text": broken\n',
             r"line 2 is not valid JSON", r"line 2 is not valid JSON", "second line is not JSON"),
        Case("no_text.csv", b"title,summary\nA,B\n", r"no text column", r"no text column",
             "CSV without a text column"),
        Case("rtl.txt", ("مرحبا بالعالم. שלום עולם. " + SENTENCE).encode(), "ok", "ok", "Arabic and Hebrew"),
        Case("combining.txt", (nfd * 2).encode(), "ok", "ok", "NFD combining marks"),
        Case("html_js.txt", ("<script>alert(1)</script> **Bob** [x](javascript:alert(1)) Jones works for "
                             "<b>Globex</b> Corp. " + SENTENCE).encode(), "ok", "ok", "HTML/JS/Markdown in text"),
        Case("a`<img src=x onerror=alert(1)>`|b.md", SENTENCE.encode(), "ok", "ok",
             "Markdown/HTML in the file name (escaped in report.md)"),
        Case("control.txt",
             ("Alice Smith\x07 founded\x1b[31m Acme Corporation\x0c in 1990.\u202e " + SENTENCE).encode(),
             "ok", "ok", "bell, ANSI escape, form feed, RTL override"),
        Case("traversal.jsonl", json.dumps({"text": SENTENCE, "name": "../../evil.txt"}).encode() + b"\n", "ok", "ok",
             "a record naming ../../evil.txt: names come from files, not records"),
    ]  # fmt: skip


def make_corpus(folder: Path) -> list[Case]:
    folder.mkdir(parents=True, exist_ok=True)
    result = cases()
    for case in result:
        (folder / case.name).write_bytes(case.data)
    return result
