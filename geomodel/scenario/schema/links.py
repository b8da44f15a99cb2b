"""Data-centre interconnect routes between sites."""

from __future__ import annotations

from pydantic import Field

from geomodel.scenario.schema.fields import Count, Name, Section
from geomodel.scenario.schema.planning import LinkCandidate
from geomodel.scenario.schema.routes import Route
from geomodel.scenario.units import Quantity


class LinkRoute(Route):
    """A DCI route between two sites."""

    fibre_pairs: Count = Field(
        default=1,
        ge=1,
        le=1000,
        description="lit fibre pairs on the route",
        examples=[4],
        json_schema_extra={"unit": "pairs"},
    )


class LinkMesh(Section):
    """A link between every pair of sites (within ``max_length`` if given)."""

    technology: Name = Field(description="link technology from the catalogue", examples=["smf_800zr"])
    fibre_pairs: Count = Field(
        default=1,
        ge=1,
        le=1000,
        description="lit fibre pairs on each route",
        examples=[2],
        json_schema_extra={"unit": "pairs"},
    )
    route_factor: float | None = Field(
        default=None,
        ge=1,
        le=3,
        description="route km / great-circle km (default: the technology's)",
        examples=[1.3],
        json_schema_extra={"unit": "1"},
    )
    max_length: Quantity("km", gt=0) | None = Field(
        default=None, description="only pairs whose route is at most this long", examples=["2000 km"]
    )


class Links(Section):
    """Data-centre interconnect between sites: an automatic mesh and/or explicit routes."""

    mesh: LinkMesh | None = Field(
        default=None,
        description="link every site pair with one technology",
        examples=[{"technology": "smf_800zr", "fibre_pairs": 2}],
    )
    routes: list[LinkRoute] = Field(
        default_factory=list,
        description="explicit routes (win over the mesh for their pair)",
        examples=[[{"sites": ["abilene", "ashburn"], "technology": "hcf_800zr"}]],
    )
    candidates: list[LinkCandidate] = Field(
        default_factory=list,
        description="routes on which fibre pairs may be lit (planning mode); a candidate on a "
        "linked pair adds pairs to that link",
        examples=[[{"sites": ["abilene", "quincy"], "technology": "smf_800zr", "max_pairs": 4}]],
    )
