"""The purestate command line (the imperative shell).

Every command lives in its own module under ``purestate.cli`` and is registered here. Commands
parse options, call the pure core, render and save; bad input becomes one line on stderr and a
non-zero exit, never a traceback.
"""

from __future__ import annotations

import importlib
import os
import signal
import sys
from collections.abc import MutableMapping, Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from purestate.cli import common


class OneLineErrors(TyperGroup):
    """The command group of the app: a usage error (an unknown option, a count out of range) is
    one line on stderr and exit code 2, like every other bad input, not a boxed panel."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the app; with ``standalone_mode`` exit with its code, as click does."""
        _no_flag_placeholders(self)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except typer.Abort:
            common.error("aborted")
            code = 1
        except typer.TyperException as e:  # typer's own click: usage errors and the like
            text = e.format_message() if hasattr(e, "format_message") else str(e)
            if type(e).__name__ == "NoArgsIsHelpError":  # `purestate` alone: the help, as asked
                typer.echo(text)
                code = 0
            else:
                ctx = getattr(e, "ctx", None)
                hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
                common.error(" ".join(text.split()) + hint)
                code = getattr(e, "exit_code", 2)
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


def _no_flag_placeholders(command: Any) -> None:
    """Show flags in ``--help`` without a value placeholder.

    typer labels every option with its type, so a flag such as ``--json`` read ``<bool>`` as if
    it took a value; an empty metavar leaves the column blank for flags only.
    """
    # the help option is made on first use and then kept; make it now so it is seen here too
    helps = command.get_help_option(typer.Context(command))
    for param in [*command.params, *([helps] if helps is not None else [])]:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        _no_flag_placeholders(sub)


COMMANDS: dict[str, str] = {
    "analyze": "analyze",
    "evaluate": "evaluate",
    "games": "games",
    "agents": "games",
    "selfplay": "selfplay",
    "play": "play",
    "replay": "replay",
    "serve": "serve",
    "solve": "solve",
    "sweep": "sweep",
    "tournament": "tournament",
    "menace": "menace",
    "tron": "tron",
}
"""Every command and group of commands, in the order ``purestate --help`` lists them, and the
module of ``purestate.cli`` that defines it (each module adds its commands to ``app``)."""


class Commands(typer.Typer):
    """The app, whose command modules are imported when it is first read, all of them.

    Importing every command module (and what each one imports) cost every command a tenth of a
    second at start-up; ``main`` imports only the module of the command typed (``only``), and
    whoever reads the app's commands otherwise (``typer.main.get_command(app)``, ``--help``, a
    test's runner) gets them all, in ``COMMANDS``' order whichever module was imported first.
    """

    def __init__(self, **kw: Any) -> None:
        self._typed_only = False
        self._importing = False
        self._imported = False
        super().__init__(**kw)

    @property
    def registered_commands(self) -> list[Any]:
        """The commands (typer's list), every module's once the app is read."""
        self._import_all()
        return self._commands

    @registered_commands.setter
    def registered_commands(self, value: list[Any]) -> None:
        self._commands = value

    @property
    def registered_groups(self) -> list[Any]:
        """The groups of commands (typer's list), every module's once the app is read."""
        self._import_all()
        return self._groups

    @registered_groups.setter
    def registered_groups(self, value: list[Any]) -> None:
        self._groups = value

    def only(self, command: str) -> None:
        """Import the module of ``command`` alone (a name of ``COMMANDS``): the app then holds
        its commands (and those of the modules it imports), not every one."""
        self._typed_only = True
        importlib.import_module(f"purestate.cli.{COMMANDS[command]}")

    def _import_all(self) -> None:
        if self._typed_only or self._importing:
            return
        if not self._imported:
            self._importing = True
            try:
                for module in dict.fromkeys(COMMANDS.values()):
                    importlib.import_module(f"purestate.cli.{module}")
            finally:
                self._importing = False
            self._imported = True
        # a command module imported on its own first (a test's) registered its commands first
        order = list(COMMANDS)
        for infos in (self._commands, self._groups):
            infos.sort(key=lambda i: order.index(i.name) if i.name in order else len(order))


app = Commands(
    cls=OneLineErrors,
    name="purestate",
    help=(
        "Two-player board games and the agents that learn and search them.\n\n"
        "An option means the same in every command that has it: --seed (default 0, so the same "
        "command prints the same figures), --json, --force, --jobs, --dask, --explore. --games "
        "counts in the unit "
        "its help names (per seat, per pair, per run, in the run); `purestate games` and "
        "`purestate agents` list every game and agent option with its default."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from purestate import __version__

        typer.echo(f"purestate {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Two-player board games and the agents that learn and search them."""


def quiet_threads(environ: MutableMapping[str, str]) -> None:
    """Ask OpenMP (numba's threads for the batch kernels) to sleep between parallel calls
    instead of spinning, unless the shell already says how (``OMP_WAIT_POLICY``).

    Spinning is OpenMP's default: on a machine whose cores are busy with other work (a second
    process, a self-play worker, a browser) each parallel call waited about 15 ms for its
    threads, 28 times the time of a batch of 1,024 playouts; sleeping costs 0.3-1 ms a call
    (``benchmarks/bench_batch_step.py``, docs/architecture.md). It must be set before numba
    starts its threads, so here, before any command runs; worker processes inherit it.
    """
    environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def interrupt(signum: int, frame: Any) -> None:
    """A handler for SIGTERM that stops the command as Ctrl-C does.

    ``kill`` and a job scheduler's stop send SIGTERM, which by default ends Python without
    unwinding: a run's ``kernels.jsonl`` line, written when its command stops, was lost. As a
    KeyboardInterrupt the command's ``finally`` blocks run, its workers stop, and it ends with
    one line and exit status 130, as after Ctrl-C.
    """
    raise KeyboardInterrupt


def main() -> None:
    """Console-script entry point: run the app, turning known errors into one-line messages.

    The app holds only the command typed (its module alone is imported) when the first word
    after the program's name names one; anything else (``--help``, no command, a misspelt one)
    reads them all. SIGTERM stops a command as Ctrl-C does (``interrupt``), unless the process
    was started with it ignored.
    """
    quiet_threads(os.environ)
    if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
        signal.signal(signal.SIGTERM, interrupt)
    typed = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
    if typed in COMMANDS:
        app.only(typed)
    try:
        app()
    except common.UserError as e:  # raised outside a command (rare: option parsing hooks)
        common.error(str(e))
        sys.exit(2)
