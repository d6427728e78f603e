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
from relguard.kinds import coarse_type
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
    "ENTITY": "#BBBBBB",
}
STATUS_COLOURS = {"original": "#555555", "kept": "#2E7D32", "substituted": "#EF6C00", "deleted": "#C62828"}


@dataclass(frozen=True)
class Node:
    name: str
    type: str

    @classmethod
    def ends(cls, triple: Triple) -> tuple[Node, Node]:
        """A triple's subject and object as nodes: one node per (name, type)."""
        return cls(triple.subject, triple.subject_type), cls(triple.object, triple.object_type)


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
    edges = tuple(Edge(*Node.ends(t), t.predicate, occurrences=len(t.occurrences)) for t in triples)
    return Graph(_nodes(edges), edges)


def release_diff(release: Release) -> Graph:
    """The original graph with each edge marked kept, substituted (with the new predicate) or deleted."""
    edges = []
    for outcome in release.outcomes:
        for t in outcome.group.triples:
            status = "deleted" if outcome.deleted else "kept" if outcome.kept(t) else "substituted"
            edges.append(
                Edge(
                    *Node.ends(t), t.predicate, status=status, sampled=outcome.predicate, occurrences=len(t.occurrences)
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
            "color": TYPE_COLOURS.get(coarse_type(n.type), "#BBBBBB"),
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


#: What each edge colour means, shown above every graph that has more than originals.
STATUS_LEGEND = {
    "original": "relation in the documents",
    "kept": "kept: the draw gave the original relation",
    "substituted": "substituted: original → drawn relation",
    "deleted": "deleted: null outcome, sentence removed (dashed)",
}


def legend_html(graph: Graph, *, confidential: bool) -> str:
    """Colour chips for the edge statuses present, and the confidential label when originals are shown."""
    chips = "".join(
        f'<span style="display:inline-block;margin-right:14px"><span style="display:inline-block;width:22px;'
        f"height:0;border-top:3px {'dashed' if status == 'deleted' else 'solid'} {STATUS_COLOURS[status]};"
        f'vertical-align:middle;margin-right:5px"></span>{STATUS_LEGEND[status]}</span>'
        for status in STATUS_COLOURS
        if any(e.status == status for e in graph.edges)
    )
    label = (
        '<div style="color:#8a1c1c;font-weight:600;margin-bottom:4px">CONFIDENTIAL — this graph shows the original '
        "relations; it is never part of an export.</div>"
        if confidential
        else ""
    )
    return f'<div id="legend" style="font-size:13px;padding:4px 0 8px">{label}{chips}</div>'


def graph_html(graph: Graph, *, height: int = 520, confidential: bool = False) -> str:
    """A self-contained HTML page drawing ``graph`` with vis-network (no network access needed).

    The page is ``height`` pixels of graph plus its legend; give the frame :func:`frame_height` so nothing is cut.
    The view is fitted again once the layout settles, with physics then off, so no node drifts outside the frame;
    labels are then sized against the zoom (and again on every zoom), so a fit of a whole corpus does not shrink
    them to a few pixels.
    """
    script, css = _vis_network()
    data = _script_json(vis_data(graph))
    return f"""<!DOCTYPE html><html><head><meta charset="utf-8"><style>{css}
body{{margin:0;font-family:sans-serif}}#graph{{width:100%;height:{int(height)}px;border:1px solid #ddd;
box-sizing:border-box}}</style>
<script>{script}</script></head><body>{legend_html(graph, confidential=confidential)}<div id="graph"></div><script>
const data = {data};
const network = new vis.Network(document.getElementById("graph"),
  {{nodes: new vis.DataSet(data.nodes), edges: new vis.DataSet(data.edges)}},
  {{physics: {{stabilization: {{iterations: 300}}, barnesHut: {{springLength: 110, avoidOverlap: 0.3}}}},
    interaction: {{hover: true, navigationButtons: true}},
    edges: {{font: {{size: 18, align: "middle", strokeWidth: 4, strokeColor: "#ffffff"}}, smooth: {{type: "dynamic"}}}},
    nodes: {{shape: "dot", size: 16, font: {{size: 22, strokeWidth: 3, strokeColor: "#ffffff"}}}}}});
function readable() {{  // labels keep ~14 px on screen at any zoom, instead of shrinking with the fit
  const scale = Math.max(network.getScale(), 0.05);
  network.setOptions({{nodes: {{font: {{size: Math.min(48, 14 / scale)}}}},
                       edges: {{font: {{size: Math.min(40, 11 / scale)}}}}}});
}}
network.once("stabilizationIterationsDone", () => {{
  network.setOptions({{physics: false}});  // nodes stay where the fit put them: none drifts out of the frame
  network.fit({{animation: false}});
  readable();
}});
network.on("zoom", readable);
</script></body></html>"""


def frame_height(height: int = 520, *, confidential: bool = False) -> int:
    """The frame height that shows the whole of :func:`graph_html` at ``height``: graph, legend and label."""
    return height + (70 if confidential else 44)
