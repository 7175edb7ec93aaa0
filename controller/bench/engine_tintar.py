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


def run(quick: bool) -> str:
    playouts = 20 if quick else 400
    max_moves = 300
    rng = random.Random(20261130)
    moves_played = 0
    turn_seconds = 0.0
    legal_times: list[float] = []
    explain_times: list[float] = []
    decided = 0
    for _ in range(playouts):
        game = create_game("tintar", seed=0)
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

    def us(values, q):
        return f"{percentile(values, q) * 1e6:.0f}"

    rate = moves_played / turn_seconds if turn_seconds else 0.0
    return "\n".join([
        "## Engine: Tintar (nine men's morris)",
        "",
        f"{playouts} random playouts, default options (no flying; the game ends when all of a "
        f"player's pieces are taken or they cannot move), at most {max_moves} moves each; "
        f"{decided} ended with a winner, {moves_played} moves in all.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| moves per second (legal moves + play) | {rate:,.0f} |",
        f"| `legal_moves()` median / p95 (µs) | {us(legal_times, 50)} / {us(legal_times, 95)} |",
        f"| `explain_observation()` median / p95 (µs) | {us(explain_times, 50)} / {us(explain_times, 95)} |",
    ])
