"""The report as one self-contained HTML page: styles inline, plots as embedded SVG data URIs
drawn by matplotlib's Agg backend, nothing fetched, so the file opens offline and travels alone."""

from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np

matplotlib.use("Agg")  # no display: the plots are files, drawn the same on any machine

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from cardroom.analysis.report import Plot, Report, Table, cell_text, write_atomic  # noqa: E402

__all__ = ["plot_uri", "render_html", "write_html"]

STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1100px;
color:#1d2330;padding:0 1rem;line-height:1.45}
h1{margin-bottom:.2rem}h2{border-bottom:2px solid #d8dde8;padding-bottom:.2rem;margin-top:2.2rem}
table{border-collapse:collapse;margin:.6rem 0 1rem;font-size:.86rem}
th,td{border:1px solid #d8dde8;padding:.22rem .5rem;text-align:right;white-space:nowrap}
th{background:#eef1f7}td:first-child,th:first-child{text-align:left}
tr.flag td{background:#fff2cc}caption{text-align:left;font-weight:600;padding:.3rem 0}
.facts td{text-align:left;white-space:normal;overflow-wrap:break-word}
.warn{background:#fde2e1;border-left:4px solid #c0392b;padding:.5rem .8rem}
.about{color:#3b4457;font-size:.92rem}.note{font-size:.82rem;color:#5b6477}
figure{margin:.6rem 0 1.2rem}figcaption{font-size:.85rem;color:#3b4457}
.scroll{overflow-x:auto}
.verdict{background:#e8f1e4;border-left:4px solid #3c7a33;padding:.3rem .9rem;margin:.8rem 0}
.verdict h2{border:0;margin:.3rem 0;font-size:1.1rem}.verdict p{margin:.35rem 0}
"""


def _figure(plot: Plot) -> Figure:
    data = plot.data
    labels = data.get("labels", [])
    wide = plot.kind == "bar" and len(labels) > 16
    figure, axes = plt.subplots(figsize=(11 if wide else 6.4, 3.4))
    if plot.kind == "hist":
        # ``weights``: how often each value was seen (a report's sums give values' counts).
        weights = data.get("weights") or [1] * len(data["values"])
        pairs = [(v, w) for v, w in zip(data["values"], weights, strict=True) if v is not None]
        samples = np.asarray([v for v, _ in pairs], dtype=float)
        counts = np.asarray([w for _, w in pairs], dtype=float)
        kept = ~np.isnan(samples)
        samples, counts = samples[kept], counts[kept]
        if samples.size:
            low, high = float(samples.min()), float(samples.max())
            whole = bool(np.all(samples == np.round(samples)))
            bins: Any = np.arange(low - 0.5, high + 1.5) if whole and high - low <= 60 else 30
            axes.hist(samples, bins=bins, weights=counts, color="#4c72b0", edgecolor="white")
    elif plot.kind == "bar":
        values = [v if v is not None else 0.0 for v in data["values"]]
        positions = list(range(len(labels)))
        errors = None
        if "low" in data and all(x is not None for x in data["low"] + data["high"]):
            # max(0, ...): rounding may put a bound a hair inside its estimate
            errors = [
                [max(0.0, v - lo) for v, lo in zip(values, data["low"], strict=True)],
                [max(0.0, hi - v) for v, hi in zip(values, data["high"], strict=True)],
            ]
        axes.bar(positions, values, yerr=errors, color="#4c72b0", capsize=2)
        # Long labels (a compare's steps in words) would overlap side by side: upright, they do not.
        crowded = wide or sum(len(str(label)) for label in labels) > 70
        axes.set_xticks(positions, labels, rotation=90 if crowded else 0, fontsize=7 if wide else 9)
        if data.get("reference") is not None:
            axes.axhline(data["reference"], color="#c0392b", linewidth=1)
    elif plot.kind == "line":
        positions = list(range(len(labels)))
        for name, series in data["series"].items():
            values = [v if v is not None else math.nan for v in series["values"]]
            axes.plot(positions, values, marker="o", label=name)
            if "low" in series:
                axes.fill_between(
                    positions,
                    [math.nan if v is None else v for v in series["low"]],
                    [math.nan if v is None else v for v in series["high"]],
                    alpha=0.2,
                )
        axes.set_xticks(positions, labels)
        if len(data["series"]) > 1:
            axes.legend(fontsize=8)
    axes.set_xlabel(plot.xlabel)
    axes.set_ylabel(plot.ylabel)
    figure.tight_layout()
    return figure


def plot_uri(plot: Plot) -> str:
    """The plot as an SVG ``data:`` URI."""
    # A fixed salt for the SVG's ids and no date: the same figures give the same bytes. Text
    # stays text (the page's own font), not glyph paths: smaller and quicker to draw.
    with plt.rc_context({"svg.hashsalt": "cardroom", "svg.fonttype": "none"}):
        figure = _figure(plot)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
        plt.close(figure)
    return "data:image/svg+xml;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _table(table: Table) -> str:
    head = "".join(f"<th>{html.escape(c.heading)}</th>" for c in table.columns)
    body = []
    for row in table.rows:
        flagged = bool(table.flag and row.get(table.flag))
        cells = "".join(f"<td>{html.escape(cell_text(row.get(c.key), c.digits))}</td>" for c in table.columns)
        body.append(f"{'<tr class=flag>' if flagged else '<tr>'}{cells}</tr>")
    note = f'<p class="note">{html.escape(table.note)}</p>' if table.note else ""
    return (
        f'<div class="scroll"><table data-table="{html.escape(table.key)}"><caption>'
        f"{html.escape(table.title)}</caption><thead><tr>{head}</tr></thead><tbody>{''.join(body)}"
        f"</tbody></table></div>{note}"
    )


def render_html(report: Report) -> str:
    """The whole page."""
    parts = [f"<h1>{html.escape(report.title)}</h1>"]
    if report.verdict:
        parts.append('<div class="verdict" data-verdict><h2>Verdict</h2>'
                     + "".join(f"<p>{html.escape(line)}</p>" for line in report.verdict) + "</div>")
    parts.append('<table class="facts">')
    parts += [f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in report.facts]
    parts.append("</table>")
    parts += [f'<p class="warn">{html.escape(w)}</p>' for w in report.warnings]
    for section in report.sections:
        parts.append(f'<section id="{html.escape(section.key)}"><h2>{html.escape(section.title)}</h2>')
        parts += [f'<p class="about">{html.escape(text)}</p>' for text in section.about]
        parts += [_table(t) for t in section.tables]
        for plot in section.plots:
            parts.append(
                f'<figure data-plot="{html.escape(plot.key)}"><img alt="{html.escape(plot.title)}" '
                f'src="{plot_uri(plot)}"><figcaption>{html.escape(plot.title)}</figcaption></figure>'
            )
        parts.append("</section>")
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(report.title)}</title><style>{STYLE}</style></head><body>"
        f'{"".join(parts)}<p class="note">Made by Cardroom\'s analyze.</p></body></html>\n'
    )


def write_html(report: Report, path: Path) -> None:
    """The page into ``path`` (written under a temporary name, then renamed)."""
    text = render_html(report)
    with write_atomic(path) as temporary:
        temporary.write_text(text, encoding="utf-8")
