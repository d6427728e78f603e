"""Read each filled sentence back before it is released, and delete the ones whose fill does not read as English.

The frame rules (:mod:`relguard.rewrite.frames`) choose a form from the masked sentence; where they misread it
the fill lands in a place no form of that kind can take — "it that houses", "the official that competes with",
"a retired British colonized", "was is located in". The filled sentence is tagged again (the tagger only, on
the released words) and a sentence where a fill sits in such a place is deleted and counted as unfillable, as a
sentence no form fits: fail closed, never printed broken.

What is read is the released sentence — the masked text and the words of the sampled outcomes — so the decision
is a function of public structure and outcomes, like the fill itself (DESIGN invariant 7), and the same for any
verbalizer, the LLM one included. The checks are narrow on purpose: each names a place where no relation phrase
of that shape is English, so a sentence that reads well is not deleted for its meaning.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from relguard.rewrite.seams import assemble
from relguard.rewrite.tagging import TAGGING, tagger
from relguard.rewrite.tense import YEAR
from relguard.wordlist import words

if TYPE_CHECKING:
    from spacy.language import Language

    from relguard.rewrite.mask import MaskedDocument

#: One tagged token of a released sentence: (start, end, text, fine tag, coarse part of speech).
Token = tuple[int, int, str, str, str]
Span = tuple[int, int]

_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_FINITE_WORDS = frozenset({"is", "was", "are", "were", "has", "had", "have", "does", "did"})
_RELATIVES = frozenset({"that", "who", "which"})
_SUBORDINATORS = frozenset(
    {"as", "when", "while", "because", "although", "though", "if", "since", "where", "whereas", "unless", "whom"}
)
_POSSESSIVES = frozenset({"his", "her", "its", "their", "my", "our", "your"})
#: Where a relative clause cannot open: after a pronoun, an article, an adjective, a preposition or a dash.
_NO_RELATIVE_AFTER = frozenset(
    {"PRP", "DT", "PDT", "JJ", "JJR", "JJS", "FW", "IN", "HYPH", ":", "PRP$", "POS", "WDT", "RB"}
)
#: Verbs a participle may follow: passive, perfect and linking verbs.
_TAKES_PARTICIPLE = words(
    "is was are were has had have became becomes become remained remains seemed seems got gets stayed stays "
    "appeared appears looked looks felt feels"
)
#: Where a verb cannot stand: after an article, an adjective or a number (a noun is wanted).
_NOUN_WANTED_AFTER = frozenset({"DT", "JJ", "JJR", "JJS", "CD"})


def _before(tokens: Sequence[Token], fill: Span) -> Token | None:
    found = [t for t in tokens if t[1] <= fill[0]]
    return found[-1] if found else None


def _inside(tokens: Sequence[Token], fill: Span) -> list[Token]:
    return [t for t in tokens if fill[0] <= t[0] < fill[1]]


def _finite(token: Token) -> bool:
    return token[3] in _FINITE_TAGS or token[2].lower() in _FINITE_WORDS


def relative_after(tokens: Sequence[Token], fill: Span) -> bool:
    """A relative clause opened right after a pronoun, article, adjective or preposition, or between "whose" and
    its verb: "it that houses", "the de facto that plays for", "such that sued", "whose work that translated"; or
    after "and" with no relative clause before it to continue ("a film of Leo Mittler and that cited")."""
    words = _inside(tokens, fill)
    if not words or words[0][2].lower() not in _RELATIVES:
        return False
    before = _before(tokens, fill)
    if before is None:
        return False
    if before[3] in _NO_RELATIVE_AFTER or before[2] in ("-", "—", "–"):
        return True
    if before[2] == "," and words[0][2].lower() == "that":
        return True  # "(671 people per sq mi), that colonized England": after a comma only "which"/"who" open one
    if before[2].lower() in ("and", "or") and not any(t[2].lower() in _RELATIVES for t in tokens if t[1] <= before[0]):
        return True  # "a film of Leo Mittler and that cited Y": "and" joins a second relative clause to a first only
    earlier = _before(tokens, (before[0], before[0]))
    return before[3].startswith("NN") and earlier is not None and earlier[2].lower() == "whose"


def relative_disagrees(tokens: Sequence[Token], fill: Span) -> bool:
    """A singular relative clause after a plural noun: "rival stage magicians that is a citizen of"."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    if len(words) < 2 or before is None or words[0][2].lower() not in _RELATIVES:
        return False
    return before[3] in ("NNS", "NNPS") and (words[1][3] == "VBZ" or words[1][2].lower() in ("is", "was", "has"))


def no_main_verb(tokens: Sequence[Token], fill: Span) -> bool:
    """A relative clause, or an apposition after a comma, that took the main verb's place: every finite verb left
    is in a relative or subordinate clause ("Song of Freedom that is a member of the opportunity Robeson was
    looking for", "Esch that is a member of the Party as he campaigned", "Bristow Group, a large operator, the
    investor in Lider."). Words in parentheses or quotes do not count."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    appended = before is not None and before[2] == "," and words and (words[0][2] == "the" or words[0][3] == "VBN")
    if not words or (words[0][2].lower() not in _RELATIVES and not appended):
        return False
    return not has_main_verb(tokens)


def verbless(tokens: Sequence[Token], fill: Span) -> bool:
    """A fill without a finite verb in a sentence whose finite verbs all stand in relative or subordinate clauses:
    the fill took the main verb's place ("Fyns Hoved associated with Great Belt region, where rainfall is …"). A
    sentence with no finite verb at all is a heading or a list as the text wrote it ("Starring A, B and C"), and a
    fill that sets a date off by commas ("employed, in 1777,") is the verb itself. But nothing after a possessive in a
    sentence with no finite verb left ("Braun's [] Night Harbor.") took the verb away with the slot's words."""
    words = _inside(tokens, fill)
    if not words:
        return _owner_took_the_verb(tokens, fill, words)  # "Braun's [] Night Harbor.": the verb was the slot's
    if any(_finite(t) for t in words) or words[-1][2] == ",":
        return False
    if words[0][2] in ("-", ","):  # a compound's "-linked" or a comma modifies a noun, never the verb, but
        return _owner_took_the_verb(tokens, fill, words)  # "Braun-written Night Harbor." stands for "Braun's"
    if tokens and tokens[0][2].lower() in _SUBORDINATORS:
        return False  # "Since 2012 he has been …": where the opening clause ends is not marked
    outside = [t for t in tokens if not fill[0] <= t[0] < fill[1]]
    return any(_finite(t) for t in outside) and not has_main_verb(tokens)


def _owner_took_the_verb(tokens: Sequence[Token], fill: Span, words: Sequence[Token]) -> bool:
    """Whether an empty fill right after a possessive, or a compound glued to the name before it, stands where the
    slot held the only verb: the sentence has no finite verb left."""
    before = _before(tokens, fill)
    if before is None or any(_finite(t) for t in tokens):
        return False
    if not words:
        return before[3] == "POS" or before[2] in ("'s", "’s")
    return words[0][2] == "-" and before[1] == fill[0]


def _in_name(n: int, word: str) -> bool:
    """A capitalized "As" or "When" inside the sentence is a word of a name ("Naomi van As is a player")."""
    return n > 0 and word[:1].isupper()


def has_main_verb(tokens: Sequence[Token]) -> bool:
    """Whether a finite verb stands outside every relative or subordinate clause, parenthesis and quote."""
    depth, quoted, opened, aside = 0, False, False, False
    for n, token in enumerate(tokens):
        word = token[2]
        if word in ("(", ")"):
            depth = max(0, depth + (1 if word == "(" else -1))
        elif word in ('"', "“", "”"):
            quoted = not quoted
        elif word in (",", ";", ":", "—", "–"):
            opened, aside = False, opened  # after ", who advised X," a participle tag is the tagger's slip
        elif depth or quoted:
            continue
        elif (word.lower() in _RELATIVES | _SUBORDINATORS or token[3] in ("WDT", "WP")) and not _in_name(n, word):
            opened = opened or token[3] != "DT"  # "That Summer of White Roses is": a determiner opens no clause
        elif (_finite(token) or (aside and token[3] == "VBN")) and not opened:
            return True
        else:
            aside = False
    return False


def verb_for_noun(tokens: Sequence[Token], fill: Span) -> bool:
    """A verb where a noun is wanted: "a retired British colonized", "the fourth largest allied with"."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    if not words or before is None or before[3] not in _NOUN_WANTED_AFTER:
        return False
    earlier = _before(tokens, (before[0], before[0]))
    if before[3] == "CD" and earlier is not None and earlier[3] in ("NNP", "NNPS"):
        return False  # "Studio 92 [headquartered in]": the number ends a name
    return (_finite(words[0]) or words[0][3] == "VBN") and words[0][2].lower() not in _RELATIVES


def verb_after_verb(tokens: Sequence[Token], fill: Span) -> bool:
    """A finite fill right after a finite verb or a preposition: "was is located in", "by is the founder of"."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    if not words or before is None or not _finite(words[0]) or words[0][2].lower() in _RELATIVES:
        return False
    return _finite(before) or (before[4] == "ADP" and before[2].lower() != "that")


def participle_after_verb(tokens: Sequence[Token], fill: Span) -> bool:
    """A participle right after a verb that takes no participle: "Scorsese notes honored by Kubrick's films"
    (after "is", "has", "became", "remained" a participle reads)."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    if not words or before is None or words[0][3] != "VBN":
        return False
    return before[3] in ("VBZ", "VBD", "VBP") and before[2].lower() not in _TAKES_PARTICIPLE


def second_verb(tokens: Sequence[Token], fill: Span) -> bool:
    """A finite fill whose name is followed by a finite verb: the clause had its verb already, and the slot was
    inside its subject ("Heathrow, Gatwick and Stansted was imprisoned at Manchester Airport rank amongst"); so
    does an apposition that no comma closes ("the Soviet Union, the invader of Nazi Germany invaded Poland")."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    apposed = bool(words) and before is not None and before[2] == "," and words[0][2] == "the"
    if not words or not (_finite(words[0]) or apposed) or words[0][2].lower() in _RELATIVES:
        return False
    after = [t for t in tokens if t[0] >= fill[1]]
    names = 0
    while names < len(after) and (after[names][3] in ("NNP", "NNPS") or after[names][2] == "the"):
        names += 1
    return 0 < names < len(after) and after[names][3] in ("VBZ", "VBP", "VBD")


def finite_after_noun(tokens: Sequence[Token], fill: Span) -> bool:
    """A finite fill right after a common noun or adjective when its clause has had its finite verb: "Mountain
    Crystal is a 1949 drama film expelled Harald Reinl" (a participle or a relative clause was wanted there),
    "governor of Brittany and baron works in Laval" (a singular common noun after "and" is no subject without
    its article)."""
    before = _before(tokens, fill)
    if before is None or before[3] not in ("NN", "NNS", "JJ"):
        return False
    earlier = _before(tokens, (before[0], before[0]))
    if earlier is not None and earlier[2].lower() in ("and", "or") and before[3] == "NN" and _inside(tokens, fill):
        return _finite(_inside(tokens, fill)[0])  # "governor of Brittany and baron works in": no bare noun subject
    return _after_main_verb(tokens, fill)


def comma_splice(tokens: Sequence[Token], fill: Span) -> bool:
    """A finite fill right after a comma or colon when the sentence has had its finite verb and no conjunction
    or relative opened a new clause since: "Daytona maintained a rate, even with opponents on screen, was
    reverse-engineered by …", "IFFM is a fixture in the calendar: founded Bollywood's best"."""
    before = _before(tokens, fill)
    return before is not None and before[2] in (",", ":") and _after_main_verb(tokens, fill)


def _after_main_verb(tokens: Sequence[Token], fill: Span) -> bool:
    """A finite, non-relative fill after its clause's own finite verb, no conjunction or relative between."""
    words = _inside(tokens, fill)
    if not words or not _finite(words[0]) or words[0][2].lower() in _RELATIVES:
        return False
    aside = _aside_start(tokens, fill)
    start = 0 if aside is None else aside + 1  # inside an aside, its clause: "(islands are located in Niihau)"
    before = [t for t in tokens[start:] if t[0] < fill[0]]
    verb = inner = False
    depth = 0
    for token in before:
        lower = token[2].lower()
        if lower in ("(", ")"):
            depth = max(0, depth + (1 if lower == "(" else -1))  # an aside before the fill is skipped whole
        elif depth:
            continue
        elif lower in ("and", "but", "or", "nor", ";", "—", "–"):
            verb = inner = False
        elif token[3] == "WP$" or (lower == "that" and token[3] == "IN"):
            verb, inner = False, False  # "whose hymns [are sung]", "says that X, …, [REL]": its own subject
        elif (lower in _RELATIVES | _SUBORDINATORS and token[3] != "DT") or token[3] in ("WDT", "WP", "WRB"):
            inner = True  # the verbs of "which Alice Smith founded," or "When Acme grew," are not the main one
        elif lower == ",":
            inner = False
        elif _finite(token) and not inner:
            verb = True
    return verb


def _aside_start(tokens: Sequence[Token], fill: Span) -> int | None:
    """The index of the "(" whose aside holds the fill, or None when the fill stands outside parentheses."""
    opened: list[int] = []
    for n, token in enumerate(tokens):
        if token[0] >= fill[0]:
            break
        if token[2] == "(":
            opened.append(n)
        elif token[2] == ")" and opened:
            opened.pop()
    return opened[-1] if opened else None


def clause_in_aside(tokens: Sequence[Token], fill: Span) -> bool:
    """A relative clause inside parentheses: "(July 23, 1899, Warrenton, which is the largest city of North
    Carolina—January 21, 1992 …)": an aside holds dates and places, not clauses."""
    words = [t for t in _inside(tokens, fill) if t[2] != ","]
    if not words or words[0][2].lower() not in _RELATIVES:
        return False
    return _aside_start(tokens, fill) is not None


def not_a_noun_after_possessive(tokens: Sequence[Token], fill: Span) -> bool:
    """After "'s" or "his" the fill must open a noun phrase: not "Acme's that founded"."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    if not words or before is None:
        return False
    possessive = before[3] == "POS" or (before[2].lower() in _POSSESSIVES and before[3] == "PRP$")
    return possessive and words[0][4] not in ("NOUN", "PROPN", "ADJ", "NUM") and not words[0][2][:1].isupper()


_CLAUSE_OPENERS = frozenset({"that", "which", "who", "whose", "is", "was", "are", "were", "has", "had"})


def clause_after_a_date(tokens: Sequence[Token], fill: Span) -> bool:
    """A fill that is no preposition right after a year inside an open bracket: "Johanna Sibylla (6 July 1564 shared
    a name with Château de Lichtenberg – 24 March 1636 in Runkel)" (2Wiki development). A date and a place stand in
    brackets with a preposition or a comma between them ("(6 July 1564, Château de Lichtenberg"), not a clause."""
    words = _inside(tokens, fill)
    before = _before(tokens, fill)
    if not words or before is None or before[3] != "CD" or not YEAR.fullmatch(before[2]) or words[0][3] in ("IN", ","):
        return False
    opened = [t[2] for t in tokens if t[1] <= before[0] and t[2] in "()"]
    return bool(opened) and opened[-1] == "("


def dangling_preposition(tokens: Sequence[Token], fill: Span) -> bool:
    """A fill that ends with a preposition with nothing after it to take: a mark or the sentence's end ("The song
    was commissioned by, at number 37"; "Vietnam's last place that was inspired by.")."""
    words = _inside(tokens, fill)
    if not words or words[-1][3] not in ("IN", "TO"):
        return False
    after = next((t for t in tokens if t[0] >= fill[1]), None)
    return after is None or after[2] in (",", ".", ";", ":", ")", "!", "?", "—", "–")


def glued(text: str, fill: Span) -> bool:
    """A fill glued to the word or number beside it: "27governs"; or a clause after a slash, which joins words
    of one kind only ("football end/that endorsed the National Football League"; "end/coach of" reads)."""
    start, end = fill
    if start > 0 and text[start - 1] == "/" and text[start:end].split(" ", 1)[0].lower() in _CLAUSE_OPENERS:
        return True
    return (start > 0 and text[start - 1].isalnum() and text[start].isalnum()) or (
        end < len(text) and text[end - 1].isalnum() and text[end].isalnum()
    )


CHECKS = {
    "relative_after": relative_after,
    "relative_disagrees": relative_disagrees,
    "no_main_verb": no_main_verb,
    "verbless": verbless,
    "verb_for_noun": verb_for_noun,
    "verb_after_verb": verb_after_verb,
    "participle_after_verb": participle_after_verb,
    "second_verb": second_verb,
    "comma_splice": comma_splice,
    "finite_after_noun": finite_after_noun,
    "clause_in_aside": clause_in_aside,
    "not_a_noun_after_possessive": not_a_noun_after_possessive,
    "dangling_preposition": dangling_preposition,
    "clause_after_a_date": clause_after_a_date,
}


def misread(text: str, fills: Sequence[Span], tokens: Sequence[Token]) -> str | None:
    """The name of the first check a fill of ``text`` fails, or None when every fill sits where it can."""
    for fill in fills:
        if fill[1] <= fill[0]:
            if verbless(tokens, fill):
                return "verbless"  # an empty fill after a possessive, where the slot held the only verb
            continue
        if glued(text, fill):
            return "glued"
        if text[fill[0]] == "-" and fill[0] and text[fill[0] - 1] in "'\"’”)]":
            return "hyphen_after_quote"  # "The song 'Maana Ho Tum'-appointed Kaifi Azmi"
        for name, check in CHECKS.items():
            if check(tokens, fill):
                return name
    return None


def tag_released(texts: Sequence[str], nlp: Language) -> list[list[Token]]:
    """Tokens of each released sentence, tagged (the tagger and its attribute ruler only: the checks read POS)."""
    disabled = [p for p in nlp.pipe_names if p not in (*TAGGING, "attribute_ruler")]
    return [
        [(t.idx, t.idx + len(t.text), t.text, t.tag_, t.pos_) for t in doc if not t.is_space]
        for doc in nlp.pipe(texts, disable=disabled, batch_size=256)
    ]


def misread_sentences(masked: MaskedDocument, texts: Mapping[int, str], *, skip: Collection[int]) -> set[int]:
    """The sentences of ``masked`` (but ``skip``) whose text, filled with ``texts``, has a fill where it does
    not read (:func:`misread`)."""
    numbers = sorted({s.sentence for s in masked.slots} - set(skip))
    built = [assemble(masked, *masked.sentences[n], texts) for n in numbers]
    tagged = tag_released([text for text, _ in built], tagger())
    return {
        n
        for n, (text, ranges), tokens in zip(numbers, built, tagged, strict=True)
        if misread(text, ranges, tokens) is not None
    }
