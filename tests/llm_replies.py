"""Scripted replies of a well-behaved model for end-to-end runs (CLI and app) against :mod:`tests.llm_server`.

Both prompt sets are answered: compact extraction (flat triples over the entity list) and Fig. 4 for two known
documents, typing from names, and pools drawn from a public list (compact one-shot or Fig. 5, honouring
rejections on a retry, and containing near-synonyms the backend must reject).
"""

from __future__ import annotations

import json
import re

from relguard.llm import compact
from tests.llm_server import fenced_data, system_prompt, user_text

DOCS = {
    "acme.txt": "Alice Smith founded Acme Corporation in 1990. Acme Corporation is based in Berlin.",
    "bob.txt": "Bob Jones works for Acme Corporation. The weather was fine.",
}
EXTRACTIONS = {
    "Alice Smith founded": {
        "entities": [{"name": "Alice Smith"}, {"name": "Acme Corporation"}, {"name": "Berlin"}],
        "triples": [
            {"subject": "Alice Smith", "relation": "founded", "object": "Acme Corporation",
             "occurrences": [{"sentence": 1, "predicate": "founded"}]},
            {"subject": "Acme Corporation", "relation": "based_in", "object": "Berlin",
             "occurrences": [{"sentence": 2, "predicate": "is based in"}]},
        ],
    },
    "Bob Jones works": {
        "entities": [{"name": "Bob Jones"}, {"name": "Acme Corporation"}],
        "triples": [{"subject": "Bob Jones", "relation": "works_for", "object": "Acme Corporation",
                     "occurrences": [{"sentence": 1, "predicate": "works for"}]}],
    },
}  # fmt: skip
COMPACT = {
    "Alice Smith founded": [
        ["Alice Smith", "founded", "Acme Corporation"],
        ["Acme Corporation", "is based in", "Berlin"],
    ],
    "Bob Jones works": [["Bob Jones", "works for", "Acme Corporation"]],
}
TYPES = {"Alice Smith": "PERSON", "Bob Jones": "PERSON", "Acme Corporation": "ORG", "Berlin": "GPE"}
PUBLIC = {  # what a model might propose; near-synonyms among them are rejected by the backend
    "PERSON|ORG": ["works_for", "employed_by", "founded", "invests_in", "sued", "advises", "owns", "left", "chairs"],
    "ORG|GPE": ["based_in", "headquartered_in", "operates_in", "sued", "exports_to", "banned_in", "taxed_by"],
}  # fmt: skip


def is_extraction(body: dict) -> bool:
    """Whether a request is an extraction call of either prompt set."""
    system = system_prompt(body)
    return system.startswith(("You are a knowledge graph extraction assistant", compact.EXTRACT_SYSTEM[:40]))


def last_user(body: dict) -> str:
    return next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")


def typing_names(body: dict) -> list[str]:
    return json.loads(fenced_data(user_text(body)))


def types_reply(names: list[str], types: dict[str, str] | None = None) -> str:
    return json.dumps({"types": {n: (types or TYPES).get(n, "NONE") for n in names}})


def respond(body: dict) -> str:
    system, user = system_prompt(body), user_text(body)
    if system.startswith("You are a knowledge graph extraction assistant"):
        return json.dumps(next(reply for key, reply in EXTRACTIONS.items() if key in user))
    if system.startswith(compact.EXTRACT_SYSTEM[:40]):
        passage = last_user(body)
        return json.dumps({"triples": next((r for key, r in COMPACT.items() if key in passage), [])})
    if system.startswith("You are an entity typing assistant"):
        return types_reply(typing_names(body))
    if system.startswith(("You are a semantic relation calibration assistant", "You list relation predicates")):
        request = last_user(body) if "Accepted so far" not in last_user(body) else body["messages"][-2]["content"]
        if m := re.search(r"Subject Type: (\w+)\nObject Type: (\w+)\nCandidate Count: (\d+)", user):
            subject, obj, k = m.group(1), m.group(2), int(m.group(3))
        else:
            m = re.search(r"Type pair: \((\w+), (\w+)\)\nK: (\d+)", request)
            subject, obj, k = m.group(1), m.group(2), int(m.group(3))
        found = re.search(r"(?:already accepted|Accepted so far): (\[.*?\])", user)
        accepted = json.loads(found.group(1)) if found else []
        retry = last_user(body) if found else ""
        rest = [p for p in PUBLIC[f"{subject}|{obj}"] if p not in accepted and p not in retry]
        return json.dumps({"relation_pool": (accepted + rest)[:k]})
    return json.dumps({"clause": "relates", "noun": None})
