"""The sensitive-predicate policy: on by default, it keeps accusations, dismissals, crimes, health and family ties
about people out of the pools.

The mechanism may fill a slot with any predicate of its pool, so without this policy an HR memo can come out as
"Brightwater Logistics sued Thomas Reilly" or "Daniel Okafor is a parent of Helen Marsh": the mechanism working,
and a false statement about a named person in a plain sentence. Every entry names a type pair with a person on
one side; the pools take the next public predicates instead, so each still holds exactly K (DESIGN invariant 2).

The list is public like the pools (it depends on nothing but its own text), named in the report with its digest
and replayed by config.toml. It is editable: ``--no-sensitive-policy`` switches it off, and a copy of
:data:`SENSITIVE_TEXT` edited and given as ``--exclude-predicates FILE`` applies the edited list instead.
Entries an inventory pool does not hold are there for other pool backends (an LLM may propose ``accused_of``).
"""

from __future__ import annotations

from functools import cache

from relguard.candidates.exclusion import ExclusionPolicy, parse_policy

#: How the report and the config name this list; a new wording of the list gets a new name.
SENSITIVE_NAME = "relguard:sensitive-predicates-v1"
SENSITIVE_TEXT = """\
# RelGuard sensitive-predicate policy v1: never drawn about a person (relguard sanitize --no-sensitive-policy)
# accusations and lawsuits
ORG->PERSON sued
ORG->PERSON investigated
ORG->PERSON accused
PERSON->ORG sued
PERSON->ORG was_investigated_by
PERSON->ORG was_accused_by
PERSON->PERSON sued
PERSON->PERSON accused
PERSON->PERSON accused_of
EVENT->PERSON investigated_by
# dismissals
ORG->PERSON fired
ORG->PERSON expelled
ORG->PERSON banned
ORG->PERSON dismissed
PERSON->ORG was_fired_by
PERSON->ORG was_dismissed_by
PERSON->PERSON fired
NORP->PERSON expelled
# crimes
PERSON->PERSON killed
PERSON->PERSON assaulted
PERSON->PERSON defrauded
PERSON->PERSON harassed
EVENT->PERSON killed
ORG->PERSON arrested
ORG->PERSON convicted
GPE->PERSON imprisoned
GPE->PERSON prosecuted
FAC->PERSON imprisoned
LAW->PERSON used_to_prosecute
PRODUCT->PERSON used_to_kill
PERSON->GPE was_arrested_in
PERSON->FAC was_imprisoned_at
PERSON->FAC was_arrested_at
PERSON->EVENT was_arrested_at
PERSON->LAW was_convicted_under
PERSON->LAW convicted_of
# health
ORG->PERSON treated
FAC->PERSON treated
PERSON->FAC was_treated_at
# family ties and intimacy between two people
PERSON->PERSON spouse_of
PERSON->PERSON married_to
PERSON->PERSON parent_of
PERSON->PERSON child_of
PERSON->PERSON sibling_of
PERSON->PERSON grandparent_of
PERSON->PERSON cousin_of
PERSON->PERSON romantic_partner_of
PERSON->PERSON divorced
"""


@cache
def sensitive_policy() -> ExclusionPolicy:
    """The built-in list as an exclusion policy (:mod:`relguard.candidates.exclusion`)."""
    return parse_policy(SENSITIVE_TEXT, name=SENSITIVE_NAME)
