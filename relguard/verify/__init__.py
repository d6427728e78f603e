"""``relguard audit``: re-derive a release's guarantee from the release itself, as a pass/fail table."""

from relguard.verify.audit import (
    audit_extraction,
    audit_prepared,
    audit_release,
    audit_report,
    audit_with_backends,
    public_audit,
    read_report,
    record_in_release,
    run_audit,
    with_audit,
)
from relguard.verify.bound import TOLERANCE, audit_groups, audit_pool, audit_pools, near_duplicates
from relguard.verify.pools import generator_takes_only_type_pair_and_k, regenerated_pool_hash
from relguard.verify.public import grouping_is_public, public_file_problems, read_release_files
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

__all__ = [
    "TOLERANCE",
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
    "family_power",
    "generator_takes_only_type_pair_and_k",
    "grouping_is_public",
    "most_separating",
    "near_duplicates",
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
