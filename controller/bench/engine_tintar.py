"""Benchmark: Tintar (nine men's morris) engine speed.

Random playouts of ``engine.tintar`` with the default options: moves per
second (legal move generation plus playing the chosen move, the engine's
whole work per turn), the time of one ``legal_moves()`` call, and the time
of one camera before/after check (``explain_observation``) on the board a
legal move leads to.
"""

from __future__ import annotations

import random
import time

from controller.bench import percentile
from engine import create_game


def _board_after(game, move) -> dict:
    """The board the camera would see after ``move`` (from the move's data)."""
    frm, to, cap = move.data
    board = game.board()
    if frm:
        board[frm] = None
    board[to] = "white" if game.to_move == 0 else "black"
    if cap:
        board[cap] = None
    return board


def _us(seconds: list[float], q: float) -> str:
    """The q-th percentile of a list of times, in whole microseconds."""
    return f"{percentile(seconds, q) * 1e6:.0f}"


def _playouts(count: int, options: dict, max_moves: int, rng: random.Random) -> dict:
    """Play ``count`` random games; the times of each part of a turn."""
    moves_played = 0
    turn_seconds = 0.0
    legal_times: list[float] = []
    explain_times: list[float] = []
    decided = 0
    for _ in range(count):
        game = create_game("tintar", seed=0, options=options)
        while not game.is_over and len(game.moves) < max_moves:
            t0 = time.perf_counter()
            legal = game.legal_moves()
            t1 = time.perf_counter()
            move = rng.choice(legal)
            board = _board_after(game, move)
            t2 = time.perf_counter()
            verdict = game.explain_observation(board)
            t3 = time.perf_counter()
            game.play(move)
            t4 = time.perf_counter()
            if not verdict.ok:
                raise RuntimeError(f"the camera check rejected a legal move {move}: {verdict}")
            legal_times.append(t1 - t0)
            explain_times.append(t3 - t2)
            turn_seconds += (t1 - t0) + (t4 - t3)
            moves_played += 1
        decided += game.is_over
    return {"moves": moves_played, "decided": decided, "seconds": turn_seconds,
            "legal": legal_times, "explain": explain_times}


def run(quick: bool) -> str:
    playouts = 20 if quick else 300
    max_moves = 300
    rng = random.Random(20261130)
    configs = [("the text (default options)", {}),
               ("flying + lose below three (OpenSpiel's rules)", {"flying": True, "lose_below_three": True})]
    rows = []
    for name, options in configs:
        r = _playouts(playouts, options, max_moves, rng)
        rate = r["moves"] / r["seconds"] if r["seconds"] else 0.0
        rows.append(f"| {name} | {r['decided']}/{playouts} | {r['moves']} | {rate:,.0f} | "
                    f"{_us(r['legal'], 50)} / {_us(r['legal'], 95)} | "
                    f"{_us(r['explain'], 50)} / {_us(r['explain'], 95)} |")
    return "\n".join([
        "## Engine: Tintar (nine men's morris)",
        "",
        f"{playouts} random playouts per rule set (uniform among `legal_moves()`, at most {max_moves} "
        "moves each). A move per second is one turn of the engine's work: `legal_moves()` plus `play` "
        "(which checks the move). `explain_observation()` is the camera's before/after check of the "
        "board a legal move leads to.",
        "",
        "| rules | games won | moves | moves/s | `legal_moves()` median / p95 µs "
        "| `explain_observation()` median / p95 µs |",
        "|---|---|---|---|---|---|",
        *rows,
    ])
