"""The ``geomodel`` command: a thin shell over the library.

Errors meant for the user are printed as one line on stderr; ``--debug``
anywhere on the command line shows the traceback instead.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer
from typer.exceptions import TyperException
from typer.main import get_command

from geomodel.cli import (
    analysis,
    batch_command,
    performance_commands,
    plugin_kit,
    plugins_command,
    run_commands,
    scenario_commands,
)
from geomodel.cli.help_labels import tidy_help
from geomodel.errors import GeomodelError, UsageError

app = typer.Typer(
    name="geomodel",
    help="Plan where AI compute runs across geo-distributed data centres.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command("plugins")(plugins_command.plugins)
app.command("new-plugin")(plugin_kit.new_plugin)
app.command("check-plugin")(plugin_kit.check_plugin)
app.command("validate")(scenario_commands.validate)
app.command("schema")(scenario_commands.schema)
app.command("run")(run_commands.run)
app.command("report")(run_commands.report)
app.command("batch")(batch_command.batch)
analysis.register(app)
performance_commands.register(app)

DEBUG_FLAG = "--debug"


@app.callback()
def _root(
    debug: bool = typer.Option(False, DEBUG_FLAG, help="Show Python tracebacks on errors."),
) -> None:
    """Plan where AI compute runs across geo-distributed data centres."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; return the exit code (0 ok, 1 failed check, 2 bad usage)."""
    args = list(sys.argv[1:] if argv is None else argv)
    debug = DEBUG_FLAG in args
    args = [arg for arg in args if arg != DEBUG_FLAG]  # accepted anywhere on the line
    try:
        command = tidy_help(get_command(app))
        code = command.main(args=args, prog_name="geomodel", standalone_mode=False)
        if isinstance(code, int) and code:  # typer returns a raised Exit's code here
            return code
    except typer.Exit as done:
        return done.exit_code
    except typer.Abort:
        typer.echo("Aborted.", err=True)
        return 130
    except TyperException as error:  # click's usage errors, as vendored by typer
        show = getattr(error, "show", None)
        if show is not None:
            show()
        else:
            typer.echo(f"Error: {error.format_message()}", err=True)
        return error.exit_code
    except GeomodelError as error:
        if debug:
            raise
        typer.echo(f"Error: {error}", err=True)
        return 2 if isinstance(error, UsageError) else 1
    except Exception:
        if debug:
            raise
        import traceback

        typer.echo(
            f"Internal error: {traceback.format_exc(limit=0).strip()}\n"
            "Rerun with --debug for the traceback and report it as a bug.",
            err=True,
        )
        return 3
    return 0


def run() -> None:  # pragma: no cover - console-script shim
    sys.exit(main())
