"""Recovering a relation's wording from the public files at ε = 0: targeted sentences, ten wordings each.

Each of :data:`SENTENCES` (HR memos, news, biographies) names two entities with one relation between them, worded
ten ways (:data:`WORDINGS`: title-case and abbreviated roles, brackets, quotes, memo punctuation, synonyms,
pronouns and numbers inside the relation). Every wording is released alone, in a one-document corpus with the
sentence's fixed context, at ε = 0 with teaching seed 7, through the CLI. An attacker who sees every public file
(documents, report.json, report.md, config.toml, slots.jsonl) and knows the ten candidate wordings guesses
uniformly among those whose release matches the one observed; averaged over the ten, the chance of naming the
right one is (distinct public outputs) / 10. Chance is 0.10; 1.0 means the public files name the wording::

    PYTHONPATH=$PWD .venv/bin/python bench/recovery.py                    # both slot modes, 20 sentences
    PYTHONPATH=$PWD .venv/bin/python bench/recovery.py --slots stretches -v
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from neighbour_pairs import release

#: Ten wordings of one relation per family, each written between the two names ("{a}{wording} {b}").
WORDINGS = {
    "employment": [
        " joined",
        " is Vice President of",
        " was named Sr. Vice President of",
        ", Managing Director at",
        ", Co-Founder of",
        ", Mgr. Operations,",
        ', "Head of Risk" at',
        " left her job at",
        ", a longtime client of",
        " (CEO) of",
    ],
    "family": [
        " married",
        " wed",
        " divorced",
        " is the sister of",
        " is engaged to",
        ", the widow of",
        " secretly married",
        " lives with",
        " (Cousin) of",
        " dated",
    ],
    "ownership": [
        " acquired",
        " sold its stake in",
        " owns 40 percent of",
        " merged with",
        " is a subsidiary of",
        " invested in",
        " sued",
        " partnered with",
        " (Parent Company) of",
        " competes with",
    ],
}

#: (family, text before, first name, second name, text after the second name, context sentence).
SENTENCES = [
    ("employment", "Effective May 1, ", "Maria Lopez", "Redfern Bank", ".", "The board approved the change."),
    ("employment", "", "Omar Haddad", "Tessellate Labs", " in March.", "Staff were told on Monday."),
    ("employment", "Memo: ", "Lena Brandt", "Quillon Press", ".", "Questions go to the HR desk."),
    ("employment", "", "Kenji Arai", "Corvid Media", " since 2019.", "His office is on the fourth floor."),
    ("employment", "As announced, ", "Ngozi Eze", "Pellucid Analytics", ".", "A reception follows at noon."),
    ("employment", "", "Tomasz Wrona", "Harbor Street Clinic", " and reports to the board.", "The post was open."),
    ("employment", "", "Priyanka Das", "Atlas Shipping", ", the company said.", "Shares rose slightly."),
    ("employment", "Since 2015, ", "Ana Ruiz", "Quantix Labs", ".", "She studied in Madrid."),
    ("family", "", "Maria Lopez", "John Miller", " in 2010.", "They live in Boston."),
    ("family", "In Vienna, ", "Lena Brandt", "Paul Okafor", ".", "The ceremony was small."),
    ("family", "", "Sofia Jansen", "Pieter de Vries", ", friends said.", "Both grew up in Utrecht."),
    ("family", "", "Elena Novak", "Lukas Gruber", " after the war.", "The letters survive."),
    ("family", "According to the biography, ", "Anna Berg", "John Smith", ".", "The book appeared in 1999."),
    ("family", "", "Priya Raman", "Tom Baker", " for many years.", "Neither spoke to the press."),
    ("ownership", "", "Redfern Bank", "Tessellate Labs", " last year.", "The deal was reported in May."),
    ("ownership", "On Monday, ", "Globex Corporation", "Initech Systems", ".", "Analysts expected the move."),
    ("ownership", "", "Atlas Shipping", "Maersk Logistics", ", filings show.", "Both firms declined to comment."),
    ("ownership", "", "Corvid Media", "Quillon Press", " in 2021.", "Regulators have not objected."),
    ("ownership", "Reportedly, ", "Quantix Labs", "Pellucid Analytics", ".", "The talks lasted a year."),
    ("ownership", "", "Harbor Street Clinic", "Boston Health Trust", " this spring.", "Patients were informed."),
]


def sentence_text(row: tuple[str, str, str, str, str, str], wording: str) -> str:
    _, before, a, b, after, context = row
    return f"{before}{a}{wording} {b}{after} {context}"


def public_digest(texts: list[str], mode: str) -> str:
    """One digest of every public file of the release of ``texts``."""
    with tempfile.TemporaryDirectory() as tmp:
        files = release(texts, Path(tmp), mode)
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    return digest.hexdigest()


def recovery(mode: str, rows: list, *, verbose: bool = False) -> float:
    """The mean over ``rows`` of (distinct public outputs among the ten wordings) / 10."""
    shares = []
    for row in rows:
        wordings = WORDINGS[row[0]]
        outputs = [public_digest([sentence_text(row, w)], mode) for w in wordings]
        share = len(set(outputs)) / len(wordings)
        shares.append(share)
        if verbose and share > 0.1:
            groups: dict[str, list[str]] = {}
            for wording, output in zip(wordings, outputs, strict=True):
                groups.setdefault(output, []).append(wording.strip())
            print(f"    {share:.2f}  {row[2]} … {row[3]}: {sorted(groups.values(), key=len, reverse=True)}")
    return sum(shares) / len(shares)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slots", choices=["spans", "stretches", "both"], default="both")
    parser.add_argument("--sentences", type=int, default=len(SENTENCES), help="first N sentences (default 20)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print the wordings each output groups")
    args = parser.parse_args()
    rows = SENTENCES[: args.sentences]
    for mode in ["spans", "stretches"] if args.slots == "both" else [args.slots]:
        value = recovery(mode, rows, verbose=args.verbose)
        print(f"recovery {mode:9}  {value:.3f}  ({len(rows)} sentences x 10 wordings; chance 0.100)")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
