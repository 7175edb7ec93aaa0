"""The reference test of Table against GNU Backgammon (Debian package gnubg).

Positions come from random playouts of the engine (seeded), at least 2,000
distinct ones, with positions where the mover has checkers on the bar, where
it bears off, and where some roll is blocked (no play, or not all the dice)
counted and required.  For each position and each of the 21 rolls, the set
of positions that the engine's legal plays reach must equal the set GNU
Backgammon's ``hint`` (which lists every distinct legal play) reaches.  gnubg
runs a small Python script (gnubg embeds Python) over the positions, in a
few processes side by side (see ``run_gnubg``); nothing of gnubg's answer is stored in the repository.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from engine.table import BAR, ROLLS, Position, generate_plays, playout_positions, position_id

GNUBG = shutil.which("gnubg") or ("/usr/games/gnubg" if os.path.exists("/usr/games/gnubg") else None)

POSITIONS = 2000
GNUBG_PROCESSES = 8

# Run inside gnubg: for every position ID in the input file and every roll,
# the positions reached by each play gnubg lists (from the mover's view).
GNUBG_SCRIPT = textwrap.dedent('''
    import gnubg, json, sys
    for c in ("set player 0 human", "set player 1 human", "set automatic roll off",
              "set automatic move off", "set display off",
              "set evaluation chequerplay evaluation plies 0", "new game", "set turn 0"):
        gnubg.command(c)

    def apply(board, play):
        opp, me = list(board[0]), list(board[1])
        for frm, to in play:
            me[frm - 1] -= 1
            if to > 0:
                me[to - 1] += 1
                if opp[24 - to] == 1:
                    opp[24 - to] = 0
                    opp[24] += 1
        return gnubg.positionid((opp, me))

    out = {}
    rolls = [(a, b) for a in range(6, 0, -1) for b in range(a, 0, -1)]
    for pid in open(IN).read().split():
        gnubg.command("set board " + pid)
        if gnubg.positionid() != pid:
            out[pid] = "gnubg did not take this position"
            continue
        board = gnubg.board()
        res = {}
        for a, b in rolls:
            gnubg.command("set dice %d %d" % (a, b))
            plays = [m["move"] for m in gnubg.hint(100000)["hint"]]
            res["%d%d" % (a, b)] = sorted({apply(board, gnubg.parsemove(p)) for p in plays} or {pid})
        out[pid] = res
    json.dump(out, open(OUT, "w"))
''')


def run_gnubg(ids: list[str], work: Path) -> dict:
    """gnubg's resulting positions for every position ID and roll.

    gnubg's ``hint`` spends most of a call waiting on its worker threads
    (measured here: 2.5 to 10 ms of wall time per call between runs, 0.1
    to 0.3 ms of CPU), so one process would take 2 to 7 minutes; the
    positions are split over a few gnubg processes running side by side,
    each one driven by the same script over its share."""
    chunks = [ids[k::GNUBG_PROCESSES] for k in range(GNUBG_PROCESSES)]
    procs = []
    for k, chunk in enumerate(chunks):
        (work / f"in{k}.txt").write_text("\n".join(chunk))
        script = work / f"reference{k}.py"
        script.write_text(f"IN = {str(work / f'in{k}.txt')!r}\nOUT = {str(work / f'out{k}.json')!r}\n"
                          + GNUBG_SCRIPT)
        home = work / f"home{k}"
        home.mkdir()
        procs.append(subprocess.Popen([GNUBG, "-t", "-q", "-p", str(script)], cwd=work,
                                      env={**os.environ, "HOME": str(home)}, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True))
    out: dict = {}
    for k, proc in enumerate(procs):
        _, err = proc.communicate(timeout=900)
        assert (work / f"out{k}.json").exists(), f"gnubg failed (exit {proc.returncode}): {err[-2000:]}"
        out.update(json.loads((work / f"out{k}.json").read_text()))
    return out


def engine_results(pos: Position, roll: tuple[int, int]) -> tuple[list[str], int]:
    plays = generate_plays(pos.me, pos.opp, roll)
    used = max(len(path) for path in plays.values())
    return sorted(position_id(Position(*key)) for key in plays), used


def test_legal_plays_agree_with_gnubg(tmp_path: Path, capsys):
    if GNUBG is None:
        pytest.skip("gnubg not installed (apt-get install gnubg): the Table reference test needs GNU Backgammon")
    positions = playout_positions(POSITIONS)
    ids = [position_id(p) for p in positions]
    assert len(set(ids)) == len(ids) >= POSITIONS
    gnubg = run_gnubg(ids, tmp_path)

    counts = {"bar": 0, "bear-off": 0, "blocked roll": 0, "no play at all": 0}
    mismatches = []
    for pos, pid in zip(positions, ids):
        theirs = gnubg[pid]
        assert isinstance(theirs, dict), f"{pid}: {theirs}"
        blocked = nothing = False
        for roll in ROLLS:
            ours, used = engine_results(pos, roll)
            if used < (4 if roll[0] == roll[1] else 2):
                blocked = True
                nothing = nothing or used == 0
            if ours != theirs[f"{roll[0]}{roll[1]}"]:
                mismatches.append((pid, roll, sorted(set(ours) - set(theirs[f"{roll[0]}{roll[1]}"])),
                                   sorted(set(theirs[f"{roll[0]}{roll[1]}"]) - set(ours))))
        counts["bar"] += bool(pos.me[BAR])
        counts["bear-off"] += not any(pos.me[6:])
        counts["blocked roll"] += blocked
        counts["no play at all"] += nothing
    with capsys.disabled():
        print(f"\nTable vs gnubg: {len(positions)} positions x 21 rolls, "
              + ", ".join(f"{k}: {v}" for k, v in counts.items())
              + f"; mismatches: {len(mismatches)}")
    assert not mismatches, f"{len(mismatches)} (position, roll) pairs differ, e.g. {mismatches[:3]}"
    assert counts["bar"] >= 300 and counts["bear-off"] >= 300 and counts["blocked roll"] >= 300
    assert counts["no play at all"] >= 50
