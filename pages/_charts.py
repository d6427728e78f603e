"""The app's Plotly figures, built from library results so the pages only place them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

CONN, REL = "#1f6fb4", "#e8710a"


def _epsilon_marker(figure: go.Figure, epsilon: float) -> None:
    figure.add_scatter(
        x=[epsilon, epsilon],
        y=[0, 1],
        mode="lines",
        name=f"current ε = {epsilon:g}",
        line={"dash": "dash", "color": "#333"},
    )


def _log_epsilon_layout(figure: go.Figure, *, height: int, y_range: Sequence[float] | None = None) -> go.Figure:
    yaxis = {"title": "expected share of relations", "tickformat": ".0%"}
    if y_range is not None:
        yaxis["range"] = list(y_range)
    figure.update_layout(
        xaxis={"type": "log", "title": "ε"}, yaxis=yaxis, height=height, margin={"l": 10, "r": 10, "t": 20, "b": 10}
    )
    return figure


def outcome_curves(curve: Sequence, epsilon: float) -> go.Figure:
    """Tune: the expected share of each outcome kind over ε, with the current ε marked."""
    figure = go.Figure()
    for name in curve[0].as_dict():
        figure.add_scatter(x=[e.epsilon for e in curve], y=[e.as_dict()[name] for e in curve], name=name)
    _epsilon_marker(figure, epsilon)
    return _log_epsilon_layout(figure, height=320)


def probability_bars(rows: Sequence[Mapping]) -> go.Figure:
    """Tune: one relation group's outcome probabilities as horizontal bars, every bar labelled (K = 20 too)."""
    bars = go.Figure(go.Bar(x=[r["probability"] for r in rows], y=[r["outcome"] for r in rows], orientation="h"))
    yaxis = {"autorange": "reversed", "type": "category", "dtick": 1, "automargin": True, "tickfont": {"size": 13}}
    height = max(320, 40 + 24 * len(rows))
    bars.update_layout(height=height, margin={"l": 10, "r": 10, "t": 10, "b": 10}, yaxis=yaxis)
    return bars


def leakage_curves(curve: Sequence, epsilon: float, *, measured=None) -> go.Figure:
    """Risk: expected connection and relation retention over ε, and the measured attack's recall as markers."""
    figure = go.Figure()
    x = [e.epsilon for e in curve]
    figure.add_scatter(x=x, y=[e.connection for e in curve], name="connections kept", line={"color": CONN})
    figure.add_scatter(x=x, y=[e.relation for e in curve], name="relations kept (meaning)", line={"color": REL})
    _epsilon_marker(figure, epsilon)
    if measured is not None:
        leakage = measured.measured.leakage
        for label, recall, color in (("Conn.", leakage.conn_recall, CONN), ("Rel.", leakage.rel_recall, REL)):
            figure.add_scatter(
                x=[measured.epsilon],
                y=[recall],
                mode="markers",
                name=f"measured {label} recall (attack)",
                marker={"symbol": "diamond", "size": 12, "color": color},
            )
    return _log_epsilon_layout(figure, height=340, y_range=(0, 1.02))
