"""The public-file check: every public file of a release, as the sink holds it, scanned before anything is in place.

Run by every release at its finish (:meth:`relguard.engine.assemble.Assembly.finish`), after the reports are built
and before the sink commits. It reads each document's output back from the sink — not from what the rewrite says
it wrote — and scans it against that document (:func:`relguard.engine.rewrite.document_leaks`); it scans every
other public file (report.json, report.md, config.toml) against every document's needles; it looks for the
confidential marker everywhere and refuses names that would leave the folder. Documents stream past once more, so
the check's memory stays flat like the rest of a batch run. Any hit blocks the release: nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from relguard.engine.outcomes import OutcomeTable
from relguard.engine.rewrite import document_leaks, output_name, public_text
from relguard.engine.sink import MemorySink, Sink
from relguard.errors import OutputError
from relguard.release.leakscan import (
    Leak,
    blocked,
    document_needles,
    marker_leak,
    report_leaks,
    unsafe_names,
    without_names,
)
from relguard.types import DocumentExtraction, Forms


class OutputTexts:
    """Each document's text as its public file holds it, read back from the sink in document order."""

    def __init__(self, sink: Sink, *, marked: bool = False, notice: str | None = None) -> None:
        self._sink, self._marked, self._notice = sink, marked, notice
        self._file: str | None = None
        self._lines: Iterator[bytes] = iter(())

    def text(self, doc: DocumentExtraction) -> str:
        name = f"documents/{output_name(doc.document)}"
        if doc.document.line is None:
            return public_text(self._sink.read(name), record=False, marked=self._marked, notice=self._notice)
        if name != self._file:
            self._file, self._lines = name, iter(self._sink.lines(name))
        return public_text(next(self._lines, b""), record=True, marked=self._marked, notice=self._notice)


def check_public_files(
    sink: Sink,
    documents: Iterable[DocumentExtraction],
    table: OutcomeTable,
    *,
    forms: Forms,
    names: Sequence[str],
    document_names: Sequence[str],
    others: Mapping[str, bytes],
    withheld: Mapping[str, Sequence[int]],
    marked: bool = False,
    notice: str | None = None,
) -> None:
    """Raise :class:`~relguard.release.leakscan.LeakError` naming every hit (see the module docstring).

    ``names`` are every public file's name; ``others`` the bytes of those that are not documents (they are not in
    the sink yet); ``withheld`` the sentences taken out per document name; ``marked``: the fills are marked inline.
    """
    refuse_unsafe([*names, *others])
    leaks = public_file_leaks(
        sink,
        documents,
        table,
        forms=forms,
        document_names=document_names,
        others=others,
        withheld=withheld,
        marked=marked,
        notice=notice,
    )
    if leaks:
        raise blocked(leaks)


def refuse_unsafe(names: Sequence[str]) -> None:
    """A public file name that would leave the release folder (names come from user files) blocks the release."""
    unsafe = unsafe_names(names)
    if unsafe:
        raise OutputError(
            f"export blocked, nothing was written: the output name {unsafe[0]!r} would leave the release folder; "
            "rename the input file"
        )


def public_file_leaks(
    sink: Sink,
    documents: Iterable[DocumentExtraction],
    table: OutcomeTable,
    *,
    forms: Forms,
    document_names: Sequence[str],
    others: Mapping[str, bytes],
    withheld: Mapping[str, Sequence[int]],
    marked: bool = False,
    notice: str | None = None,
) -> list[Leak]:
    """Every hit in the documents the sink holds and in ``others``; empty when the release is clean."""
    texts = {name: data.decode("utf-8", errors="replace") for name, data in others.items()}
    leaks = [leak for name, text in texts.items() if (leak := marker_leak(name, text))]
    reports = {name: without_names(text, document_names) for name, text in texts.items()}
    reported: set[str] = set()
    read = OutputTexts(sink, marked=marked, notice=notice)
    for doc in documents:
        text = read.text(doc)
        file = output_name(doc.document)
        got = withheld.get(doc.document.name, ())
        if (leak := marker_leak(f"documents/{file}", text)) and leak.file not in reported:
            reported.add(leak.file)
            leaks.append(leak)
        needles = document_needles(doc, table.drawn, forms=forms, withheld=got)  # both scans read them
        leaks += document_leaks(doc, text, table, forms=forms, withheld=got, file=file, needles=needles)
        leaks += report_leaks(doc, reports, table.drawn, forms=forms, withheld=got, needles=needles)
    return leaks


def leaks_in_files(
    documents: Sequence[DocumentExtraction],
    files: Mapping[str, bytes],
    table: OutcomeTable,
    *,
    forms: Forms,
    withheld: Mapping[str, Sequence[int]],
    marked: bool = False,
    notice: str | None = None,
) -> list[Leak]:
    """The same scan over a set of public files in memory (name → bytes), for a release held in memory; a file no
    document owns is scanned like a report; ``marked``: the fills are marked inline."""
    sink = MemorySink()
    for name, data in files.items():
        sink.write(name, data)
    owned = {f"documents/{output_name(d.document)}" for d in documents}
    others = {name: data for name, data in files.items() if name not in owned}
    names = [d.document.name for d in documents]
    return public_file_leaks(
        sink,
        documents,
        table,
        forms=forms,
        document_names=names,
        others=others,
        withheld=withheld,
        marked=marked,
        notice=notice,
    )
