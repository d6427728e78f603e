"""Fixtures shared by test modules: the sample corpus prepared once, the shared datasets, one Ray instance.

Tests that read ``../shared/data`` (or ``$RELGUARD_DATA_DIR``) take the :func:`shared_data` fixture: on a user's
clone without it they are skipped with one line saying so; under CI (the ``CI`` variable set), where the data is
always checked out, its absence is a failure. Ray starts once per session (:func:`ray_instance`), on 2 CPUs.
"""

import os
from pathlib import Path

import pytest

from relguard import registry
from relguard.embed import predicate_text
from relguard.errors import ModelError
from relguard.evaluation.datasets import default_data_dir
from relguard.extract.spacy import SpacyExtractor
from relguard.io import read_documents
from relguard.pipeline import prepare
from relguard.studio.session import ExtractionCache, Resources

SAMPLE_CORPUS = Path(__file__).resolve().parents[1] / "assets" / "sample_corpus"
NO_SHARED_DATA = (
    "the shared datasets are not here: check out ../shared/data next to this clone or set RELGUARD_DATA_DIR"
)


def shared_data_dir() -> Path:
    """The shared datasets' folder; skip without it, fail without it under CI."""
    folder = default_data_dir()
    if folder is not None and folder.is_dir():
        return folder
    if os.environ.get("CI"):
        pytest.fail(f"{NO_SHARED_DATA} (CI is set, and CI always has them)")
    pytest.skip(NO_SHARED_DATA)


@pytest.fixture(autouse=True)
def app_state(tmp_path_factory, monkeypatch) -> Path:
    """Each test's own app state folder (relguard.studio.state): draws and review edits never leak between tests
    or into the user's ~/.local/state."""
    folder = tmp_path_factory.mktemp("relguard-state")
    monkeypatch.setenv("RELGUARD_STATE", str(folder))
    return folder


@pytest.fixture(scope="session")
def shared_data() -> Path:
    return shared_data_dir()


@pytest.fixture(scope="session")
def ray_instance():
    """One local Ray instance (2 CPUs) for every test that runs the Ray engine; a run joins it, never stops it."""
    ray = pytest.importorskip("ray")
    if not ray.is_initialized():
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


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


@pytest.fixture(scope="session")
def resources() -> Resources:
    """The app's offline backends, loaded once for the Studio tests (pages/_shared.py builds the same)."""
    return Resources(
        registry.create("extractor", "spacy"),
        registry.create("candidates", "inventory"),
        registry.create("encoder", "sentence-transformers", model="all-MiniLM-L6-v2"),
        ExtractionCache(),
    )


@pytest.fixture(scope="session")
def mixed_lengths() -> list[str]:
    """Typed predicates short and long in one batch, where padding would move a short text's bits if it could
    (the encoders' batch-independence tests)."""
    predicates = ["born_in", "works_for", "was_appointed_chief_executive_of", "co_founded", "married_to", "of"]
    predicates += [f"played_for_{i}_seasons_before_joining" for i in range(20)]
    return [predicate_text(p, pair) for p in predicates for pair in (("PERSON", "ORG"), ("GPE", "GPE"))]
