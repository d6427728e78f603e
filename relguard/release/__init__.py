"""What leaves the building: the public report, its Markdown, the config, the leak scan and the confidential mapping."""

from relguard.release.confidential import MAPPING_FILE, confidential_bytes, confidential_counts, confidential_document
from relguard.release.config import CONFIG_FILE, RunConfig, RunOptions, config_toml, read_config
from relguard.release.markdown import render_markdown
from relguard.release.report import ReleaseSummary, build_report

__all__ = [
    "CONFIG_FILE",
    "MAPPING_FILE",
    "ReleaseSummary",
    "RunConfig",
    "RunOptions",
    "build_report",
    "confidential_bytes",
    "confidential_counts",
    "confidential_document",
    "config_toml",
    "read_config",
    "render_markdown",
]
