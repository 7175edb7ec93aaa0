"""Run benchmarks and write the results to docs/benchmarks.md.

Groups: engine, vision, loop (or all), or one benchmark by its module name
(``masa bench engine_table``).  Each benchmark is a module
``controller/bench/<group>_<name>.py`` with ``run(quick: bool) -> str`` that
returns a Markdown section; this command writes it between the markers
``<!-- bench:<module> -->`` ... ``<!-- /bench:<module> -->`` in
docs/benchmarks.md, together with the machine it ran on.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import time
from pathlib import Path

from controller import bench as bench_pkg
from controller.bench import machine_description, write_section

GROUPS = ("engine", "vision", "loop")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("group", nargs="?", default="all",
                   help="engine, vision, loop, all, or one benchmark module (e.g. engine_table)")
    p.add_argument("--quick", action="store_true", help="small sample sizes (a smoke run)")
    p.add_argument("--no-write", action="store_true", help="print only; leave docs/benchmarks.md alone")
    p.add_argument("--out", default=None, help="the Markdown file to update (default docs/benchmarks.md)")


def modules_for(group: str) -> list[str]:
    names = sorted(info.name for info in pkgutil.iter_modules(bench_pkg.__path__))
    if group in names:
        return [group]
    groups = GROUPS if group == "all" else (group,)
    return [n for n in names if n.split("_", 1)[0] in groups]


def main(args) -> int:
    names = modules_for(args.group)
    if not names:
        known = ", ".join(GROUPS + ("all",) + tuple(modules_for("all")))
        print(f"masa bench: no benchmark {args.group!r}; known: {known}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"
    print(f"Machine: {machine_description()}")
    for name in names:
        module = importlib.import_module(f"controller.bench.{name}")
        print(f"\n== {name} ==", flush=True)
        t0 = time.perf_counter()
        section = module.run(quick=args.quick)
        print(section)
        print(f"({name}: {time.perf_counter() - t0:.1f} s)", flush=True)
        if not args.no_write and not args.quick:
            write_section(out, name, section)
            print(f"written to {out}")
    return 0
