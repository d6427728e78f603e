"""Neighbour pairs released through the CLI at ε = 0 with one teaching seed: how many give byte-identical public
files (DESIGN invariant 12), per slot mode.

``REVIEW`` rebuilds the last review's 48 pairs (issue 26's table, kinds and counts as listed there, with our own
names and sentences); ``ISSUE_38`` holds the reproducers of issue 38's strict- and default-mode classes. Each pair
is two one-document corpora (or two documents) differing in one relation's wording only::

    PYTHONPATH=$PWD .venv/bin/python bench/neighbour_pairs.py                  # both lists, both modes
    PYTHONPATH=$PWD .venv/bin/python bench/neighbour_pairs.py --set review --slots stretches -v
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
import tempfile
from pathlib import Path

from relguard import cli

Pair = tuple[str, list[str], list[str]]

REVIEW: list[Pair] = [
    ("negation", ["Maria Lopez did not join Redfern Bank."], ["Maria Lopez joined Redfern Bank."]),
    ("negation", ["Omar Haddad never worked for Tessellate Labs."], ["Omar Haddad worked for Tessellate Labs."]),
    ("negation", ["Lena Brandt is not married to Paul Okafor."], ["Lena Brandt is married to Paul Okafor."]),
    ("modal/tense", ["Maria Lopez will join Redfern Bank."], ["Maria Lopez joined Redfern Bank."]),
    ("modal/tense", ["Omar Haddad may lead Tessellate Labs."], ["Omar Haddad leads Tessellate Labs."]),
    ("modal/tense", ["Lena Brandt had founded Quillon Press."], ["Lena Brandt founds Quillon Press."]),
    ("dates", ["Maria Lopez joined Redfern Bank in 2004."], ["Maria Lopez left Redfern Bank in 2004."]),
    ("dates", ["In 1999 Omar Haddad founded Tessellate Labs."], ["In 1999 Omar Haddad sold Tessellate Labs."]),
    ("dates", ["Lena Brandt moved to Lisbon on 3 May 2011."], ["Lena Brandt died in Lisbon on 3 May 2011."]),
    ("nominalization", ["Maria Lopez is the founder of Redfern Bank."], ["Maria Lopez founded Redfern Bank."]),
    ("nominalization", ["Omar Haddad is an employee of Tessellate Labs."], ["Omar Haddad works for Tessellate Labs."]),
    ("nominalization", ["Lena Brandt is the owner of Quillon Press."], ["Lena Brandt owns Quillon Press."]),
    ("hyphenated", ["Maria Lopez co-founded Redfern Bank."], ["Maria Lopez founded Redfern Bank."]),
    ("hyphenated", ["Omar Haddad re-joined Tessellate Labs."], ["Omar Haddad joined Tessellate Labs."]),
    ("hyphenated", ["Lena Brandt is the co-owner of Quillon Press."], ["Lena Brandt is the owner of Quillon Press."]),
    ("pronoun subject", ["Maria Lopez was born in Lisbon. She founded Redfern Bank."],
     ["Maria Lopez was born in Lisbon. She left Redfern Bank."]),
    ("pronoun subject", ["Omar Haddad lives in Cairo. He advises Tessellate Labs."],
     ["Omar Haddad lives in Cairo. He audits Tessellate Labs."]),
    ("pronoun subject", ["Lena Brandt studied in Vienna. She married Paul Okafor."],
     ["Lena Brandt studied in Vienna. She divorced Paul Okafor."]),
    ("quotes", ['Maria Lopez said: "I joined Redfern Bank."'], ['Maria Lopez said: "I left Redfern Bank."']),
    ("quotes", ['"Omar Haddad founded Tessellate Labs," the paper wrote.'],
     ['"Omar Haddad sold Tessellate Labs," the paper wrote.']),
    ("quotes", ["Lena Brandt 'joined' Quillon Press."], ["Lena Brandt 'left' Quillon Press."]),
    ("long vs short", ["Maria Lopez was appointed as the chief financial officer of Redfern Bank."],
     ["Maria Lopez joined Redfern Bank."]),
    ("long vs short", ["Omar Haddad has been working for many years at Tessellate Labs."],
     ["Omar Haddad left Tessellate Labs."]),
    ("long vs short", ["Lena Brandt was for a short while the publisher of Quillon Press."],
     ["Lena Brandt owns Quillon Press."]),
    ("long vs short", ["Paul Okafor spent most of his childhood in Lagos."], ["Paul Okafor died in Lagos."]),
    ("two documents", ["Maria Lopez works for Redfern Bank.", "Maria Lopez works for Redfern Bank."],
     ["Maria Lopez works for Redfern Bank.", "Maria Lopez founded Redfern Bank."]),
    ("two documents", ["Omar Haddad lives in Cairo.", "Omar Haddad lives in Cairo."],
     ["Omar Haddad lives in Cairo.", "Omar Haddad died in Cairo."]),
    ("two documents", ["Lena Brandt married Paul Okafor.", "Lena Brandt joined Quillon Press."],
     ["Lena Brandt divorced Paul Okafor.", "Lena Brandt joined Quillon Press."]),
    ("adverb", ["Maria Lopez secretly married Paul Okafor."], ["Maria Lopez married Paul Okafor."]),
    ("adverb", ["Omar Haddad quietly left Tessellate Labs."], ["Omar Haddad left Tessellate Labs."]),
    ("role noun", ["Maria Lopez, the founder of Redfern Bank, spoke."],
     ["Maria Lopez, the critic of Redfern Bank, spoke."]),
    ("role noun", ["Maria Lopez, the auditor of Redfern Bank, spoke."],
     ["Maria Lopez, the chairman of Redfern Bank, spoke."]),
    ("role noun", ["Redfern Bank's founder Maria Lopez spoke."], ["Redfern Bank's critic Maria Lopez spoke."]),
    ("role noun", ["Redfern Bank's treasurer Maria Lopez spoke."], ["Redfern Bank's lawyer Maria Lopez spoke."]),
    ("role noun", ["Omar Haddad, a shareholder of Tessellate Labs, resigned."],
     ["Omar Haddad, a director of Tessellate Labs, resigned."]),
    ("role noun", ["Omar Haddad is the patron of Tessellate Labs."],
     ["Omar Haddad is the president of Tessellate Labs."]),
    ("role noun", ["Lena Brandt, the editor of Quillon Press, spoke."],
     ["Lena Brandt, the landlord of Quillon Press, spoke."]),
    ("role noun", ["Quillon Press's owner Lena Brandt spoke."], ["Quillon Press's tenant Lena Brandt spoke."]),
    ("comma vs word", ["Lakeside, which invaded Ostland."], ["Lakeside invaded Ostland."]),
    ("comma vs word", ["Millbrook, which borders Ostland, is small."], ["Millbrook, Ostland, is small."]),
    ("abbreviation", ["Maria Lopez was gen. mgr of Redfern Bank."], ["Maria Lopez was the chief of Redfern Bank."]),
    ("abbreviation", ["Omar Haddad was asst. dir. at Tessellate Labs."],
     ["Omar Haddad was a clerk at Tessellate Labs."]),
    ("entity boundary", ["Paul Okafor sued Corvid Media."], ["Paul Okafor acquired Corvid Media."]),
    ("subject the NER missed", ["Priyanka Das founded Pellucid Analytics."], ["Priyanka Das left Pellucid Analytics."]),
    ("subject the NER missed", ["Ana Ruiz joined Corvid Media."], ["Ana Ruiz advised Corvid Media."]),
    ("subject the NER missed", ["Tomasz Wrona chairs Quillon Press."], ["Tomasz Wrona audits Quillon Press."]),
    ("subject the NER missed", ["Ngozi Eze sold Tessellate Labs."], ["Ngozi Eze bought Tessellate Labs."]),
    ("subject the NER missed", ["Kenji Arai, hired in 2009, joined Redfern Bank."],
     ["Kenji Arai, hired in 2009, advised Redfern Bank."]),
]  # fmt: skip

#: Issue 38's classes (items 2 and 3), with the wordings the red team named and our own neighbours of them.
ISSUE_38: list[tuple[str, str, list[str], list[str]]] = [
    # (mode the class is about, kind, corpus A, corpus B)
    ("stretches", "bracket", ["David Chen (CEO of Microsoft) spoke first."],
     ["David Chen (critic of Microsoft) spoke first."]),
    ("stretches", "bracket, no role", ["David Chen (CEO of Microsoft) spoke first."],
     ["David Chen (from Microsoft) spoke first."]),
    ("stretches", "quote", ['Maria Lopez "Head of Risk" at Redfern Bank spoke.'],
     ['Maria Lopez "critic" at Redfern Bank spoke.']),
    ("stretches", "quoted role", ['Maria Lopez, "Head of Risk" of Redfern Bank, spoke.'],
     ['Maria Lopez, the head of risk of Redfern Bank, spoke.']),
    ("stretches", "title case role", ["Maria Lopez was named Sr. Vice President of Redfern Bank in March."],
     ["Maria Lopez was named a lender of Redfern Bank in March."]),
    ("stretches", "Vice President of", ["Maria Lopez is Vice President of Redfern Bank."],
     ["Maria Lopez is vice president of Redfern Bank."]),
    ("stretches", "Managing Director", ["Maria Lopez, Managing Director at Redfern Bank, spoke."],
     ["Maria Lopez, an adviser at Redfern Bank, spoke."]),
    ("stretches", "Co-Founder of", ["Maria Lopez is Co-Founder of Redfern Bank."],
     ["Maria Lopez is a critic of Redfern Bank."]),
    ("stretches", "Mgr. Operations", ["Maria Lopez, Mgr. Operations, Redfern Bank, retired."],
     ["Maria Lopez, a client of Redfern Bank, retired."]),
    ("stretches", "memo header", ["Maria Lopez: Treasurer, Redfern Bank."], ["Maria Lopez: client of Redfern Bank."]),
    ("stretches", "CEO", ["Maria Lopez, CEO of Redfern Bank, spoke."],
     ["Maria Lopez, a client of Redfern Bank, spoke."]),
    ("stretches", "Chief Executive Officer", ["Maria Lopez, Chief Executive Officer of Redfern Bank, spoke."],
     ["Maria Lopez, a customer of Redfern Bank, spoke."]),
    ("stretches", "VP abbreviation", ["Maria Lopez is VP Sales at Redfern Bank."],
     ["Maria Lopez is a saleswoman at Redfern Bank."]),
    ("stretches", "title case verb", ["Maria Lopez Joined Redfern Bank In 2004."],
     ["Maria Lopez Left Redfern Bank In 2004."]),
    ("stretches", "capitalised opener", ["Will chairs Redfern Bank. Maria Lopez will join Redfern Bank in May."],
     ["Will chairs Redfern Bank. Maria Lopez joined Redfern Bank in May."]),
    ("stretches", "capitalised opener (mark)", ["Mark runs Redfern Bank. Maria Lopez left her mark on Redfern Bank."],
     ["Mark runs Redfern Bank. Maria Lopez worked at Redfern Bank."]),
    ("stretches", "title between names", ["Redfern Bank President Maria Lopez spoke."],
     ["Redfern Bank client Maria Lopez spoke."]),
    ("stretches", "Dr. and Jr.", ["Dr. Maria Lopez Jr. chairs Redfern Bank."],
     ["Dr. Maria Lopez Jr. audits Redfern Bank."]),
    ("spans", "married vs wed", ["Maria Lopez married John Miller in 2010."], ["Maria Lopez wed John Miller in 2010."]),
    ("spans", "former premodifier", ["Maria Lopez, former CEO of Redfern Bank, spoke."],
     ["Maria Lopez, CEO of Redfern Bank, spoke."]),
    ("spans", "longtime premodifier", ["Maria Lopez, a longtime client of Redfern Bank, spoke."],
     ["Maria Lopez, a client of Redfern Bank, spoke."]),
    ("spans", "left her job at", ["Maria Lopez left her job at Redfern Bank."], ["Maria Lopez joined Redfern Bank."]),
    ("spans", "its stake in", ["Redfern Bank sold its stake in Tessellate Labs."],
     ["Redfern Bank sold Tessellate Labs."]),
    ("spans", "owns 40 percent of", ["Redfern Bank owns 40 percent of Tessellate Labs."],
     ["Redfern Bank owns Tessellate Labs."]),
    ("spans", "third coordinated verb", ["Maria Lopez founded, led and sold Redfern Bank."],
     ["Maria Lopez founded and sold Redfern Bank."]),
]  # fmt: skip


def release(texts: list[str], root: Path, mode: str) -> dict[str, bytes]:
    """Every public file of a release of ``texts`` at ε = 0, teaching seed 7, in slot mode ``mode``."""
    source = root / "in"
    source.mkdir(parents=True)
    for number, text in enumerate(texts):
        (source / f"doc{number}.txt").write_text(text + "\n", encoding="utf-8")
    argv = ["sanitize", "in", "--out", "out", "--epsilon", "0", "--seed", "7", "--quiet", "--slots", mode]
    with contextlib.chdir(root), contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        if cli.main(argv) != 0:
            raise SystemExit(f"release failed: {texts!r}")
    out = root / "out"
    return {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def differing(a: list[str], b: list[str], mode: str) -> list[str]:
    """The public files that differ between the releases of ``a`` and ``b`` (empty: the pair is identical)."""
    with tempfile.TemporaryDirectory() as tmp:
        first, second = release(a, Path(tmp) / "a", mode), release(b, Path(tmp) / "b", mode)
    return sorted(name for name in set(first) | set(second) if first.get(name) != second.get(name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=["review", "issue38", "both"], default="both")
    parser.add_argument("--slots", choices=["spans", "stretches", "both"], default="both")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every differing pair")
    args = parser.parse_args()
    modes = ["spans", "stretches"] if args.slots == "both" else [args.slots]
    for mode in modes:
        if args.set in ("review", "both"):
            bad = [(kind, a) for kind, a, b in REVIEW if differing(a, b, mode)]
            print(f"review pairs  {mode:9}  {len(REVIEW) - len(bad)}/{len(REVIEW)} identical")
            for kind, a in bad if args.verbose else []:
                print(f"    differs: {kind}: {a[0]!r}")
        if args.set in ("issue38", "both"):
            rows = [(kind, a, b) for about, kind, a, b in ISSUE_38 if about == mode]
            bad = [(kind, a, differing(a, b, mode)) for kind, a, b in rows]
            bad = [row for row in bad if row[2]]
            print(f"issue 38 pairs {mode:9}  {len(rows) - len(bad)}/{len(rows)} identical")
            for kind, a, files in bad if args.verbose else []:
                print(f"    differs: {kind}: {a[0]!r} ({', '.join(files)})")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
