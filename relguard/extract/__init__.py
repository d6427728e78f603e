"""Extractor backends: documents in, sentences, canonical entities and triples with exact spans out.

Backends are imported by name through :mod:`relguard.registry`, so importing
this package does not load spaCy or any model.
"""
