"""Role and title words: what a job title is made of, never a name, however it is capitalized.

The strict slot mode finds names by their spelling (:mod:`.spelled`), so a title-case role ("Vice President of",
"Managing Director", "Sr. VP Sales", "Head of Risk", "Treasurer") would be a capitalized run, typed by the NER on
its own, and a mention: the masked document would then show the role as written, its type would enter the pools,
and its lower-case neighbour ("vice president of") would be masked. A word of this lexicon is never part of a name
in that mode, whatever its case and whatever the words around it, so it lies in the stretch between the names and
is masked like any relation word.

The lexicon is public and document-independent: common job titles, their levels and their office abbreviations
(business-card and HR vocabulary: "Sr.", "Mgr.", "Dir.", "VP", "CEO"), the usual corporate functions that follow
them ("VP Sales", "Mgr. Operations"), and kinship and government roles. Words that are just as often a given name
or a surname, or the first word of many organization names, are left out ("Dean", "King", "Bishop", "General",
"First", "Junior", "Jr.": a name's own part); a title-case relation word that this lexicon does not know stays a
name, which the report says in plain words and counts (:func:`name_between_slots`).
"""

from __future__ import annotations

from relguard.wordlist import words

#: Job titles and roles (singular and plural), kinship and office.
TITLES = words(
    """president presidents vice chairman chairmen chairwoman chairperson chair co-chair cochair director directors
    manager managers officer officers executive executives chief head founder founders cofounder co-founder
    treasurer secretary partner partners associate assistant deputy principal analyst engineer counsel attorney
    lawyer editor publisher owner co-owner trustee trustees governor minister senator mayor professor
    superintendent supervisor administrator coordinator consultant adviser advisor auditor controller comptroller
    accountant clerk intern member spokesman spokeswoman spokesperson employee boss shareholder investor
    chancellor provost rector registrar steward ambassador commissioner councillor councilor congressman
    congresswoman representative delegate leader vp svp evp avp ceo cfo coo cto cio cmo cso cro cpo chro cco cdo
    gm mgr mngr dir asst exec pres treas admin coord supv sr snr wife husband son daughter father mother brother
    sister spouse widow widower fiancee fiance niece nephew uncle aunt cousin grandson granddaughter grandfather
    grandmother stepson stepdaughter stepfather stepmother colleague teammate successor predecessor parent
    subsidiary affiliate acquirer backer sponsor licensee licensor supplier distributor customer client vendor
    contractor creditor lender tenant landlord"""
)
#: Levels and qualifiers of a title ("Senior", "Managing", "Acting", "Former").
LEVELS = words(
    """senior managing acting interim honorary emeritus former founding longtime long-time adjunct executive
    assistant deputy associate principal lead"""
)
#: Corporate functions that complete a title ("VP Sales", "Head of Risk", "Mgr. Operations").
FUNCTIONS = words(
    """operations sales marketing finance risk compliance procurement accounting communications hr treasury
    strategy audit"""
)
ROLE_WORDS = TITLES | LEVELS | FUNCTIONS


def is_role_word(text: str) -> bool:
    """Whether ``text`` (one token, any case, a full stop after it allowed) is a word of a title."""
    return text.lower().rstrip(".") in ROLE_WORDS
