"""Input and output: one reader for every format (CLI and app alike), atomic writes, digests."""

from relguard.io.digest import canonical_sha256, sha256_bytes, sha256_file
from relguard.io.formats import UPLOAD_SUFFIXES, documents_from_upload, load_uploads
from relguard.io.read import SUPPORTED_SUFFIXES, read_documents
from relguard.io.text import decode_text, documents_from_bytes
from relguard.io.write import atomic_write, safe_output_path
from relguard.settings import DEFAULT_MAX_BYTES

__all__ = [
    "DEFAULT_MAX_BYTES",
    "SUPPORTED_SUFFIXES",
    "UPLOAD_SUFFIXES",
    "atomic_write",
    "canonical_sha256",
    "decode_text",
    "documents_from_bytes",
    "documents_from_upload",
    "load_uploads",
    "read_documents",
    "safe_output_path",
    "sha256_bytes",
    "sha256_file",
]
