"""Shared loaders for the benchmark scripts: the public datasets in ../shared/data, read in place."""

from __future__ import annotations

import json
from pathlib import Path

from relguard.types import Document

DATA_DIR = Path(__file__).resolve().parents[2] / "shared" / "data"


def hotpotqa_paragraphs(data_dir: Path = DATA_DIR) -> list[Document]:
    """The 994 distinct HotpotQA context paragraphs (title → sentences joined by spaces)."""
    questions = json.loads((data_dir / "hotpotqa_train_hipporag.json").read_text())
    seen: dict[str, Document] = {}
    for question in questions:
        for title, sentences in question["context"]:
            if title not in seen:
                seen[title] = Document(
                    name=f"{title}.txt", text=" ".join(s.strip() for s in sentences), source=f"{title}.txt"
                )
    return list(seen.values())
