"""The ``relguard`` command: batch sanitization, inspection, audit and evaluation of corpora.

One module per sub-command (:mod:`.sanitize`, :mod:`.inspect`, :mod:`.audit`, :mod:`.evaluate`), one parser
(:mod:`.parser`). Every error a user can cause ends in one readable line on stderr and a non-zero exit code
(1 for bad input or settings, 2 for bad usage); tracebacks are for bugs only.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Sequence

from relguard.cli.parser import build_parser
from relguard.errors import RelGuardError

INTERRUPTED_EXIT = 130


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    previous = _terminate_as_interrupt()
    try:
        return args.handler(args)
    except RelGuardError as exc:
        print(f"relguard: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("relguard: interrupted; no partial file was left as complete", file=sys.stderr)
        return INTERRUPTED_EXIT
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _terminate_as_interrupt():
    """Make SIGTERM unwind like Ctrl-C, so temporary files are removed instead of left behind by a hard exit.

    Returns the handler it replaced (None when not on the main thread, where handlers cannot be set)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    return signal.signal(signal.SIGTERM, interrupt)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
