"""Where the verbs of a masked sentence are: the clause a slot stands in, and whether it already has its verb.

Helpers of :mod:`relguard.rewrite.frames` that read a masked sentence's tags, its mentions and the frames of the
slots before (:class:`Context`): like the frames, they never see the words a slot replaced (DESIGN invariant 7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from relguard.extract.regions import DETERMINER_BEFORE
from relguard.rewrite.phrases import NOUN_PHRASE_TAGS, RELATIVES, Token
from relguard.rewrite.tagging import Tagged
from relguard.wordlist import words

#: Tags of a finite verb (or modal) that already heads the clause before a slot.
_FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
COPULA_WORDS = words(
    """is was are were be been being am 's has have had will would can could may might must shall should does did
    do become became becomes remains remained"""
)
CONJUNCTIONS = frozenset({"and", "or", "but", "nor", "then", "yet"})
#: Marks that end a clause: after one, the slot opens a new clause.
_CLAUSE_MARKS = frozenset({";", ":", "—", "–", "(", ")"})
#: Tags of a noun phrase's words, names among them ("Their online site", "The Acme board").
_PHRASE = NOUN_PHRASE_TAGS | {"NNP", "NNPS"}
#: Words that open a subordinate or relative clause: the clause before has ended.
_SUBORDINATORS = words(
    """which who whom whose where when while although though because since after before if until whereas unless
    once that"""
)


@dataclass(frozen=True)
class Context:
    """A masked sentence as the frame rules read it: text, tags, mention ranges (and which are pronouns), the
    starts of tokens inside parentheses or quotes, the frames of the slots before, every slot's start, and which
    mentions are nationalities, groups or languages (NORP: "Argentine"; "English")."""

    text: str
    tagged: Tagged
    mentions: tuple[tuple[int, int], ...]
    pronouns: frozenset[tuple[int, int]]
    hidden: frozenset[int]
    earlier: list[tuple[int, str]]
    slots: list[int]
    nationalities: frozenset[tuple[int, int]] = frozenset()

    def mention_ending(self, position: int) -> tuple[int, int] | None:
        return next((m for m in self.mentions if m[1] == position), None)


def clause_start(words: Sequence[Token], c: Context) -> int:
    """Where the last clause of ``words`` starts: after a clause mark (an aside in brackets is skipped once it
    closes); at a subordinator or relative pronoun;
    after the comma that ends a clause a subordinator opened ("When he formed X, [he] ..."); after ", and" that
    opens a verb phrase or a clause whose part before had a verb of its own, a word or a finite slot ("..., and von
    der Esch [returned]", "X [founded] Y in 1990, and Z [REL]"),
    not ", and David Bowie [as]" after "Christian Bale [as] Alfred Borden": a list goes on; after a "but" whose
    part before has a verb of its own (:func:`_verb_and_no_not`)."""
    start, subordinate, outside = 0, False, []
    for number, (_, _, word, tag) in enumerate(words):
        lower = word.lower()
        if word == "(":
            outside.append((start, subordinate))
            start, subordinate = number + 1, False
        elif word == ")" and outside:
            start, subordinate = outside.pop()  # "a gaming (LARP) club [based in]": the clause goes on
        elif word in _CLAUSE_MARKS:
            start, subordinate = number + 1, False
        elif tag in ("WDT", "WP", "WP$", "WRB") or (lower in _SUBORDINATORS and tag in ("IN", "WRB")):
            start, subordinate = number, tag in ("WRB", "IN") or _in_opening_phrase(words, number)
        elif lower == "but" and tag == "CC" and _verb_and_no_not(words[start:number], c):
            start, subordinate = number + 1, False  # "will remain a company but Outright Distribution [REL]"
        elif word == "," and subordinate and number + 1 < len(words):
            start, subordinate = number + 1, False
        elif word == "," and number + 2 < len(words) and words[number + 1][2].lower() in CONJUNCTIONS:
            opens_verb = words[number + 2][3].startswith(("VB", "MD"))
            listed = words[number + 2][3] in ("NN", "NNS", "JJ") or (  # "a musician, bandleader, and educator [from]"
                words[number + 2][2].lower() == "one" and number + 3 < len(words) and words[number + 3][2] == "of"
            )  # "a director and composer, and one of the influential directors [in]"
            segment = [t for t in words[start:number] if t[0] not in c.hidden]
            finite = [t[0] for t in segment if finite_word(t)]
            verb = _after_a_verb_slot(words, start, number, c) or (
                bool(finite) and not _a_list_of_slots(max(finite), words[number][0], c)
            )
            if opens_verb or (not listed and verb):
                start = number + 1  # ", and was honored"; "X was unsuccessful, and Y [returned]"
    return start


def _in_opening_phrase(words: Sequence[Token], number: int) -> bool:
    """Whether word ``number`` (a relative pronoun) is inside the prepositional phrase that opens the sentence, no
    comma yet: "In a career that spanned 12 years, Astle [REL]": the comma that closes the phrase opens the main
    clause, as after a subordinate clause."""
    return (
        bool(words)
        and words[0][3] == "IN"
        and words[0][2].lower() not in _SUBORDINATORS
        and not any(t[2] == "," for t in words[:number])
    )


def _verb_and_no_not(segment: Sequence[Token], c: Context) -> bool:
    """Whether a clause part has a finite verb of its own and no "not" that a "but" would answer ("not a singer
    but a dancer" joins two noun phrases)."""
    seen = [t for t in segment if t[0] not in c.hidden]
    if not seen or any(t[2].lower() in ("not", "n't") for t in seen):
        return False
    low, high = seen[0][0], seen[-1][1]
    slotted = any(frame in ("finite", "copula") and low <= at <= high for at, frame in c.earlier)
    return slotted or any(finite_word(t) for t in seen)


def finite_word(token: Token) -> bool:
    """A finite verb or a copula, not the possessive "'s" ("Istanbul's Fatih district" has no verb)."""
    return token[3] in _FINITE_TAGS or (token[2].lower() in COPULA_WORDS and token[3] != "POS")


def _last_slot(c: Context, low: int, mark: int) -> tuple[int, str] | None:
    """The (start, frame) of the last earlier slot of the sentence that starts in ``[low, mark)``, if any."""
    return max(((at, frame) for at, frame in c.earlier if low <= at < mark), default=None)


def _a_list_of_slots(verb: int, mark: int, c: Context) -> bool:
    """Whether the last slot between the clause's verb at ``verb`` and the comma at ``mark`` is a participle or a
    relative clause on a name: ", and Z [REL]" is then the next item of a list ("stars X [as] Y, and Z [as] W")."""
    last = _last_slot(c, verb + 1, mark)
    return last is not None and last[1] == "modifier"


def _after_a_verb_slot(words: Sequence[Token], start: int, comma: int, c: Context) -> bool:
    """Whether ", and" at ``comma`` follows a clause whose verb is a slot — the last slot before it is finite — and
    only a subject stands between "and" and the slot ("X [founded] Y in 1990, and Z [REL]"): a new clause, where a
    list of names after a participle ("X [as] Y, Z [as] W, and V [as]") or of objects ("[REL] A, B, and C") goes
    on."""
    low, mark = words[start][0] if start < comma else words[comma][0], words[comma][0]
    last = _last_slot(c, low, mark)
    if last is None or last[1] not in ("finite", "copula"):
        return False
    listed = any(t[2] == "," and last[0] < t[0] < mark for t in words)  # "X [REL] A, B, and C"
    subject = words[comma + 2 :]
    return (
        not listed
        and 0 < len(subject) <= 6
        and not any(t[2] in (",", ";") or t[3].startswith(("VB", "MD", "CC", "IN", "W")) for t in subject)
    )


def apposition_open(before: Sequence[Token], c: Context) -> bool:
    """Whether the clause before a comma holds another comma after its first words ("Amri, or Dumura Karbi,"), or
    a slot that opened a clause with one ("Steve Wozniak[, who founded] Apple,"): the comma closes it."""
    low = before[0][0] if before else 0
    opened = any(frame in ("comma", "apposition") and start > low for start, frame in c.earlier)
    return opened or any(word == "," for _, _, word, _ in before[1:])


def subject_aside(before: Sequence[Token], c: Context) -> bool:
    """Whether ``before`` (up to a comma) ends with a name that opens its clause, or a noun phrase that opens the
    sentence, a comma and an aside without a verb ("Alice Smith, in 1990", "Although Davis, at thirteen", "Alice
    Smith, however", "Their online site, since 1997"): the comma that follows closes the aside, and what comes next
    is the subject's verb."""
    comma = max((n for n, t in enumerate(before) if t[2] == ","), default=0)
    words = before[comma + 1 :]
    if not comma or not 0 < len(words) <= 5 or any(t[3].startswith(("VB", "MD")) for t in words):
        return False
    name = c.mention_ending(before[comma - 1][1])
    if name is None:
        phrase = before[:comma]  # "Their online site, since 1997, [is located at]": a noun phrase opens the sentence
        return 0 < len(phrase) <= 6 and phrase[-1][3].startswith("NN") and all(t[3] in _PHRASE for t in phrase)
    ahead = [t for t in before if t[1] <= name[0]]
    return not ahead or ahead[-1][2] in _CLAUSE_MARKS or ahead[-1][2].lower() in _SUBORDINATORS


def has_verb(before: Sequence[Token], c: Context) -> bool:
    """Whether the clause that ends at the slot already has a finite verb (a word, or an earlier finite slot);
    words in parentheses or quotes do not count."""
    clause = before[clause_start(before, c) :]
    low = clause[0][0] if clause else 0
    for n, (start, _, word, tag) in enumerate(clause):
        if start in c.hidden or word.lower() in RELATIVES:
            continue
        if any(a <= start < b for a, b in c.mentions):
            continue  # "Mansoor Ijaz [wrote]": the tagger's VBD for a name's word is no verb of the clause
        if n and tag == "VB" and clause[n - 1][3] == "TO":
            continue  # "citing … a chance to be a part of a large event, MovieMaker Magazine [REL]": no verb yet
        if finite_word((start, 0, word, tag)) and not _inside_noun_phrase(clause, n):
            return True
        if tag == "NNS" and word.islower() and _between_names(clause, n, c):
            return True  # "PETA forces South Park Elementary [to change]": the subject's verb, tagged a plural
    return any(frame in ("finite", "copula") and start >= low for start, frame in c.earlier)


def _between_names(clause: Sequence[Token], n: int, c: Context) -> bool:
    """Whether word ``n`` stands between a name that opens the clause and a name right after it ("Fast Break"
    stars Gabe Kaplan, "PETA forces South Park Elementary"): the word is the name's verb, whatever its tag."""
    k = n - 1
    while k >= 0 and clause[k][2] in QUOTES:
        k -= 1
    if k < 0 or n + 1 >= len(clause) or not any(a == clause[n + 1][0] for a, _ in c.mentions):
        return False
    opening = c.mention_ending(clause[k][1])
    ahead = [t for t in clause[:k] if t[0] < opening[0] and t[2] not in QUOTES] if opening is not None else None
    return ahead is not None and (not ahead or ahead[-1][2] == ",")  # "In the episode, PETA forces"


#: Quotation marks as the tagger gives them, the characters and its own `` and ''.
QUOTES = frozenset({'"', "“", "”", "'", "‘", "’", "``", "''"})


#: The words a noun phrase may have between its article and its head: :data:`_PHRASE` without the determiners.
_NOUN_PHRASE_INSIDE = _PHRASE - {"DT", "PDT", "PRP$", "POS"}


def _inside_noun_phrase(clause: Sequence[Token], n: int) -> bool:
    """Whether word ``n``, tagged a finite verb, stands between an article (its adjectives and names after it) and
    a noun: a noun the tagger misread ("A Mandarin Chinese [cover] version by Coco Lee [REL]" has no verb yet)."""
    if n + 1 >= len(clause) or clause[n + 1][3] not in ("NN", "NNS"):
        return False
    k = n - 1
    while k >= 0 and clause[k][3] in _NOUN_PHRASE_INSIDE:
        k -= 1
    return k >= 0 and k < n - 1 and clause[k][2].lower() in ("a", "an", "the")


def verb_after(position: int, c: Context) -> bool:
    """Whether a finite verb comes right after ``position``, adverbs aside: the words before are then its
    subject's noun phrase ("Li Yujie [of] Henan University believes"). A slot there says nothing: it may as well
    be a preposition ("Moderate Party [in] the Riksdag")."""
    seen, depth = 0, 0
    for start, _, word, tag in c.tagged.tokens:
        if start < position or tag in ("RB", "RBR", "RBS"):
            continue
        if word in ("(", ")") or depth:
            depth += {"(": 1, ")": -1}.get(word, 0)
            continue  # 'Gyldendal Norsk Forlag ("...") was founded': the aside is not what follows
        lower = word.lower()
        if start in c.hidden or seen >= 2 or not word[:1].isalnum() or lower in CONJUNCTIONS or tag in ("WDT", "WP"):
            return False
        if finite_word((start, 0, word, tag)):
            return True
        seen += 1
    return False


def verb_later(end: int, c: Context) -> bool:
    """Whether a comma after the slot, then a finite verb, follow in the sentence ("Alice Smith, later Alice Jones,
    [of] Acme Corp in Boston, was a singer"): the verb is the subject's, and the slot is inside the aside."""
    return any(t[2] == "," and aside(t[0], c) for t in c.tagged.tokens if t[0] >= end)


def subject_goes_on(end: int, c: Context) -> bool:
    """Whether the words after the slot run, with no conjunction, relative or finite verb of their own, to a comma
    right before a finite verb ("the failure of the nobility in the Battle of Porto-Longo [against] Venice's
    long-time rival, Genoa, are largely considered"): the slot stands inside that verb's subject and is no verb of
    its own. Not across an adverb ("Bob [joined] Acme, then moved" is a verb's next step)."""
    after = [t for t in c.tagged.tokens if t[0] >= end]
    for n, (_, _, word, tag) in enumerate(after):
        if word.lower() in CONJUNCTIONS or tag in ("WDT", "WP", ":") or word in (";", ":"):
            return False
        if word == "," and n + 1 < len(after) and finite_word(after[n + 1]):
            return after[n + 1][2].lower() not in RELATIVES
        if finite_word(after[n]):
            return False
    return False


def in_verbless_bracket(before: Sequence[Token]) -> bool:
    """Whether the slot stands in a bracket still open, after a noun and no verb or pronoun in it: "(1991, the
    first animated feature [to be nominated for] an Academy Award)" is a noun phrase's aside, no clause."""
    opened = [n for n, t in enumerate(before) if t[2] == "("]
    if not opened or any(t[2] == ")" for t in before[opened[-1] :]):
        return False
    inside = before[opened[-1] + 1 :]
    if not inside or inside[0][3] not in _PHRASE_OPENS:
        return False  # "(later relocated in 1854 to …": a participle's clause
    return inside[-1][3] in ("NN", "NNS") and not any(t[3] in _CLAUSE_TAGS for t in inside)


_CLAUSE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD", "PRP"})
_PHRASE_OPENS = frozenset({"CD", "DT", "JJ", "NN", "NNS", "NNP"})


def aside(position: int, c: Context) -> bool:
    """Whether a comma and then a finite verb follow ``position`` (a name's end): "Oregon, is big"."""
    after = [t for t in c.tagged.tokens if t[0] >= position and t[3] not in ("RB", "RBR", "RBS")][:2]
    return (
        len(after) == 2
        and after[0][2] == ","
        and finite_word(after[1])
        and after[1][2].lower() not in {"has", "have", "had"} | RELATIVES
    )


def names_verb_before(start: int, c: Context) -> bool:
    """Whether the word right before the slot is a name's verb ("Kalabhavan Shajon debuts [REL] the film"): a phrase
    there qualifies the verb, not a noun. A name after an article owns no verb: "the Augereau barracks" is tagged a
    verb where the placeholder is taken out. Not an adverb: the slot after "later", "also", "recently" stands for the
    verb, and "associated with" reads as one there ("and later in connection with Manhattan" has none)."""
    before = [t for t in c.tagged.tokens if t[1] <= start]
    if not before or c.mention_ending(before[-1][1]) is not None:
        return False
    if before[-1][3] not in ("VBZ", "VBD", "VBP") or len(before) < 2:
        return False
    subject = c.mention_ending(before[-2][1])
    return subject is not None and not DETERMINER_BEFORE.search(c.text, 0, subject[0])  # not "the Augereau barracks"
