"""Does the released text read as English, and does it keep what is not a relation? On the shared datasets.

For HotpotQA paragraphs, Re-DocRED dev documents and 2WikiMultiHopQA passages, at ε = 5 and ε = 1 (λ = 1,
K = 10, one teaching seed per ε so a rerun prints the same numbers), every rewritten sentence goes through the
eight detectors of :mod:`relguard.evaluation.fluency`; the script prints the count per pattern and the broken
share, and the content kept:

* **gold mentions kept** (Re-DocRED): in every kept sentence that held a slot and names a gold mention of an
  evidence sentence, those mentions (names, dates and numbers annotated by people, never relation words) still
  found in the released sentence;
* **content words kept** (both; on Re-DocRED the same evidence sentences): numbers, "%", proper nouns and nouns
  of the original sentence that are not relation nouns of the lexicon (founder, capital, member ...), still
  present in the released sentence as a multiset of words (both sides cut by spaCy's tokenizer, so "Jr.",
  "12:25" and "6,783" are one word on both; a regular expression on the released side had counted them lost).
  Slots are not consulted: a span that swallows a description ("a 1986 American [science fiction horror film
  written by]") loses its nouns here.

Sentences no fill reads well in are restated (:mod:`relguard.rewrite.restate`): they are counted apart, kept
out of the detectors and of the first content figure (they keep their names and nothing else), and in the
second one.

It writes ``--out/sample.md`` with ``--sample`` random rewritten sentences — filled or restated, as they come —
next to their originals (and the patterns found), for reading::

    .venv/bin/python bench/fluency.py                 # 150 HotpotQA paragraphs, 40 Re-DocRED docs, 200 2Wiki passages
    .venv/bin/python bench/fluency.py --hotpotqa 300 --redocred 100 --sample 100 --out out/fluency
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

from relguard.evaluation.datasets import default_data_dir, detokenize, load_dataset
from relguard.evaluation.fluency import DETECTORS, judge, tally
from relguard.extract.spacy import SpacyExtractor
from relguard.extract.spacy import lexicon as lex
from relguard.pipeline import prepare
from relguard.rewrite import rewritten_sentences

_CONTENT_POS = frozenset({"NUM", "PROPN", "NOUN"})


def gold_mentions(limit: int) -> dict[str, set[str]]:
    """Re-DocRED: per document (named as the loader names it), the gold mention names of its evidence sentences
    (people annotated them: names, dates and numbers, never relation words)."""
    raw = json.loads((default_data_dir() / "redocred_dev_revised.json").read_text())[:limit]
    found: dict[str, set[str]] = {}
    for number, doc in enumerate(raw):
        evidence = {e for label in doc.get("labels", []) for e in label.get("evidence", [])}
        names = {
            detokenize(m["name"].split()) for entity in doc["vertexSet"] for m in entity if m["sent_id"] in evidence
        }
        found[f"{number:03d} {doc['title']}"] = names
    return found


def relation_nouns() -> frozenset[str]:
    """Nouns that name relations (the lexicon's role, place and light nouns): not content, whoever wrote them."""
    return frozenset(lex.ROLE_NOUNS | lex.LIGHT_NOUNS | lex.PLACE_NOUNS)


def content_kept(records, nlp, gold=None) -> tuple[float, float | None]:
    """(content words kept, gold mentions kept or None) over the kept sentences that held a slot."""
    relational = relation_nouns()
    words_total = words_kept = gold_total = gold_kept = 0
    originals = list(nlp.pipe((r.original for r in records), batch_size=256))
    for record, parsed in zip(records, originals, strict=True):
        if gold is not None:
            names = [n for n in gold.get(record.document, ()) if n in record.original]
            if not names:
                continue  # not a gold evidence sentence
            gold_total += len(names)
            gold_kept += sum(n in record.released for n in names)
        wanted = Counter(
            t.text
            for t in parsed
            if (t.pos_ in _CONTENT_POS or t.text == "%") and t.lemma_.lower() not in relational and t.text.strip()
        )
        have = Counter(t.text for t in nlp.tokenizer(record.released))  # the same tokenizer on both sides
        words_total += sum(wanted.values())
        words_kept += sum(min(n, have[w]) for w, n in wanted.items())
    gold_share = gold_kept / gold_total if gold is not None and gold_total else None
    return words_kept / max(1, words_total), gold_share


def run(name, documents, *, extractor, epsilons, gold, sample, rng, lines) -> None:
    prepared = prepare(documents, k=10, extractor=extractor)
    sentences = sum(len(d.sentences) for d in prepared.extraction.documents)
    for epsilon in epsilons:
        release = prepared.draw(epsilon=epsilon, lam=1.0, seed=int(epsilon * 1000) + 7)
        records = rewritten_sentences(release, prepared.generator.forms)
        filled = [r for r in records if not getattr(r, "restated", False)]  # getattr: run against older commits
        restated = [r for r in records if getattr(r, "restated", False)]
        changed = [r for r in filled if r.changed]
        verdicts = judge(changed, extractor.nlp)
        counts = tally(verdicts)
        words, gold_share = content_kept(filled, extractor.nlp, gold)
        words_all, gold_all = content_kept(records, extractor.nlp, gold)
        removed = sum(len(d.removed_sentences) + len(d.withheld_sentences) for d in release.documents)
        unfillable = sum(len(d.unfillable_sentences) for d in release.documents)
        patterns = "  ".join(f"{p}={counts[p]}" for p in DETECTORS)
        gold_text = f"{100 * gold_share:.1f} %" if gold_share is not None else "–"
        gold_all_text = f"{100 * gold_all:.1f} %" if gold_all is not None else "–"
        print(
            f"{name:8} ε={epsilon:<3} sentences {sentences}, rewritten {len(changed)}, removed {removed}, "
            f"unfillable (deleted) {unfillable}, restated {len(restated)}; "
            f"broken {counts['broken']}/{len(changed)} = {100 * counts['broken'] / max(1, len(changed)):.1f} %; "
            f"content words kept {100 * words:.1f} %, gold mentions kept {gold_text} (filled sentences); "
            f"with the restated ones {100 * words_all:.1f} % / {gold_all_text}\n    {patterns}"
        )
        pool = [(v.sentence, ", ".join(v.patterns) or "—") for v in verdicts] + [(r, "restated") for r in restated]
        for s, marks in rng.sample(pool, min(sample, len(pool))):
            lines.append(f"**{name} ε={epsilon}** `{s.document}` #{s.sentence} — {marks}\n\n")
            lines.append(f"- was: {s.original}\n- now: {s.released}\n\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hotpotqa", type=int, default=150, help="first N HotpotQA paragraphs (default 150)")
    parser.add_argument("--redocred", type=int, default=40, help="first N Re-DocRED dev documents (default 40)")
    parser.add_argument("--2wiki", dest="twowiki", type=int, default=200, help="first N 2Wiki passages (default 200)")
    parser.add_argument("--epsilon", type=float, nargs="+", default=[5.0, 1.0])
    parser.add_argument("--sample", type=int, default=50, help="sentences per dataset and ε written for reading")
    parser.add_argument("--out", default="out/fluency")
    parser.add_argument("--slots", default="spans", choices=["spans", "stretches"], help="slot mode (default spans)")
    args = parser.parse_args()
    extractor, rng = SpacyExtractor(slots=args.slots), random.Random(0)
    lines = [f"# Rewritten sentences next to their originals ({args.slots})\n\n"]
    hotpot = load_dataset("hotpotqa").documents[: args.hotpotqa]
    run("hotpotqa", hotpot, extractor=extractor, epsilons=args.epsilon, gold=None, sample=args.sample, rng=rng,
        lines=lines)  # fmt: skip
    redocred = load_dataset("redocred", limit=args.redocred).documents
    run("redocred", redocred, extractor=extractor, epsilons=args.epsilon, gold=gold_mentions(args.redocred),
        sample=args.sample, rng=rng, lines=lines)  # fmt: skip
    if args.twowiki:  # read by nobody while the rules were written: encyclopaedia openings, brackets, film credits
        twowiki = load_dataset("2wiki").documents[: args.twowiki]
        run("2wiki", twowiki, extractor=extractor, epsilons=args.epsilon, gold=None, sample=args.sample, rng=rng,
            lines=lines)  # fmt: skip
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "sample.md").write_text("".join(lines), encoding="utf-8")
    print(f"sample for reading: {out / 'sample.md'}")


if __name__ == "__main__":
    main()
