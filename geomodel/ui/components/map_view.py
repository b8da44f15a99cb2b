"""Map geometry without a browser: fit the view to every point, place labels apart.

deck.gl draws in Web Mercator: at zoom ``z`` the world is ``512 x 2**z`` pixels
wide, with longitude mapped linearly and latitude through ``ln(tan(pi/4 + lat/2))``.
Knowing the map's size in pixels (the app sets its height and knows roughly its
width), the view that shows every site and region can be computed here, and so
can where each point lands on screen, which is what label placement needs:
labels are offset from their point in pixels, so labels that do not overlap at
the first view only move further apart when the user zooms in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import pydeck as pdk

TILE = 512.0  #: deck.gl's world width in pixels at zoom 0
MAX_ZOOM = 7.0  #: closest first view (one site, or sites a few km apart)
MIN_ZOOM = 0.0
#: room left around the points, pixels, before labels are placed (:func:`fit_and_place`
#: then makes room for the labels and markers themselves)
PAD_X, PAD_Y = 40.0, 30.0
#: what labels and markers keep from the map's edge, pixels
MARGIN = 6.0


def world_xy(lon: float, lat: float) -> tuple[float, float]:
    """Web Mercator position at zoom 0, pixels (x east, y south)."""
    lat = max(min(lat, 85.0511), -85.0511)
    x = (lon + 180.0) / 360.0 * TILE
    y = (1.0 - math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)) / math.pi) / 2.0 * TILE
    return x, y


def _lat_of(y: float) -> float:
    return math.degrees(2 * math.atan(math.exp(math.pi * (1 - 2 * y / TILE))) - math.pi / 2)


@dataclass(frozen=True)
class View:
    """A first view: centre, zoom and the map's size in pixels."""

    lon: float
    lat: float
    zoom: float
    width: float
    height: float

    def screen(self, lon: float, lat: float) -> tuple[float, float]:
        """Where a point lands on the map, pixels from its top-left corner."""
        scale = 2.0**self.zoom
        cx, cy = world_xy(self.lon, self.lat)
        x, y = world_xy(lon, lat)
        return self.width / 2 + (x - cx) * scale, self.height / 2 + (y - cy) * scale

    def deck_view(self) -> pdk.ViewState:
        return pdk.ViewState(longitude=self.lon, latitude=self.lat, zoom=self.zoom)


def fit_view(lons: Sequence[float], lats: Sequence[float], width: float, height: float) -> View:
    """The closest view (at most :data:`MAX_ZOOM`) that shows every point inside the
    map with :data:`PAD_X` / :data:`PAD_Y` pixels to spare."""
    if not len(lons):
        return View(0.0, 20.0, 1.0, width, height)
    points = [world_xy(lon, lat) for lon, lat in zip(lons, lats, strict=True)]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    span_x, span_y = max(xs) - min(xs), max(ys) - min(ys)
    room_x, room_y = max(width - 2 * PAD_X, 40.0), max(height - 2 * PAD_Y, 40.0)
    zoom = MAX_ZOOM
    if span_x > 0:
        zoom = min(zoom, math.log2(room_x / span_x))
    if span_y > 0:
        zoom = min(zoom, math.log2(room_y / span_y))
    zoom = max(MIN_ZOOM, zoom)
    cx, cy = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
    return View(cx / TILE * 360.0 - 180.0, _lat_of(cy), zoom, width, height)


@dataclass(frozen=True)
class Label:
    """A point to label: where, what, how big its marker is and the text's size (pixels);
    ``framed``: the first view must show it (what the map is about; the others are drawn
    and labelled where they fall)."""

    lon: float
    lat: float
    text: str
    radius: float
    font: float = 13.0
    framed: bool = True


@dataclass(frozen=True)
class Placement:
    """A label's pixel offset from its point and how its text hangs from there."""

    offset: tuple[float, float]
    anchor: str  #: TextLayer text anchor: start, middle or end
    baseline: str  #: TextLayer alignment baseline: center, top or bottom
    box: tuple[float, float, float, float]  #: left, top, right, bottom on screen
    #: False when every place the label could go covers a label placed before it: the
    #: label is left out (its marker's hover text still names it)
    shown: bool = True
    #: the label sits away from its marker (no place beside it was free): a leader line
    #: joins them
    leader: bool = False

    def leader_line(self, radius: float) -> tuple[float, float, float]:
        """The leader line from the marker's edge to the label: its start offset along the
        line (pixels), length (pixels) and angle (degrees anticlockwise on screen)."""
        dx, dy = self.offset
        length = math.hypot(dx, dy)
        return radius, max(length - radius, 0.0), math.degrees(math.atan2(-dy, dx))


#: text is about this many font sizes wide per character (sans-serif, mixed case)
CHAR_WIDTH = 0.6
GAP = 4.0


def _box(x: float, y: float, w: float, h: float, anchor: str, baseline: str) -> tuple:
    left = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
    top = {"center": y - h / 2, "top": y, "bottom": y - h}[baseline]
    return (left, top, left + w, top + h)


def _overlap(a: tuple, b: tuple) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def _disc_box(x: float, y: float, r: float) -> tuple:
    return (x - r, y - r, x + r, y + r)


#: how far out the label's places lie, in steps: beside the marker first, then further
#: out, with a leader line from its marker
REACHES = (1.0, 2.2, 3.6, 5.5)


def _candidates(label: Label) -> list[tuple[float, float, str, str, bool]]:
    """Offsets to try, nearest first: right, left, above, below, the corners, then further
    out (those with a leader line)."""
    found = []
    for reach in REACHES:
        r = label.radius * min(reach, 1.5) + GAP * reach * (1.0 if reach == 1.0 else 2.0)
        d = r * 0.75
        leader = reach > 1.0
        found += [
            (r, 0.0, "start", "center", leader),
            (-r, 0.0, "end", "center", leader),
            (0.0, -r, "middle", "bottom", leader),
            (0.0, r, "middle", "top", leader),
            (d, -d, "start", "bottom", leader),
            (d, d, "start", "top", leader),
            (-d, -d, "end", "bottom", leader),
            (-d, d, "end", "top", leader),
        ]
    return found


def place_labels(labels: Sequence[Label], view: View) -> list[Placement]:
    """A placement for each label such that no two labels overlap and no label covers a
    marker, where the candidates allow (else the least overlapping one), in the given
    order of priority; labels stay inside the map where they can. A label that would
    cover an earlier one wherever it went is left out (``shown=False``): on a crowded
    map a lower-priority name gives way rather than two becoming unreadable."""
    screen = [view.screen(label.lon, label.lat) for label in labels]
    discs = [_disc_box(x, y, label.radius) for (x, y), label in zip(screen, labels, strict=True)]
    frame = (0.0, 0.0, view.width, view.height)
    placed: list[tuple] = []
    result: list[Placement] = []
    for index, ((x, y), label) in enumerate(zip(screen, labels, strict=True)):
        w = len(label.text) * label.font * CHAR_WIDTH
        h = label.font * 1.25
        best: tuple[float, float, Placement] | None = None
        for dx, dy, anchor, baseline, leader in _candidates(label):
            box = _box(x + dx, y + dy, w, h, anchor, baseline)
            covered = sum(_overlap(box, other) for other in placed)
            clash = covered + sum(_overlap(box, disc) for i, disc in enumerate(discs) if i != index)
            outside = w * h - _overlap(box, frame)
            score = clash + 0.5 * outside
            if best is None or score < best[0]:
                best = (score, covered, Placement((dx, dy), anchor, baseline, box, leader=leader))
            if score == 0:
                break
        assert best is not None
        _, covered, placement = best
        if covered > 0:
            placement = replace(placement, shown=False)
        else:
            placed.append(placement.box)
        result.append(placement)
    return result


def _content_box(view: View, labels: Sequence[Label], placements: Sequence[Placement]) -> tuple:
    """Screen box holding every framed marker and its label."""
    boxes = [p.box for p, label in zip(placements, labels, strict=True) if p.shown and label.framed]
    for label in labels:
        if label.framed:
            x, y = view.screen(label.lon, label.lat)
            boxes.append(_disc_box(x, y, label.radius))
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def fit_and_place(labels: Sequence[Label], width: float, height: float) -> tuple[View, list[Placement]]:
    """The view framed on what the map is about (the ``framed`` labels' markers and their
    labels: zooming out and recentring until the placed labels fit, a few rounds at most),
    and every label's placement in it."""
    if not any(lb.framed for lb in labels):  # nothing in particular: frame everything
        labels = [replace(lb, framed=True) for lb in labels]
    framed = [lb for lb in labels if lb.framed]
    view = fit_view([lb.lon for lb in framed], [lb.lat for lb in framed], width, height)
    placements = place_labels(labels, view)
    for _ in range(8):
        if not framed:
            break
        left, top, right, bottom = _content_box(view, labels, placements)
        room_x, room_y = width - 2 * MARGIN, height - 2 * MARGIN
        if left >= MARGIN and top >= MARGIN and right <= width - MARGIN and bottom <= height - MARGIN:
            break
        scale = 2.0**view.zoom
        cx, cy = world_xy(view.lon, view.lat)
        # recentre on the content, and zoom out as far as it overflows
        cx += ((left + right) / 2 - width / 2) / scale
        cy += ((top + bottom) / 2 - height / 2) / scale
        overflow = max((right - left) / room_x, (bottom - top) / room_y, 1.0)
        zoom = max(MIN_ZOOM, view.zoom - math.log2(overflow) - 0.05)
        view = replace(view, lon=cx / TILE * 360.0 - 180.0, lat=_lat_of(cy), zoom=zoom)
        placements = place_labels(labels, view)
    return view, placements


#: a map splits into two panels when its points leave a gap this wide (a share of their
#: whole east-west span) between two groups, and span at least this many degrees
SPLIT_GAP_SHARE, SPLIT_MIN_SPAN_DEG = 0.4, 60.0


def split(lons: Sequence[float]) -> list[list[int]]:
    """The points in one group, or in two (west, east) when an ocean lies between them:
    sites on two continents are two panels, each framed on its own, not one map that is
    mostly the Atlantic."""
    order = sorted(range(len(lons)), key=lambda i: lons[i])
    if len(order) < 2:
        return [order]
    span = lons[order[-1]] - lons[order[0]]
    gaps = [lons[order[k + 1]] - lons[order[k]] for k in range(len(order) - 1)]
    widest = max(range(len(gaps)), key=gaps.__getitem__)
    if span < SPLIT_MIN_SPAN_DEG or gaps[widest] < SPLIT_GAP_SHARE * span:
        return [order]
    return [order[: widest + 1], order[widest + 1 :]]


def panel_widths(groups: list[list[int]], lons: Sequence[float], width: float) -> list[float]:
    """Each panel's width in pixels, so that both are drawn at one scale: each group's
    east-west span at that scale plus room for its labels (at least a quarter each)."""
    if len(groups) == 1:
        return [width]
    spans = [
        world_xy(max(lons[i] for i in g), 0.0)[0] - world_xy(min(lons[i] for i in g), 0.0)[0]
        for g in groups
    ]
    room = 2 * PAD_X + LABEL_ROOM
    scale = max(width - room * len(groups), 40.0) / max(sum(spans), 1e-6)
    needed = [span * scale + room for span in spans]
    shares = [max(n / sum(needed), 1 / 4) for n in needed]
    return [width * share / sum(shares) for share in shares]


#: pixels a panel keeps beside its points for their labels
LABEL_ROOM = 120.0
