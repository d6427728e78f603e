"""The inventory's embeddings are computed once (DESIGN "Offline default stack"), and only they are kept on disk.

Each fresh encoder below stands for a new process: its in-memory cache is empty, so whatever it does not compute
came from the disk. The small inventories are real inventory files (every type pair, the first predicates of the
bundled one) so that a test computes a few hundred sentences, not the whole inventory.
"""

from __future__ import annotations

import json

import numpy as np

from relguard.candidates.embeddings import inventory_texts, warm_public_embeddings
from relguard.candidates.inventory import InventoryCandidates
from relguard.embed import INT8_MODEL, OnnxEncoder, SentenceTransformerEncoder, load_encoder, predicate_text
from relguard.embed.store import store_path
from relguard.pipeline import prepare
from relguard.types import Document


def small_inventory(folder, *, per_pair: int = 2, extra: str | None = None) -> InventoryCandidates:
    """The first ``per_pair`` predicates of every bundled pair (plus ``extra`` under PERSON→ORG), as a pool file."""
    pairs = {key: list(predicates[:per_pair]) for key, predicates in InventoryCandidates().pairs().items()}
    if extra:
        pairs["PERSON|ORG"].append(extra)
    path = folder / f"inventory-{per_pair}-{extra}.json"
    path.write_text(json.dumps({"pairs": pairs}), encoding="utf-8")
    return InventoryCandidates(path)


def test_a_second_process_computes_no_inventory_embedding(tmp_path):
    inventory = small_inventory(tmp_path)
    texts = sorted(set(inventory_texts(inventory)))
    first = OnnxEncoder()
    assert warm_public_embeddings(inventory, first, folder=tmp_path) == len(texts) == first.encoded
    assert warm_public_embeddings(inventory, first, folder=tmp_path) == 0  # same process: nothing to read either
    second = OnnxEncoder()
    assert warm_public_embeddings(inventory, second, folder=tmp_path) == 0
    assert np.array_equal(second.embed_texts(texts), first.embed_texts(texts))  # the bits a computation gives
    assert second.encoded == 0
    pair = ("PERSON", "ORG")
    second.distances(["quietly_co_designed"], list(inventory.generate(pair, 2).predicates), pair)
    assert second.encoded == 1  # only the original relation's sentence


def test_the_cache_is_made_again_when_the_inventory_or_the_encoder_changes(tmp_path):
    inventory = small_inventory(tmp_path)
    count = len(set(inventory_texts(inventory)))
    assert warm_public_embeddings(inventory, OnnxEncoder(), folder=tmp_path) == count
    changed = small_inventory(tmp_path, extra="sued")
    assert changed.content_hash() != inventory.content_hash()
    assert warm_public_embeddings(changed, OnnxEncoder(), folder=tmp_path) == count + 1
    torch = SentenceTransformerEncoder()  # same model id, another runtime: its own bits, its own file
    assert warm_public_embeddings(inventory, torch, folder=tmp_path) == count
    int8 = OnnxEncoder(INT8_MODEL)  # another model id (another d_R)
    assert warm_public_embeddings(inventory, int8, folder=tmp_path) == count
    assert len(list(tmp_path.glob("*.npz"))) == 4
    assert warm_public_embeddings(inventory, OnnxEncoder(), folder=tmp_path) == 0  # the first file still serves


def test_a_corrupt_cache_file_is_computed_again(tmp_path):
    inventory = small_inventory(tmp_path, per_pair=1)
    encoder = OnnxEncoder()
    count = warm_public_embeddings(inventory, encoder, folder=tmp_path)
    path = store_path(encoder, content_hash=inventory.content_hash(), folder=tmp_path)
    path.write_bytes(path.read_bytes()[:100])
    assert warm_public_embeddings(inventory, OnnxEncoder(), folder=tmp_path) == count
    assert warm_public_embeddings(inventory, OnnxEncoder(), folder=tmp_path) == 0


def test_only_the_inventory_is_written_never_an_original_relation():
    """After a real release is prepared, the file holds exactly the inventory's sentences: no document's."""
    document = Document(name="a.txt", text="Ada Lovelace quietly co-designed the engine with Charles Babbage.\n")
    prepared = prepare([document], k=10)
    encoder, inventory = load_encoder(), InventoryCandidates()
    with np.load(store_path(encoder, content_hash=inventory.content_hash()), allow_pickle=False) as data:
        stored = {str(t) for t in data["texts"]}
    assert stored == set(inventory_texts(inventory))
    originals = {predicate_text(t.predicate, t.type_pair) for t in prepared.triples}
    assert originals and not originals & stored


def test_a_generator_without_an_inventory_is_left_alone(tmp_path):
    class Pools:
        name = "llm-like"

        def content_hash(self):
            return None

    assert warm_public_embeddings(Pools(), OnnxEncoder(), folder=tmp_path) == 0
    assert not list(tmp_path.iterdir())
