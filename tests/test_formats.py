"""Uploads of every supported format become documents; each bad file gets its own message."""

import io
import json

import docx
import pytest

from relguard.engine import MemorySink, OutcomeTable
from relguard.engine.assemble import Assembly
from relguard.engine.rewrite import Piece, output_name, output_piece
from relguard.engine.tally import Tally
from relguard.errors import InputError, OutputError
from relguard.io.formats import documents_from_upload, html_text, load_uploads
from relguard.types import Document, Guarantee, SanitizedDocument


def written(pairs: list[tuple[Document, str]]) -> dict[str, bytes]:
    """The document files a release of these (original, sanitized text) pairs holds, through the release core."""
    sink = MemorySink()
    table = OutcomeTable((), (), {}, Guarantee(1.0, 1.0, 10))
    assembly = Assembly(sink, table, forms=lambda p, t: {}, notice=False)  # the notice has its own test
    for original, text in pairs:
        piece = Piece(
            original.name, output_name(original), original.line is not None, output_piece(original, text),
            SanitizedDocument(original.name, text), Tally(),
        )  # fmt: skip
        assembly.add(piece)
    sink.close_files()
    return {name.removeprefix("documents/"): data for name, data in sink.files.items()}


def make_pdf(lines: list[str]) -> bytes:
    """A minimal, valid one-page PDF with a Helvetica text layer (xref offsets computed exactly)."""
    text = " ".join(f"({line}) Tj 0 -16 Td" for line in lines)
    stream = f"BT /F1 12 Tf 72 720 Td {text} ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length " + str(len(stream)).encode() + b" >>\nstream\n" + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(f"{number} 0 obj\n".encode() + body + b"\nendobj\n")
    xref = out.tell()
    out.write(f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode())
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode())
    return out.getvalue()


def make_docx(paragraphs: list[str]) -> bytes:
    document = docx.Document()
    for paragraph in paragraphs:
        document.add_paragraph(paragraph)
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def test_pdf_text_layer_is_read():
    [document] = documents_from_upload("memo.pdf", make_pdf(["Alice founded Acme in Berlin."]))
    assert "Alice founded Acme in Berlin." in document.text
    assert document.source == "memo.pdf.txt"


def test_docx_paragraphs_are_read_in_order():
    [document] = documents_from_upload("memo.docx", make_docx(["Alice founded Acme.", "Bob works for Acme."]))
    assert document.text == "Alice founded Acme.\n\nBob works for Acme."


def test_html_drops_scripts_and_keeps_visible_text_as_text():
    markup = (
        "<html><head><title>t</title><script>alert(1)</script></head>"
        "<body><p>Alice founded <b>Acme</b>.</p><div>Bob &amp; Carol</div><style>p{}</style></body></html>"
    )
    assert html_text(markup) == "Alice founded Acme.\nBob & Carol"
    [document] = documents_from_upload("page.html", markup.encode())
    assert "alert" not in document.text


def test_csv_rows_become_documents_and_keep_the_columns_named():
    """A CSV's other columns are strings: left out unless named (issue 38), and the document says which."""
    data = b'id,text,lang\n1,"Alice founded Acme.",en\n2,,en\n3,"Bob, the CEO, left.",en\n'
    assert documents_from_upload("notes.csv", data)[0].left_out == ("id", "lang")
    documents = documents_from_upload("notes.csv", data, keep_fields=frozenset({"id", "lang"}))
    assert [d.text for d in documents] == ["Alice founded Acme.", "Bob, the CEO, left."]
    assert documents[0].fields == (("id", '"1"'), ("lang", '"en"')) and documents[0].left_out == ()
    files = written([(d, d.text.upper()) for d in documents])
    lines = [json.loads(line) for line in files["notes.csv.jsonl"].decode().splitlines()]
    assert lines == [
        {"id": "1", "lang": "en", "text": "ALICE FOUNDED ACME.", "relguard_slots": []},
        {"id": "3", "lang": "en", "text": "BOB, THE CEO, LEFT.", "relguard_slots": []},
    ]


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("scan.pdf", b"%PDF-1.4 garbage", "scan.pdf: not a readable PDF"),  # broken PDF
        ("memo.docx", b"PK\x03\x04 not a zip", "memo.docx: not a readable Word .docx"),  # broken docx
        ("table.csv", b"id,body2\n1,x\n", "table.csv: no text column"),  # no text column
        ("empty.txt", b"", "empty.txt: the file is empty"),  # empty
        ("photo.png", b"\x89PNG", "photo.png: unsupported file type '.png'"),  # unsupported
        ("latin.txt", "Café".encode("latin-1"), "latin.txt: not valid UTF-8"),  # wrong encoding
        ("blank.pdf", make_pdf([]), "blank.pdf: no text could be extracted"),  # no text layer
    ],
)
def test_bad_files_raise_input_error_naming_the_file(name, data, message):
    with pytest.raises(InputError) as caught:
        documents_from_upload(name, data)
    assert str(caught.value).startswith(message)


def test_one_bad_file_does_not_stop_the_good_ones():
    result = load_uploads(
        [
            ("good.txt", b"Alice founded Acme."),
            ("bad.pdf", b"not a pdf"),
            ("good.docx", make_docx(["Bob works for Acme."])),
        ]
    )
    assert [d.name for d in result.documents] == ["good.txt", "good.docx"]
    assert set(result.hashes) == {"good.txt", "good.docx"}
    assert [name for name, _ in result.errors] == ["bad.pdf"]
    assert "bad.pdf" in result.errors[0][1]


def test_two_documents_with_one_output_name_are_refused_not_overwritten():
    """Two documents that would share one output file (other than the records of one .jsonl file) are an error:
    otherwise the last would overwrite the first, and the leak scan read that one in place of the other."""
    same = [(Document("a", "First text."), "first"), (Document("b", "Second text.", source="a"), "second")]
    with pytest.raises(OutputError, match="'a'"):
        written(same)
    record = Document("c", "Third.", source="a", line=1, fields=(("id", '"c"'),))
    with pytest.raises(OutputError, match="'a'"):
        written([same[0], (record, "third")])
    assert set(written([same[0], (Document("b", "Second text."), "second")])) == {"a", "b", "slots.jsonl"}


RECORDS = (
    '{"id": "n1", "n": 3, "ok": true, "tags": [1, 2], "meta": {"w": "x"}, "headline": "HEADLINE_A", '
    '"text": "Alice Smith founded Acme Corp in 2001."}\n'
    '{"id": "n2", "n": 4, "ok": null, "headline": "HEADLINE_B", "text": "Bob Jones works for Globex."}\n'
)


def test_other_string_fields_of_a_record_are_left_out_unless_named(tmp_path, capsys):
    """Issue 38: a relation in a record's ``headline`` was copied into the release as written. Only the text field
    is sanitized, so every other field holding words is left out by default and named in the CLI summary, the
    report and report.md; --keep-fields releases a field as written; numbers, booleans and nulls stay."""
    from relguard.cli import main

    source = tmp_path / "in"
    source.mkdir()
    (source / "news.jsonl").write_text(RECORDS, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["sanitize", str(source), "--out", str(out), "--seed", "7", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "left out: the record fields headline, id, meta" in printed
    released = (out / "documents" / "news.jsonl").read_text(encoding="utf-8")
    assert "HEADLINE" not in released and '"n1"' not in released
    first = json.loads(released.splitlines()[0])
    assert {k: first[k] for k in ("n", "ok", "tags")} == {"n": 3, "ok": True, "tags": [1, 2]}
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["record_fields"]["left_out"] == ["headline", "id", "meta"]
    assert report["record_fields"]["kept_as_written"] == []
    assert "`headline`, `id`, `meta`" in (out / "report.md").read_text(encoding="utf-8")

    kept = tmp_path / "kept"
    assert main(["sanitize", str(source), "--out", str(kept), "--seed", "7", "--quiet", "--keep-fields", "id"]) == 0
    capsys.readouterr()
    released = (kept / "documents" / "news.jsonl").read_text(encoding="utf-8")
    assert [json.loads(line)["id"] for line in released.splitlines()] == ["n1", "n2"] and "HEADLINE" not in released
    report = json.loads((kept / "report.json").read_text(encoding="utf-8"))
    assert report["record_fields"]["kept_as_written"] == ["id"]
    assert 'keep_fields = "id"' in (kept / "config.toml").read_text(encoding="utf-8")


def test_text_documents_have_no_record_fields_block(tmp_path, capsys):
    from relguard.cli import main

    (tmp_path / "a.txt").write_text("Alice Smith founded Acme Corp.\n", encoding="utf-8")
    assert main(["sanitize", str(tmp_path / "a.txt"), "--out", str(tmp_path / "out"), "--seed", "1", "--quiet"]) == 0
    capsys.readouterr()
    assert "record_fields" not in json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
