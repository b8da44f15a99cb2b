"""Load plugins from the ``geomodel`` entry-point group, each on its own.

Nothing happens at import time: :func:`load_plugins` builds a fresh pluggy
manager on each call. geomodel's own plugins (distribution ``geomodel``) load
first, so a third-party entry can never replace a built-in one; a plugin name two
third-party distributions claim loads from neither, so no install order decides
which plugin a run uses (:func:`load_entry_points`). A plugin that
fails to import, was built for another plugin API, or raises in a hook is
recorded as a :class:`PluginFailure` with its distribution's name, and the others
still load; ``GEOMODEL_STRICT_PLUGINS=1`` turns the failures into one error that
lists all of them. ``GEOMODEL_DISABLE_PLUGINS=a,b`` blocks plugins by entry-point
or distribution name (a name matching nothing installed is a warning).
``GEOMODEL_TRACE_HOOKS=1`` prints one line per hook call to stderr: hook, plugin,
arguments, result and time taken.
"""

from __future__ import annotations

import difflib
import os
import re
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from types import ModuleType
from typing import Any

import pluggy
from pydantic import ValidationError

from geomodel import hookspecs
from geomodel.errors import PluginError

STRICT_ENV = "GEOMODEL_STRICT_PLUGINS"
DISABLE_ENV = "GEOMODEL_DISABLE_PLUGINS"
TRACE_ENV = "GEOMODEL_TRACE_HOOKS"
#: Solve without a model extension whose ``extend_model`` raises, instead of failing.
ALLOW_BROKEN_EXTENSIONS_ENV = "GEOMODEL_ALLOW_BROKEN_EXTENSIONS"
#: The distribution whose plugins are the built-ins; they load before any other.
BUILTIN_DISTRIBUTION = "geomodel"


@dataclass(frozen=True)
class PluginInfo:
    """One loaded plugin: where it came from and which API it was built for."""

    name: str
    distribution: str
    version: str
    module: str
    api_version: str

    @property
    def label(self) -> str:
        return f"plugin {self.name!r} (distribution {self.distribution} {self.version})"


@dataclass(frozen=True)
class PluginFailure:
    """A plugin, or one of its hooks or entries, that could not be used."""

    name: str
    distribution: str
    stage: str
    reason: str
    #: the catalogue entry the failure is about, when it is about one
    entry: str = ""
    #: its kind ("hardware systems", ...), or the kind a failed catalogue hook registers
    kind: str = ""

    def __str__(self) -> str:
        return f"plugin {self.name!r} (distribution {self.distribution}) {self.stage}: {self.reason}"


@dataclass
class PluginHost:
    """A pluggy manager plus what was learnt while loading it.

    The rest of geomodel calls hooks through :meth:`call_each`, which calls every
    implementation on its own so that one plugin raising does not hide the others.
    """

    manager: pluggy.PluginManager
    plugins: dict[str, PluginInfo] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)
    strict: bool = False
    #: things worth saying that are not a plugin's fault (an unknown name to disable)
    warnings: list[str] = field(default_factory=list)
    #: plugins GEOMODEL_DISABLE_PLUGINS kept out: entry-point name -> distribution
    disabled: dict[str, str] = field(default_factory=dict)

    def fail(
        self,
        name: str,
        stage: str,
        reason: str,
        distribution: str | None = None,
        *,
        entry: str = "",
        kind: str = "",
    ) -> PluginFailure:
        """Record a failure (strict mode raises them all together: :meth:`raise_if_strict`)."""
        if distribution is None:
            info = self.plugins.get(name)
            distribution = info.distribution if info else "unknown"
        failure = PluginFailure(name, distribution, stage, reason, entry, kind)
        self.failures.append(failure)
        return failure

    def raise_if_strict(self) -> None:
        """In strict mode, raise one :class:`PluginError` listing every failure so far."""
        if self.strict and self.failures:
            raise PluginError(strict_message(self.failures))

    def call_each(self, hook_name: str, **kwargs: Any) -> Iterator[tuple[PluginInfo, Any]]:
        """Yield (plugin, result) for each implementation of a hook, in load order.

        An implementation that raises is recorded as a failure and skipped.
        """
        caller = getattr(self.manager.hook, hook_name)
        trace = _env_flag(TRACE_ENV)
        for impl in caller.get_hookimpls():  # registration order; pluggy only *calls* LIFO
            arguments = {name: kwargs[name] for name in impl.argnames}
            started = time.perf_counter()
            try:
                result = impl.function(**arguments)
            except Exception as error:  # a plugin's fault must not stop the others
                reason = f"{type(error).__name__}: {one_line(error)}"
                if trace:
                    _trace(hook_name, impl.plugin_name, arguments, f"raised {reason}", started)
                self.fail(impl.plugin_name, hook_name, reason)
                continue
            if trace:
                _trace(hook_name, impl.plugin_name, arguments, summarise(result), started)
            yield self.plugins[impl.plugin_name], result


def strict_message(failures: Sequence[PluginFailure]) -> str:
    """Every failure, one per line (under a head line when there are several)."""
    if len(failures) == 1:
        return f"{failures[0]} ({STRICT_ENV} is set)"
    lines = [f"{len(failures)} plugin failures ({STRICT_ENV} is set):"]
    return "\n".join([*lines, *(f"  {failure}" for failure in failures)])


def summarise(value: Any, width: int = 60) -> str:
    """A short description of a hook argument or result for the trace."""
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    if isinstance(value, str):
        return repr(value if len(value) <= width else value[: width - 3] + "...")
    if isinstance(value, list | tuple):
        kinds = sorted({type(item).__name__ for item in value})
        return f"{type(value).__name__} of {len(value)}" + (f" {'/'.join(kinds)}" if kinds else "")
    if isinstance(value, type):  # extension_settings returns its settings model
        return f"class {value.__name__}"
    sizes = getattr(value, "sizes", None)  # an xarray Dataset
    if isinstance(sizes, Mapping):
        return f"{type(value).__name__}({', '.join(f'{k}={n}' for k, n in sizes.items())})"
    name = getattr(value, "name", None)
    return f"{type(value).__name__} {name!r}" if isinstance(name, str) else type(value).__name__


def _trace(hook_name: str, plugin: str, arguments: dict[str, Any], outcome: str, started: float) -> None:
    elapsed_ms = (time.perf_counter() - started) * 1000
    shown = ", ".join(f"{k}={summarise(v)}" for k, v in arguments.items())
    print(
        f"[geomodel trace] {hook_name}({shown}) plugin={plugin!r} -> {outcome} in {elapsed_ms:.1f} ms",
        file=sys.stderr,
        flush=True,
    )


def plugin_api_major(version: str) -> str:
    return str(version).split(".")[0]


def api_version_problem(declared: str) -> str:
    """Why a plugin written for plugin API ``declared`` cannot load here: another major
    version ("" when the major versions agree)."""
    provided = hookspecs.PLUGIN_API_VERSION
    if plugin_api_major(declared) != plugin_api_major(provided):
        return f"built for plugin API {declared}, but this geomodel provides plugin API {provided}"
    return ""


def later_api_note(declared: str) -> str:
    """For a plugin written for a later minor version than this geomodel provides: the
    geomodel release that provides it ("" otherwise), to say why its hooks are unknown."""
    provided = hookspecs.PLUGIN_API_VERSION
    try:
        later = tuple(map(int, declared.split("."))) > tuple(map(int, provided.split(".")))
    except ValueError:
        return ""
    if not later:
        return ""
    release = hookspecs.PLUGIN_API_HISTORY.get(declared)
    needs = f"geomodel {release} or later" if release else "a later geomodel"
    return (
        f"; it is built for plugin API {declared}, which {needs} provides (this geomodel "
        f"provides {provided}): upgrade geomodel"
    )


def _env_flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in {"1", "true", "yes", "on"}


def component_prefix(plugin: str) -> str:
    """The prefix of a plugin's model components: its name with non-word characters as ``_``."""
    return re.sub(r"\W", "_", plugin) + "_"


def normalise_name(name: str) -> str:
    """PEP 503 form of a distribution or plugin name: lower case, runs of -_. as one -."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _disabled_names() -> set[str]:
    names = os.environ.get(DISABLE_ENV, "").split(",")
    return {normalise_name(n.strip()) for n in names if n.strip()}


def one_line(error: Exception) -> str:
    """An exception as one line; a pydantic ValidationError as 'field: message (got value)'."""
    if isinstance(error, ValidationError):
        return "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or 'entry'}: {e['msg']} (got {e.get('input')!r})"
            for e in error.errors()
        )
    return " ".join(str(error).split())


def load_plugins(
    *,
    use_entry_points: bool = True,
    extra_plugins: Sequence[tuple[str, ModuleType | object]] = (),
    strict: bool | None = None,
) -> PluginHost:
    """Build a fresh plugin host from the entry-point group plus ``extra_plugins``.

    Entry points load in :func:`installed_entry_points` order: geomodel's built-ins
    first, then the others by distribution and entry-point name. ``extra_plugins``
    are (name, module-or-object) pairs registered after the entry points; tests and
    ``geomodel.testing`` use them to load a plugin that is not installed. In strict
    mode every load failure is raised at the end, together.
    """
    host = new_host(strict)
    disabled = _disabled_names()
    known: set[str] = set()
    if use_entry_points:
        enabled = []
        for entry_point in installed_entry_points():
            names = {normalise_name(entry_point.name), normalise_name(_dist_name(entry_point))}
            known |= names
            if names & disabled:
                host.disabled[entry_point.name] = _dist_name(entry_point)
            else:
                enabled.append(entry_point)
        load_entry_points(host, enabled)
    for name, plugin in extra_plugins:
        known.add(normalise_name(name))
        if normalise_name(name) not in disabled:
            _register(host, name, plugin, "local", "0", _module_name(plugin))
    if use_entry_points:  # without them, a test names only its own plugins
        host.warnings += _unknown_disabled(disabled - known, known)
    host.raise_if_strict()
    return host


def new_host(strict: bool | None = None) -> PluginHost:
    """An empty host: a pluggy manager with geomodel's hook specifications."""
    manager = pluggy.PluginManager(hookspecs.PROJECT_NAME)
    manager.add_hookspecs(hookspecs)
    return PluginHost(manager, strict=strict_from_environment() if strict is None else strict)


def strict_from_environment() -> bool:
    """True when ``GEOMODEL_STRICT_PLUGINS`` is set to 1, true, yes or on."""
    return _env_flag(STRICT_ENV)


def broken_extensions_allowed() -> bool:
    """True when ``GEOMODEL_ALLOW_BROKEN_EXTENSIONS`` is set to 1, true, yes or on."""
    return _env_flag(ALLOW_BROKEN_EXTENSIONS_ENV)


def installed_entry_points() -> list[EntryPoint]:
    """Entry points of the ``geomodel`` group in load order: the built-ins (distribution
    ``geomodel``) first, so they always win a name; then by distribution and name."""
    return sorted(
        entry_points(group=hookspecs.PROJECT_NAME),
        key=lambda ep: (
            _dist_name(ep) != BUILTIN_DISTRIBUTION,
            normalise_name(_dist_name(ep)),
            ep.name,
        ),
    )


def _unknown_disabled(unknown: set[str], known: set[str]) -> list[str]:
    """A warning per name in GEOMODEL_DISABLE_PLUGINS that matches no plugin."""
    warnings = []
    for name in sorted(unknown):
        close = difflib.get_close_matches(name, sorted(known), n=2, cutoff=0.6)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        warnings.append(
            f"{DISABLE_ENV} names {name!r}, which is no installed plugin or distribution, "
            f"so it disables nothing{hint} (see `geomodel plugins`)"
        )
    return warnings


def _dist_name(entry_point: EntryPoint) -> str:
    return _dist_field(entry_point, "name")


def _dist_field(entry_point: EntryPoint, field_name: str) -> str:
    """A field of the entry point's distribution; "unknown" when its metadata is broken
    (for example half-written while pip installs or removes it)."""
    try:
        return str(getattr(entry_point.dist, field_name)) if entry_point.dist else "unknown"
    except Exception:
        return "unknown"


def _module_name(plugin: object) -> str:
    return getattr(plugin, "__name__", type(plugin).__name__)


def load_entry_points(host: PluginHost, entry_points_: Sequence[EntryPoint]) -> None:
    """Load each entry point on its own, in the order given, into ``host``.

    A plugin name claimed by two distributions other than geomodel's is refused for
    all of them: which one would load must not depend on the order of installed
    distributions. A built-in keeps its name (built-ins come first); a later claim
    is refused.
    """
    claims: dict[str, list[str]] = {}
    for entry_point in entry_points_:
        claims.setdefault(entry_point.name, []).append(_dist_name(entry_point))
    for entry_point in entry_points_:
        distributions = claims[entry_point.name]
        contested = BUILTIN_DISTRIBUTION not in distributions and len(set(distributions)) > 1
        if contested:
            others = sorted(set(distributions) - {_dist_name(entry_point)}) or distributions
            host.fail(
                entry_point.name,
                "load",
                name_clash_reason(entry_point.name, others),
                _dist_name(entry_point),
            )
            continue
        _load_entry_point(host, entry_point)


def name_clash_reason(name: str, others: Sequence[str]) -> str:
    """Why a plugin name two third-party distributions claim loads from neither."""
    listed = " and ".join(others)
    return (
        f"refused: plugin name {name!r} is also claimed by distribution {listed}, so neither "
        f"loads (which one would must not depend on install order); uninstall one, or "
        f"disable one by its distribution name ({DISABLE_ENV}={others[0]})"
    )


def _load_entry_point(host: PluginHost, entry_point: EntryPoint) -> None:
    distribution = _dist_name(entry_point)
    version = _dist_field(entry_point, "version")
    try:
        plugin = entry_point.load()
    except Exception as error:  # ImportError, SyntaxError, anything the module raises
        host.fail(entry_point.name, "load", f"{type(error).__name__}: {error}", distribution)
        return
    _register(host, entry_point.name, plugin, distribution, version, entry_point.value)


def _register(
    host: PluginHost, name: str, plugin: object, distribution: str, version: str, module: str
) -> None:
    api_version = str(getattr(plugin, "GEOMODEL_PLUGIN_API", hookspecs.PLUGIN_API_VERSION))
    info = PluginInfo(name, distribution, version, module, api_version)
    if name in host.plugins:
        other = host.plugins[name].distribution
        first = (
            " (geomodel's built-in, which always loads first)" if other == BUILTIN_DISTRIBUTION else ""
        )
        reason = f"refused: plugin name {name!r} is already used by {other}{first}"
        host.fail(name, "load", reason, distribution)
        return
    reason = api_version_problem(api_version)
    if reason:
        host.fail(name, "load", reason, distribution)
        return
    try:
        host.manager.register(plugin, name=name)
    except Exception as error:  # pluggy rejects bad hook signatures
        host.fail(name, "load", f"{type(error).__name__}: {error}", distribution)
        return
    unknown = [
        c.name
        for c in host.manager.get_hookcallers(plugin) or []
        if not c.has_spec() and any(not i.optionalhook for i in c.get_hookimpls() if i.plugin is plugin)
    ]
    if unknown:
        host.manager.unregister(plugin)
        reason = f"implements unknown hooks {sorted(unknown)}{later_api_note(api_version)}"
        host.fail(name, "load", reason, distribution)
        return
    host.plugins[name] = info
