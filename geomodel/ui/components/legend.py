"""Map legends as small HTML blocks: colour scales, marker sizes, line kinds.

Plain functions returning HTML text (the page shows it with ``st.html``); every
label is escaped, since names come from scenario files.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

Colour = Sequence[int]

_BLOCK = "display:inline-flex;align-items:center;gap:6px;margin:2px 14px 2px 0;font-size:0.8rem"


def _rgb(colour: Colour) -> str:
    r, g, b, *alpha = colour
    return f"rgba({r},{g},{b},{(alpha[0] / 255) if alpha else 1:.2f})"


def gradient(title: str, colours: Sequence[Colour], low: str, high: str) -> str:
    """A colour scale from ``low`` to ``high``."""
    stops = ",".join(_rgb(c) for c in colours)
    bar = (
        '<span style="display:inline-block;width:90px;height:10px;'
        f'background:linear-gradient(90deg,{stops})"></span>'
    )
    return (
        f'<span style="{_BLOCK}"><b>{html.escape(title)}</b> {html.escape(low)} {bar} '
        f"{html.escape(high)}</span>"
    )


def circles(
    title: str, sizes: Sequence[tuple[float, str]], fill: Colour, line: Colour | None = None
) -> str:
    """Marker sizes: (radius in pixels, what it stands for)."""
    border = f"border:{1.5 if line else 1}px solid {_rgb(line or (60, 60, 60))}"
    marks = "".join(
        f'<span style="display:inline-flex;align-items:center;gap:3px">'
        f'<span style="display:inline-block;width:{2 * r:.0f}px;height:{2 * r:.0f}px;border-radius:50%;'
        f'background:{_rgb(fill)};{border}"></span>{html.escape(text)}</span>'
        for r, text in sizes
    )
    return f'<span style="{_BLOCK}"><b>{html.escape(title)}</b> {marks}</span>'


def swatches(title: str, kinds: Sequence[tuple[Colour, str]], size_px: float = 12) -> str:
    """Marker colours: (colour, what it stands for)."""
    marks = "".join(
        f'<span style="display:inline-flex;align-items:center;gap:3px">'
        f'<span style="display:inline-block;width:{size_px:.0f}px;height:{size_px:.0f}px;'
        f'border-radius:50%;background:{_rgb(c)};border:1px solid {_rgb((60, 60, 60))}"></span>'
        f"{html.escape(text)}</span>"
        for c, text in kinds
    )
    return f'<span style="{_BLOCK}"><b>{html.escape(title)}</b> {marks}</span>'


def lines(title: str, kinds: Sequence[tuple[Colour, float, str]]) -> str:
    """Line colours and widths: (colour, width in pixels, what it stands for)."""
    marks = "".join(
        f'<span style="display:inline-flex;align-items:center;gap:3px">'
        f'<span style="display:inline-block;width:26px;height:{max(w, 1):.0f}px;background:{_rgb(c)}">'
        f"</span>{html.escape(text)}</span>"
        for c, w, text in kinds
    )
    return f'<span style="{_BLOCK}"><b>{html.escape(title)}</b> {marks}</span>'


def legend(parts: Sequence[str], credit: str) -> str:
    """The legend under a map: its parts in a wrapping row, then the outlines' credit."""
    return (
        '<div data-testid="map-legend" style="line-height:1.6">'
        + "".join(parts)
        + f'<div style="font-size:0.7rem;color:#666">{html.escape(credit)}</div></div>'
    )
