"""The places RelGuard reaches into spaCy, each checked against the spaCy installed.

``_spacy_load`` shadows ``registry._entry_point_factories.get_all`` while it loads (other packages' components
are not imported), ``fast_attribute_ruler`` shadows the attribute ruler's ``match`` with a lookup, and
``import_spacy`` refuses torch to thinc while spaCy imports. None is a public spaCy setting, so each test here
fails when a release stops working the way the shadow relies on, instead of the speed-up silently vanishing or
the ruler setting attributes from rows it misreads.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
import threading

import pytest

spacy = pytest.importorskip("spacy")

from relguard.extract.spacy.importing import _TorchRefused, torch_free  # noqa: E402
from relguard.extract.spacy.model import _FALLBACK_PACKAGES, _spacy_load  # noqa: E402
from relguard.extract.spacy.ruler import fast_attribute_ruler  # noqa: E402

#: The official package, or the re-upload the extractor falls back to (whichever is installed).
MODEL = next(n for n in ("en_core_web_sm", _FALLBACK_PACKAGES["en_core_web_sm"]) if importlib.util.find_spec(n))
TEXT = (
    "Alice Smith founded Acme Corp in 2001. She doesn't live in Paris; Bob's sister, Dr. Lee, does.\n\nNew paragraph."
)


def test_language_reads_entry_point_factories_through_the_method_the_load_shadows():
    factories = spacy.util.registry._entry_point_factories
    original, calls = factories.get_all, []
    factories.get_all = lambda *args, **kwargs: calls.append(1) or original(*args, **kwargs)
    try:
        spacy.blank("en")
    finally:
        del factories.get_all
    assert calls, "spaCy no longer reads entry points through registry._entry_point_factories.get_all"


def test_the_load_never_reads_the_entry_points_and_leaves_the_registry_as_it_was(monkeypatch):
    factories = spacy.util.registry._entry_point_factories
    real, calls = type(factories).get_all, []

    def counting(self, *args, **kwargs):  # every catalogue registry shares the class: count this one's reads
        if self is factories:
            calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(type(factories), "get_all", counting)
    nlp = _spacy_load(spacy, MODEL)
    assert nlp.pipe_names and not calls
    assert "get_all" not in vars(factories)
    spacy.blank("en")
    assert calls, "after the load, spaCy reads the entry points again"


def test_the_attribute_ruler_finds_its_matches_through_the_method_the_lookup_shadows():
    nlp = spacy.load(MODEL)
    ruler = nlp.get_pipe("attribute_ruler")
    doc = nlp(TEXT)
    spacys = type(ruler).match(ruler, doc)
    assert fast_attribute_ruler(nlp)
    lookup, calls = ruler.match, []
    assert lookup(doc) == spacys, "the rows spaCy's own match gives are not the rows the lookup gives"
    ruler.match = lambda d: calls.append(d) or lookup(d)
    again = nlp(TEXT)
    assert calls, "AttributeRuler.__call__ no longer finds its matches through self.match"
    assert [(t.tag_, t.pos_, t.lemma_) for t in again] == [(t.tag_, t.pos_, t.lemma_) for t in doc]


def test_the_default_pipeline_loads_without_torch_and_torch_imports_after_it():
    """In a fresh process (a test worker may have imported torch already): thinc takes the refused torch for
    absent, the pipeline parses, nothing of the refusal is left, and torch imports as usual afterwards."""
    probe = textwrap.dedent(
        f"""
        import sys
        from relguard.extract.spacy.model import load_pipeline
        from relguard.extract.spacy.importing import _TorchRefused
        nlp = load_pipeline({MODEL!r})
        import thinc.compat
        assert "torch" not in sys.modules, "loading the pipeline imported torch"
        assert thinc.compat.has_torch is False
        assert not any(isinstance(f, _TorchRefused) for f in sys.meta_path), "the refusal outlived the import"
        assert [(e.text, e.label_) for e in nlp("Alice Smith founded Acme Corp in Ohio.").ents][0] == (
            "Alice Smith", "PERSON")
        import torch
        assert float(torch.tensor([1.0, 2.0]).sum()) == 3.0
        """
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def test_torch_is_refused_only_to_the_thread_that_imports_spacy():
    refusal = _TorchRefused(threading.get_ident())
    with pytest.raises(ModuleNotFoundError):
        refusal.find_spec("torch")
    with pytest.raises(ModuleNotFoundError):
        refusal.find_spec("torch.utils.dlpack")
    assert refusal.find_spec("numpy") is None
    seen = []
    other = threading.Thread(target=lambda: seen.append(refusal.find_spec("torch")))
    other.start()
    other.join()
    assert seen == [None]


def test_a_pipeline_with_another_packages_layer_imports_spacy_with_torch(tmp_path):
    assert torch_free([MODEL])
    own = tmp_path / "own"
    own.mkdir()
    (own / "config.cfg").write_text('[components.tok2vec.model]\n@architectures = "spacy.Tok2Vec.v2"\n')
    assert torch_free([str(own)])
    trf = tmp_path / "trf"
    trf.mkdir()
    (trf / "config.cfg").write_text(
        '[components.transformer.model]\n@architectures = "spacy-curated-transformers.XlmrTransformer.v1"\n'
    )
    assert not torch_free([str(trf)])
    assert not torch_free([str(tmp_path / "missing"), "no_such_pipeline_package"])
    assert torch_free(["no_such_pipeline_package", str(own)]), "the first installed pipeline decides"
