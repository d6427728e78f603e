"""What the relation finders read of a parsed document, as a protocol.

:class:`~relguard.extract.spacy.document.DocumentState` runs the finders (:mod:`.patterns`, :mod:`.spans`,
:mod:`.juxtaposed`) and is what they are handed; typing them against this protocol instead of that class keeps
the imports one way, from the document down to its finders.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from spacy.tokens import Doc


class ParsedDocument(Protocol):
    """A parse with its entity mentions: ``mentions[m]`` is [start token, end token, sentence, entity],
    ``ment_of[t]`` the mention token t is in (-1: none), ``cum[t]`` how many tokens before t are in a mention."""

    doc: Doc
    ment_of: list[int]
    mentions: list[list]
    entity_types: list[str]
    cum: list[int]

    def mention_type(self, mention: int) -> str: ...
