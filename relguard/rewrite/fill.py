"""Step 4b: delete or fill, from the masked document and the sampled outcomes alone (DESIGN invariant 7).

:func:`fill` never receives an original relation: it takes a :class:`~relguard.rewrite.mask.MaskedDocument`,
the frame of each slot read from the masked sentence (:mod:`relguard.rewrite.frames`) and, per relation group,
the public type pair and the sampled predicate. Documents that differ only in relation expressions have the same
masked document, hence the same frames and the same output for the same outcomes.

A sentence is deleted when one of its slots stands for a null outcome. It is unfillable when no form of the
sampled predicate fits a slot's frame, when a shape rule says no fill reads there (:mod:`relguard.rewrite.shape`),
or when the filled sentence, read back, has a fill where no phrase of its shape is English
(:mod:`relguard.rewrite.guard`). Such a sentence is never printed broken: where it reads with a neutral connector
in the slots whose fills do not read, it keeps every other word and its drawn relations are stated after it
(:mod:`relguard.rewrite.neutral`, counted as connected); an expression in parts is worded as one slot where the
words between its parts may go with it (:mod:`relguard.rewrite.collapse`); else the sentence keeps its first
clause where that reads alone (:mod:`relguard.rewrite.clause`) and states the rest plainly
(:mod:`relguard.rewrite.restate`), or is deleted where nothing is left to state, and counted either way.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from relguard.rewrite import guard
from relguard.rewrite.antecedent import named_opening
from relguard.rewrite.collapse import collapsed, collapsible
from relguard.rewrite.frames import Frame, read_frames
from relguard.rewrite.layout import complement, removed_ranges
from relguard.rewrite.llm_verbalize import worded_by_model
from relguard.rewrite.mask import MaskedDocument, prints_own
from relguard.rewrite.neutral import Neutral, connected_words
from relguard.rewrite.placing import place_of
from relguard.rewrite.restate import Statement, restatements
from relguard.rewrite.seams import assemble, stray_of, trimmed
from relguard.rewrite.shape import (
    CLOSE,
    RELATIVE,
    crowded,
    dated_between,
    dictated,
    gapped,
    inside_name,
    mismatched,
    ranged,
    reads_between,
    repeated,
    stacked,
    wants_plural,
)
from relguard.rewrite.subject import off_subject, possessor_after, qualifier_after
from relguard.rewrite.verbalize import (
    PREPOSITIONS,
    RANK,
    STYLES,
    FormVerbalizer,
    Place,
    Styled,
    Verbalizer,
    ranked_role,
    split_preposition,
)
from relguard.types import SanitizedDocument, TypePair


@dataclass(frozen=True)
class Sampled:
    """What ``fill`` may know of a relation group: its public type pair, the sampled predicate (None = null) and
    its key's names (public, DESIGN invariant 6), which a restatement says the relation between."""

    type_pair: TypePair
    predicate: str | None
    subject: str = ""
    object: str = ""


def fill(
    masked: MaskedDocument,
    outcomes: Mapping[int, Sampled],
    verbalize: Verbalizer,
    *,
    frames: Sequence[Frame] | None = None,
    withheld: Iterable[int] = (),
) -> SanitizedDocument:
    """Delete every sentence holding a null outcome or a ``withheld`` mark, restate an unfillable one
    (:mod:`relguard.rewrite.restate`; deleted when it has nothing new to state), fill the rest.

    ``verbalize(predicate, type_pair, place)`` (:class:`~relguard.rewrite.verbalize.FormVerbalizer`) sees only
    the sampled predicate, the public type pair and the slot's :class:`~relguard.rewrite.verbalize.Place`.
    Line and paragraph breaks around a deleted sentence stay (:func:`removed_ranges`). The result's ``slots``
    are where every non-empty fill landed in its text, whatever the outcome.
    """
    decided = fill_slots(masked, outcomes, verbalize, frames)
    masked = decided.masked
    deleted, texts, unfillable = decided.deleted, decided.texts, set(decided.unfillable)
    gone = deleted | set(withheld)
    restated = restated_statements(masked, outcomes, verbalize, decided=decided, gone=gone)
    unfillable -= set(restated)
    connected = set(decided.connected) - gone
    held = sorted(set(withheld) - deleted - unfillable)
    gone = deleted | unfillable | set(held)
    kept = complement(removed_ranges(masked.text, masked.sentences, gone), len(masked.text))
    pieces: list[str] = []
    slots: list[tuple[int, int]] = []
    filled = length = 0
    for start, end in kept:
        piece, ranges = named_opening(masked, start, *_written(masked, start, end, texts, restated), gone)
        pieces.append(piece)
        filled += len(ranges)
        slots += [(length + a, length + b) for a, b in (trimmed(piece, *r) for r in ranges) if b > a]
        length += len(piece)
    return SanitizedDocument(
        masked.name,
        "".join(pieces),
        tuple(sorted(deleted)),
        filled,
        tuple(held),
        tuple(sorted(unfillable)),
        tuple(slots),
        tuple(sorted(set(restated) - connected)),
        tuple(sorted(connected)),
    )


def restated_statements(masked, outcomes, verbalize, *, decided: Filled, gone: set[int]) -> dict[int, Statement]:
    """The statements of the unfillable sentences not ``gone``, and of the connected ones (the sentence as its
    fills and neutral connectors word it, then the drawn relations of the slots with a connector), leaving out
    the groups a kept sentence's fill already prints in words."""
    texts, unfillable, connected = decided.texts, decided.unfillable, set(decided.connected)
    neutral = {n for slots in decided.connected.values() for n in slots}
    left_out = gone | unfillable
    printed = {
        s.groups[0]
        for n, s in enumerate(masked.slots)
        if s.sentence not in left_out
        and n not in neutral
        and prints_own(masked, s)
        and any(c.isalpha() for c in texts.get(n, ""))
    }
    whole = {n: assemble(masked, *masked.sentences[n], texts) for n in connected - gone}
    sentences = (unfillable | connected) - gone
    return restatements(
        masked, sentences, outcomes, verbalize, printed=printed, texts=texts, whole=whole, past=decided.past
    )


def _written(masked: MaskedDocument, start: int, end: int, texts, restated: Mapping[int, Statement]):
    """The kept text ``start:end`` with its slots filled and each restated sentence in it replaced whole."""
    out, ranges, cursor = "", [], start
    for number in sorted(restated):
        s_start, s_end = masked.sentences[number]
        if s_start < start or s_end > end:
            continue
        piece, found = assemble(masked, cursor, s_start, texts)
        ranges += [(len(out) + a, len(out) + b) for a, b in found]
        out += piece
        ranges += [(len(out) + a, len(out) + b) for a, b in restated[number].fills]
        out += restated[number].text
        cursor = s_end
    piece, found = assemble(masked, cursor, end, texts)
    ranges += [(len(out) + a, len(out) + b) for a, b in found]
    return out + piece, ranges


def fill_slots(
    masked: MaskedDocument,
    outcomes: Mapping[int, Sampled],
    verbalize: Verbalizer,
    frames: Sequence[Frame] | None = None,
    *,
    collapse: bool = True,
    sentences: Collection[int] | None = None,
) -> Filled:
    """Which sentences are deleted, filled, kept with neutral connectors or unfillable (:class:`Filled`).

    Each sentence is worded in the first of :data:`~relguard.rewrite.verbalize.STYLES` under which every fill
    of it reads (the shape rules and the guard, which see only the masked sentence and the candidate): the
    predicate's closing preposition where a phrase wants a modifier, then the frame's own forms, then relative
    clauses, and last the same with several fills allowed in one clause. A sentence no style reads in keeps its
    words, with a neutral connector (:mod:`relguard.rewrite.neutral`) in each slot whose own fill does not read
    (the caller states those slots' drawn relations after it), where that reads; else, with an expression in
    parts that may be worded as one (:mod:`relguard.rewrite.collapse`), its ``sentences`` are filled again with it
    as one slot (the result's ``masked``); else it is unfillable (restated or deleted by the caller)."""
    frames = tuple(frames) if frames is not None else read_frames(masked)
    deleted = {s.sentence for s in masked.slots if any(outcomes[i].predicate is None for i in s.groups)}
    kept = [n for n, s in enumerate(masked.slots) if s.sentence not in deleted]
    phrased, closed = dictated(masked)
    fixed = (phrased | ranged(masked) | inside_name(masked)) - deleted
    styles = STYLES if isinstance(verbalize, FormVerbalizer) else ("own",)
    if hasattr(verbalize, "rewrite_sentence"):
        styles = ("own",)  # a model words the sentence whole; the offline fills it falls back on are its own
    texts: dict[int, str] = {}
    open_sentences = {masked.slots[n].sentence for n in kept} - fixed
    if sentences is not None:  # only these are filled again: an expression in them is one slot now
        fixed, open_sentences = fixed & set(sentences), open_sentences & set(sentences)
    lenient_styles = [style for style in styles if style != "relative"]
    prepositions: dict[int, str] = {}  # per slot, its preposition alone, for the slots a connector may take
    for style, lenient in [(style, False) for style in styles] + [(style, True) for style in lenient_styles]:
        if not open_sentences:
            break
        only = [n for n in kept if masked.slots[n].sentence in open_sentences]
        words, failed = _kept_where_read(
            masked, outcomes, verbalize, style, frames, only, deleted, texts, lenient, closed=closed
        )
        open_sentences = failed & open_sentences
        for number in only:
            if masked.slots[number].sentence in failed and number in words:
                if style == "own" and not lenient:
                    texts[number] = words[number]  # what a restatement of a sentence no style reads in states
                elif style == "preposition" and not lenient and words[number] in PREPOSITIONS:
                    prepositions[number] = words[number]
    only = [n for n in kept if masked.slots[n].sentence in open_sentences]
    neutral, _ = slot_words(masked, outcomes, Neutral(), frames, only=only)
    connected: dict[int, set[int]] = {}
    for sentence in sorted(open_sentences):
        numbers = [n for n in only if masked.slots[n].sentence == sentence]
        found = connected_words(masked, numbers, texts, neutral, frames, prepositions=prepositions)
        if found is not None:
            chosen, with_connector = found
            texts.update(chosen)
            open_sentences.discard(sentence)
            if with_connector:
                connected[sentence] = with_connector
    # Last, a role noun in apposition to a noun that is no name ("covered the song, the opponent of a hit") reads
    # better than a restatement that loses every other word of the sentence (held-out paired reading of 82805b6).
    for style in lenient_styles if open_sentences else ():
        only = [n for n in kept if masked.slots[n].sentence in open_sentences]
        _, failed = _kept_where_read(
            masked, outcomes, verbalize, style, frames, only, deleted, texts, True, False, closed=closed
        )
        open_sentences &= failed
    if fixed:  # no fill reads there whatever its words; the own forms feed the restatement's first clause
        texts.update(
            slot_words(
                masked, outcomes, verbalize, frames, only=[n for n in kept if masked.slots[n].sentence in fixed]
            )[0]
        )
    unfillable = (open_sentences | fixed) - deleted
    heads = collapsible(masked, unfillable) if collapse else []
    if heads:
        merged, number_of = collapsed(masked, heads)
        redone = {masked.slots[h].sentence for h in heads}
        again = fill_slots(merged, outcomes, verbalize, read_frames(merged), collapse=False, sentences=redone)
        others = {number_of[n]: w for n, w in texts.items() if masked.slots[n].sentence not in redone}
        links = {s: {number_of[n] for n in slots} for s, slots in connected.items() if s not in redone}
        unfillable = (unfillable - redone) | again.unfillable
        return replace(again, texts=others | again.texts, unfillable=unfillable, connected=links | again.connected)
    past = frozenset(masked.slots[n].sentence for n in kept if frames[n].past)
    return Filled(masked, deleted, texts, unfillable, connected, past)


@dataclass(frozen=True)
class Filled:
    """What :func:`fill_slots` decided: the masked document whose slots these are (an expression in parts may be
    one slot there), sentences deleted by a null, the words of every slot of the other sentences, the sentences no
    wording reads in (restated or deleted), and per sentence kept with neutral connectors the slots that hold one
    (their drawn relations are stated after the sentence), and the sentences told in the past (a statement of
    theirs takes the past tense)."""

    masked: MaskedDocument
    deleted: set[int]
    texts: dict[int, str]
    unfillable: set[int]
    connected: dict[int, set[int]]
    past: frozenset[int] = frozenset()


def _kept_where_read(
    masked, outcomes, verbalize, style, frames, only, deleted, texts, lenient, appositions=True, *, closed
) -> tuple[dict[int, str], set[int]]:
    """The slots ``only`` worded in ``style`` (:func:`_worded`): ``texts`` takes the words of every sentence they
    read in; returns all the words and the sentences where they do not read."""
    worder = verbalize if style == "own" else Styled(verbalize, style)
    words, failed = _worded(
        masked,
        outcomes,
        worder,
        frames,
        only=only,
        deleted=deleted,
        closed=closed,
        lenient=lenient,
        appositions=appositions,
    )
    texts.update({n: words[n] for n in only if masked.slots[n].sentence not in failed and n in words})
    return words, failed


def _worded(
    masked, outcomes, verbalize, frames, *, only, deleted, closed, lenient=False, appositions=True
) -> tuple[dict[int, str], set[int]]:
    """The words of the slots ``only`` in one wording, and the sentences where they do not read (``closed``: those
    no wording reads in, read once by the caller). ``lenient`` lets several fills share a clause (awkward, not
    broken: the guard still reads every fill in its place), the last try before a sentence is given up;
    ``appositions=False`` also lets a role noun stand in apposition to a noun that is no name
    (:func:`~relguard.rewrite.subject.off_subject`)."""
    texts, unfillable = slot_words(masked, outcomes, verbalize, frames, only=only)
    if hasattr(verbalize, "rewrite_sentence"):
        unfillable -= worded_by_model(masked, outcomes, verbalize, frames, only, texts)
    if not lenient:
        unfillable |= crowded(masked, texts) | stacked(masked, texts) | repeated(masked, texts)
        unfillable |= mismatched(masked, texts)
    unfillable |= gapped(masked, texts) | wants_plural(masked, texts) | closed
    unfillable |= off_subject(masked, texts, frames, appositions=appositions) | possessor_after(masked, texts, frames)
    if appositions:  # the last try before a restatement, which would lose every other word of the sentence
        unfillable |= qualifier_after(masked, texts, frames)
    sentences = {masked.slots[n].sentence for n in only}
    unfillable &= sentences
    unfillable |= guard.misread_sentences(
        masked, texts, skip=deleted | unfillable | ({s.sentence for s in masked.slots} - sentences)
    )
    return texts, unfillable


def slot_words(
    masked: MaskedDocument,
    outcomes: Mapping[int, Sampled],
    verbalize: Verbalizer,
    frames: Sequence[Frame],
    *,
    only: Collection[int],
) -> tuple[dict[int, str], set[int]]:
    """The words of the slots ``only`` (slot numbers) for non-null ``outcomes``, and the sentences where a slot
    has no form that fits (unfillable). A tail takes its head's closing preposition and the head keeps the rest
    ("is owned [in 1777] by"); a form with no preposition moves the words between into commas ("employed, in
    1777, William Bass")."""
    texts: dict[int, str] = {}
    forms: dict[int, str] = {}
    unfillable: set[int] = set()
    tailed = {s.head for n, s in enumerate(masked.slots) if s.role == "tail" and frames[n].name == "tail"}
    relative_in: set[int] = set()
    for number in sorted(only):
        slot, frame = masked.slots[number], frames[number]
        sampled = outcomes[slot.groups[0]]
        if frame.coordinated and frame.name == "modifier" and slot.sentence in relative_in:
            frame = replace(frame, name="finite")  # "that sanctioned X and [is owned by] Y", not "and owned by"
        place = place_of(masked, number, frame, forms, tailed)
        words = verbalize(sampled.predicate, sampled.type_pair, place)
        if words is None or not _same_preposition(masked, slot, sampled, verbalize, place):
            unfillable.add(slot.sentence)
            continue
        if frame.continued and masked.text[slot.start - 1 : slot.start].strip():
            words = f", {words}"  # "Frank Borzage[, written by] Steve Fisher": the slot held the name's comma
        if place.preposition_after and not words.endswith(" of") and stray_of(words, masked.text, slot.end):
            words += " of"  # the seam drops the text's "of" after a verb: "sits on the board [of] Duke University"
        forms[number] = words
        if RELATIVE.match(words):
            relative_in.add(slot.sentence)
        if words.startswith(", ") and frame.name == "role" and not place.closed:
            words += CLOSE  # the clause closes after the next name: "Velvet Revolver, which employs X, joined"
        texts[number] = words
    for number in sorted(only):
        slot = masked.slots[number]
        if slot.role != "tail" or frames[number].name != "tail":
            continue
        if slot.head in texts and RANK.fullmatch(masked.text, masked.slots[slot.head].end, slot.start):
            head = outcomes[masked.slots[slot.head].groups[0]]
            place = place_of(masked, slot.head, frames[slot.head], forms, tailed)
            ranked = ranked_role(verbalize, head.predicate, head.type_pair, place)
            if ranked is None:
                unfillable.add(slot.sentence)  # "died [the 58th] in": a rank wants a role noun after it
            else:
                texts[slot.head], texts[number] = ranked
        elif not reads_between(masked, slot):
            unfillable.add(slot.sentence)
        elif slot.head in texts:
            body, preposition = split_preposition(texts[slot.head])
            if preposition:
                texts[slot.head], texts[number] = body, preposition
            elif dated_between(masked, slot):
                between = masked.text[masked.slots[slot.head].end : slot.start].strip()
                opened, closed = between.startswith(","), between.endswith(",")  # "was born [in 1977,] in"
                texts[slot.head], texts[number] = body + ("" if opened else ","), "" if closed else ","
            else:
                unfillable.add(slot.sentence)  # "6,493, which organized, to 7,049, the 2011 Census"
    return texts, unfillable


def _same_preposition(masked: MaskedDocument, slot, sampled: Sampled, verbalize: Verbalizer, place: Place) -> bool:
    """Where the text after a slot keeps a preposition ("is [associated] with"), the fill gives up its own, so
    the form must close with that one: "is owned by" there reads "is owned with", "employs" "employs with"."""
    if not place.preposition_after or place.has_tail or place.frame in ("tail", "removed"):
        return True
    if isinstance(verbalize, Neutral):
        return True  # a neutral connector there is bare: "was [mentioned] by critics"
    full = verbalize(sampled.predicate, sampled.type_pair, replace(place, preposition_after=False))
    following = masked.text[slot.end : slot.end + 16].split()
    return bool(full and following) and split_preposition(full)[1] == following[0].lower()
