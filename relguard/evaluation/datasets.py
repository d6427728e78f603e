"""The public evaluation datasets, read in their original formats.

* HotpotQA (HippoRAG's 100-question train sample): every distinct context
  paragraph is a document; supporting facts are (title, sentence) pairs.
* 2WikiMultiHopQA (PruneRAG's 500 questions): every distinct gold passage is a
  document (title line dropped, the title is the document name); all of a
  question's gold passages support it; answers come with aliases.
* Re-DocRED dev: every document is its tokens joined back into text; gold
  triples come from ``labels`` with Wikidata property names and the entity
  mentions of ``vertexSet`` as aliases.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from relguard.errors import InputError
from relguard.evaluation.metrics import Fact
from relguard.io import read_documents
from relguard.types import Document

HOTPOTQA = "hotpotqa_train_hipporag.json"
TWOWIKI = "2wiki_prunerag.json"
REDOCRED = "redocred_dev_revised.json"
REL_INFO = "docred_rel_info.json"

#: Re-DocRED entity types → the OntoNotes types RelGuard's templates know (LOC covers GPE and LOC).
REDOCRED_TYPES = {"PER": "PERSON", "ORG": "ORG", "LOC": "GPE", "MISC": "MISC", "TIME": "DATE", "NUM": "CARDINAL"}
#: Gold relations between named entities; TIME and NUM values are not entities in the paper's inventory.
NAMED_TYPES = frozenset({"PER", "ORG", "LOC", "MISC"})


@dataclass(frozen=True)
class Support:
    """A supporting span of a question: characters ``start:end`` of document ``document``."""

    document: str
    start: int
    end: int


@dataclass(frozen=True)
class Question:
    id: str
    question: str
    answers: tuple[str, ...]
    supports: tuple[Support, ...]

    @property
    def passages(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(s.document for s in self.supports))


@dataclass(frozen=True)
class EvalDataset:
    """Documents plus what each dataset offers: questions (utility) and/or gold facts (truth mode b).

    ``evidence`` are the sentences (character ranges) that state a gold relation between named entities and name
    both of its entities: what a release must not leave word for word (:mod:`relguard.evaluation.gold`).
    """

    name: str
    documents: tuple[Document, ...]
    questions: tuple[Question, ...] = ()
    gold: tuple[tuple[str, Fact], ...] = ()
    aliases: dict[str, str] = field(default_factory=dict)
    note: str = ""
    evidence: tuple[Support, ...] = ()


def default_data_dir() -> Path | None:
    """``$RELGUARD_DATA_DIR``, else ``../shared/data`` next to the checkout, when it exists."""
    if os.environ.get("RELGUARD_DATA_DIR"):
        return Path(os.environ["RELGUARD_DATA_DIR"])
    for base in (Path.cwd(), Path(__file__).resolve().parents[2]):
        candidate = base.parent / "shared" / "data"
        if candidate.is_dir():
            return candidate
    return None


def _read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise InputError(f"{path}: dataset file not found; pass --data-dir with the folder that holds it") from exc
    except ValueError as exc:
        raise InputError(f"{path}: not valid JSON ({exc})") from exc


def load_hotpotqa(data_dir: Path, *, limit: int | None = None) -> EvalDataset:
    """The first ``limit`` questions and the distinct paragraphs of their contexts."""
    records = _read_json(Path(data_dir) / HOTPOTQA)[:limit]
    documents: dict[str, Document] = {}
    spans: dict[str, list[tuple[int, int]]] = {}
    questions = []
    for record in records:
        for title, sentences in record["context"]:
            if title in documents:
                continue
            parts, ranges, cursor = [], [], 0
            for sentence in sentences:
                sentence = sentence.strip()
                if parts:
                    cursor += 1
                ranges.append((cursor, cursor + len(sentence)))
                parts.append(sentence)
                cursor += len(sentence)
            documents[title] = Document(name=title, text=" ".join(parts))
            spans[title] = ranges
        supports = tuple(
            Support(title, *spans[title][index])
            for title, index in record["supporting_facts"]
            if title in spans and index < len(spans[title])
        )
        questions.append(Question(str(record["_id"]), record["question"], (record["answer"],), supports))
    note = f"{len(records)} questions, {len(documents)} paragraphs"
    return EvalDataset("hotpotqa", tuple(documents.values()), tuple(questions), note=note)


def load_2wiki(data_dir: Path, *, limit: int | None = None) -> EvalDataset:
    """The first ``limit`` questions and their distinct gold passages."""
    records = _read_json(Path(data_dir) / TWOWIKI)[:limit]
    documents: dict[str, Document] = {}
    questions = []
    for record in records:
        supports = []
        for passage in record["golden_context"]:
            title, _, body = passage.partition("\n")
            title, body = title.strip(), body.strip()
            if title not in documents:
                documents[title] = Document(name=title, text=body)
            supports.append(Support(title, 0, len(documents[title].text)))
        answers = tuple(a for a in record["answer"] if isinstance(a, str))
        questions.append(Question(str(record["id"]), record["Question"], answers, tuple(supports)))
    note = f"{len(records)} questions, {len(documents)} gold passages"
    return EvalDataset("2wiki", tuple(documents.values()), tuple(questions), note=note)


_NO_SPACE_BEFORE = re.compile(r" ([,.;:!?%)\]}]|'s\b|n't\b|'re\b|'ve\b|'ll\b|'d\b)")
_NO_SPACE_AFTER = re.compile(r"([(\[{$]) ")


def detokenize(tokens: list[str]) -> str:
    """Join DocRED tokens into readable text (spaces before punctuation and clitics removed)."""
    text = " ".join(tokens)
    text = _NO_SPACE_BEFORE.sub(r"\1", text)
    return _NO_SPACE_AFTER.sub(r"\1", text)


def gold_phrase(name: str) -> str:
    """A Wikidata property name as a relation phrase for the typed template ("employer" → "has_employer")."""
    words = name.replace(",", " ").split()
    verbal = words[-1] in {"of", "by", "in", "at", "to", "with", "from", "on"} or words[0] in {
        "has",
        "follows",
        "replaces",
        "contains",
        "applies",
        "influenced",
        "separated",
        "located",
        "owned",
        "founded",
        "dissolved",
        "lyrics",
    }
    return "_".join(words if verbal else ["has", *words]).lower()


def load_redocred(data_dir: Path, *, limit: int | None = None) -> EvalDataset:
    """The first ``limit`` Re-DocRED dev documents with their gold triples between named entities."""
    data_dir = Path(data_dir)
    records = _read_json(data_dir / REDOCRED)[:limit]
    names = _read_json(data_dir / REL_INFO)
    documents, gold, aliases, evidence = [], [], {}, {}
    for number, record in enumerate(records):
        name = f"{number:03d} {record['title']}"
        sentences = [detokenize(s) for s in record["sents"]]
        text = " ".join(sentences)
        documents.append(Document(name=name, text=text))
        starts = [0]
        for sentence in sentences:
            starts.append(starts[-1] + len(sentence) + 1)
        canonical = []
        for mentions in record["vertexSet"]:
            main = max((m["name"] for m in mentions), key=len)
            canonical.append((main, mentions[0]["type"]))
            for mention in mentions:
                aliases.setdefault(mention["name"], main)
        for label in record["labels"]:
            (head, head_type), (tail, tail_type) = canonical[label["h"]], canonical[label["t"]]
            if head_type not in NAMED_TYPES or tail_type not in NAMED_TYPES or head == tail:
                continue
            predicate = gold_phrase(names.get(label["r"], label["r"]))
            pair = (REDOCRED_TYPES[head_type], REDOCRED_TYPES[tail_type])
            gold.append((name, Fact(head, predicate, tail, pair)))
            named = {m["sent_id"] for m in record["vertexSet"][label["h"]]}
            named &= {m["sent_id"] for m in record["vertexSet"][label["t"]]}
            for index in sorted(named & set(label.get("evidence") or ())):
                span = Support(name, starts[index], starts[index] + len(sentences[index]))
                evidence.setdefault(span, None)
    note = f"{len(records)} documents, {len(gold)} gold relations between named entities"
    return EvalDataset(
        "redocred", tuple(documents), gold=tuple(gold), aliases=aliases, note=note, evidence=tuple(evidence)
    )


LOADERS = {"hotpotqa": load_hotpotqa, "2wiki": load_2wiki, "redocred": load_redocred}


def write_jsonl(dataset: EvalDataset, path: str | Path) -> Path:
    """The dataset's documents as a ``.jsonl`` corpus (``id`` and ``text`` per line), as a user would feed the CLI."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps({"id": d.name, "text": d.text}, ensure_ascii=False) for d in dataset.documents]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def load_dataset(name: str, *, data_dir: Path | None = None, limit: int | None = None) -> EvalDataset:
    """A named dataset from ``data_dir`` (default ``../shared/data``), or a user corpus at path ``name``."""
    if name in LOADERS:
        folder = data_dir or default_data_dir()
        if folder is None:
            raise InputError(f"dataset {name!r} needs --data-dir (the folder holding {HOTPOTQA} and friends)")
        return LOADERS[name](Path(folder), limit=limit)
    path = Path(name)
    if not path.exists():
        raise InputError(f"--dataset {name!r} is neither one of {', '.join(LOADERS)} nor an existing file or folder")

    documents, _ = read_documents([str(path)])
    documents = documents[:limit] if limit else documents
    return EvalDataset(path.name, tuple(documents), note=f"{len(documents)} documents from {path}")
