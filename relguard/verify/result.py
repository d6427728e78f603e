"""The result of ``relguard audit``: checks, per-pool numbers, and the pass/fail table as text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from relguard.textable import text_table
from relguard.verify.bound import TOLERANCE, PoolAudit
from relguard.verify.sampler import Chi2Result


@dataclass(frozen=True)
class Check:
    """One line of the pass/fail table."""

    name: str
    passed: bool | None
    detail: str


@dataclass(frozen=True)
class SelfAudit:
    """The full audit of one release setting; ``passed`` is False if any check failed."""

    epsilon: float
    lam: float
    k: int
    checks: tuple[Check, ...]
    pools: tuple[PoolAudit, ...] = ()
    chi2: tuple[Chi2Result, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return all(c.passed is not False for c in self.checks)

    def to_dict(self) -> dict:
        """JSON-ready and public: holds pools' type pairs and numbers, never an original relation."""
        return {
            "passed": self.passed,
            "epsilon": self.epsilon,
            "lambda": self.lam,
            "k": self.k,
            "tolerance": TOLERANCE,
            "checks": [asdict(c) for c in self.checks],
            "pools": [{**asdict(p), "type_pair": "|".join(p.type_pair), "passed": p.passed} for p in self.pools],
            "chi2": [{**asdict(c), "type_pair": "|".join(c.type_pair), "passed": c.passed} for c in self.chi2],
            "notes": list(self.notes),
        }

    def table(self) -> str:
        return render_table(self.to_dict())


def render_table(audit: Mapping[str, Any]) -> str:
    """The pass/fail table as plain text (also used by ``relguard audit`` and ``sanitize --self-audit``)."""
    rows = [
        (c["name"], {True: "PASS", False: "FAIL", None: "skipped"}[c["passed"]], c["detail"]) for c in audit["checks"]
    ]
    verdict = f"overall: {'PASS' if audit['passed'] else 'FAIL'} (ε={audit['epsilon']:g}, λ={audit['lambda']:g})"
    return text_table(("check", "result", "detail"), rows) + "\n" + verdict
