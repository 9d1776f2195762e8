"""The building blocks of ``reports/index.html``: one self-contained page, no network.

Figures are inlined SVG, the style sheet is inline, there is no script and no
external reference of any kind, so the file renders the same offline, from a mail
attachment or from a CI artefact.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

STYLE = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #222;
       max-width: 1180px; margin: 1.5em auto; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; } h2 { margin-top: 2em; border-bottom: 1px solid #ddd; }
h3 { margin: 1.2em 0 .4em; font-size: 1.05em; }
nav a { margin-right: 1em; } .note { color: #555; font-size: .92em; }
.pair { display: flex; gap: 2em; flex-wrap: wrap; align-items: flex-start; }
table { border-collapse: collapse; margin: .4em 0 1em; font-variant-numeric: tabular-nums; }
th, td { padding: .18em .55em; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
th { background: #f6f6f6; } td:first-child, th:first-child { text-align: left; }
td.ci { color: #666; font-size: .85em; } td.sig { background: #e3f1e3; } td.diag { background: #fafafa; }
td.cell { white-space: normal; min-width: 6.5em; max-width: 8.5em; font-size: .82em; line-height: 1.25; }
td.text { white-space: pre-line; text-align: left; min-width: 24em; font-size: .85em; line-height: 1.3; }
.wide { overflow-x: auto; max-width: 100%; }
figure { margin: .6em 0 1.4em; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .9em; } details { margin: .5em 0 1em; }
code { font-size: .85em; color: #444; }
"""


def esc(text: object) -> str:
    """``text`` as HTML-escaped text."""
    return html.escape(str(text), quote=True)


def table(headers: Sequence[str], rows: Iterable[Sequence[object]], caption: str | None = None,
          classes: Iterable[Sequence[str]] | None = None) -> str:
    """An HTML table.

    Parameters
    ----------
    headers : sequence of str
        Column headings.
    rows : iterable of sequences
        Cell values (``None`` prints as an en dash); cells are escaped.
    caption : str, optional
        Heading shown above the table.
    classes : iterable of sequences of str, optional
        Per-cell CSS classes, row by row (e.g. ``"ci"``, ``"sig"``).

    Returns
    -------
    str
    """
    class_rows = list(classes) if classes is not None else None
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = []
    for i, row in enumerate(rows):
        cells = []
        for j, value in enumerate(row):
            css = class_rows[i][j] if class_rows is not None and class_rows[i][j] else ""
            attr = f' class="{css}"' if css else ""
            cells.append(f"<td{attr}>{'–' if value is None else esc(value)}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    top = f"<h3>{esc(caption)}</h3>" if caption else ""
    return f"{top}<div class=\"wide\"><table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"


def inline_svg(svg: str) -> str:
    """An SVG document as an inline ``<svg>`` element (XML prolog and DOCTYPE removed)."""
    start = svg.find("<svg")
    if start < 0:
        raise ValueError("not an SVG document")
    return re.sub(r"<!--.*?-->", "", svg[start:], flags=re.DOTALL)


def figure(svg: str, caption: str) -> str:
    """A figure: the inline SVG and a caption."""
    return f"<figure>{inline_svg(svg)}<figcaption>{esc(caption)}</figcaption></figure>"


def section(anchor: str, title: str, parts: Iterable[str]) -> str:
    """A benchmark's section with an anchor for the navigation bar."""
    return f'<section id="{esc(anchor)}"><h2>{esc(title)}</h2>{"".join(parts)}</section>'


def paragraph(text: str, note: bool = False) -> str:
    """A paragraph of escaped text (``note``: the smaller grey style)."""
    attr = ' class="note"' if note else ""
    return f"<p{attr}>{esc(text)}</p>"


def page(title: str, intro: str, sections: Sequence[tuple[str, str, str]], nav_separator: str = "") -> str:
    """The whole document.

    Parameters
    ----------
    title : str
        ``<title>`` and the top heading.
    intro : str
        A short paragraph under the heading (escaped).
    sections : sequence of (anchor, title, html)
        The benchmark sections, in order (``html`` from :func:`section`).
    nav_separator : str
        Between the navigation links (a space lets a long bar wrap: a run page names every task).

    Returns
    -------
    str
    """
    nav = nav_separator.join(f'<a href="#{esc(anchor)}">{esc(name)}</a>' for anchor, name, _ in sections)
    body = "".join(part for _, _, part in sections)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{esc(title)}</title>"
        f"<style>{STYLE}</style></head><body><h1>{esc(title)}</h1><p class=\"note\">{esc(intro)}</p>"
        f"<nav>{nav}</nav>{body}</body></html>\n"
    )
