"""Errors a user can act on.

Every message names the file, field or parameter at fault and what to do
about it, so the CLI can print it as one line and the app can show it as is.
``ValueError``/``TypeError`` subclasses keep the diffprivlib convention that
wrong values and wrong types are told apart.
"""

from __future__ import annotations


class RelGuardError(Exception):
    """Base class: anything RelGuard reports to a user rather than crashing on."""


class ConfigError(RelGuardError, ValueError):
    """A parameter has a value that cannot work (e.g. epsilon < 0)."""


class ConfigTypeError(RelGuardError, TypeError):
    """A parameter has the wrong type (e.g. epsilon given as a string)."""


class InputError(RelGuardError):
    """An input file or record cannot be read as a document."""


class PoolError(RelGuardError):
    """A candidate pool cannot be built as required (exactly K public predicates)."""


class BackendError(RelGuardError):
    """A backend name is unknown or its optional dependency is not installed."""


class ModelError(RelGuardError):
    """A model (spaCy pipeline or encoder) cannot be loaded or fails verification."""


class OutputError(RelGuardError):
    """Results cannot be written where asked (read-only folder, disk full, ...)."""


class BudgetError(RelGuardError):
    """A draw would spend more ε than the budget set for its corpus."""
