"""masa bench vision: Table (backgammon) boards and dice, Tintar boards, rummy tiles.

Each reader runs on rendered scenes (vision.render_boards) with exact ground
truth, under the same random camera, lighting, cloth and sensor conditions
as the card scenes (vision.imaging), and again under kind conditions (flat
camera, even light, plain felt) to show what the conditions cost.  Times are
for the reader alone (not the rendering), the process pinned to one CPU core,
OpenCV and OpenBLAS single-threaded.
"""

from __future__ import annotations

import time
from collections import defaultdict

import cv2
import numpy as np

from controller.bench import blas_single_thread, on_one_core, percentile

SCENES = 300
QUICK_SCENES = 12
KIND_SCENES = 100


def _timed(fn, img):
    t0 = time.perf_counter()
    try:
        out = fn(img)
    except ValueError as exc:
        out = exc
    return out, (time.perf_counter() - t0) * 1000


def _table(n: int, hard: bool, seed0: int) -> dict:
    from vision import backgammon, render_boards as rb
    s = defaultdict(int)
    s["by"] = defaultdict(lambda: [0, 0])
    times = []
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        img, truth = rb.random_table_scene(rng, None if hard else rb.random_conditions(rng, False))
        got, ms = _timed(backgammon.read, img)
        times.append(ms)
        s["scenes"] += 1
        if isinstance(got, Exception):
            s["errors"] += 1
            s["point_errors"] += 24
            got = {"points": None, "bar": None, "off": None, "dice": None}
        else:
            s["point_errors"] += sum(1 for a, b in zip(got["points"], truth["points"]) if a != b)
        right = got["points"] == truth["points"] and got["bar"] == truth["bar"] and got["off"] == truth["off"]
        s["right"] += right
        key = f'{truth["conditions"]["lighting"]} light'
        s["by"][key][0] += right
        s["by"][key][1] += 1
        key = f'{truth["conditions"]["table"]} cloth'
        s["by"][key][0] += right
        s["by"][key][1] += 1
        td, gd = truth["dice"], got["dice"]
        if isinstance(td, list):
            s["dice_flat"] += 1
            s["dice_right"] += isinstance(gd, list) and sorted(gd) == sorted(td)
            s["dice_wrong_number"] += isinstance(gd, list) and sorted(gd) != sorted(td)
        elif td == "reroll":
            s["dice_reroll"] += 1
            s["reroll_seen"] += gd == "reroll"
            s["reroll_as_number"] += isinstance(gd, list)
    s["times"] = times
    return s


def _tintar(n: int, hard: bool, seed0: int) -> dict:
    from vision import morris, render_boards as rb
    s = defaultdict(int)
    s["by"] = defaultdict(lambda: [0, 0])
    times = []
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        img, truth = rb.random_tintar_scene(rng, None if hard else rb.random_conditions(rng, False))
        got, ms = _timed(morris.read, img)
        times.append(ms)
        s["scenes"] += 1
        if isinstance(got, Exception):
            s["errors"] += 1
            continue
        points_right = all(got[p] == truth[p] for p in rb.TINTAR_POINTS)
        s["point_errors"] += sum(1 for p in rb.TINTAR_POINTS if got[p] != truth[p])
        right = points_right and got["in_hand"] == truth["in_hand"] and got["captured"] == truth["captured"]
        s["points_right"] += points_right
        s["right"] += right
        for key in (f'{truth["conditions"]["lighting"]} light', f'{truth["conditions"]["table"]} cloth'):
            s["by"][key][0] += right
            s["by"][key][1] += 1
    s["times"] = times
    return s


def _tiles(n: int, hard: bool, seed0: int) -> dict:
    from vision import render_boards as rb, tiles
    s = defaultdict(int)
    times = []
    for i in range(n):
        rng = np.random.default_rng(seed0 + i)
        img, truth = rb.random_tiles_scene(rng, None if hard else rb.random_conditions(rng, False))
        got, ms = _timed(tiles.read, img)
        times.append(ms)
        s["scenes"] += 1
        s["tiles"] += len(truth["tiles"])
        if isinstance(got, Exception):
            s["errors"] += 1
            continue
        centres = [np.mean(t["quad"], axis=0) for t in got]
        size = np.linalg.norm(np.subtract(truth["tiles"][0]["quad"][1], truth["tiles"][0]["quad"][0]))
        for t in truth["tiles"]:
            c = np.mean(t["quad"], axis=0)
            d = [float(np.linalg.norm(c - x)) for x in centres]
            if not d or min(d) > 0.4 * size:
                s["missed"] += 1
                continue
            read = got[int(np.argmin(d))]["tile"]
            if read == t["tile"]:
                s["right"] += 1
            elif read is None:
                s["abstained"] += 1
            else:
                s["wrong"] += 1
        s["named"] += sum(1 for t in got if t["tile"])
    s["times"] = times
    return s


def _pct(a, b) -> str:
    return f"{100.0 * a / b:.1f}%" if b else "n/a"


def run(quick: bool) -> str:
    cv2.setNumThreads(1)
    blas_single_thread()
    n = QUICK_SCENES if quick else SCENES
    kind_n = QUICK_SCENES if quick else KIND_SCENES
    with on_one_core():
        t_hard, t_kind = _table(n, True, 10_000), _table(kind_n, False, 20_000)
        m_hard, m_kind = _tintar(n, True, 30_000), _tintar(kind_n, False, 40_000)
        r_hard, r_kind = _tiles(n, True, 50_000), _tiles(kind_n, False, 60_000)

    lines = ["## Vision: Table boards and dice, Tintar boards, rummy tiles", "",
             f"Rendered 1280x720 scenes with exact ground truth (vision.render_boards): {n} per reader under "
             f"random conditions (camera tilt 0-18°, turn ±7°, felt / wood / white / patterned cloth, even / warm / "
             f"daylight / shadow / glare light, noise, blur, JPEG 60-95) and {kind_n} under kind conditions (flat "
             f"camera, even light, felt, no noise). Reader time only, the process pinned to one CPU core, "
             f"OpenCV and OpenBLAS single-threaded.", "",
             "| measure | target | random conditions | kind conditions |", "|---|---|---|---|"]

    def row(name, target, hard, kind):
        lines.append(f"| {name} | {target} | {hard} | {kind} |")

    row("backgammon positions entirely right", "≥ 99%", _pct(t_hard["right"], t_hard["scenes"]),
        _pct(t_kind["right"], t_kind["scenes"]))
    row("backgammon points read wrong (per point)", "—", _pct(t_hard["point_errors"], 24 * t_hard["scenes"]),
        _pct(t_kind["point_errors"], 24 * t_kind["scenes"]))
    row("no board found (error raised)", "—", str(t_hard["errors"]), str(t_kind["errors"]))
    row("dice read right (two flat dice on the board)", "≥ 99.5%", _pct(t_hard["dice_right"], t_hard["dice_flat"]),
        _pct(t_kind["dice_right"], t_kind["dice_flat"]))
    row("dice read as a wrong number", "—", str(t_hard["dice_wrong_number"]), str(t_kind["dice_wrong_number"]))
    row("cocked / off-board die reported \"reroll\"", "—", _pct(t_hard["reroll_seen"], t_hard["dice_reroll"]),
        _pct(t_kind["reroll_seen"], t_kind["dice_reroll"]))
    row("cocked / off-board die read as a number", "0", str(t_hard["reroll_as_number"]),
        str(t_kind["reroll_as_number"]))
    row("Tintar boards entirely right (points, in hand, captured)", "≥ 99.5%",
        _pct(m_hard["right"], m_hard["scenes"]), _pct(m_kind["right"], m_kind["scenes"]))
    row("Tintar: the 24 points right", "—", _pct(m_hard["points_right"], m_hard["scenes"]),
        _pct(m_kind["points_right"], m_kind["scenes"]))
    row("tiles: identity recall", "≥ 99%", _pct(r_hard["right"], r_hard["tiles"]),
        _pct(r_kind["right"], r_kind["tiles"]))
    row("tiles: wrong identity (of tiles named)", "≤ 0.2%", _pct(r_hard["wrong"], r_hard["named"]),
        _pct(r_kind["wrong"], r_kind["named"]))
    row("tiles: abstained / not found", "—", f'{r_hard["abstained"]} / {r_hard["missed"]} of {r_hard["tiles"]}',
        f'{r_kind["abstained"]} / {r_kind["missed"]} of {r_kind["tiles"]}')
    for name, s, k in (("backgammon", t_hard, t_kind), ("Tintar", m_hard, m_kind), ("tiles", r_hard, r_kind)):
        row(f"{name}: ms per frame, median (p95)", "≤ 50 ms median",
            f'{percentile(s["times"], 50):.0f} ({percentile(s["times"], 95):.0f})',
            f'{percentile(k["times"], 50):.0f} ({percentile(k["times"], 95):.0f})')
    lines += ["", "Entirely right, by condition (random conditions):", "",
              "| condition | backgammon | Tintar |", "|---|---|---|"]
    keys = sorted(set(t_hard["by"]) | set(m_hard["by"]))
    for key in keys:
        a, b = t_hard["by"].get(key, [0, 0]), m_hard["by"].get(key, [0, 0])
        lines.append(f"| {key} | {_pct(*a)} of {a[1]} | {_pct(*b)} of {b[1]} |")
    return "\n".join(lines) + "\n"
