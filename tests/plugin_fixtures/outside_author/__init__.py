"""An outside author's plugins, one module per kind, for the walk of issue 24.

``hardware`` adds a system and no build cost; ``smr`` a small modular reactor with its
build cost (asset class ``firm``); ``energy_cap`` a model extension with declared
settings and outputs; ``rival`` a second distribution's system of the same name as
``hardware``'s. The weather point is ``plugin_fixtures.reanalysis_weather``.
"""
