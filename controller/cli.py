"""The ``masa`` command line: one subcommand per module ``controller/cmd_<name>.py``.

Each such module has a docstring (its first line is the help), an
``add_arguments(parser)`` and a ``main(args) -> int``.  Only the module of the
command asked for is imported, so ``masa engine`` does not pay for OpenCV and
a command whose dependencies are broken does not take the others down.

Exit codes: 0 done, 1 the work failed (an illegal move in a replay, a
benchmark below target), 2 bad input (a file that cannot be read, a
malformed option, a command that cannot start).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from pathlib import Path

COMMAND_ORDER = ["demo", "run", "see", "calibrate", "engine", "bench"]
_HERE = Path(__file__).resolve().parent


def commands() -> dict[str, str]:
    """name -> first line of the module docstring, in a sensible order."""
    found = {}
    for path in _HERE.glob("cmd_*.py"):
        try:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
        except (OSError, SyntaxError):
            doc = ""
        found[path.stem[4:]] = (doc.strip().splitlines() or [""])[0]
    order = {name: i for i, name in enumerate(COMMAND_ORDER)}
    return dict(sorted(found.items(), key=lambda kv: (order.get(kv[0], 99), kv[0])))


def _top_parser(available: dict[str, str]) -> argparse.ArgumentParser:
    lines = "\n".join(f"  {name:<10} {doc}" for name, doc in available.items())
    return argparse.ArgumentParser(
        prog="masa", formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="masa COMMAND [options]   (masa COMMAND --help for its options)",
        description="Masa: a smart table that referees and scores card and board games.",
        epilog=f"commands:\n{lines}")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    available = commands()
    if not argv or argv[0] in ("-h", "--help") or argv[0].startswith("-"):
        _top_parser(available).print_help()
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    name, rest = argv[0], argv[1:]
    if name not in available:
        print(f"masa: unknown command {name!r}; commands: {', '.join(available)}", file=sys.stderr)
        return 2
    try:
        module = importlib.import_module(f"controller.cmd_{name}")
    except ImportError as exc:
        print(f"masa {name}: cannot start, a part is missing: {exc}", file=sys.stderr)
        return 2
    parser = argparse.ArgumentParser(prog=f"masa {name}", description=module.__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    module.add_arguments(parser)
    args = parser.parse_args(rest)
    args.command = name
    try:
        return int(module.main(args) or 0)
    except KeyboardInterrupt:
        print("\nmasa: stopped", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
