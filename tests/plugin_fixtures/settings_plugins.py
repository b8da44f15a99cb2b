"""Plugins declaring their settings (hook ``extension_settings``), well and badly.

Each is a class whose instances are plugins; register them as ``(name, Plugin())``.
"""

from __future__ import annotations

from pydantic import Field

from geomodel import hookimpl
from geomodel.extensions import ExtensionSettings, Quantity, SiteName


class StoreAt(ExtensionSettings):
    energy: Quantity("MWh", ge=0) = Field(description="energy stored")
    efficiency: float = Field(default=0.9, gt=0, le=1, description="round trip")


class Store(ExtensionSettings):
    horizon_fill: float = Field(default=0.5, ge=0, le=1, description="start full to this share")
    sites: dict[SiteName, StoreAt] = Field(default_factory=dict, description="by site")


class Declared:
    """Declares :class:`Store`."""

    @hookimpl
    def extension_settings(self):
        return Store


class NotAModel:
    @hookimpl
    def extension_settings(self):
        return {"energy": "MWh"}


class Raising:
    @hookimpl
    def extension_settings(self):
        raise RuntimeError("settings model not ready")


class OnlyHardware:
    """Takes no settings: it only registers hardware (none here)."""

    @hookimpl
    def register_hardware_systems(self):
        return []


class SitePathChecker:
    """A scenario check that names its field path, so it is reported at that line."""

    @hookimpl
    def validate_scenario(self, scenario):
        settings = scenario.extensions.get("checker") or {}
        return [f"extensions.checker.sites.{site}: too small" for site in settings.get("sites", {})]
