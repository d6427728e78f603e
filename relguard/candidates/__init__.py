"""Candidate-pool backends: each builds exactly K public predicates from an ordered type pair alone."""
