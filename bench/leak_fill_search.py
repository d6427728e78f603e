"""Search a shared dataset for fills the leak scan would take for a leak: every slot × every pool predicate.

For each slot of each document, every predicate of the slot's pool is verbalized in the slot's own context, as
reconstruction would write it. A hit is a fill that reproduces an original relation span of that slot, for a
predicate other than the original, which the scan does not excuse as a wording of the sampled predicate under
the filling group's type pair. Each hit would be withheld from a release as a false leak (or, if the scan
were wrong the other way, published), so the expected count is 0::

    .venv/bin/python bench/leak_fill_search.py redocred
    .venv/bin/python bench/leak_fill_search.py hotpotqa
"""

from __future__ import annotations

import argparse

from relguard.evaluation.datasets import load_dataset
from relguard.extract.spacy import SpacyExtractor
from relguard.pipeline import prepare
from relguard.release.wordings import normalize, worded_as
from relguard.rewrite import FormVerbalizer, mask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", choices=("hotpotqa", "2wiki", "redocred"))
    parser.add_argument("--show", type=int, default=12, help="hits to print")
    args = parser.parse_args()
    documents = load_dataset(args.dataset).documents
    prepared = prepare(documents, k=10, extractor=SpacyExtractor())
    forms = prepared.generator.forms
    verbalize = FormVerbalizer(forms)
    index = {g.key: i for i, g in enumerate(prepared.groups)}
    hits = tried = 0
    for doc in prepared.extraction.documents:
        masked = mask(doc, index)
        text = doc.document.text
        occurrences = [(o.start, o.end, t) for t in doc.triples for o in t.occurrences]
        for slot in masked.slots:
            group = prepared.groups[slot.groups[0]]
            keys = {prepared.groups[g].key for g in slot.groups}
            before, after = masked.text[max(0, slot.start - 80) : slot.start], masked.text[slot.end : slot.end + 80]
            for predicate in prepared.pools[group.type_pair].predicates:
                fill = verbalize(
                    predicate, group.type_pair, before, after, inverted=slot.inverted, context=slot.context
                )
                tried += 1
                for start, end, triple in occurrences:
                    original = text[start:end]
                    if triple.pair_key not in keys or predicate == triple.predicate or not fill.strip():
                        continue
                    if normalize(fill) != normalize(original):
                        continue
                    if worded_as(original, predicate, group.type_pair, forms):
                        continue
                    hits += 1
                    if hits <= args.show:
                        print(f"{doc.document.name}: {original!r} filled as {fill!r} by {predicate}")
    print(f"{args.dataset}: {len(documents)} documents, {tried} fills tried, {hits} unexcused reproductions")


if __name__ == "__main__":
    main()
