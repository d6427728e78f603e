"""The release core: one outcome table, one per-document rewrite, one assembly and one sink protocol for every face.

A release is drawn once (:mod:`.outcomes`), each document is rewritten from the outcome table alone
(:mod:`.rewrite`), and the pieces go through one :class:`~relguard.engine.assemble.Assembly` into a sink
(:mod:`.sink`: a folder or memory) whose finish always writes report.json, report.md and config.toml and always
runs the public-file check (:mod:`.check`). The faces differ only in where the documents come from and where
they are rewritten: in memory (:mod:`.memory`, the app, the library), streamed on every core
(:func:`run_local`) or on Ray (:func:`run_ray`).
"""

from relguard.engine.assemble import Finished
from relguard.engine.backends import Backends, DrawBackends
from relguard.engine.local import auto_workers, run_local
from relguard.engine.memory import draw_release, export, public_files, release_zip, write_release
from relguard.engine.outcomes import OutcomeTable
from relguard.engine.ray import run_ray
from relguard.engine.sink import FolderSink, MemorySink, Sink

__all__ = [
    "Backends",
    "DrawBackends",
    "Finished",
    "FolderSink",
    "MemorySink",
    "OutcomeTable",
    "Sink",
    "auto_workers",
    "draw_release",
    "export",
    "public_files",
    "release_zip",
    "run_local",
    "run_ray",
    "write_release",
]
