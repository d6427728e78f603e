"""A temporary file of extractions, written in order while they stream past and read back in the same order.

Between extracting a document and rewriting it a batch run must draw every group's outcome, which needs the
whole corpus seen; keeping the extractions on disk meanwhile is what keeps memory flat as the corpus grows.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from relguard.errors import OutputError
from relguard.types import DocumentExtraction


class Spill:
    """Append-only, read-once store of :class:`~relguard.types.DocumentExtraction` records on local disk."""

    def __init__(self, folder: str | Path | None = None) -> None:
        with self._writing(Path(folder or tempfile.gettempdir())):
            descriptor, name = tempfile.mkstemp(prefix="relguard-spill-", suffix=".pickle", dir=folder)
        self.path = Path(name)
        self._file = os.fdopen(descriptor, "wb")
        self.count = 0

    def add(self, doc: DocumentExtraction) -> None:
        with self._writing(self.path):
            pickle.dump(doc, self._file, protocol=pickle.HIGHEST_PROTOCOL)
        self.count += 1

    def __iter__(self) -> Iterator[DocumentExtraction]:
        with self._writing(self.path):
            self._file.flush()
        with open(self.path, "rb") as stream:
            for _ in range(self.count):
                yield pickle.load(stream)

    def close(self) -> None:
        with suppress(OSError):  # the file goes next; an error writing it was raised where it happened
            self._file.close()
        self.path.unlink(missing_ok=True)

    @staticmethod
    @contextmanager
    def _writing(path: Path) -> Iterator[None]:
        try:
            yield
        except OSError as exc:
            raise OutputError(
                f"{path}: cannot be written ({exc.strerror}); a batch run keeps its extractions there between "
                "passes: free space there or point TMPDIR to a larger disk"
            ) from exc

    def __enter__(self) -> Spill:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
