"""Digitise the Helios trace statistics the trace-week example is generated from.

Source: Hu, Sun, Yan, Wen and Zhang, "Characterization and Prediction of Deep
Learning Workloads in Large-Scale GPU Datacenters", SC '21
(doi:10.1145/3458817.3476223), whose figures the authors publish as vector PDFs
with their analysis code in github.com/S-Lab-System-Group/HeliosArtifact. The
curves are read here from the PDFs' own drawing paths (no pixels, no eye): each
plotted point's y is mapped to the axis through the figure's grid lines and
tick labels; its x is known from the notebook that drew it.

For the Saturn cluster (2,080 GPUs, 698,896 GPU jobs, April-September 2020):

* ``submissions``: mean GPU jobs submitted in each hour of the day (the
  trace's clock), ``cluster_diurnal.pdf`` panel (b);
* ``duration_cdf``: % of GPU jobs running at most 2**i seconds, i = 0..21,
  ``job_cdf_jobtime.pdf`` panel (a);
* ``gpus_cdf``: % of GPU jobs using at most n GPUs, n in 1, 2, 4, 8, 12, 16,
  24, 32, 40, 48, 56, 64 and 2048 (the figure's "> 64"), ``job_cdf_gpunum.pdf``
  panel (a).

Run once, by hand (it needs PyMuPDF, not a geomodel dependency)::

    pip install pymupdf
    git clone https://github.com/S-Lab-System-Group/HeliosArtifact /tmp/HeliosArtifact
    cd scenarios/data && python digitise_helios.py /tmp/HeliosArtifact > helios_saturn_statistics.csv
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

SATURN = (0.17, 0.63, 0.17)  # the figures' colour of the Saturn curves
SOURCE = (
    "Hu et al. SC'21 (doi:10.1145/3458817.3476223), Saturn cluster; curve read from the vector "
    "paths of {file} in github.com/S-Lab-System-Group/HeliosArtifact (commit bdaae10)"
)
FIGURES = {
    "submissions": (
        "analysis/2_cluster characterization/cluster_diurnal.pdf",
        "lower",
        list(range(24)),
        "jobs/h",
        "mean GPU jobs submitted in this hour of the day",
    ),
    "duration_cdf": (
        "analysis/3_job characterization/job_cdf_jobtime.pdf",
        "left",
        [2**i for i in range(22)],
        "%",
        "GPU jobs running at most x seconds",
    ),
    "gpus_cdf": (
        "analysis/3_job characterization/job_cdf_gpunum.pdf",
        "left",
        [1, 2, 4, 8, 12, 16, 24, 32, 40, 48, 56, 64, 2048],
        "%",
        "GPU jobs using at most x GPUs",
    ),
}


def curve_and_axis(path: Path, panel: str):
    """The Saturn curve's points (PDF coordinates) and the panel's y axis map."""
    import pymupdf

    page = pymupdf.open(path)[0]
    middle_x, middle_y = page.rect.width / 2, page.rect.height / 2
    in_panel = {
        "left": lambda x, y: x < middle_x,
        "lower": lambda x, y: y > middle_y,
    }[panel]
    curve = None
    grid: list[float] = []
    for drawing in page.get_drawings():
        items = drawing["items"]
        points = [items[0][1]] + [item[2] for item in items if item[0] == "l"]
        colour = tuple(round(c, 2) for c in (drawing.get("color") or ()))
        if drawing["type"] == "s" and colour == SATURN and len(items) > 5:
            if in_panel(points[0].x, points[0].y):
                curve = [(p.x, p.y) for p in points]
        elif drawing["type"] == "s" and len(items) == 1 and items[0][0] == "l":
            a, b = items[0][1], items[0][2]
            if abs(a.y - b.y) < 1e-6 and abs(a.x - b.x) > 100 and in_panel(a.x, a.y):
                grid.append(a.y)
    labels = []
    for block in page.get_text("dict")["blocks"]:
        for line in block.get("lines", []):
            for span in line["spans"]:
                _, y0, x1, y1 = span["bbox"]
                text = span["text"].strip()
                if text.replace(".", "", 1).isdigit() and in_panel(x1, (y0 + y1) / 2):
                    labels.append((x1, (y0 + y1) / 2, float(text)))
    leftmost = min(x for x, _, _ in labels)
    ticks = [(y, value) for x, y, value in labels if x < leftmost + 5]
    pairs = [(min(grid, key=lambda g, y=y: abs(g - y)), value) for y, value in ticks]
    (ya, va), (yb, vb) = min(pairs), max(pairs)
    return curve, lambda y: va + (y - ya) * (vb - va) / (yb - ya)


def main(artifact: Path) -> None:
    writer = csv.writer(sys.stdout, lineterminator="\n")
    writer.writerow(["statistic", "x", "value", "unit", "meaning", "source", "source_type"])
    for statistic, (file, panel, xs, unit, meaning) in FIGURES.items():
        curve, y_value = curve_and_axis(artifact / file, panel)
        assert len(curve) == len(xs), (statistic, len(curve))
        for x, (_, y) in zip(xs, curve, strict=True):
            writer.writerow(
                [statistic, x, f"{y_value(y):.3f}", unit, meaning, SOURCE.format(file=file), "paper"]
            )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
