"""Help that reads like the commands are typed.

typer labels every option with its Python type: a flag such as ``--json`` shows
``<bool>`` and a repeatable option ``<list[str]>``. :func:`tidy_help` clears the
label of flags and names what a repeatable option takes (``--set PATH=VALUE``), and
options that take a catalogue name list the names the loaded plugins provide, read
only when that command's help is shown (loading plugins at start-up would slow every
command).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: repeatable option -> what one occurrence takes
REPEATED_METAVARS = {
    "--variant": "NAME",
    "--set": "PATH=VALUE",
    "--system": "NAME",
    "--technology": "NAME",
}
#: (command, option) -> catalogue kind whose names the option's help lists
CATALOGUE_OPTIONS: dict[tuple[str, str], str] = {
    ("size", "--system"): "hardware systems",
    ("reliability", "--system"): "hardware systems",
    ("dci", "--technology"): "link technologies",
}


def tidy_help(group: Any) -> Any:
    """Apply the labels of the module docstring to every command of ``group`` (the click
    group typer builds; typer vendors click, so its classes are duck-typed here)."""
    for name, command in group.commands.items():
        for param in command.params:
            if getattr(param, "param_type_name", "") != "option":
                continue
            if param.is_flag:
                param.metavar = ""
            elif param.multiple and param.metavar is None:
                long_name = max(param.opts, key=len)
                param.metavar = REPEATED_METAVARS.get(long_name, "VALUE")
        _quiet_help_flag(command)
        listed = {option: kind for (cmd, option), kind in CATALOGUE_OPTIONS.items() if cmd == name}
        if listed:
            _list_catalogue_names(command, listed)
    _quiet_help_flag(group)
    return group


def _quiet_help_flag(command: Any) -> None:
    """``--help`` is a flag too; click makes its option per call, so label it then."""
    make = command.get_help_option

    def get_help_option(ctx: Any) -> Any:
        option = make(ctx)
        if option is not None:
            option.metavar = ""
        return option

    command.get_help_option = get_help_option  # type: ignore[method-assign]


def _list_catalogue_names(command: Any, listed: dict[str, str]) -> None:
    """Add "one of: ..." with the catalogue's names to the options' help, when shown."""
    show: Callable[[Any], str] = command.get_help

    def get_help(ctx: Any) -> str:
        from geomodel.catalog import build_catalog

        catalog = build_catalog()
        for param in command.params:
            kind = next((listed[o] for o in getattr(param, "opts", ()) if o in listed), None)
            if kind is None or getattr(param, "_names_listed", False):
                continue
            names = sorted(catalog.entries(kind))
            shown = ", ".join(names) if names else "none loaded (see `geomodel plugins`)"
            param.help = f"{param.help} One of: {shown}."
            param._names_listed = True  # type: ignore[attr-defined]
        return show(ctx)

    command.get_help = get_help  # type: ignore[method-assign]
