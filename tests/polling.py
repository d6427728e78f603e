"""Waiting in tests by polling a condition against a deadline, never by a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def wait_for(condition: Callable[[], T], *, timeout: float, what: str, interval: float = 0.05) -> T:
    """The first truthy value of ``condition()``, polled every ``interval`` s; fails naming ``what`` at ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up after {timeout:g} s waiting for {what}")
        time.sleep(interval)
