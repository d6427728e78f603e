"""Backends by name: a user's backend is built through the registry and checked against its kind's contract."""

from __future__ import annotations

import pytest

from relguard import registry
from relguard.errors import BackendError
from relguard.protocols import PoolGenerator
from relguard.types import CandidatePool


class FixedPools:
    """A user's pool backend: the same K public predicates for every type pair."""

    name = "fixed"

    def generate(self, type_pair, k):
        return CandidatePool(type_pair, tuple(f"relation_{i}" for i in range(k)), "fixed")

    def forms(self, predicate, type_pair):
        return {}

    def content_hash(self):
        return None

    def provenance(self):
        return {"backend": self.name}


class NoForms:
    """Half a pool backend: it generates pools but gives no public wordings."""

    name = "half"

    def generate(self, type_pair, k):
        return CandidatePool(type_pair, ("a",) * k, "half")


@pytest.fixture
def registered():
    registry.register("candidates", "test-fixed", FixedPools)
    registry.register("candidates", "test-half", NoForms)
    yield
    for name in ("test-fixed", "test-half"):
        registry._known("candidates").pop(name, None)


def test_a_registered_backend_is_built_and_satisfies_its_contract(registered):
    built = registry.create("candidates", "test-fixed")
    assert isinstance(built, PoolGenerator)
    assert built.generate(("PERSON", "ORG"), 3).k == 3
    assert "test-fixed" in registry.available("candidates")


def test_a_backend_that_breaks_its_contract_is_refused_by_name(registered):
    with pytest.raises(BackendError, match=r"candidates backend 'test-half' built a NoForms.*PoolGenerator"):
        registry.create("candidates", "test-half")


def test_unknown_names_and_kinds_list_what_exists():
    with pytest.raises(BackendError, match="unknown candidates backend 'nope'; available: inventory, llm, pool-file"):
        registry.create("candidates", "nope")
    with pytest.raises(BackendError, match="unknown backend kind 'pools'; kinds are: extractor, candidates"):
        registry.create("pools", "inventory")  # type: ignore[call-overload]
