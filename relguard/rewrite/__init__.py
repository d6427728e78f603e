"""Step 4, rewriting: mask the relation spans, then delete or fill from the outcomes alone."""

from relguard.rewrite.fill import Sampled, fill, removed_ranges
from relguard.rewrite.mask import MaskedDocument, Slot, mask
from relguard.rewrite.sentences import Rewritten, rewritten_sentences
from relguard.rewrite.verbalize import FormVerbalizer, default_forms

__all__ = [
    "FormVerbalizer",
    "MaskedDocument",
    "Rewritten",
    "Sampled",
    "Slot",
    "default_forms",
    "fill",
    "mask",
    "removed_ranges",
    "rewritten_sentences",
]
