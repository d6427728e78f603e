"""The entity-level audit passing, and failing on versions that give a hub entity its full ε.

On the sample corpus (its pools, its groups), ``relguard audit``'s checks with the code as it is, then with two
broken versions handed in as audit options (the CLI has no switch for them, on purpose; ``tests/test_entity.py``
shows the audit failing on these same two):

* *one group's ε*: the entity bound claimed at the entity's strongest single group, as if all of a hub's
  relations were one relation (composition dropped). Fails the entity check at ε.
* *full E to a hub's groups*: ε_g = E / min(n(s), n(o)) instead of max, so a hub's groups with entities seen once
  get all of E each. Fails the budget check at E.

Run from the repository root:  PYTHONPATH=. .venv/bin/python bench/entity_audit.py
"""

from __future__ import annotations

import numpy as np

from relguard.io import read_documents
from relguard.pipeline import prepare
from relguard.privacy.entity import group_loss, groups_per_entity
from relguard.verify import audit_prepared
from relguard.verify.settings import AuditOptions


def one_groups_epsilon(keys, epsilons, *, lam, k):
    """A wrong composition: each entity is claimed at its strongest single group, as if it were one relation."""
    out: dict[str, float] = {}
    for (s, _, o, _), e in zip(keys, epsilons, strict=True):
        for name in {s, o}:
            out[name] = max(out.get(name, 0.0), group_loss(epsilon=float(e), lam=lam, k=k))
    return out


def full_budget_to_hubs(keys, *, entity_epsilon):
    """A wrong allocation: E / min(n(s), n(o)) gives a hub's groups with leaves the full E each."""
    n = groups_per_entity(keys)
    return np.array([entity_epsilon / min(n[s], n[o]) for s, _, o, _ in keys])


def main() -> None:
    documents, _ = read_documents(["assets/sample_corpus"])
    prepared = prepare(documents, k=10)
    runs = [
        ("as built, ε = 1", {"epsilon": 1.0}, {}),
        ("one group's ε for a hub, ε = 1", {"epsilon": 1.0}, {"entity_bound": one_groups_epsilon}),
        ("as built, E = 5 per entity", {"epsilon": 5.0, "entity_epsilon": 5.0}, {}),
        ("full E to a hub's groups, E = 5", {"epsilon": 5.0, "entity_epsilon": 5.0}, {"allocate": full_budget_to_hubs}),
    ]
    for title, budget, broken in runs:
        audit = audit_prepared(prepared, lam=1.0, options=AuditOptions(pools_check=False, **broken), **budget)
        print(f"## {title}: {'PASS' if audit.passed else 'FAIL'}\n")
        for check in audit.checks:
            if check.name.startswith("entity"):
                verdict = {True: "PASS", False: "FAIL", None: "skipped"}[check.passed]
                print(f"- {check.name}: **{verdict}** — {check.detail}")
        print()


if __name__ == "__main__":
    main()
