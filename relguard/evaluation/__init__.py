"""Measuring what a RelGuard release protects and what it keeps; :mod:`relguard.evaluate` is the façade."""
