"""Benchmark of Table (backgammon): all legal plays of a position, and the
check of one camera move, beside GNU Backgammon's time for the same positions.

Positions come from seeded random playouts (``engine.table.playout_positions``).
Each time is the best of three runs of the same call (the machine is shared,
and the best run is the one least disturbed by other work).  The Pi 4
estimate multiplies by 5 (a Pi 4 runs this Python code about 5x slower).
gnubg is timed inside gnubg's own Python, one ``hint`` per position and
roll, which lists every legal play and also evaluates each at 0 ply;
both its wall time and its CPU time are reported.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import tempfile
import textwrap
import time
from pathlib import Path

from controller.bench import percentile
from engine.table import (ROLLS, Position, explain_result, format_play, generate_plays, playout_positions,
                          position_id)

PI_FACTOR = 5
FRAME_MS = 33.0

GNUBG_TIMER = textwrap.dedent('''
    import gnubg, json, time
    for c in ("set player 0 human", "set player 1 human", "set automatic roll off",
              "set automatic move off", "set display off",
              "set evaluation chequerplay evaluation plies 0", "new game", "set turn 0"):
        gnubg.command(c)
    wall, cpu = [], []
    for pid in open(IN).read().split():
        gnubg.command("set board " + pid)
        for a in range(1, 7):
            for b in range(1, a + 1):
                gnubg.command("set dice %d %d" % (a, b))
                t0, c0 = time.perf_counter(), time.process_time()
                gnubg.hint(100000)
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
    json.dump({"wall": wall, "cpu": cpu}, open(OUT, "w"))
''')


def _best_of(f, n: int = 3) -> float:
    best = float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def _gnubg_times(positions: list[Position]) -> dict | None:
    gnubg = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)
    if gnubg is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "in.txt").write_text("\n".join(position_id(p) for p in positions))
        (work / "timer.py").write_text(f"IN = {str(work / 'in.txt')!r}\nOUT = {str(work / 'out.json')!r}\n"
                                       + GNUBG_TIMER)
        (work / "home").mkdir()
        subprocess.run([gnubg, "-t", "-q", "-p", str(work / "timer.py")], cwd=work,
                       env={**os.environ, "HOME": str(work / "home")}, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, timeout=1800)
        if not (work / "out.json").exists():
            return None
        return json.loads((work / "out.json").read_text())


def _row(name: str, seconds: list[float], pi: bool = False) -> str:
    ms = [s * 1000 for s in seconds]
    mean = sum(ms) / len(ms)
    p99 = percentile(ms, 99)
    row = f"| {name} | {len(ms)} | {mean:.3f} | {p99:.3f} | {max(ms):.3f} |"
    if pi:
        row += f" {p99 * PI_FACTOR:.1f} of {FRAME_MS:.0f} |"
    else:
        row += " |"
    return row


def run(quick: bool) -> str:
    count = 100 if quick else 2000
    gnubg_count = 20 if quick else 200
    positions = playout_positions(count)
    rng = random.Random(7)

    plays_time, legal_time, illegal_time = [], [], []
    for pos in positions:
        for roll in ROLLS:
            plays_time.append(_best_of(lambda: [format_play(path) for path in
                                                generate_plays(pos.me, pos.opp, roll).values()]))
        roll = rng.choice(ROLLS)
        legal = generate_plays(pos.me, pos.opp, roll)
        good = Position(*rng.choice(sorted(legal)))
        legal_time.append(_best_of(lambda: explain_result(pos, roll, good)))
        # an illegal result: part of the roll only, or a checker moved one point too far
        partial = [k for k in generate_plays(pos.me, pos.opp, roll, partial=True) if (k[0], k[1]) not in legal]
        if partial:
            m, o, _ = rng.choice(sorted(partial))
            bad = Position(m, o)
            illegal_time.append(_best_of(lambda: explain_result(pos, roll, bad)))

    lines = [
        "## Table (backgammon): legal plays and the camera check",
        "",
        f"{len(positions)} positions from seeded random playouts (a quarter on the bar, a quarter bearing off); "
        "every time is the best of 3 runs of the call.",
        "",
        "| what | calls | mean ms | p99 ms | max ms | Pi 4 p99 ms (x5) vs a 33 ms frame |",
        "|---|---|---|---|---|---|",
        _row("all legal plays of a position and roll (with their text)", plays_time),
        _row("camera check, a legal result (`explain_result`)", legal_time, pi=True),
        _row("camera check, an illegal result (partial roll)", illegal_time, pi=True),
    ]
    g = _gnubg_times(positions[:gnubg_count])
    if g is None:
        lines += ["", "gnubg is not installed (apt-get install gnubg): no comparison."]
    else:
        lines += [
            _row(f"gnubg `hint` (same first {gnubg_count} positions, wall time)", g["wall"]),
            _row("gnubg `hint`, CPU time of the gnubg process", g["cpu"]),
            "",
            "gnubg's `hint` also evaluates every play with its neural net (0 ply), and most of its wall "
            "time is spent waiting on its worker threads (a mean of 2.5 to 10 ms per call between runs on "
            "this shared machine); its CPU time is the fairer comparison.",
        ]
    return "\n".join(lines)
