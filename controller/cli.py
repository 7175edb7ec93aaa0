"""The ``masa`` command line: one subcommand per module ``controller/cmd_<name>.py``.

Each such module has a docstring (its one-line help), ``add_arguments(parser)``
and ``main(args) -> int``.  Exit codes: 0 done, 1 the work failed (an illegal
move in a replay, a benchmark below target), 2 bad input (a file that cannot
be read, a malformed option).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

import controller

COMMAND_ORDER = ["demo", "run", "see", "calibrate", "engine", "bench"]


def _commands() -> dict:
    found = {}
    for info in pkgutil.iter_modules(controller.__path__):
        if info.name.startswith("cmd_"):
            found[info.name[4:]] = f"controller.{info.name}"
    return dict(sorted(found.items(), key=lambda kv: (COMMAND_ORDER.index(kv[0])
                                                       if kv[0] in COMMAND_ORDER else 99, kv[0])))


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser = argparse.ArgumentParser(
        prog="masa", description="Masa: a smart table that referees and scores card and board games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = {}
    for name, path in _commands().items():
        module = importlib.import_module(path)
        doc = (module.__doc__ or name).strip().splitlines()[0]
        p = sub.add_parser(name, help=doc, description=module.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
        modules[name] = module
    return parser, modules


def main(argv: list[str] | None = None) -> int:
    parser, modules = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_help()
        return 2
    try:
        return int(modules[args.command].main(args) or 0)
    except KeyboardInterrupt:
        print("\nmasa: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
