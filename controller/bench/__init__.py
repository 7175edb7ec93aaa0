"""Benchmarks behind ``masa bench``; each module here is one benchmark.

A module named ``<group>_<name>.py`` (group: engine, vision, loop) has
``run(quick: bool) -> str`` returning a Markdown section.  The helpers here
describe the machine and write a section into docs/benchmarks.md.
"""

from __future__ import annotations

import contextlib
import datetime
import fcntl
import math
import os
import platform
import re
from pathlib import Path


def machine_description() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}")


def blas_single_thread() -> bool:
    """Ask numpy's BLAS for one thread (the benchmark runs on one core); True if there was one to ask."""
    from threadpoolctl import threadpool_limits
    return bool(threadpool_limits(limits=1, user_api="blas").get_original_num_threads().get("blas"))


@contextlib.contextmanager
def on_one_core():
    """The process pinned to one CPU core (where the OS allows it) while inside, as the vision
    targets are stated "on one core"."""
    old = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else None
    if old is not None:
        os.sched_setaffinity(0, {min(old)})
    try:
        yield
    finally:
        if old is not None:
            os.sched_setaffinity(0, old)


def percentile(values, q: float) -> float:
    """The q-th percentile (0-100) of a list, nearest-rank; 0.0 when empty."""
    if not values:
        return 0.0
    s = sorted(values)
    k = max(0, min(len(s) - 1, math.ceil(q / 100 * len(s)) - 1))
    return s[k]


def write_section(path: Path, name: str, body: str) -> None:
    """Replace (or append) the section for benchmark ``name`` in ``path``.

    The file is locked while it is read and rewritten, so two benchmarks
    finishing at once do not overwrite each other's sections.
    """
    path = Path(path)
    stamp = datetime.date.today().isoformat()
    block = (f"<!-- bench:{name} -->\n{body.rstrip()}\n\n"
             f"_Ran {stamp} on {machine_description()}._\n<!-- /bench:{name} -->")
    pattern = re.compile(rf"<!-- bench:{re.escape(name)} -->.*?<!-- /bench:{re.escape(name)} -->", re.S)
    with open(path, "a+", encoding="utf-8") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        text = f.read() or ("# Benchmarks\n\nWritten by `masa bench`; each section names the machine "
                            "and the date it ran.\n")
        if pattern.search(text):
            text = pattern.sub(lambda _: block, text)
        else:
            text = text.rstrip() + "\n\n" + block + "\n"
        f.seek(0)
        f.truncate()
        f.write(text)
