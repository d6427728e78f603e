"""Fixtures shared by test modules: the bundled sample corpus, prepared once per session (spaCy + encoder)."""

from pathlib import Path

import pytest

from relguard.errors import ModelError
from relguard.extract.spacy import SpacyExtractor
from relguard.io import read_documents
from relguard.pipeline import prepare

SAMPLE_CORPUS = Path(__file__).resolve().parents[1] / "assets" / "sample_corpus"


@pytest.fixture(scope="session")
def sample():
    """The sample corpus prepared at K = 10 with its input hashes (read-only: Prepared is frozen)."""
    documents, hashes = read_documents([SAMPLE_CORPUS])
    return prepare(documents, k=10, input_hashes=hashes)


@pytest.fixture(scope="session")
def extractor() -> SpacyExtractor:
    """One offline spaCy extractor for the modules that test extraction on real parses."""
    try:
        return SpacyExtractor()
    except ModelError as exc:  # pragma: no cover - depends on the environment
        pytest.skip(str(exc))
