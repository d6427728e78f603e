"""Re-deriving a release's guarantee from the release itself: ``relguard audit``.

A privacy officer should not have to trust that the code that drew a release is
the code the paper proves private. For the pools, ε and λ actually used this
module checks three things and returns a pass/fail table:

1. **Exact bound.** For every pool, the exact log-probabilities of every input
   compared under it — the corpus's original relations, all public candidates,
   other public relations, and near-duplicates made by small perturbations of
   their embeddings — satisfy max_y |log P(y|r) − log P(y|r′)| ≤ ε·d_R(r, r′) + 1e-9
   for every ordered pair (DESIGN invariant 10).
2. **Sampler conformance.** The OpenDP sampler's draws for one row per pool
   match the exact probabilities under a χ² goodness-of-fit test at a stated
   family-wise α (Bonferroni over the pools), so a correct sampler fails with
   probability at most α and a sampler of another distribution is caught.
3. **Pools are public.** The generator's signature receives only a type pair
   and K; pools regenerated from the type pairs alone hash to the release's
   pool hash; and the same corpus with every relation rewritten to another
   predicate, re-extracted, gets the same pool for every type pair it shares.
4. **Groups keep the bound.** Every relation group of the corpus, with each of
   its relations replaced in turn by every other input, still satisfies the
   exact bound ε·d_R of the one relation that changed (the group utility
   −min_i d_R(r_i, c) is 1-Lipschitz in each r_i); and the grouping itself is
   keyed by public information only: rewriting every predicate leaves the
   groups, their order and their slots unchanged.
5. **Public files reveal only outcomes.** No digest of an input file, no count
   that needs the confidential mapping and no LLM usage in any public file.

What an audit *records in a public report* is computed from public inputs only
(:func:`public_audit`): the numbers of an audit over the corpus's original
relations are themselves functions of those relations, so they go to the
confidential file and the terminal.

The mechanism and sampler under audit are parameters, so a test can hand in a
broken variant (the exponent without its ``/2``) and see the audit fail.
"""

from __future__ import annotations

import inspect
import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from relguard.audit import TOLERANCE, near_duplicates
from relguard.embed import pairwise_distances
from relguard.errors import InputError
from relguard.mechanism import check_epsilon, check_lam, log_probabilities, sample_outcomes
from relguard.types import CandidatePool, TypePair

CHI2_ALPHA = 1e-3
CHI2_DRAWS = 2000
MIN_EXPECTED = 5.0
NEAR_DUPLICATE_SCALES = (1e-4, 1e-3, 1e-2, 5e-2)
MAX_NEAR_DUPLICATE_SEEDS = 60
BLOCK = 256

LogProbabilities = Callable[..., np.ndarray]
Sampler = Callable[..., np.ndarray]


@dataclass(frozen=True)
class PoolAudit:
    """The exact-bound result for one pool: the worst pair, its bound and how tight the bound is there."""

    type_pair: TypePair
    inputs: int
    originals: int
    pairs: int
    worst_log_ratio: float
    bound_at_worst: float
    worst_excess: float
    tightness: float

    @property
    def passed(self) -> bool:
        return self.worst_excess <= TOLERANCE


@dataclass(frozen=True)
class Chi2Result:
    """One χ² goodness-of-fit test of the sampler against the exact distribution of one row."""

    type_pair: TypePair
    draws: int
    cells: int
    statistic: float
    p_value: float
    alpha: float

    @property
    def passed(self) -> bool:
        return self.p_value >= self.alpha


@dataclass(frozen=True)
class Check:
    """One line of the pass/fail table."""

    name: str
    passed: bool | None
    detail: str


@dataclass(frozen=True)
class SelfAudit:
    """The full audit of one release setting; ``passed`` is False if any check failed."""

    epsilon: float
    lam: float
    k: int
    checks: tuple[Check, ...]
    pools: tuple[PoolAudit, ...] = ()
    chi2: tuple[Chi2Result, ...] = ()
    notes: tuple[str, ...] = field(default=())

    @property
    def passed(self) -> bool:
        return all(c.passed is not False for c in self.checks)

    def to_dict(self) -> dict:
        """JSON-ready and public: holds pools' type pairs and numbers, never an original relation."""
        return {
            "passed": self.passed,
            "epsilon": self.epsilon,
            "lambda": self.lam,
            "k": self.k,
            "tolerance": TOLERANCE,
            "checks": [asdict(c) for c in self.checks],
            "pools": [{**asdict(p), "type_pair": "|".join(p.type_pair), "passed": p.passed} for p in self.pools],
            "chi2": [{**asdict(c), "type_pair": "|".join(c.type_pair), "passed": c.passed} for c in self.chi2],
            "notes": list(self.notes),
        }

    def table(self) -> str:
        return render_table(self.to_dict())


def render_table(audit: Mapping[str, Any]) -> str:
    """The pass/fail table as plain text (also used by the report and ``relguard audit``)."""
    rows = [("check", "result", "detail")]
    for check in audit["checks"]:
        verdict = {True: "PASS", False: "FAIL", None: "skipped"}[check["passed"]]
        rows.append((check["name"], verdict, check["detail"]))
    width = [max(len(r[i]) for r in rows) for i in range(2)]
    lines = [f"{r[0]:<{width[0]}}  {r[1]:<{width[1]}}  {r[2]}" for r in rows]
    lines.insert(1, "-" * (width[0] + width[1] + 4 + max(len(r[2]) for r in rows)))
    lines.append(f"overall: {'PASS' if audit['passed'] else 'FAIL'} (ε={audit['epsilon']:g}, λ={audit['lambda']:g})")
    return "\n".join(lines)


def exact_bound(
    candidates: np.ndarray,
    inputs: np.ndarray,
    *,
    epsilon: float,
    lam: float,
    probabilities: LogProbabilities = log_probabilities,
) -> tuple[float, float, float, float]:
    """(worst ratio, its bound, worst excess, max ratio/bound) over every ordered pair of ``inputs``.

    Blocked over rows so that thousands of inputs fit in memory.
    """
    log_p = probabilities(pairwise_distances(inputs, candidates), epsilon=epsilon, lam=lam)
    best = (-np.inf, 0.0, 0.0)
    tight = 0.0
    if len(inputs) < 2:
        return 0.0, 0.0, 0.0, 0.0
    for start in range(0, len(inputs), BLOCK):
        block = log_p[start : start + BLOCK]
        ratio = np.max(np.abs(block[:, None, :] - log_p[None, :, :]), axis=2)
        bound = epsilon * pairwise_distances(inputs[start : start + BLOCK], inputs)
        excess = ratio - bound
        rows = np.arange(len(block))
        excess[rows, start + rows] = -np.inf
        identical = (bound <= 1e-12) & (ratio <= TOLERANCE)
        excess[identical] = -np.inf
        i, j = np.unravel_index(np.argmax(excess), excess.shape)
        if excess[i, j] > best[0]:
            best = (float(excess[i, j]), float(ratio[i, j]), float(bound[i, j]))
        meaningful = bound > 1e-6
        if np.any(meaningful):
            tight = max(tight, float(np.max(ratio[meaningful] / bound[meaningful])))
    if best[0] == -np.inf:
        return 0.0, 0.0, 0.0, tight
    return best[1], best[2], best[0], tight


def audit_pools(
    pools: Sequence[CandidatePool],
    originals: Mapping[TypePair, Sequence[str]],
    encoder: Any,
    *,
    epsilon: float,
    lam: float,
    probabilities: LogProbabilities = log_probabilities,
    seed: int = 0,
) -> tuple[PoolAudit, ...]:
    """Check 1 for every pool: originals, candidates, other public relations and near-duplicates of them."""
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    public = sorted({p for pool in pools for p in pool.predicates})
    results = []
    for number, pool in enumerate(pools):
        pair = pool.type_pair
        own = list(dict.fromkeys(originals.get(pair, ())))
        others = [p for p in public if p not in pool.predicates and p not in own]
        z_candidates = encoder.embed_predicates(pool.predicates, pair)
        z_own = encoder.embed_predicates(own, pair) if own else np.zeros((0, z_candidates.shape[1]))
        z_others = encoder.embed_predicates(others, pair) if others else np.zeros((0, z_candidates.shape[1]))
        seeds = np.concatenate([z_candidates, z_own[:MAX_NEAR_DUPLICATE_SEEDS]])
        near = near_duplicates(seeds, scales=NEAR_DUPLICATE_SCALES, seed=seed + number)
        inputs = np.concatenate([z_candidates, z_own, z_others, near])
        ratio, bound, excess, tight = exact_bound(
            z_candidates, inputs, epsilon=epsilon, lam=lam, probabilities=probabilities
        )
        n = len(inputs)
        results.append(PoolAudit(pair, n, len(own), n * (n - 1), ratio, bound, excess, tight))
    return tuple(results)


def chi2_sf(statistic: float, df: int) -> float:
    """P[χ²_df ≥ statistic]: the regularized upper incomplete gamma Q(df/2, statistic/2) (no scipy needed)."""
    a, x = df / 2.0, statistic / 2.0
    if x <= 0:
        return 1.0
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    b = x + 1 - a
    c, d = 1e300, 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)


def chi2_test(
    row: np.ndarray,
    *,
    epsilon: float,
    lam: float,
    draws: int = CHI2_DRAWS,
    alpha: float = CHI2_ALPHA,
    sampler: Sampler = sample_outcomes,
    type_pair: TypePair = ("", ""),
) -> Chi2Result:
    """Draw ``draws`` outcomes for one distance row and test them against the exact probabilities.

    Cells with expected count below 5 are pooled into one, so the χ² approximation holds.
    """
    row = np.atleast_2d(np.asarray(row, dtype=np.float64))
    expected = np.exp(log_probabilities(row, epsilon=epsilon, lam=lam))[0] * draws
    observed = np.bincount(sampler(np.repeat(row, draws, axis=0), epsilon=epsilon, lam=lam), minlength=len(expected))
    big = expected >= MIN_EXPECTED
    exp_cells = list(expected[big])
    obs_cells = list(observed[big])
    if np.any(~big):
        exp_cells.append(expected[~big].sum())
        obs_cells.append(observed[~big].sum())
    e, o = np.array(exp_cells), np.array(obs_cells, dtype=np.float64)
    statistic = float(np.sum((o - e) ** 2 / np.maximum(e, 1e-300)))
    df = max(len(e) - 1, 1)
    return Chi2Result(type_pair, draws, len(e), statistic, chi2_sf(statistic, df), alpha)


def sampler_conformance(
    rows: Mapping[TypePair, np.ndarray],
    *,
    epsilon: float,
    lam: float,
    draws: int = CHI2_DRAWS,
    alpha: float = CHI2_ALPHA,
    sampler: Sampler = sample_outcomes,
) -> tuple[Chi2Result, ...]:
    """Check 2: one χ² test per pool at α/len(pools) each, so the family-wise false-alarm rate is ≤ α."""
    per_test = alpha / max(len(rows), 1)
    return tuple(
        chi2_test(row, epsilon=epsilon, lam=lam, draws=draws, alpha=per_test, sampler=sampler, type_pair=pair)
        for pair, row in sorted(rows.items())
    )


GroupDistances = Callable[[np.ndarray, Sequence[int], int], np.ndarray]


def audit_groups(
    groups: Sequence[Any],
    pools: Mapping[TypePair, CandidatePool],
    encoder: Any,
    *,
    epsilon: float,
    lam: float,
    combine: GroupDistances | None = None,
    probabilities: LogProbabilities = log_probabilities,
    seed: int = 0,
) -> tuple[int, int, float]:
    """Check 4: the exact bound for groups when one of their relations changes.

    For each group (its predicates r_1..r_n under its pool) and each member j, r_j is replaced by every
    other input of the pool — its candidates, the pool's other original relations and near-duplicates of
    r_j — and the group's probability row is recomputed through ``combine`` (the pipeline's
    :func:`~relguard.pipeline.group_distances`). Every replacement must satisfy
    max_y |log P(y|g) − log P(y|g′)| ≤ ε·d_R(r_j, r′_j) + 1e-9. Synthetic groups of two and three public
    relations per pool are checked too, so a pool with only single-relation groups is still covered.
    Returns (groups checked, replacements checked, worst excess).
    """
    from relguard.pipeline import group_distances

    combine = combine or group_distances
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    members: dict[TypePair, list[list[str]]] = {}
    for group in groups:
        members.setdefault(group.type_pair, []).append(list(group.predicates))
    checked = replaced = 0
    worst = -np.inf
    for number, (pair, pool) in enumerate(sorted(pools.items())):
        candidates = list(pool.predicates)
        lists = [*members.get(pair, []), candidates[:2], candidates[-3:]]
        originals = list(dict.fromkeys(p for group in members.get(pair, []) for p in group))
        z_c = encoder.embed_predicates(candidates, pair)
        for predicates in lists:
            z_g = encoder.embed_predicates(predicates, pair)
            rows = pairwise_distances(z_g, z_c)
            base = combine(rows, [0] * len(predicates), 1)
            log_base = probabilities(base, epsilon=epsilon, lam=lam)
            for j in range(len(predicates)):
                others = [p for p in candidates + originals if p != predicates[j]]
                z_new = encoder.embed_predicates(others, pair) if others else np.zeros((0, z_c.shape[1]))
                z_new = np.concatenate(
                    [z_new, near_duplicates(z_g[j : j + 1], scales=NEAR_DUPLICATE_SCALES, seed=seed + number)]
                )
                new_rows = pairwise_distances(z_new, z_c)
                stacked = np.repeat(rows[None], len(z_new), axis=0)
                stacked[:, j, :] = new_rows
                flat = stacked.reshape(-1, rows.shape[1])
                owners = np.repeat(np.arange(len(z_new)), len(predicates))
                changed = combine(flat, owners, len(z_new))
                ratio = np.max(np.abs(probabilities(changed, epsilon=epsilon, lam=lam) - log_base), axis=1)
                bound = epsilon * pairwise_distances(z_g[j : j + 1], z_new)[0]
                worst = max(worst, float(np.max(ratio - bound)))
                replaced += len(z_new)
            checked += 1
    return checked, replaced, (0.0 if worst == -np.inf else worst)


def grouping_is_public(
    extraction: Any, pools: Mapping[TypePair, CandidatePool], *, grouper: Callable[..., Any] | None = None
) -> tuple[bool, str]:
    """Check 4b: groups, their order and their slots do not depend on the predicates.

    Every triple's predicate is replaced by a pool predicate it does not have and the corpus is regrouped;
    the group keys, their order and each group's occurrence positions must come out identical. A key that
    held the predicate would split or merge groups here.
    """
    from relguard.pipeline import group_relations
    from relguard.types import DocumentExtraction, Triple

    grouper = grouper or group_relations
    documents = []
    for doc in extraction.documents:
        triples = []
        for triple in doc.triples:
            pool = pools[triple.type_pair].predicates
            other = next(p for p in pool if p != triple.predicate)
            triples.append(Triple(triple.subject, triple.subject_type, other, triple.object, triple.object_type,
                                  triple.occurrences))  # fmt: skip
        documents.append(DocumentExtraction(doc.document, doc.sentences, doc.entities, tuple(triples)))
    groups = grouper(extraction.documents)
    again = grouper(documents)
    before = [(g.key, tuple((o.document, o.start, o.end) for o in g.occurrences)) for g in groups]
    after = [(g.key, tuple((o.document, o.start, o.end) for o in g.occurrences)) for g in again]
    keys = [g.key for g in groups]
    unique = len(set(keys)) == len(keys)
    same = before == after
    detail = f"{len(keys)} groups, {'unique' if unique else 'DUPLICATE'} pair keys; every predicate rewritten: " + (
        "same groups, order and slots" if same else "groups CHANGED"
    )
    return unique and same, detail


#: Keys that must never appear in a public report: each needs the originals or the confidential mapping.
FORBIDDEN_KEYS = frozenset(
    {"inputs", "input_sha256", "unchanged", "substituted", "prompt_tokens", "completion_tokens", "calls", "usage",
     "dropped", "backend_usage", "withheld", "original", "pool_origin"}
)  # fmt: skip
_DIGEST = re.compile(r"(?<![0-9a-f])[0-9a-f]{64}(?![0-9a-f])")


def public_file_problems(files: Mapping[str, bytes], *, input_digests: Sequence[str] = ()) -> list[str]:
    """Check 5 on a set of public files: what in them could depend on an original except through outcomes.

    * every 64-hex digest must be one the report explains: an output file's, the pool hash, the encoder
      weights' (an input's digest would let a reader confirm a guess of the original text);
    * no key of :data:`FORBIDDEN_KEYS` anywhere in report.json, and only public counts under ``counts``;
    * no confidential file among them.
    """
    from relguard.report import AUDIT_FILE, PUBLIC_COUNTS

    problems: list[str] = []
    names = sorted(files)
    if any(name.rsplit("/", 1)[-1] == AUDIT_FILE for name in names):
        problems.append(f"the confidential file {AUDIT_FILE} is among the public files")
    report = {}
    if "report.json" in files:
        try:
            report = json.loads(files["report.json"])
        except ValueError:
            problems.append("report.json is not valid JSON")
    allowed = set(report.get("files", {}).get("outputs", {}).values())
    allowed.add(str(report.get("candidates", {}).get("sha256", "")))
    allowed.add(str(report.get("candidates", {}).get("inventory_sha256", "")))
    allowed |= set(_DIGEST.findall(str(report.get("encoder", ""))))
    leaked = set(input_digests)
    for name in names:
        if name.startswith("documents/"):
            continue
        text = files[name].decode("utf-8", errors="replace")
        for digest in set(_DIGEST.findall(text)):
            if digest in leaked:
                problems.append(f"{name} holds the SHA-256 of an input file")
            elif digest not in allowed:
                problems.append(f"{name} holds an unexplained digest {digest[:12]}…")
    for path, key in _keys(report):
        if key in FORBIDDEN_KEYS:
            problems.append(f"report.json has the confidential field {path}")
    extra = set(report.get("counts", {})) - set(PUBLIC_COUNTS)
    if extra:
        problems.append(f"report.json counts {', '.join(sorted(extra))} need the confidential mapping")
    return problems


def _keys(value: Any, path: str = "") -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if path.endswith("candidates.pools") or path.endswith("slots_per_document"):
                continue
            found.append((f"{path}.{key}".lstrip("."), str(key)))
            found += _keys(inner, f"{path}.{key}")
    elif isinstance(value, list):
        for inner in value:
            found += _keys(inner, path)
    return found


def generator_takes_only_type_pair_and_k(generator: Any) -> bool:
    """The generator's ``generate`` can receive a type pair and K and nothing else."""
    try:
        parameters = list(inspect.signature(generator.generate).parameters.values())
    except (TypeError, ValueError, AttributeError):
        return False
    names = [p.name for p in parameters if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    variadic = any(p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in parameters)
    return len(names) == 2 and not variadic


def regenerated_pool_hash(type_pairs: Sequence[TypePair], *, generator: Any, k: int) -> str:
    """The hash of pools built from the type pairs alone, to compare with a release's pool hash."""
    from relguard.pipeline import build_pools, pool_hash

    return pool_hash(build_pools(type_pairs, generator=generator, k=k))


def rewritten_corpus_pools(
    extraction: Any, pools: Mapping[TypePair, CandidatePool], *, generator: Any, extractor: Any, k: int
) -> tuple[int, int, int, bool]:
    """Rewrite every relation of the corpus to another pool predicate, re-extract and rebuild the pools.

    Returns (relations rewritten, type pairs shared, type pairs found again, pools equal on every shared pair).
    """
    from relguard.pipeline import build_pools, extract_corpus, reconstruct
    from relguard.reconstruct import FormVerbalizer
    from relguard.types import Document, Outcome

    outcomes = []
    for group in extraction.groups:
        pool = pools[group.type_pair].predicates
        outcomes.append(Outcome(group, next(p for p in reversed(pool) if p not in group.predicates)))
    forms = getattr(generator, "forms", None) or (lambda predicate, pair: {"clause": predicate.replace("_", " ")})
    rewritten = reconstruct(extraction, outcomes, FormVerbalizer(forms))
    documents = [Document(name=d.name, text=d.text or " ", source=d.name) for d in rewritten]
    again_extraction = extract_corpus(documents, extractor=extractor)
    shared = sorted(set(again_extraction.type_pairs) & set(pools))
    again = build_pools(again_extraction.type_pairs, generator=generator, k=k)
    equal = all(again[p] == pools[p] for p in shared)
    return len(outcomes), len(shared), len(again_extraction.type_pairs), equal


def _pool_checks(
    pools: Mapping[TypePair, CandidatePool],
    *,
    generator: Any,
    k: int,
    expected_hash: str | None,
    extraction: Any,
    extractor: Any,
) -> list[Check]:
    from relguard.pipeline import pool_hash

    checks = [
        Check(
            "pools: generator sees only (type pair, K)",
            generator_takes_only_type_pair_and_k(generator),
            f"{type(generator).__name__}.generate{inspect.signature(generator.generate)}",
        )
    ]
    regenerated = regenerated_pool_hash(sorted(pools), generator=generator, k=k)
    used = expected_hash or pool_hash(pools)
    checks.append(
        Check(
            "pools: regenerated from type pairs alone",
            regenerated == used,
            f"{len(pools)} pools, sha256 {regenerated[:16]}… vs release {used[:16]}…",
        )
    )
    if extraction is not None and extractor is not None and extraction.triples:
        changed, shared, found, equal = rewritten_corpus_pools(
            extraction, pools, generator=generator, extractor=extractor, k=k
        )
        checks.append(
            Check(
                "pools: same corpus, every relation rewritten",
                equal if shared else None,
                f"{changed} groups rewritten, re-extracted: {found} type pairs, {shared} shared, "
                + ("identical pools" if equal else "DIFFERENT pools"),
            )
        )
    else:
        checks.append(
            Check("pools: same corpus, every relation rewritten", None, "needs the input documents (pass INPUT)")
        )
    return checks


def run_audit(
    pools: Mapping[TypePair, CandidatePool],
    *,
    epsilon: float,
    lam: float,
    k: int,
    encoder: Any,
    generator: Any,
    originals: Mapping[TypePair, Sequence[str]] | None = None,
    rows: Mapping[TypePair, np.ndarray] | None = None,
    expected_pool_hash: str | None = None,
    extraction: Any = None,
    extractor: Any = None,
    probabilities: LogProbabilities = log_probabilities,
    sampler: Sampler = sample_outcomes,
    draws: int = CHI2_DRAWS,
    alpha: float = CHI2_ALPHA,
    pools_check: bool = True,
    combine: GroupDistances | None = None,
    public_files: Mapping[str, bytes] | None = None,
    input_digests: Sequence[str] = (),
) -> SelfAudit:
    """Every check for one release setting. ``rows`` default to each pool's first candidate as input.

    With ``extraction`` the groups of the corpus are audited (check 4); with ``public_files`` (name → bytes of
    a written or built release) the public-file check runs (check 5), looking also for ``input_digests``.
    """
    epsilon, lam = check_epsilon(epsilon), check_lam(lam)
    ordered = [pools[p] for p in sorted(pools)]
    originals = originals or {}
    per_pool = audit_pools(ordered, originals, encoder, epsilon=epsilon, lam=lam, probabilities=probabilities)
    worst = max(per_pool, key=lambda p: p.worst_excess) if per_pool else None
    n_orig = sum(p.originals for p in per_pool)
    checks = [
        Check(
            "exact bound: max|log P(y|r) - log P(y|r')| <= ε·d_R",
            all(p.passed for p in per_pool),
            f"{len(per_pool)} pools, {sum(p.pairs for p in per_pool):,} ordered pairs ({n_orig} original relations); "
            + (
                f"worst excess {worst.worst_excess:+.3g} at {'->'.join(worst.type_pair)} "
                f"(ratio {worst.worst_log_ratio:.4g} vs bound {worst.bound_at_worst:.4g}); "
                f"max ratio/bound {max(p.tightness for p in per_pool):.4f}"
                if worst
                else "no pools"
            ),
        )
    ]
    if rows is None:
        rows = {
            pair: encoder.distances(pool.predicates[:1], list(pool.predicates), pair)[0] for pair, pool in pools.items()
        }
    results = sampler_conformance(rows, epsilon=epsilon, lam=lam, draws=draws, alpha=alpha, sampler=sampler)
    low = min(results, key=lambda r: r.p_value) if results else None
    checks.append(
        Check(
            f"sampler: χ² vs exact probabilities (family α={alpha:g})",
            all(r.passed for r in results),
            f"{len(results)} tests × {draws} OpenDP draws, each at α={alpha / max(len(results), 1):.2g}; "
            + (f"lowest p = {low.p_value:.3g} ({'->'.join(low.type_pair)})" if low else "no pools"),
        )
    )
    groups = extraction.groups if extraction is not None else ()
    checked, replaced, excess = audit_groups(
        groups, pools, encoder, epsilon=epsilon, lam=lam, combine=combine, probabilities=probabilities
    )
    checks.append(
        Check(
            "groups: one changed relation moves a group by <= ε·d_R",
            excess <= TOLERANCE if checked else None,
            f"{checked} groups ({len(groups)} from the corpus), {replaced:,} single-relation replacements; "
            f"worst excess {excess:+.3g}",
        )
    )
    if extraction is not None:
        public, detail = grouping_is_public(extraction, pools)
        checks.append(Check("groups: keyed by the entity pair, never the predicate", public, detail))
    if public_files is not None:
        problems = public_file_problems(public_files, input_digests=input_digests)
        checks.append(
            Check(
                "public files: outcomes and public information only",
                not problems,
                f"{len(public_files)} files; "
                + ("; ".join(problems[:3]) if problems else "no input digest, no confidential count, no LLM usage"),
            )
        )
    if pools_check:
        checks += _pool_checks(
            pools,
            generator=generator,
            k=k,
            expected_hash=expected_pool_hash,
            extraction=extraction,
            extractor=extractor,
        )
    notes = (
        ()
        if originals
        else ("original relations not available: audited candidates, other public relations and near-duplicates only",)
    )
    return SelfAudit(epsilon, lam, k, tuple(checks), per_pool, results, notes)


def audit_prepared(prepared: Any, *, epsilon: float, lam: float, **options: Any) -> SelfAudit:
    """Audit a :class:`~relguard.pipeline.Prepared` corpus: its originals, pools and real distance rows."""
    return audit_extraction(
        prepared.extraction,
        prepared.pools,
        epsilon=epsilon,
        lam=lam,
        k=prepared.k,
        generator=prepared.generator,
        extractor=prepared.extractor_backend,
        encoder_id=prepared.encoder_id,
        distances=prepared.distances,
        **options,
    )


def audit_release(release: Any, *, generator: Any, extractor: Any = None, **options: Any) -> SelfAudit:
    """Audit a drawn :class:`~relguard.types.Release` with the backends that produced it."""
    g = release.guarantee
    return audit_extraction(
        release.extraction,
        {p.type_pair: p for p in release.pools},
        epsilon=g.epsilon,
        lam=g.lam,
        k=g.k,
        generator=generator,
        extractor=extractor,
        encoder_id=release.provenance.get("encoder", ""),
        expected_pool_hash=release.provenance.get("pool_hash"),
        **options,
    )


def audit_extraction(
    extraction: Any,
    pools: Mapping[TypePair, CandidatePool],
    *,
    epsilon: float,
    lam: float,
    k: int,
    generator: Any,
    extractor: Any = None,
    encoder_id: str = "",
    distances: np.ndarray | None = None,
    expected_pool_hash: str | None = None,
    **options: Any,
) -> SelfAudit:
    """The audit with the corpus's original relations as inputs and one real distance row per pool for χ²."""
    from relguard import registry
    from relguard.pipeline import pool_hash

    encoder = options.pop("encoder", None) or registry.create(
        "encoder", "sentence-transformers", model=_encoder_name(encoder_id)
    )
    originals: dict[TypePair, list[str]] = {}
    rows: dict[TypePair, np.ndarray] = {}
    for index, group in enumerate(extraction.groups):
        originals.setdefault(group.type_pair, []).extend(group.predicates)
        if group.type_pair not in rows:
            pool = list(pools[group.type_pair].predicates)
            row = (
                distances[index]
                if distances is not None
                else encoder.distances(list(group.predicates), pool, group.type_pair).min(axis=0)
            )
            rows[group.type_pair] = row
    return run_audit(
        pools,
        epsilon=epsilon,
        lam=lam,
        k=k,
        encoder=encoder,
        generator=generator,
        originals=originals,
        rows=rows or None,
        expected_pool_hash=expected_pool_hash or pool_hash(pools),
        extraction=extraction,
        extractor=extractor,
        **options,
    )


def with_audit(release: Any, audit: SelfAudit, *, public: SelfAudit | None = None) -> Any:
    """The same release with the audit recorded: ``public`` (no originals) in the report, ``audit`` confidential.

    An audit over the corpus's original relations reports numbers computed from them (worst excess, the
    χ² row, counts of originals), so only an audit of public inputs may go into the public report.
    """
    import dataclasses

    shown = public if public is not None else audit
    if shown.pools and any(p.originals for p in shown.pools):
        raise ValueError("an audit over original relations cannot go into a public report; pass public=")
    return dataclasses.replace(
        release,
        provenance={**release.provenance, "self_audit": shown.to_dict()},
        confidential={**release.confidential, "self_audit": audit.to_dict()},
    )


def public_audit(release: Any, *, generator: Any, **options: Any) -> SelfAudit:
    """The audit a public report may carry: the release's pools, ε, λ and K with public inputs only.

    Candidates, other public relations and near-duplicates of them are the inputs of the exact bound;
    χ² rows use each pool's first candidate; groups are synthetic groups of public relations. Nothing of it
    depends on an original relation, so its table can be published.
    """
    g = release.guarantee
    from relguard import registry

    encoder = options.pop("encoder", None) or registry.create(
        "encoder", "sentence-transformers", model=_encoder_name(release.provenance.get("encoder", ""))
    )
    return run_audit(
        {p.type_pair: p for p in release.pools},
        epsilon=g.epsilon,
        lam=g.lam,
        k=g.k,
        encoder=encoder,
        generator=generator,
        expected_pool_hash=release.provenance.get("pool_hash"),
        **options,
    )


def _encoder_name(encoder_id: str) -> str:
    """``sentence-transformers:NAME@sha256:...`` -> ``NAME``."""
    name = encoder_id.split(":", 1)[1] if encoder_id.startswith("sentence-transformers:") else encoder_id
    return name.split("@sha256:", 1)[0] or "all-MiniLM-L6-v2"


def read_report(path: str | Path) -> dict:
    """A release's report.json (or the folder holding it), with a clear error when it is not one."""
    path = Path(path)
    if path.is_dir():
        path = path / "report.json"
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"{path}: not a readable RelGuard report.json ({exc}); pass a release folder") from exc
    if not isinstance(report, dict) or "candidates" not in report or "parameters" not in report:
        raise InputError(f"{path}: not a RelGuard report.json (no 'parameters'/'candidates'); pass a release folder")
    return report


def pools_from_report(report: Mapping[str, Any]) -> dict[TypePair, CandidatePool]:
    source = report["candidates"].get("source") or "report"
    pools = {}
    for key, predicates in report["candidates"]["pools"].items():
        a, b = key.split("|")
        pools[(a, b)] = CandidatePool((a, b), tuple(predicates), source)
    return pools


def audit_report(report: Mapping[str, Any], *, prepared: Any = None, **options: Any) -> SelfAudit:
    """Audit a written release from its public report (and the corpus's originals when ``prepared`` is given)."""
    from relguard import registry

    params = report["parameters"]
    pools = pools_from_report(report)
    backend = report["candidates"].get("backend") or "inventory"
    generator = registry.create("candidates", backend) if backend == "inventory" else None
    encoder = options.pop("encoder", None) or registry.create(
        "encoder", "sentence-transformers", model=_encoder_name(report.get("encoder") or "")
    )
    originals: dict[TypePair, list[str]] = {}
    if prepared is not None:
        for triple in prepared.triples:
            originals.setdefault(triple.type_pair, []).append(triple.predicate)
    audit = run_audit(
        pools,
        epsilon=params["epsilon"],
        lam=params["lambda"],
        k=params["k"],
        encoder=encoder,
        generator=generator,
        originals=originals,
        expected_pool_hash=report["candidates"].get("sha256"),
        extraction=prepared.extraction if prepared is not None else None,
        extractor=prepared.extractor_backend if prepared is not None else None,
        pools_check=generator is not None,
        **options,
    )
    if generator is None:
        skipped = Check("pools: regenerated from type pairs alone", None, f"backend {backend!r} is not regenerable")
        audit = SelfAudit(
            audit.epsilon, audit.lam, audit.k, (*audit.checks, skipped), audit.pools, audit.chi2, audit.notes
        )
    return audit


def read_release_files(path: str | Path) -> dict[str, bytes]:
    """The public files of a written release folder (or of the folder holding a given report.json).

    The confidential file, when ``--audit`` wrote it beside them, is not one of them.
    """
    from relguard.report import AUDIT_FILE

    folder = Path(path)
    if folder.name == "report.json":
        folder = folder.parent
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.name.startswith(".") and p.name != AUDIT_FILE
    }


def record_in_release(folder: str | Path, audit: SelfAudit) -> list[Path]:
    """Add the audit to a written release's report.json and re-render its report.md (atomically)."""
    from relguard.io import atomic_write
    from relguard.report import render_markdown

    folder = Path(folder)
    if folder.name == "report.json":
        folder = folder.parent
    report = read_report(folder)
    report["self_audit"] = audit.to_dict()
    atomic_write(folder / "report.json", (json.dumps(report, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    atomic_write(folder / "report.md", render_markdown(report).encode("utf-8"))
    return [folder / "report.json", folder / "report.md"]


def run_cli(args: Any) -> int:
    """``relguard audit``: 0 when every check passes, 3 when one fails (1 stays for user errors)."""
    from relguard.cli import _backends
    from relguard.errors import ConfigError
    from relguard.io import atomic_write, read_documents
    from relguard.mechanism import check_k
    from relguard.pipeline import prepare

    if not args.inputs and not args.release:
        raise ConfigError("relguard audit needs INPUT documents or --release DIR (a written release)")
    report = read_report(args.release) if args.release else None
    if report is not None:
        params = report["parameters"]
        epsilon, lam, k = params["epsilon"], params["lambda"], params["k"]
        print(f"auditing release {args.release}: ε={epsilon:g}, λ={lam:g}, K={k} (from its report.json)")
    else:
        epsilon, lam, k = check_epsilon(args.epsilon), check_lam(args.lam), check_k(args.k)
    prepared = None
    digests: list[str] = []
    if args.inputs:
        documents, hashes = read_documents(args.inputs, max_bytes=args.max_bytes, text_field=args.text_field)
        digests = list(hashes.values())
        extractor, candidates = _backends(args)
        prepared = prepare(documents, k=k, extractor=extractor, candidates=candidates, encoder=args.encoder)
        print(f"{len(documents)} documents, {len(prepared.groups)} relation groups, {len(prepared.pools)} pools")
    if report is not None:
        files = read_release_files(args.release)
        audit = audit_report(report, prepared=prepared, public_files=files, input_digests=digests)
    else:
        audit = audit_prepared(prepared, epsilon=epsilon, lam=lam)
    print(audit.table())
    for note in audit.notes:
        print(f"note: {note}")
    if args.json:
        atomic_write(Path(args.json), (json.dumps(audit.to_dict(), indent=2, ensure_ascii=False) + "\n").encode())
    if args.record:
        if not args.release:
            raise ConfigError("--record needs --release DIR: it writes into that release's report")
        recorded = audit if prepared is None else audit_report(report, public_files=files)
        for path in record_in_release(args.release, recorded):
            print(f"recorded in {path}")
    return 0 if audit.passed else 3


def audit_with_backends(release: Any, *, extractor: Any, candidates: Any) -> tuple[SelfAudit, Any]:
    """Audit a release made with these backends (names or objects) and return it with the audit recorded.

    The full audit (original relations, the corpus's groups, the release's public files) is returned and kept
    in the confidential file; the public report gets :func:`public_audit`.
    """
    from relguard import registry
    from relguard.report import public_files

    extractor = registry.create("extractor", extractor) if isinstance(extractor, str) else extractor
    generator = registry.create("candidates", candidates) if isinstance(candidates, str) else candidates
    files = public_files(release)
    digests = list(release.confidential.get("input_sha256", {}).values())
    audit = audit_release(release, generator=generator, extractor=extractor, public_files=files, input_digests=digests)
    public = public_audit(release, generator=generator, pools_check=False)
    return audit, with_audit(release, audit, public=public)
