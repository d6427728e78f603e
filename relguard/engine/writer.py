"""Writing a release piece by piece, all or nothing, hashing each file as it grows.

Every output file is written under a temporary ``.part`` name beside its target; only when the whole release
(documents, then the reports) has been written are they renamed into place. An error or an interrupt removes
every ``.part`` file, so no file of an unfinished run ever carries a final name.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO

from relguard.errors import OutputError
from relguard.io.digest import sha256_file
from relguard.io.parquet import ParquetWriter
from relguard.io.write import file_mode, safe_output_path


class ReleaseWriter:
    """Appends pieces to output files in order; :meth:`commit` renames them all into place at once."""

    def __init__(self, out_dir: str | Path) -> None:
        self.out = Path(out_dir)
        self._open: dict[str, tuple[Path, BinaryIO, object]] = {}
        self._staged: list[tuple[Path, Path]] = []
        self.hashes: dict[str, str] = {}

    def append(self, name: str, data: bytes) -> None:
        """Add ``data`` to the public file ``name`` (relative to the release folder)."""
        if name not in self._open:
            target = safe_output_path(self.out, name)
            with _writing(target):
                target.parent.mkdir(parents=True, exist_ok=True)
                handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
                self._staged.append((Path(temp), target))
                self._open[name] = (target, os.fdopen(handle, "wb"), hashlib.sha256())
        target, stream, digest = self._open[name]
        with _writing(target):
            stream.write(data)
        digest.update(data)  # type: ignore[attr-defined]

    def staged(self, name: str) -> Path:
        """A temporary path for a file another writer fills (the Parquet copy); :meth:`seal` it when done."""
        target = safe_output_path(self.out, name)
        with _writing(target):
            target.parent.mkdir(parents=True, exist_ok=True)
            handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
            os.close(handle)
        self._staged.append((Path(temp), target))
        return Path(temp)

    def seal(self, name: str, path: Path) -> None:
        self.hashes[name] = sha256_file(path)

    def close_files(self) -> dict[str, str]:
        """Finish every document file; returns the SHA-256 of each, keyed by its public name."""
        for name in list(self._open):
            self._finish(name)
        return dict(self.hashes)

    def write(self, name: str, data: bytes) -> None:
        """A whole file at once (the reports)."""
        self.append(name, data)
        self._finish(name)

    def _finish(self, name: str) -> None:
        target, stream, digest = self._open.pop(name)
        with _writing(target):
            stream.close()
        self.hashes[name] = digest.hexdigest()  # type: ignore[attr-defined]

    def commit(self) -> list[Path]:
        self.close_files()
        for temp, target in self._staged:
            with _writing(target):
                os.chmod(temp, file_mode(target))
                os.replace(temp, target)
        return [target for _, target in self._staged]

    def abort(self) -> None:
        for _, stream, _ in self._open.values():
            with suppress(OSError):  # the file is removed next; its own error was already raised
                stream.close()
        self._open.clear()
        for temp, _ in self._staged:
            temp.unlink(missing_ok=True)

    def __enter__(self) -> ReleaseWriter:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None:
            self.abort()


@contextmanager
def _writing(target: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise OutputError(f"{target}: cannot be written ({exc.strerror}); choose another --out folder") from exc


class ParquetCopy:
    """The release's documents as one Parquet table beside ``documents/`` (``--parquet``), staged like the rest."""

    NAME = "documents.parquet"

    def __init__(self, writer: ReleaseWriter) -> None:
        self._release = writer
        self._path = writer.staged(self.NAME)
        self._table = ParquetWriter(self._path)

    def add(self, document: str, file: str, text: str) -> None:
        self._table.add(document, file, text)

    def close(self) -> None:
        self._table.close()
        self._release.seal(self.NAME, self._path)
