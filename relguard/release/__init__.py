"""What leaves the building: the public report, the leak scan, the bundle, and the confidential mapping."""

from relguard.release.bundle import config_toml, public_files, release_zip, write_release
from relguard.release.confidential import MAPPING_FILE, build_confidential, confidential_bytes
from relguard.release.markdown import render_markdown
from relguard.release.report import build_report, release_counts

__all__ = [
    "MAPPING_FILE",
    "build_confidential",
    "build_report",
    "confidential_bytes",
    "config_toml",
    "public_files",
    "release_counts",
    "release_zip",
    "render_markdown",
    "write_release",
]
