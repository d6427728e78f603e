"""What every page of RelGuard Studio shares: session state, cached models, the prepared corpus.

Session state is initialised here and only here (:func:`init_state`). Heavy
objects (spaCy, the encoder, the inventory) live behind ``st.cache_resource``;
extraction is ``st.cache_data`` keyed by the documents' content, so a second
session with the same files reuses the work but can never see another
session's documents (it has to hold the same content to hit the cache).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

import streamlit as st

from relguard import llm, registry
from relguard.errors import RelGuardError
from relguard.expectations import OutcomeModel, epsilon_grid
from relguard.io import read_documents
from relguard.pipeline import Prepared, extract_corpus, group_relations, prepare_extracted
from relguard.types import Document, DocumentExtraction, Extraction

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_DIR = ROOT / "assets" / "sample_corpus"
SAMPLE_NAMES = frozenset(p.name for p in SAMPLE_DIR.glob("*.txt"))
EPSILONS = epsilon_grid(0.01, 100.0, per_decade=10)
LAMBDAS = epsilon_grid(0.01, 10.0, per_decade=10)

DEFAULTS = {
    "documents": {},  # name -> Document, in load order
    "hashes": {},  # input file name -> sha256
    "upload_errors": [],  # (file name, message)
    "seen_uploads": set(),  # file ids already read
    "sample_loaded": False,
    "prepared": None,
    "prepared_key": None,
    "model": None,
    "epsilon": 1.0,
    "lam": 1.0,
    "k": 10,
    "selected": 0,
    "teaching_seed": False,
    "seed": 42,
    "release": None,
    "release_seed": None,
    "exports": [],  # (corpus key, epsilon) of every export, for the composition warning
    "risk": None,  # the last attack on a release (Risk & utility page), kept with the release it measured
    "extractor_name": "spacy",  # or "llm"
    "candidates_name": "inventory",  # or "llm"
    "llm_base_url": None,  # None: filled from OPENAI_BASE_URL when the session starts
    "llm_model": None,  # None: filled from RELGUARD_LLM_MODEL when the session starts
    "usage": None,  # calls and tokens of the LLM backends for the current prepared corpus
}
EXTRACTORS = ("spacy", "llm")
CANDIDATES = ("inventory", "llm")


def init_state() -> None:
    """Create every session-state key with its default (copies, so sessions never share containers)."""
    for key, value in DEFAULTS.items():
        if key not in st.session_state:
            st.session_state[key] = value.copy() if hasattr(value, "copy") else value
    if st.session_state.llm_base_url is None:
        st.session_state.llm_base_url = os.environ.get(llm.BASE_URL_ENV, "")
    if st.session_state.llm_model is None:
        st.session_state.llm_model = os.environ.get(llm.MODEL_ENV, "")
    autoload = os.environ.get("RELGUARD_LOAD_SAMPLE") == "1"
    if autoload and not st.session_state.documents and not st.session_state.get("sample_autoloaded"):
        st.session_state.sample_autoloaded = True
        load_sample()


@st.cache_resource(show_spinner="Loading spaCy …")
def extractor():
    return registry.create("extractor", "spacy")


@st.cache_resource(show_spinner="Loading the encoder …")
def encoder():
    return registry.create("encoder", "sentence-transformers", model="all-MiniLM-L6-v2")


@st.cache_resource(show_spinner=False)
def candidates():
    return registry.create("candidates", "inventory")


def content_key(documents: list[Document]) -> str:
    digest = hashlib.sha256()
    for d in documents:
        digest.update(d.name.encode() + b"\0" + d.text.encode() + b"\0")
    return digest.hexdigest()


@st.cache_data(show_spinner=False, max_entries=4096)
def extract_one(key: str, _document: Document) -> DocumentExtraction:
    """One document's extraction, cached by its content key (``_document`` is what the key stands for)."""
    return extractor().extract(_document)


def extract(documents: list[Document], progress=None) -> Extraction:
    """Extract document by document (each cached by content), reporting progress between documents."""
    results = []
    for number, document in enumerate(documents, start=1):
        results.append(extract_one(content_key([document]), document))
        if progress:
            progress(number, len(documents))
    return Extraction(tuple(results), group_relations(results), extractor=getattr(extractor(), "model_id", ""))


def add_documents(documents: list[Document], hashes: dict[str, str]) -> None:
    current = st.session_state.documents
    for d in documents:
        current[d.name] = d
    st.session_state.hashes.update(hashes)
    st.session_state.release = None


def load_sample() -> None:
    documents, hashes = read_documents([SAMPLE_DIR])
    add_documents(documents, hashes)
    st.session_state.sample_loaded = True


def clear_documents() -> None:
    for key in ("documents", "hashes", "upload_errors"):
        st.session_state[key] = DEFAULTS[key].copy()
    st.session_state.prepared = st.session_state.prepared_key = st.session_state.model = None
    st.session_state.release = None


def llm_environ() -> dict[str, str]:
    """The environment as the LLM backends will see it, with the app's base URL and model fields on top."""
    env = dict(os.environ)
    for name, value in ((llm.BASE_URL_ENV, st.session_state.llm_base_url), (llm.MODEL_ENV, st.session_state.llm_model)):
        if value:
            env[name] = value
    return env


def backend_choice() -> tuple[str, str]:
    """The chosen (extractor, candidates) names; the offline ones whenever no LLM endpoint is configured."""
    ss = st.session_state
    if not llm.configured(llm_environ()):
        return "spacy", "inventory"
    return ss.extractor_name, ss.candidates_name


def prepared(*, progress: bool = True) -> Prepared | None:
    """The session's corpus, extracted and prepared for its current K (recomputed only when they change)."""
    documents = list(st.session_state.documents.values())
    if not documents:
        return None
    names = backend_choice()
    endpoint = (st.session_state.llm_base_url, st.session_state.llm_model) if "llm" in names else None
    key = (content_key(documents), st.session_state.k, names, endpoint)
    if st.session_state.prepared_key == key:
        return st.session_state.prepared
    bar = st.progress(0.0, text="Extracting triples …") if progress else None

    def update(done: int, total: int) -> None:
        if bar is not None:
            bar.progress(done / max(total, 1), text=f"Extracting triples: {done}/{total} documents")

    try:
        # Fresh LLM backends per run, so the calls and tokens shown and reported are this run's (repeats of
        # the same documents come from the LLM's disk cache and cost no calls).
        extractor_obj, candidates_obj = llm.build_backends(
            extractor=names[0],
            candidates=names[1],
            model=st.session_state.llm_model,
            base_url=st.session_state.llm_base_url,
            encoder=encoder(),
        )
        if extractor_obj == "spacy":
            extraction, extractor_obj = extract(documents, progress=update), extractor()
        else:
            extraction = extract_corpus(documents, extractor=extractor_obj, progress=update)
        result = prepare_extracted(
            documents,
            extraction,
            k=st.session_state.k,
            candidates=candidates() if candidates_obj == "inventory" else candidates_obj,
            encoder=encoder(),
            input_hashes=st.session_state.hashes,
            extractor_backend=extractor_obj,
        )
    except RelGuardError as exc:
        st.error(str(exc))
        return None
    finally:
        if bar is not None:
            bar.empty()
    st.session_state.model = OutcomeModel.from_prepared(result)
    st.session_state.prepared, st.session_state.prepared_key = result, key
    st.session_state.usage = llm.run_usage(extractor_obj, candidates_obj) if "llm" in names else None
    if st.session_state.selected >= len(result.groups):
        st.session_state.selected = 0
    return result


def need_corpus() -> Prepared | None:
    """The prepared corpus, or a pointer to the Documents page when there is none yet."""
    result = prepared()
    if result is None and not st.session_state.documents:
        st.info("No documents yet. Load the sample corpus or upload files on the **Documents** page.")
        if st.button("Load the sample corpus", key="load_sample_here"):
            load_sample()
            st.rerun()
    elif result is not None and not result.triples:
        st.warning("The extractor found no relations between named entities in these documents.")
    return result


def lasting(widget, label: str, *args, key: str, state: str, **kwargs):
    """``widget(label, ...)`` whose value lives in the session key ``state``, not only in its widget ``key``.

    Streamlit drops a widget's key when its page is left; seeding the widget from ``state`` and copying every
    change back keeps ε, λ, K and the backend choices across pages (and lets two pages share one value).
    """
    if key not in st.session_state:
        st.session_state[key] = st.session_state[state]
    return widget(label, *args, key=key, on_change=_keep, args=(key, state), **kwargs)


def log_slider(container, label: str, *, options: Sequence[float], key: str, state: str) -> float:
    """An ε or λ slider over a log-spaced grid, its value kept in ``state`` (shared by Tune and Risk)."""
    return lasting(container.select_slider, label, options=options, key=key, state=state, format_func=_number)


def _number(value: float) -> str:
    return f"{value:g}"


def _keep(widget_key: str, state_key: str) -> None:
    st.session_state[state_key] = st.session_state[widget_key]


def sidebar() -> None:
    """Corpus status and the current privacy parameters, on every page."""
    with st.sidebar:
        count = len(st.session_state.documents)
        st.caption(f"**{count}** document{'s' if count != 1 else ''} loaded")
        extractor_name, candidates_name = backend_choice()
        st.caption(f"Extractor: {extractor_name} · pools: {candidates_name}")
        st.caption(f"ε = {st.session_state.epsilon:g} · λ = {st.session_state.lam:g} · K = {st.session_state.k}")
        if st.session_state.release is not None:
            label = "teaching draw (not private)" if st.session_state.release_seed is not None else "private draw"
            st.caption(f"Release drawn: {label}")
