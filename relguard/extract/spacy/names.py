"""How names refer to entities: organization cores, surnames and acronyms, canonical spelling, label votes."""

from __future__ import annotations

from collections.abc import Sequence

from relguard.extract.spacy import lexicon as lex


def org_core(words: Sequence[str]) -> tuple[str, ...]:
    """An organization name without its legal-form suffix and the comma before it: "acme corp." -> ("acme",),
    "ssdc, inc" -> ("ssdc",)."""
    core = tuple(words)
    while len(core) > 1 and (core[-1].strip(",") in lex.ORG_SUFFIXES or not any(c.isalnum() for c in core[-1])):
        core = core[:-1]
    return core


def short_forms(label: str, words: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Forms a longer name is referred back by: a surname (with particles), an organization's last word or acronym."""
    if label == "PERSON":
        if len(words) < 2 or "of" in words:
            return ()  # "Queen Anne of Romania": a royal style's last word is a place, no surname
        start = len(words) - 1
        while start > 1 and words[start - 1] in lex.NAME_PARTICLES:
            start -= 1
        surname = tuple(words[start:])
        return (surname,) if len(surname) == 1 else ((words[-1],), surname)
    if label != "ORG":
        return ()
    core = org_core(words)
    if len(core) < 2:
        return ()
    initials = "".join(w[0] for w in core if w not in ("of", "the", "and", "for", "&") and w[0].isalpha())
    forms = ((initials,),) if len(initials) > 1 else ()
    return forms if "of" in core else ((core[-1],), *forms)


def is_short(words: Sequence[str]) -> bool:
    """One word, or a surname with its particles ("de vries", "van der berg")."""
    return len(words) == 1 or (len(words) > 1 and all(w in lex.NAME_PARTICLES for w in words[:-1]))


def winner(votes: dict[str, int], tie: str) -> str:
    """The label with the most votes; a tie goes to ``tie`` when it is among the leaders."""
    top = max(votes.values())
    leaders = sorted(label for label, count in votes.items() if count == top)
    return tie if tie in leaders else leaders[0]
