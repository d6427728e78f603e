"""The shape of the house: packages by role on floors, no import circle, no arrow up a floor, short modules.

The import graph is read from the source: every ``import`` and ``from … import``, inside functions and inside
``if TYPE_CHECKING:`` blocks too, since an import hidden in a function is still an arrow and a type imported for
checking is still a dependency a reader must follow (a circle hidden there is a circle all the same). A module may
import from its own floor or any floor below. Each of these would fail if the structure regressed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = ROOT / "relguard"
MAX_MODULE_LINES = 400
MAX_PAGE_LINES = 120

#: Floors from the ground up; a package's modules live on its floor.
FLOORS = (
    ("relguard.version", "relguard.types", "relguard.errors", "relguard.wordlist"),
    (
        "relguard.settings",
        "relguard.protocols",
        "relguard.registry",
        "relguard.io",
        "relguard.textable",
        "relguard.kinds",
    ),
    ("relguard.embed", "relguard.privacy", "relguard.llm"),
    ("relguard.candidates", "relguard.extract"),
    ("relguard.rewrite",),
    ("relguard.release",),
    ("relguard.engine",),
    ("relguard.pipeline",),
    ("relguard.verify", "relguard.evaluation", "relguard.studio"),
    ("relguard.cli",),
)


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in LIBRARY.rglob("*.py")}


def floor(module: str) -> int:
    if module == "relguard":
        return len(FLOORS)
    for number, names in enumerate(FLOORS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return number
    raise AssertionError(f"{module} is on no floor: add its package to FLOORS")


def imports(module: str) -> set[str]:
    """The relguard modules ``module`` imports (``from pkg import sub`` counts as an arrow to ``pkg.sub``)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("relguard")}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else [])
                )
            if not base.startswith("relguard"):
                continue
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base)
    return {m for m in found if m in MODULES and m != module}


GRAPH = {module: imports(module) for module in MODULES}


def test_every_module_is_on_a_floor_and_no_arrow_runs_up():
    upward = [
        f"{importer} (floor {floor(importer)}) -> {imported} (floor {floor(imported)})"
        for importer, targets in GRAPH.items()
        for imported in targets
        if floor(imported) > floor(importer)
    ]
    assert not upward, "\n".join(upward)


def test_no_import_circle():
    """Tarjan's strongly connected components: every component must be a single module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(GRAPH[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for module in sorted(GRAPH):
        if module not in index:
            visit(module)
    assert not circles, circles


def test_no_library_module_over_400_lines_and_no_page_over_120():
    long_modules = {
        name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > MAX_MODULE_LINES
    }
    assert not long_modules, long_modules
    app = (ROOT / "app.py").read_text()
    assert sum(f"pages/{p.name}" in app for p in (ROOT / "pages").glob("*.py")) >= 7
    # the pages' helper modules too: a long page does not get short by moving its code into pages/_x.py
    pages = list((ROOT / "pages").glob("*.py"))
    long_pages = {p.name: n for p in pages if (n := len(p.read_text().splitlines())) > MAX_PAGE_LINES}
    assert not long_pages, long_pages


def test_the_library_never_imports_streamlit():
    offenders = [
        name
        for name, path in MODULES.items()
        if any(
            line.strip().startswith(("import streamlit", "from streamlit")) for line in path.read_text().splitlines()
        )
    ]
    assert not offenders, offenders


def test_the_command_line_imports_neither_the_audit_nor_the_evaluation_until_they_run():
    """Every extraction worker a batch run spawns imports the ``relguard`` command's module again (spawn re-imports
    the parent's main module); scipy and the evaluation package, which only ``audit``, ``evaluate`` and
    ``--self-audit`` use, cost it and the parent about 0.5 s each. A fresh interpreter, so this one's imports do
    not count."""
    import subprocess
    import sys

    code = (
        "import sys, relguard.cli; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'scipy' or m.startswith("
        "('relguard.evaluation', 'relguard.verify', 'spacy', 'torch', 'onnxruntime'))))"
    )
    printed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert printed.strip() == "[]", printed
