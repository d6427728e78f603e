"""Two sample documents through a real model server, when one runs on this machine (never in the default CI).

Start one with ``bash scripts/local-llm.sh --background`` (Qwen2.5-Coder-1.5B, offline) and run
``.venv/bin/python -m pytest -m slow tests/test_llm_real.py``; ``RELGUARD_REAL_LLM_URL`` points it at another
server. It runs only when asked for (``-m slow`` or ``RELGUARD_REAL_LLM_URL``), so a full run next to a running
server does not spend minutes on it, and it is skipped without a server answering ``/v1/models``. It checks what
must hold whatever the model says: every span is the document's own text inside its sentence, every type is in
the inventory, the calls were made and counted, and a small model still finds some relation in plain text.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from relguard.extract.llm import LLMExtractor
from relguard.llm import LLMConfig, find_local_server
from relguard.llm.discover import probe
from relguard.types import ENTITY_TYPES, Document

pytestmark = pytest.mark.slow
SAMPLE = Path(__file__).resolve().parents[1] / "assets" / "sample_corpus"


@pytest.fixture(scope="module")
def real_server(request) -> tuple[str, str]:
    url = os.environ.get("RELGUARD_REAL_LLM_URL")
    if not url and "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a real model is used only when asked for: pytest -m slow tests/test_llm_real.py")
    if not url:
        found = find_local_server(timeout=1.0)
        url = found.base_url if found else None
    models = probe(url, timeout=300.0) if url else None  # a busy llama.cpp server lists its models when free
    if not models:
        pytest.skip("no model server on this machine (start one: bash scripts/local-llm.sh --background)")
    pytest.importorskip("openai")
    return url, next((m for m in models if "qwen" in m.lower()), models[0])


def test_two_sample_documents_through_the_real_model(real_server, tmp_path):
    url, model = real_server
    config = LLMConfig(model=model, base_url=url, max_concurrency=1, timeout=600.0, max_retries=1)
    extractor = LLMExtractor(config, cache=False)
    names = ("nordlicht_energie.txt", "riverside_school.txt")
    documents = [Document(n, (SAMPLE / n).read_text(encoding="utf-8")) for n in names]
    results = list(extractor.extract_many(documents))
    assert [r.document.name for r in results] == list(names)
    for result in results:
        text = result.document.text
        for triple in result.triples:
            assert {triple.subject_type, triple.object_type} <= set(ENTITY_TYPES)
            for occ in triple.occurrences:
                sentence = result.sentences[occ.sentence]
                assert text[occ.start : occ.end] == occ.text and sentence.start <= occ.start < occ.end <= sentence.end
    assert sum(len(r.triples) for r in results) >= 2
    usage = extractor.usage.snapshot()
    assert usage["extract"]["calls"] >= 2 and usage["typing"]["calls"] >= 1
    assert extractor.usage.total("completion_tokens") > 0
