"""Scripted replies of a well-behaved model for end-to-end runs (CLI and app) against :mod:`tests.llm_server`.

Fig. 4 extraction for two known documents, typing from names, and Fig. 5 pools drawn from a public list
(honouring rejections on a retry, and containing near-synonyms the backend must reject).
"""

from __future__ import annotations

import json
import re

from tests.llm_server import system_prompt, user_text

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
TYPES = {"Alice Smith": "PERSON", "Bob Jones": "PERSON", "Acme Corporation": "ORG", "Berlin": "GPE"}
PUBLIC = {  # what a model might propose; near-synonyms among them are rejected by the backend
    "PERSON|ORG": ["works_for", "employed_by", "founded", "invests_in", "sued", "advises", "owns", "left", "chairs"],
    "ORG|GPE": ["based_in", "headquartered_in", "operates_in", "sued", "exports_to", "banned_in", "taxed_by"],
}  # fmt: skip


def respond(body: dict) -> str:
    system, user = system_prompt(body), user_text(body)
    if system.startswith("You are a knowledge graph extraction assistant"):
        return json.dumps(next(reply for key, reply in EXTRACTIONS.items() if key in user))
    if system.startswith("You are an entity typing assistant"):
        names = json.loads(user.split("\n", 1)[1])
        return json.dumps({"types": [{"name": n, "type": TYPES.get(n, "NONE")} for n in names]})
    if system.startswith("You are a semantic relation calibration assistant"):
        subject = re.search(r"Subject Type: (\w+)", user).group(1)
        obj = re.search(r"Object Type: (\w+)", user).group(1)
        k = int(re.search(r"Candidate Count: (\d+)", user).group(1))
        accepted = json.loads(m.group(1)) if (m := re.search(r"already accepted: (\[.*?\])", user)) else []
        rest = [p for p in PUBLIC[f"{subject}|{obj}"] if p not in accepted and p not in user]
        return json.dumps({"relation_pool": (accepted + rest)[:k]})
    return json.dumps({"clause": "relates", "noun": None})
