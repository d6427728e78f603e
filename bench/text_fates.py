"""What a release does to each sentence, on the reserved slice no fill rule was written from (issue 39).

Releases Re-DocRED dev documents 400–499 or 2WikiMultiHopQA gold passages from question 400 on (``--set``), at ε
with a teaching seed, and prints the share of sentences kept verbatim, filled in place, restated and deleted (by
a null, or because no wording read), the numbers and dates kept (every digit run of the input, counted in the
output), the slots and drawn relations per sentence, and writes the rewritten sentences next to their originals
for a blind reader (``--sample N`` of them, shuffled with a fixed seed, without their fate):

    .venv/bin/python bench/text_fates.py --set redocred --epsilon 5 --sample 120 --out docs/evaluation/text-quality
    .venv/bin/python bench/text_fates.py --set 2wiki --epsilon 5 --slots stretches
"""

from __future__ import annotations

import argparse
import collections
import dataclasses
import json
import random
import re
import sys
import zlib
from pathlib import Path

from relguard.engine.backends import Backends
from relguard.engine.outcomes import OutcomeTable, guarantee_of, sample_table
from relguard.engine.rewrite import mask_document
from relguard.evaluation.datasets import load_dataset
from relguard.extract.spacy import SpacyExtractor
from relguard.pipeline import prepare, privacy_of
from relguard.rewrite import FormVerbalizer
from relguard.rewrite.fill import fill
from relguard.rewrite.frames import read_frames
from relguard.rewrite.sentences import written_sentences
from relguard.types import Document

#: The reserved slices: Re-DocRED dev documents 400–499; 2Wiki gold passages of questions 400 on; the last HotpotQA
#: paragraphs (800 on), which no bench reads (they read the first paragraphs).
RESERVED = {"redocred": (400, 500), "2wiki": (400, 500), "hotpotqa": (800, 994)}
#: Slices a rule may be written from, to try a change before the reserved slice reads it.
DEVELOPMENT = {"redocred": (300, 400), "2wiki": (300, 400), "hotpotqa": (600, 800)}
_NUMBER = re.compile(r"\d+(?:[.,:]\d+)*")


def reserved_documents(name: str, limit: int | None, *, development: bool = False) -> list[Document]:
    """The reserved slice of ``name`` as documents (2Wiki: every gold passage of questions 400 on; HotpotQA:
    paragraphs 800 on), or with
    ``development`` the slice before it."""
    lo, hi = (DEVELOPMENT if development else RESERVED)[name]
    dataset = load_dataset(name)
    if name in ("redocred", "hotpotqa"):
        chosen = dataset.documents[lo:hi]
    else:
        names = {p for q in dataset.questions[lo:hi] for p in q.passages}
        chosen = [d for d in dataset.documents if d.name in names]
    return [Document(d.name, d.text) for d in chosen[:limit]]


def _stable_table(keys, distances, *, pools, privacy) -> OutcomeTable:
    """One outcome per group, each drawn with a teaching seed of its own (the run's seed and the group's key)."""
    predicates = []
    for row, key in enumerate(keys):
        own = dataclasses.replace(privacy, seed=zlib.crc32(repr(key).encode()) ^ privacy.seed)
        predicates.append(sample_table([key], distances[row : row + 1], pools=pools, privacy=own).predicates[0])
    return OutcomeTable(tuple(keys), tuple(predicates), dict(pools), guarantee_of(privacy))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", choices=sorted(RESERVED), default="redocred")
    parser.add_argument("--epsilon", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=400)
    parser.add_argument("--slots", choices=("spans", "stretches"), default="spans")
    parser.add_argument("--limit", type=int, default=None, help="documents (default: the whole slice)")
    parser.add_argument("--sample", type=int, default=0, help="rewritten sentences to write for a blind reader")
    parser.add_argument("--out", default="out/text-fates")
    parser.add_argument(
        "--development", action="store_true", help="the slice before the reserved one (documents 300–399)"
    )
    parser.add_argument(
        "--stable-draws",
        action="store_true",
        help="draw each group with its own seed (from the seed and its key), so that a rule change that adds or "
        "drops a group elsewhere leaves every other group's outcome as it was: for comparing two commits",
    )
    args = parser.parse_args()
    documents = reserved_documents(args.set, args.limit, development=args.development)
    backends = Backends.of(extractor=SpacyExtractor(slots=args.slots), candidates="inventory")
    prepared = prepare(documents, k=10, backends=backends)
    privacy = privacy_of(epsilon=args.epsilon, entity_epsilon=None, lam=1.0, k=10, seed=args.seed)
    keys = [g.key for g in prepared.groups]
    if args.stable_draws:
        table = _stable_table(keys, prepared.distances, pools=prepared.pools, privacy=privacy)
    else:
        table = sample_table(keys, prepared.distances, pools=prepared.pools, privacy=privacy)
    verbalize = FormVerbalizer(prepared.generator.forms)
    fates: collections.Counter[str] = collections.Counter()
    numbers_in = numbers_kept = 0
    rows, per_sentence = [], []
    for doc in prepared.extraction.documents:
        masked = mask_document(doc, table.index)
        frames = read_frames(masked)
        out = fill(masked, table.sampled, verbalize, frames=frames)
        written, restated, connected, _ = written_sentences(masked, table.sampled, verbalize, frames)
        released = collections.Counter(_NUMBER.findall(out.text))
        wanted = collections.Counter(_NUMBER.findall(doc.document.text))
        numbers_in += sum(wanted.values())
        numbers_kept += sum(min(count, released[n]) for n, count in wanted.items())
        for number, sentence in enumerate(doc.sentences):
            original = doc.document.text[sentence.start : sentence.end]
            slots = [s for s in masked.slots if s.sentence == number]
            groups = {g for s in slots for g in s.groups}
            if slots:
                per_sentence.append((len(slots), len(groups)))
            if number in out.removed_sentences:
                fate = "deleted: null"
            elif number in out.withheld_sentences:
                fate = "deleted: withheld"
            elif number in restated:
                fate = "restated"
            elif number in connected:
                fate = "connected"
            elif number in out.unfillable_sentences:
                fate = "deleted: unfillable"
            elif number in written:
                fate = "filled"
            else:
                fate = "verbatim"
            fates[fate] += 1
            if fate in ("filled", "connected", "restated"):
                rows.append(
                    {
                        "document": doc.document.name,
                        "sentence": number,
                        "fate": fate,
                        "original": original,
                        "released": written[number][0],
                        "frames": [frames[n].name for n, s in enumerate(masked.slots) if s.sentence == number],
                        "pairs": sorted({"|".join(table.sampled[g].type_pair) for s in slots for g in s.groups}),
                    }
                )
    total = sum(fates.values())
    print(
        f"{args.set} {'development' if args.development else 'reserved'} slice, {len(documents)} documents, "
        f"{total} sentences, eps={args.epsilon}, "
        f"slots={args.slots}, seed={args.seed}"
    )
    for fate in (
        "verbatim",
        "filled",
        "connected",
        "restated",
        "deleted: null",
        "deleted: unfillable",
        "deleted: withheld",
    ):
        print(f"  {fate:22} {fates[fate]:5}  {100 * fates[fate] / max(1, total):5.1f} %")
    deleted = sum(v for k, v in fates.items() if k.startswith("deleted"))
    print(f"  deleted in all          {deleted:5}  {100 * deleted / max(1, total):5.1f} %")
    print(f"  numbers and dates kept  {numbers_kept} of {numbers_in} ({100 * numbers_kept / max(1, numbers_in):.1f} %)")
    over = sum(1 for s, g in per_sentence if g > s)
    print(
        f"  sentences with more drawn relations than slots: {over} of {len(per_sentence)}; "
        f"most relations in one sentence: {max((g for _, g in per_sentence), default=0)}"
    )
    if args.sample:
        out_dir = Path(args.out)
        out_dir.mkdir(parents=True, exist_ok=True)
        random.Random(args.seed).shuffle(rows)
        chosen = rows[: args.sample]
        stem = f"{args.set}-eps{args.epsilon:g}-{args.slots}"
        (out_dir / f"{stem}-key.jsonl").write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in chosen))
        blind = [{"id": i, "original": r["original"], "released": r["released"]} for i, r in enumerate(chosen)]
        (out_dir / f"{stem}-blind.jsonl").write_text("".join(json.dumps(b, ensure_ascii=False) + "\n" for b in blind))
        print(f"  wrote {len(chosen)} rewritten sentences for a blind reader: {out_dir / (stem + '-blind.jsonl')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
