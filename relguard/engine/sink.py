"""Where a release's files go: a folder (the CLI, Ray's driver, the library) or memory (the app's zip, tests).

A sink takes the public files piece by piece (:meth:`Sink.append`, a document's bytes added to its file) or whole
(:meth:`Sink.write`, the reports), hashes them as they grow, can read them back for the public-file check, keeps
the confidential mapping apart (:meth:`Sink.keep_apart`), and puts everything in place at once
(:meth:`Sink.commit`) — or nothing (:meth:`Sink.abort`). The folder sink writes every file under a temporary
``.part`` name beside its target and renames them only when the whole release is written, so an error or an
interrupt leaves no file of an unfinished release under a final name.

The confidential mapping never lands inside the release folder: its path must lie outside it, and a folder that
already holds a ``CONFIDENTIAL-`` file is refused (a stale mapping must not travel with a new release).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import BinaryIO, Protocol

from relguard.errors import ConfigError, OutputError
from relguard.io.digest import sha256_file
from relguard.io.write import CONFIDENTIAL_PREFIX, file_mode, safe_output_path
from relguard.release.confidential import MARKER

#: How much of a file is read to recognise a confidential mapping: its marker opens the file.
_MARKER_WITHIN = 4096


class Sink(Protocol):
    """What a release is written through (see the module docstring)."""

    def append(self, name: str, data: bytes) -> None: ...

    def write(self, name: str, data: bytes) -> None: ...

    def staged(self, name: str) -> Path: ...

    def seal(self, name: str, path: Path) -> None: ...

    def close_files(self) -> dict[str, str]: ...

    def read(self, name: str) -> bytes: ...

    def lines(self, name: str) -> Iterator[bytes]: ...

    def keep_apart(self, data: bytes) -> None: ...

    def commit(self) -> list[str]: ...

    def abort(self) -> None: ...


class MemorySink:
    """The release as bytes in memory: :attr:`files` (public, by name) and :attr:`confidential` (the mapping)."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.confidential: bytes | None = None
        self._open: dict[str, list[bytes]] = {}

    def append(self, name: str, data: bytes) -> None:
        self._open.setdefault(name, []).append(data)

    def write(self, name: str, data: bytes) -> None:
        self.files[name] = data

    def staged(self, name: str) -> Path:
        handle, temp = tempfile.mkstemp(prefix="relguard-", suffix=".part")
        os.close(handle)
        return Path(temp)

    def seal(self, name: str, path: Path) -> None:
        self.files[name] = path.read_bytes()
        path.unlink(missing_ok=True)

    def close_files(self) -> dict[str, str]:
        for name, parts in self._open.items():
            self.files[name] = b"".join(parts)
        self._open.clear()
        return {name: hashlib.sha256(data).hexdigest() for name, data in self.files.items()}

    def read(self, name: str) -> bytes:
        return self.files.get(name, b"")

    def lines(self, name: str) -> Iterator[bytes]:
        return iter(self.read(name).splitlines())

    def keep_apart(self, data: bytes) -> None:
        self.confidential = data

    def commit(self) -> list[str]:
        return list(self.files)

    def abort(self) -> None:
        self.files.clear()
        self.confidential = None


class FolderSink:
    """The release under ``out``, all or nothing; the mapping (if any) at ``mapping``, outside ``out``."""

    def __init__(self, out: str | Path, *, mapping: str | Path | None = None) -> None:
        self.out = Path(out)
        self.mapping = Path(mapping) if mapping is not None else None
        refuse_confidential_inside(self.out, self.mapping)
        self._open: dict[str, tuple[BinaryIO, object]] = {}
        self._staged: dict[str, tuple[Path, Path]] = {}
        self._made: list[Path] = []
        self.hashes: dict[str, str] = {}

    def _folder(self, folder: Path) -> None:
        """Create ``folder`` and remember each folder made, so an aborted release leaves none behind."""
        missing = [folder, *folder.parents]
        missing = [f for f in missing[: next(i for i, f in enumerate(missing) if f.exists())]]
        with _writing(folder):
            folder.mkdir(parents=True, exist_ok=True)
        self._made += [f for f in reversed(missing) if f not in self._made]

    def _stage(self, name: str) -> Path:
        target = safe_output_path(self.out, name)
        self._folder(target.parent)
        with _writing(target):
            handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
            os.close(handle)
        self._staged[name] = (Path(temp), target)
        return Path(temp)

    def append(self, name: str, data: bytes) -> None:
        if name not in self._open:
            temp = self._stage(name)
            with _writing(temp):
                self._open[name] = (open(temp, "wb"), hashlib.sha256())  # noqa: SIM115  (closed in close_files)
        stream, digest = self._open[name]
        with _writing(self._staged[name][1]):
            stream.write(data)
        digest.update(data)  # type: ignore[attr-defined]

    def write(self, name: str, data: bytes) -> None:
        self.append(name, data)
        self._finish(name)

    def staged(self, name: str) -> Path:
        return self._stage(name)

    def seal(self, name: str, path: Path) -> None:
        self.hashes[name] = sha256_file(path)

    def close_files(self) -> dict[str, str]:
        for name in list(self._open):
            self._finish(name)
        return dict(self.hashes)

    def _finish(self, name: str) -> None:
        stream, digest = self._open.pop(name)
        with _writing(self._staged[name][1]):
            stream.close()
        self.hashes[name] = digest.hexdigest()  # type: ignore[attr-defined]

    def read(self, name: str) -> bytes:
        return self._staged[name][0].read_bytes() if name in self._staged else b""

    def lines(self, name: str) -> Iterator[bytes]:
        if name not in self._staged:
            return
        with open(self._staged[name][0], "rb") as stream:
            for line in stream:
                yield line.rstrip(b"\r\n")

    def keep_apart(self, data: bytes) -> None:
        if self.mapping is None:
            raise ConfigError("the confidential mapping needs a path outside the release folder (--mapping PATH)")
        target = self.mapping.resolve()
        self._folder(target.parent)
        with _writing(target):
            handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
        self._staged[CONFIDENTIAL_PREFIX] = (Path(temp), target)

    def commit(self) -> list[str]:
        """Rename every staged file into place; the public files' names (the mapping's path last, if any)."""
        self.close_files()
        for name, (temp, target) in self._staged.items():
            with _writing(target):
                os.chmod(temp, 0o600 if name == CONFIDENTIAL_PREFIX else file_mode(target))
                os.replace(temp, target)
        return [str(target) if name == CONFIDENTIAL_PREFIX else name for name, (_, target) in self._staged.items()]

    def abort(self) -> None:
        for stream, _ in self._open.values():
            with suppress(OSError):  # the file is removed next; its own error was already raised
                stream.close()
        self._open.clear()
        for temp, _ in self._staged.values():
            temp.unlink(missing_ok=True)
        for folder in reversed(self._made):
            with suppress(OSError):  # a folder something else wrote into stays
                folder.rmdir()

    def __enter__(self) -> FolderSink:
        return self

    def __exit__(self, kind, value, traceback) -> None:
        if kind is not None:
            self.abort()


def refuse_confidential_inside(out: Path, mapping: Path | None) -> None:
    """A release folder never holds a confidential file: not the new mapping, not a stale one from an earlier run."""
    root = out.resolve()
    if mapping is not None:
        target = mapping.resolve()
        if target == root or root in target.parents:
            raise ConfigError(
                f"--mapping {mapping} lies inside the release folder {out}: the confidential mapping is never stored "
                "with a release; give a path outside it"
            )
    if root.is_dir():
        stale = [p for p in sorted(root.rglob("*")) if p.is_file() and is_confidential_file(p)]
        if stale:
            raise OutputError(
                f"{stale[0]}: a confidential file sits in the release folder {out}; move it out of there (it must "
                "never be published with a release) and run again"
            )


def is_confidential_file(path: Path) -> bool:
    """A confidential mapping, however it was named (``--mapping private/map.json``): a ``CONFIDENTIAL-`` name, or
    the marker every mapping opens with."""
    if path.name.startswith(CONFIDENTIAL_PREFIX):
        return True
    try:
        with open(path, "rb") as stream:
            return MARKER.encode() in stream.read(_MARKER_WITHIN)
    except OSError:
        return False


@contextmanager
def _writing(target: Path) -> Iterator[None]:
    try:
        yield
    except OSError as exc:
        raise OutputError(f"{target}: cannot be written ({exc.strerror}); choose another --out folder") from exc
