"""The same release whatever runtime computes d_R: torch against ONNX Runtime with one teaching seed.

Runs ``relguard sanitize`` on the bundled sample corpus twice, ``--encoder-runtime torch`` and
``--encoder-runtime onnxruntime-fp32``, the same ``--seed``, each with its confidential mapping, and compares every
file byte for byte. The only lines allowed to differ are those that name the runtime (the command and
``encoder_runtime`` in config.toml, the report's runtime field and line); anything else is printed and the script
exits 1::

    .venv/bin/python bench/runtime_identity.py            # seed 7, assets/sample_corpus
    .venv/bin/python bench/runtime_identity.py --seed 11 --corpus ../shared/data/some/folder
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNTIMES = ("torch", "onnxruntime-fp32")


def release(corpus: Path, folder: Path, runtime: str, seed: int) -> Path:
    out = folder / runtime
    command = [sys.executable, "-m", "relguard.cli", "sanitize", str(corpus), "--out", str(out), "--seed", str(seed)]
    command += ["--encoder-runtime", runtime, "--quiet", "--mapping", str(folder / f"{runtime}.mapping.json")]
    subprocess.run(command, cwd=ROOT, check=True, capture_output=True)
    return out


def differing_lines(a: Path, b: Path) -> list[str]:
    """Lines of two files that differ and do not name a runtime."""
    left, right = a.read_bytes().splitlines(), b.read_bytes().splitlines()
    if len(left) != len(right):
        return [f"{a.name}: {len(left)} lines against {len(right)}"]
    named = tuple(r.encode() for r in RUNTIMES)
    return [
        f"{a.name}: {x!r} / {y!r}"
        for x, y in zip(left, right, strict=True)
        if x != y and not (any(n in x for n in named) and any(n in y for n in named))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--corpus", type=Path, default=ROOT / "assets" / "sample_corpus")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        outs = [release(args.corpus, folder, runtime, args.seed) for runtime in RUNTIMES]
        files = sorted(p.relative_to(outs[0]) for p in outs[0].rglob("*") if p.is_file())
        others = sorted(p.relative_to(outs[1]) for p in outs[1].rglob("*") if p.is_file())
        problems = [] if files == others else [f"file lists differ: {files} / {others}"]
        identical = 0
        pairs = [(outs[0] / f, outs[1] / f) for f in files if (outs[1] / f).exists()]
        pairs.append((folder / "torch.mapping.json", folder / "onnxruntime-fp32.mapping.json"))
        for a, b in pairs:
            if a.read_bytes() == b.read_bytes():
                identical += 1
            else:
                problems += differing_lines(a, b)
    if not problems:
        print(
            f"{len(pairs)} files compared ({len(files)} public + the mapping): {identical} byte-identical, "
            f"{len(pairs) - identical} differ only where they name the runtime"
        )
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
