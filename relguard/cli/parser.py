"""The ``relguard`` argument parser: one sub-command per module, settings flags from one table.

The privacy, backend and input flags come from :data:`relguard.settings.FLAGS` (through
:func:`relguard.cli.common.add_settings_flags`), so every command spells them the same way and an exported
config writes the same flags back (:func:`relguard.settings.command_line`).
"""

from __future__ import annotations

import argparse

from relguard.cli import audit, evaluate, inspect, sanitize
from relguard.cli.common import EXAMPLES
from relguard.version import __version__


class OneLineParser(argparse.ArgumentParser):
    """Usage errors as one line that names the flag and points at ``--help``, not argparse's usage block.

    Sub-command parsers inherit the class (``add_subparsers`` makes them with ``type(parser)``).
    """

    def error(self, message: str):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="relguard",
        description="Sanitize documents with relation differential privacy before a GraphRAG system indexes "
        "them: each relation between two named entities is replaced by a public candidate or deleted.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"relguard {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in (sanitize, inspect, audit, evaluate):
        module.add_parser(commands)
    return parser
