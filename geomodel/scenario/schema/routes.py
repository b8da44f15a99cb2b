"""What every DCI route between two sites has: its sites, technology and length."""

from __future__ import annotations

from pydantic import Field, model_validator

from geomodel.scenario.schema.fields import Name, Section
from geomodel.scenario.units import Quantity


class Route(Section):
    """Two sites joined by fibre of one link technology, over a given or estimated length."""

    sites: tuple[Name, Name] = Field(description="the two site names", examples=[["abilene", "ashburn"]])
    technology: Name = Field(description="link technology from the catalogue", examples=["hcf_800zr"])
    length: Quantity("km", gt=0) | None = Field(
        default=None,
        description="route length (default: geodesic distance x route factor)",
        examples=["1900 km"],
    )
    route_factor: float | None = Field(
        default=None,
        ge=1,
        le=3,
        description="route km / great-circle km (default: the technology's)",
        examples=[1.4],
        json_schema_extra={"unit": "1"},
    )

    @model_validator(mode="after")
    def _two_sites(self) -> Route:
        if self.sites[0] == self.sites[1]:
            raise ValueError(f"a link joins two different sites, got {self.sites[0]!r} twice")
        if self.length is not None and self.route_factor is not None:
            raise ValueError("give 'length' or 'route_factor', not both")
        return self
