"""``python -m relguard.cli``: the same command as the ``relguard`` script."""

import sys

from relguard.cli import main

sys.exit(main())
