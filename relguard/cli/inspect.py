"""``relguard inspect``: what RelGuard extracts from documents and how it would perturb each relation group."""

from __future__ import annotations

import argparse

from relguard.cli.common import INPUTS_HELP, add_settings_flags, backends_of, settings_of
from relguard.io import read_documents
from relguard.pipeline import prepare


def add_parser(commands: argparse._SubParsersAction) -> None:
    look = commands.add_parser(
        "inspect",
        help="show triples, types, pools and probability tables of documents",
        description="Print what RelGuard extracts from documents and how it would perturb each relation group.",
    )
    look.add_argument("inputs", nargs="+", metavar="INPUT", help=INPUTS_HELP)
    add_settings_flags(look)
    look.set_defaults(handler=run_inspect)


def run_inspect(args: argparse.Namespace) -> int:
    settings = settings_of(args)
    privacy = settings.privacy
    documents, _ = read_documents(
        args.inputs, max_bytes=settings.inputs.max_bytes, text_field=settings.inputs.text_field
    )
    prepared = prepare(documents, k=privacy.k, backends=backends_of(settings))
    epsilons = prepared.group_epsilons(epsilon=privacy.epsilon, entity_epsilon=privacy.entity_epsilon)
    probabilities = prepared.probabilities(epsilon=epsilons, lam=privacy.lam)
    print(f"{len(documents)} documents, {len(prepared.triples)} canonical triples in {len(prepared.groups)} groups")
    budget = (
        f"E={privacy.entity_epsilon:g} per entity" if privacy.entity_epsilon is not None else f"ε={privacy.epsilon:g}"
    )
    print(f"{budget} λ={privacy.lam:g} K={privacy.k}; encoder {prepared.encoder_id}")
    for index, group in enumerate(prepared.groups):
        pool = prepared.pool_for(group)
        print()
        print(f"[{index}] {group.subject} [{group.subject_type}] -> {group.object} [{group.object_type}]")
        for triple in group.triples:
            print(f"    {triple.predicate}")
            for occ in triple.occurrences:
                print(f"      in {occ.document} sentence {occ.sentence}: {occ.text!r} at {occ.start}-{occ.end}")
        print(
            f"    pool {group.subject_type}->{group.object_type} ({pool.source}), drawn at ε_g={epsilons[index]:.4g}:"
        )
        row = probabilities[index]
        for j, predicate in enumerate(pool.predicates):
            print(f"      {predicate:<32} d_R={prepared.distances[index, j]:.3f}  P={row[j]:.4f}")
        print(f"      {'(null: delete)':<32} d={privacy.lam:<9g}  P={row[-1]:.4f}")
    return 0
