"""What the browser test reads off the page: DOM checks (clipped text, tables wider than
their column, axis ticks) and screenshot pixels where the DOM cannot say it (a map
label beside its own marker, or joined to it by a leader line)."""

from __future__ import annotations

import io
import math
import re

import numpy as np

from geomodel.ui.components.deck import SITE_TEXT
from geomodel.ui.components.map_view import GAP

#: every element whose text is clipped (wider inside than shown), every table, chart or
#: map reaching past the main column, and every table wider than its own box (a
#: horizontal scrollbar)
CUT_OFF = """() => {
    const found = [];
    const main = document.querySelector('[data-testid="stMain"]') || document.body;
    const right = main.getBoundingClientRect().right + 1;
    const texts = main.querySelectorAll('[data-testid="stMetric"] *, button *, '
        + '[role="tab"] *, [data-testid="stCaptionContainer"] *');
    for (const el of texts) {
        if (el.children.length === 0 && el.innerText && el.scrollWidth > el.clientWidth + 1) {
            found.push('clipped: ' + el.innerText.slice(0, 40));
        }
    }
    for (const el of main.querySelectorAll('input')) {
        if (el.scrollWidth > el.clientWidth + 1) found.push('clipped: ' + el.value.slice(0, 40));
    }
    const blocks = main.querySelectorAll('[data-testid="stTable"], [data-testid="stDataFrame"], '
        + '[data-testid="stPlotlyChart"], [data-testid="stDeckGlJsonChart"]');
    for (const el of blocks) {
        if (el.getBoundingClientRect().right > right) found.push('overflows: ' + el.dataset.testid);
    }
    for (const box of main.querySelectorAll('[data-testid="stTable"]')) {
        for (const el of [box, ...box.querySelectorAll('*')]) {
            const style = getComputedStyle(el);
            if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
                found.push('table scrolls sideways: ' + box.innerText.slice(0, 40));
                break;
            }
        }
        const table = box.querySelector('table');
        if (table && table.getBoundingClientRect().width > box.getBoundingClientRect().width + 1) {
            found.push('table wider than its box: ' + box.innerText.slice(0, 40));
        }
    }
    return found;
}"""

#: the text of every table on the page, one string per table
TABLES = """() => [...document.querySelectorAll('[data-testid="stTable"]')].map(t => t.innerText)"""

#: the tick labels of every plotly chart's axes
TICKS = """() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .xtick text, '
    + '[data-testid="stPlotlyChart"] .ytick text')].map(t => t.textContent)"""

#: a tick that prints an SI prefix of a tiny number (2f = 2e-15) or a negative zero
BAD_TICK = re.compile(r"(\d[fpnµ]$)|(^[-\u2212]0(\.0+)?$)")  # plotly writes minus as U+2212


def pixels(png: bytes) -> np.ndarray:
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)


def _near(region: np.ndarray, colour, tolerance: int = 70) -> int:
    """How many pixels of ``region`` lie within ``tolerance`` of ``colour`` in every channel."""
    if region.size == 0:
        return 0
    return int((np.abs(region - np.array(colour[:3])) <= tolerance).all(axis=2).sum())


def labels_at_their_markers(png: bytes, drawing, colours: dict[str, list[int]]) -> list[str]:
    """Every framed, shown label of ``drawing`` checked on the map's screenshot: text of its
    colour inside its box, and the box beside its marker (within the marker's radius, the
    gap and 3 px) or, for a label that had to move, a leader line of dark pixels from the
    marker's edge to it. Returns what is wrong (empty: all good). The map is centred on its
    view, so screen positions relative to the centre hold at any canvas width."""
    image = pixels(png)
    height, width = image.shape[:2]
    view = drawing.view
    shift_x, shift_y = (width - view.width) / 2, (height - view.height) / 2
    wrong = []
    for label, placed in zip(drawing.labels, drawing.placements, strict=True):
        if not placed.shown or not label.framed:
            continue
        x, y = view.screen(label.lon, label.lat)
        x, y = x + shift_x, y + shift_y
        left, top, right, bottom = (
            v + s for v, s in zip(placed.box, (shift_x, shift_y) * 2, strict=True)
        )
        if left < 0 or top < 0 or right > width or bottom > height:
            wrong.append(f"{label.text}: outside the map")
            continue
        box = image[int(top) : math.ceil(bottom), int(left) : math.ceil(right)]
        colour = colours.get(label.text, SITE_TEXT)
        if _near(box, colour) < 4:
            wrong.append(f"{label.text}: no text of its colour in its box")
        reach = label.radius * 1.5 + GAP + 3.0
        gap = max(left - x, x - right, top - y, y - bottom, 0.0)
        if not placed.leader and gap > reach:
            wrong.append(f"{label.text}: {gap:.0f} px from its marker")
        if placed.leader and not _leader_drawn(image, x, y, label.radius, placed):
            wrong.append(f"{label.text}: moved away without a leader line")
    return wrong


def _grey(patch: np.ndarray) -> bool:
    """Some pixel of ``patch`` is a dark grey (a 1.5 px leader line, anti-aliased onto the
    land or sea: about 125 in each channel)."""
    if patch.size == 0:
        return False
    level, spread = patch.mean(axis=2), patch.max(axis=2) - patch.min(axis=2)
    return bool(((level < 170) & (spread < 50)).any())  # grey, or grey over a blue line


def _leader_drawn(image: np.ndarray, x: float, y: float, radius: float, placed) -> bool:
    """Dark grey pixels along most of the line from the marker's edge to the label."""
    start, length, angle = placed.leader_line(radius)
    turn = math.radians(angle)
    dx, dy = math.cos(turn), -math.sin(turn)
    samples = [start + length * k / 10 for k in range(2, 9)]
    hits = 0
    for distance in samples:
        px, py = round(x + dx * distance), round(y + dy * distance)
        patch = image[max(py - 1, 0) : py + 2, max(px - 1, 0) : px + 2]
        hits += _grey(patch)
    return hits >= len(samples) // 2
