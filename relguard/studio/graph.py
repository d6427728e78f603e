"""Knowledge graphs of a corpus and of a release, and the diff between them.

The app draws the original graph (who is related to whom, and how: exactly
what relation-DP protects), the one-hop neighbourhood a targeted attacker goes
after, and after a draw the graph diff with every edge marked kept,
substituted (old → new) or deleted. The interactive drawing uses vis-network,
the network library shipped inside the ``pyvis`` package, inlined so the page
works offline; every string reaches the browser as escaped JSON data and is
rendered by vis-network as text, never as HTML.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from relguard.errors import BackendError
from relguard.types import Release, Triple

#: One colour per OntoNotes type (colour-blind-safe Okabe-Ito first, then muted extras).
TYPE_COLOURS: dict[str, str] = {
    "PERSON": "#E69F00",
    "ORG": "#56B4E9",
    "GPE": "#009E73",
    "LOC": "#0072B2",
    "NORP": "#CC79A7",
    "FAC": "#D55E00",
    "PRODUCT": "#F0E442",
    "EVENT": "#999999",
    "WORK_OF_ART": "#8C6BB1",
    "LAW": "#A6761D",
    "LANGUAGE": "#66A61E",
}
STATUS_COLOURS = {"original": "#555555", "kept": "#2E7D32", "substituted": "#EF6C00", "deleted": "#C62828"}


@dataclass(frozen=True)
class Node:
    name: str
    type: str


@dataclass(frozen=True)
class Edge:
    """A relation between two nodes; ``sampled`` is set for releases (None with status ``deleted``)."""

    subject: Node
    object: Node
    predicate: str
    status: str = "original"
    sampled: str | None = None
    occurrences: int = 0

    @property
    def label(self) -> str:
        if self.status == "substituted":
            return f"{self.predicate} → {self.sampled}"
        return self.predicate


@dataclass(frozen=True)
class Graph:
    nodes: tuple[Node, ...]
    edges: tuple[Edge, ...]

    def counts(self) -> dict[str, int]:
        result = {status: 0 for status in STATUS_COLOURS}
        for edge in self.edges:
            result[edge.status] += 1
        return {k: v for k, v in result.items() if v}


def _nodes(edges: Iterable[Edge]) -> tuple[Node, ...]:
    seen: dict[Node, None] = {}
    for edge in edges:
        seen.setdefault(edge.subject)
        seen.setdefault(edge.object)
    return tuple(seen)


def knowledge_graph(triples: Sequence[Triple]) -> Graph:
    """The original knowledge graph: one node per (name, type), one edge per canonical triple."""
    edges = tuple(
        Edge(
            Node(t.subject, t.subject_type), Node(t.object, t.object_type), t.predicate, occurrences=len(t.occurrences)
        )
        for t in triples
    )
    return Graph(_nodes(edges), edges)


def release_diff(release: Release) -> Graph:
    """The original graph with each edge marked kept, substituted (with the new predicate) or deleted."""
    edges = []
    for outcome in release.outcomes:
        for t in outcome.group.triples:
            status = "deleted" if outcome.deleted else "kept" if outcome.kept(t) else "substituted"
            edges.append(
                Edge(
                    Node(t.subject, t.subject_type),
                    Node(t.object, t.object_type),
                    t.predicate,
                    status=status,
                    sampled=outcome.predicate,
                    occurrences=len(t.occurrences),
                )
            )
    return Graph(_nodes(edges), tuple(edges))


def neighbourhood(triples: Sequence[Triple], entity: str) -> tuple[Triple, ...]:
    """Every triple with ``entity`` as subject or object: the one-hop view a targeted attacker wants."""
    return tuple(t for t in triples if entity in (t.subject, t.object))


def entities(triples: Sequence[Triple]) -> tuple[str, ...]:
    """Entity names that take part in at least one triple, sorted."""
    return tuple(sorted({t.subject for t in triples} | {t.object for t in triples}))


def _script_json(value: object) -> str:
    """JSON that is safe inside a <script> element: no '<', '>' or '&' can close it or start markup."""
    return json.dumps(value, ensure_ascii=True).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _vis_network() -> tuple[str, str]:
    try:
        from importlib import resources

        root = resources.files("pyvis") / "lib" / "vis-9.1.2"
        return (root / "vis-network.min.js").read_text(encoding="utf-8"), (root / "vis-network.css").read_text(
            encoding="utf-8"
        )
    except (ImportError, ModuleNotFoundError, FileNotFoundError) as exc:
        raise BackendError("drawing graphs needs pyvis (pip install 'relguard[app]')") from exc


def vis_data(graph: Graph) -> dict:
    """Node and edge records in vis-network's format (labels are plain text; vis renders them as text)."""
    ids = {node: i for i, node in enumerate(graph.nodes)}
    nodes = [
        {
            "id": ids[n],
            "label": n.name,
            "title": f"{n.name} ({n.type})",
            "group": n.type,
            "color": TYPE_COLOURS.get(n.type, "#BBBBBB"),
        }
        for n in graph.nodes
    ]
    edges = []
    for number, e in enumerate(graph.edges):
        title = {
            "original": f"{e.subject.name} —{e.predicate}→ {e.object.name} ({e.occurrences} occurrences)",
            "kept": f"kept: {e.predicate}",
            "substituted": f"substituted: {e.predicate} → {e.sampled}",
            "deleted": f"deleted: {e.predicate} (sentences removed)",
        }[e.status]
        edges.append(
            {
                "id": number,
                "from": ids[e.subject],
                "to": ids[e.object],
                "label": e.label,
                "title": title,
                "arrows": "to",
                "color": STATUS_COLOURS[e.status],
                "dashes": e.status == "deleted",
                "status": e.status,
            }
        )
    return {"nodes": nodes, "edges": edges}


def graph_html(graph: Graph, *, height: int = 520) -> str:
    """A self-contained HTML page drawing ``graph`` with vis-network (no network access needed)."""
    script, css = _vis_network()
    data = _script_json(vis_data(graph))
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}
body{{margin:0;font-family:sans-serif}}#graph{{width:100%;height:{int(height)}px;border:1px solid #ddd}}</style>
<script>{script}</script></head><body><div id="graph"></div><script>
const data = {data};
const network = new vis.Network(document.getElementById("graph"),
  {{nodes: new vis.DataSet(data.nodes), edges: new vis.DataSet(data.edges)}},
  {{physics: {{stabilization: {{iterations: 200}}}}, interaction: {{hover: true}},
    edges: {{font: {{size: 11, align: "middle"}}, smooth: {{type: "dynamic"}}}},
    nodes: {{shape: "dot", size: 14, font: {{size: 14}}}}}});
</script></body></html>"""
