"""``relguard audit``: re-derive a release's guarantee from the release itself, as a pass/fail table."""

from relguard.verify.audit import (
    audit_extraction,
    audit_prepared,
    audit_release,
    audit_report,
    audit_with_backends,
    encoder_for,
    public_audit,
    run_audit,
    with_audit,
)
from relguard.verify.bound import TOLERANCE, audit_groups, audit_pool, audit_pools, near_duplicates
from relguard.verify.pools import generator_takes_only_type_pair_and_k, regenerated_pool_hash
from relguard.verify.public import grouping_is_public, public_file_problems, read_release_files
from relguard.verify.report_file import pools_from_report, read_report, record_in_release
from relguard.verify.result import Check, SelfAudit, render_table
from relguard.verify.sampler import (
    chi2_test,
    draws_for_power,
    family_power,
    most_separating,
    power_against_missing_halving,
    sampler_conformance,
    separation,
)
from relguard.verify.settings import AuditBackends, AuditInputs, AuditOptions, AuditSettings

__all__ = [
    "TOLERANCE",
    "AuditBackends",
    "AuditInputs",
    "AuditOptions",
    "AuditSettings",
    "Check",
    "SelfAudit",
    "audit_extraction",
    "audit_groups",
    "audit_pool",
    "audit_pools",
    "audit_prepared",
    "audit_release",
    "audit_report",
    "audit_with_backends",
    "chi2_test",
    "draws_for_power",
    "encoder_for",
    "family_power",
    "generator_takes_only_type_pair_and_k",
    "grouping_is_public",
    "most_separating",
    "near_duplicates",
    "pools_from_report",
    "power_against_missing_halving",
    "public_audit",
    "public_file_problems",
    "read_release_files",
    "read_report",
    "record_in_release",
    "regenerated_pool_hash",
    "render_table",
    "run_audit",
    "sampler_conformance",
    "separation",
    "with_audit",
]
