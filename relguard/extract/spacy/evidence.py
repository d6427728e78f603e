"""What a name's own words and the masked text around its mentions say it is.

Two kinds of evidence, each a function of public information only (DESIGN invariant 11):

* :func:`name_evidence` reads the name alone: a legal or club form ("Acme GmbH", "FK Fyllingsdalen"), an
  institution's first word ("University of Bergen", "Escuela …"), a place's head or lead word ("Rohn Glacier",
  "Lake Tahoe", "Warmian-Masurian Voivodeship"), an event's, a law's or an award's last word ("Winnebago
  Uprising", "Philippine Organic Act", "Distinguished Service Medal");
* :func:`context_evidence` reads the text of the mention's sentence with every relation span masked (the
  caller passes the text left and right of the mention after masking, so a word of a relation can never be
  read): a title before a name ("Dr.", "Sir"), a Wikipedia life-span after it ("(born 3 May 1950)"), a kind of
  work before it ("the 1999 film …") or after it ("(1999 film)"), quotes around it, and what the sentence says
  the name is ("X is an American actor", "X, a town in …").

Each cue gives one OntoNotes type; the caller sums them over an entity's mentions.
"""

from __future__ import annotations

import re
from itertools import pairwise

from relguard.extract import gazetteer
from relguard.extract.spacy import lexicon as lex
from relguard.extract.spacy.titles import ROMAN
from relguard.wordlist import MONTHS, NATURAL_HEADS, PEOPLE, words

_WORKS = (
    "film|movie|album|EP|single|song|novel|novella|book|series|sitcom|play|opera|operetta|musical|poem|painting|"
    "documentary|miniseries|soundtrack|anthology|comic|manga|anime|ballad|hymn|symphony|sonata|video game|game|"
    "television series|TV series|short story|short film|mixtape|telenovela|show|television show|TV show|"
    "programme|program|episode|cartoon|comic strip|franchise|podcast|soap opera|web series"
)
_ORGS = (
    "company|corporation|firm|band|group|duo|trio|quartet|club|team|university|college|school|academy|"
    "institute|party|organization|organisation|association|society|foundation|agency|ministry|department|"
    "newspaper|magazine|label|record label|publisher|network|channel|broadcaster|airline|bank|brand|"
    "manufacturer|retailer|conglomerate|charity|union|league|federation|council|committee|government|army|"
    "navy|regiment|brigade|division|church|order|monastery|hospital|museum|orchestra|choir|studio|developer"
)
_PLACES = (
    "city|town|village|hamlet|municipality|commune|suburb|neighbourhood|neighborhood|borough|county|district|"
    "province|region|state|country|nation|kingdom|republic|island|archipelago|river|lake|mountain|peak|volcano|"
    "valley|bay|gulf|sea|ocean|peninsula|desert|forest|glacier|capital|settlement|locality|parish|township|"
    "prefecture|voivodeship|oblast|canton|department|territory|colony|emirate|principality|duchy|community|"
    "census-designated place|unincorporated community|ward|quarter|metropolis|port|resort|oasis|creek|stream|"
    "tributary|strait|cape|plateau|hill|range|continent"
)
_FACILITIES = (
    "airport|station|bridge|stadium|arena|palace|castle|cathedral|church|temple|mosque|tower|building|road|"
    "theme park|amusement park|zoo|cemetery|hotel|house|mansion|home|manor|villa|plantation|lighthouse|"
    "theatre|theater|library|prison|highway|railway line"
)
_EVENTS = "war|battle|uprising|revolt|rebellion|revolution|tournament|festival|tour|election|championship|competition"
_KINDS: tuple[tuple[str, str], ...] = (
    ("WORK_OF_ART", _WORKS),
    ("PERSON", PEOPLE),
    ("GPE", _PLACES),
    ("FAC", _FACILITIES),
    ("EVENT", _EVENTS),
    ("ORG", _ORGS),
)
_STOPS = r"(?:by|of|in|from|that|which|who|whose|with|for|about|on|at|to|and|or|but|starring|directed|written|based)"
_MODIFIERS = rf"(?:(?!{_STOPS}\b)[\w'’.-]+\s+){{0,5}}?"
_IS_A = {
    kind: re.compile(rf"^\s*(?:is|was|are|were)\s+(?:an?|the|one of the)\s+{_MODIFIERS}(?:{nouns})(?:s)?\b", re.I)
    for kind, nouns in _KINDS
}
_APPOSITION = {kind: re.compile(rf"^\s*,\s*(?:an?|the)\s+{_MODIFIERS}(?:{nouns})\b", re.I) for kind, nouns in _KINDS}
_WORK_BEFORE = re.compile(rf"\b(?:{_WORKS})s?\s*(,)?\s*([\"“])?\s*$", re.I)
#: A lower-case word right after a name: the name opens a clause ("wrapping up the series, Comedy Central
#: [proclaimed]"), so a kind of work before it and a comma are the end of another phrase, not its apposition.
_CLAUSE_AFTER = re.compile(r"^\s+[a-z]")
_ORG_BEFORE = re.compile(r"\b(?:band|company|club|label|record label|party|firm|publisher|airline)\s*$", re.I)
_WORK_AFTER = re.compile(rf"^\s*\(\s*(?:\d{{4}}\s+)?(?:[\w-]+\s+)?(?:{_WORKS})\s*\)", re.I)
_ROLE_BEFORE = re.compile(rf"\b(?:{PEOPLE})\s*$", re.I)
_KIN_AFTER = re.compile(
    r"^['’]s\s+(?:[\w-]+\s+)?(?:wife|husband|widow|widower|son|daughter|father|mother|brother|sister|parents|"
    r"grandson|granddaughter|grandfather|grandmother|uncle|aunt|nephew|niece|cousin|death|birth|funeral|"
    r"childhood|boyhood|girlhood|birthplace)\b",
    re.I,
)
_YEAR_AFTER = re.compile(r"^\s*\(\s*\d{4}\s*\)")
_PLACE_OF = re.compile(
    r"\b(?:town|city|village|hamlet|municipality|commune|borough|suburb|county|province|region|state|island|"
    r"unincorporated area|neighbourhood|neighborhood|capital)\s+of\s*$",
    re.I,
)
_DIRECTION = re.compile(
    r"\b(?:northern|southern|eastern|western|central|north-eastern|north-western|south-eastern|south-western|"
    r"northeastern|northwestern|southeastern|southwestern)\s+$"
)
_PLACE_NOUN_AFTER = re.compile(
    r"^(?:-based\b|\s+(region|province|prefecture|county|district|municipality|oblast|governorate|"
    r"voivodeship|valley|river|island|peninsula)\b)"
)
_COMMA_NAME = re.compile(r"^\s*,\s*([A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,2})")
_TITLE_BEFORE = re.compile(
    r"(?:\b(?:Mr|Mrs|Ms|Dr|Prof|Rev|Fr|Sgt|Capt|Col|Gen|Lt)\.?|\b(?:Sir|Dame|Lady|Lord|Madame|Monsieur|Mister|"
    r"Professor|Reverend|Mrs|Miss|Senator|Congressman|Congresswoman|Governor|Mayor|Pope|Sheikh|Ayatollah))\s+$"
)
_MONTHS = "|".join(sorted(MONTHS))
_LIFE_AFTER = re.compile(
    rf"^\s*\([^()]*?(?:\b(?:born|née|nee)\b|^\s*\(\s*(?:b|d)\.\s*\d|(?:\d{{1,2}}\s+)?(?:{_MONTHS})\s+(?:\d{{1,2}},?\s+)?"
    rf"\d{{4}}\s*[–-])",
    re.I,
)
_ALIAS = re.compile(r"\b(?:known|referred to|nicknamed|called|dubbed|named)\s+(?:as\s+)?[\"“‘']\s*$")
_QUOTE_BEFORE = re.compile(r"(?:^|[^\w\s]|\b[a-z]\w*)\s*[\"“]\s?$")  # a blank inside: tokenized text, '" X "'
_NAME_WORD = re.compile(r"(?:[A-Z]\.)+|(?:Mc|Mac|O['’]|D['’])?[A-Z][a-zà-ÿ'’]+(?:-[A-Z][a-zà-ÿ]+)?")
_TITLES = words(
    """King Queen Prince Princess Emperor Empress Admiral Marshal Sir Lord Lady Dame
    Madame Monsieur Pope Duke Duchess Count Countess Baron Baroness Sultan Shah Tsar Czar Kaiser Archduke"""
)
_QUOTE_AFTER = re.compile(r"^\s?[,.!?]?[\"”]")

_ORG_FIRST = words(
    """university universidad université universität università universiteit escuela instituto institut istituto
    colegio bank banco banca banque partido party ministry department fc fk sk ac as sv vfl vfb afc cf cd sc
    sporting club real academy college hospital hc ec ehc ek bc vc rc cs ud sd rcd ssc us ss"""
)
_ORG_LAST = words(
    """fc afc cf sc bk if fk sk ik club university college school academy institute institution bank records
    press party company corporation corp co group holdings inc ltd llc llp plc gmbh ag sa nv spa bv oy ab asa
    association society foundation federation union league council committee commission ministry department
    agency authority army navy regiment brigade corps orchestra choir ensemble band trust airlines airways
    railway railways court studios pictures entertainment media networks publishing publishers newspaper times
    post herald
    tribune journal gazette rovers rangers wanderers athletic pharma pharmaceuticals biotech analytics logistics
    consulting therapeutics biosciences technologies software systems labs laboratories capital partners ventures
    insurance church churches magazine network channel xi tv television radio broadcasting productions films
    workshop ironworks quartet quintet shipping energy energie clinic motors industries solutions technology books
    parliament senate congress philharmonic government assembly representatives commons bureau administration
    service exchange force forces legion fellowship nations limited team bros hospital infirmary"""
)
_FAC_LAST = words(
    """airport station bridge stadium arena palace castle cathedral basilica chapel abbey monastery temple mosque
    synagogue tower monument memorial cemetery museum square street road avenue boulevard highway motorway
    autobahn canal dam tunnel prison lighthouse fort fortress drive trail route parkway expressway freeway
    esplanade viaduct pier wharf shrine tomb theatre theater hall gallery cinema mall hotel restaurant library"""
)
_PLACE_LAST = lex.PLACE_HEADS | words(
    """glacier wilderness reservoir voivodeship oblast prefecture governorate municipality regions counties
    province provinces canton zone commune township parish archipelago plateau falls waterfall coast
    peninsula reserve area caves cave pits badlands bight fjord cay col pond brook rivers lakes ranges riviera
    basin delta lagoon marsh swamp heath moor territory territories hemisphere rim"""
)
_PLACE_FIRST = words("mount lake cape isle gulf bay sea via piazza rue gmina comarca port fort")
_EVENT_LAST = words(
    """war wars uprising revolution rebellion revolt siege massacre tour festival championship championships cup
    olympics games election elections crisis campaign expedition offensive conference summit contest tournament
    competition draft"""
)
_EVENT_FIRST = words("battle siege operation treaty")
_LAW_FIRST = words("treaty")
_LAW_LAST = words(
    """act agreement treaty accord accords convention constitution amendment charter protocol ordinance statute
    decree law"""
)
_AWARD_LAST = words("award awards prize medal trophy")
_GPE_FIRST = words("kingdom republic duchy principality county province emirate")
_HEADS: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = (
    ("LAW", _LAW_FIRST, _LAW_LAST),
    ("AWARD", frozenset(), _AWARD_LAST),
    ("EVENT", _EVENT_FIRST, _EVENT_LAST),
    ("ORG", _ORG_FIRST, _ORG_LAST),
    ("FAC", frozenset(), _FAC_LAST),
    ("LOC", _PLACE_FIRST, _PLACE_LAST),
    ("GPE", _GPE_FIRST, frozenset()),
)
#: Head words that are also common surnames: with a given name before them they make no place.
_SURNAME_HEADS = words("hall park field brook wood woods hill hills lane ford bridge rivers lake marsh moor heath")


def name_evidence(name: str) -> str | None:
    """The type a name's own words give it, or None ("Sacramento Valley": LOC; "SK Ull": ORG; "Museum of Modern
    Art": FAC, by the head before "of")."""
    words = re.findall(r"[^\W_]+(?:[.'’][^\W_]+)*", name)
    while len(words) > 2 and words[-1].isdigit():
        words = words[:-1]  # "FIS Alpine Skiing World Championships 1991"
    if len(words) < 2:
        return None
    folded = [w.casefold().replace(".", "") for w in words]
    first, last = folded[0], folded[-1]
    head = folded[folded.index("of") - 1] if "of" in folded[1:] else last
    if len(words) == 2 and last in _SURNAME_HEADS and gazetteer.given_name(words[0]):
        return None  # "Jerry Hall", "Annie Wood": a person whose surname is a place's head word
    if any(word in _AWARD_LAST and after in ("for", "in") for word, after in pairwise(folded)):
        return "AWARD"  # "Academy Award for Best Picture", "Nobel Prize in Literature"
    for kind, firsts, lasts in _HEADS:
        if first in firsts or last in lasts or head in lasts:
            return kind
    return None


#: Lead words of a natural feature's name ("Mount Tai", "Lake Nokomis"); its last words are :data:`NATURAL_HEADS`.
_NATURAL_FIRST = words("mount lake isle gulf sea")


def natural_feature(name: str) -> bool:
    """Whether the name's own first or last word makes it a natural feature ("Lake Nokomis", "Olza River", "Mount
    Tai"): the NER's GPE for one is a polity's label, whose pools ("seceded from", "merged with") cannot hold of a
    lake. Not an administrative head ("Morogoro Region", "Warren County"), which names a GPE."""
    parts = name.split()
    if len(parts) < 2:
        return False
    return parts[0].casefold() in _NATURAL_FIRST or parts[-1].casefold() in NATURAL_HEADS


def person_shape(name: str) -> bool:
    """Whether ``name`` is spelled like a person's name: two to four capitalized words (initials and surname
    particles allowed) that open with a census given name ("Celine Dion", "Horace McCoy") or a title ("King
    Constantine", "Admiral Dufek"), and that no source or head word claims."""
    words = name.replace(" - ", "-").split()
    opener = words[0] if words else ""
    if _royal(words[: words.index("of")] if "of" in words[1:] else words):
        return name_evidence(name) is None and gazetteer.lookup(name) is None
    if not 2 <= len(words) <= 4 or not (gazetteer.given_name(opener) or opener in _TITLES):
        return False
    if name_evidence(name) is not None or gazetteer.lookup(name) is not None:
        return False
    return all(_NAME_WORD.fullmatch(word) or word in lex.NAME_PARTICLES for word in words[1:])


def _royal(words: list[str]) -> bool:
    """Whether ``words`` spell a ruler's or a noble's name, before any "of" and its place: one name word after its
    ranks, with a rank before it or a regnal number after it ("Christian X", "King Gustaf V", "Prince Radu")."""
    numbered = len(words) >= 2 and ROMAN.fullmatch(words[-1]) is not None
    ranked = [word for word in words if word.casefold() in lex.RANKS]
    given = [word for word in words[: len(words) - numbered] if word.casefold() not in lex.RANKS]
    return len(given) == 1 and bool(_NAME_WORD.fullmatch(given[0])) and (numbered or bool(ranked))


def _in_region(after: str) -> bool:
    """Whether the mention is followed by ", <a country or region>" ("Mediaș, Transylvania"; "Chestertown,
    Warren County"): then it is a place inside it."""
    match = _COMMA_NAME.search(after)
    if match is None:
        return False
    words = match.group(1).split()
    for size in range(len(words), 0, -1):
        run = " ".join(words[:size])
        entry = gazetteer.lookup(run)
        if entry is not None:
            return entry.kind in ("country", "region")
        if size > 1 and name_evidence(run) in ("GPE", "LOC"):
            return True
    return False


def context_evidence(before: str, after: str, *, words: int = 1) -> str | None:
    """The type the masked sentence around one mention gives it: ``before`` is the sentence's masked text up to
    the mention, ``after`` the masked text from its end, ``words`` the name's length in words; None when nothing
    there says what the name is."""
    if _TITLE_BEFORE.search(before[-40:]) or _ROLE_BEFORE.search(before[-40:]):
        return "PERSON"
    if _LIFE_AFTER.search(after[:80]) or _KIN_AFTER.search(after[:40]):
        return "PERSON"
    work_before = _WORK_BEFORE.search(before[-40:])
    if work_before and work_before.group(1) and not work_before.group(2) and _CLAUSE_AFTER.match(after):
        work_before = None
    if _WORK_AFTER.search(after[:60]) or work_before:
        return "WORK_OF_ART"
    if words > 1 and _YEAR_AFTER.search(after[:8]):
        return "WORK_OF_ART"  # "Oru Vadakkan Selfie (2015)"; one word is as often "Harvard (1990)" in a résumé
    if _ORG_BEFORE.search(before[-20:]):
        return "ORG"
    if _PLACE_OF.search(before[-40:]) or _DIRECTION.search(before[-24:]) or _in_region(after[:60]):
        return "GPE"
    place_noun = _PLACE_NOUN_AFTER.search(after[:24])
    if place_noun:
        return "LOC" if place_noun.group(1) in ("valley", "river", "island", "peninsula") else "GPE"
    if _QUOTE_BEFORE.search(before[-12:]) and _QUOTE_AFTER.search(after[:3]) and not _ALIAS.search(before[-40:]):
        return "WORK_OF_ART"  # not a name in quotes after "known as": an alias ('informally known as "Kiwis"')
    head = after[:120]
    patterns: dict[str, tuple[re.Pattern[str], ...]]
    if len(before.split()) <= 2:  # "X is a …" says what X is when X opens its sentence ("The father of X is …")
        patterns = {kind: (_IS_A[kind], _APPOSITION[kind]) for kind in _IS_A}
    else:
        patterns = {kind: (_APPOSITION[kind],) for kind in _APPOSITION}
    best, found = 0, None
    for kind, options in patterns.items():
        for pattern in options:
            match = pattern.search(head)
            if match and match.end() > best:  # "an American film director": the noun that ends the phrase
                best, found = match.end(), kind
    return found
