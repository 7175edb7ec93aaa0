"""Engine benchmark: full random Macao games per second and mean legal_moves() time.

Each game is dealt from a written-down seed and played to its end by picking
uniformly among ``legal_moves()`` with a ``random.Random`` seeded the same;
players cycle through 2..6.  Every move goes through ``play`` (which checks
it), so a game here costs what a refereed game costs.
"""

from __future__ import annotations

import random
import time

from controller.bench import percentile
from engine import create_game

MAX_MOVES = 5000
FIRST_SEED = 1000


def play_one(players: int, seed: int, timings: list[float]) -> tuple[int, bool]:
    """Play one random game; append each legal_moves() time; return (moves, ended)."""
    game = create_game("macao", players=players, seed=seed)
    rng = random.Random(seed)
    moves = 0
    while not game.is_over and moves < MAX_MOVES:
        t0 = time.perf_counter()
        legal = game.legal_moves()
        timings.append(time.perf_counter() - t0)
        game.play(rng.choice(legal))
        moves += 1
    return moves, game.is_over


def run(quick: bool) -> str:
    games_per_count = 4 if quick else 100
    rows = []
    all_timings: list[float] = []
    total_games = total_moves = unfinished = 0
    total_time = 0.0
    for players in range(2, 7):
        seeds = range(FIRST_SEED + 100 * players, FIRST_SEED + 100 * players + games_per_count)
        timings: list[float] = []
        moves = 0
        t0 = time.perf_counter()
        for seed in seeds:
            n, ended = play_one(players, seed, timings)
            moves += n
            unfinished += not ended
        elapsed = time.perf_counter() - t0
        rows.append(f"| {players} | {seeds.start}-{seeds.stop - 1} | {len(seeds)} | {moves / len(seeds):.0f} "
                    f"| {len(seeds) / elapsed:.1f} | {1e6 * sum(timings) / len(timings):.0f} "
                    f"| {1e6 * percentile(timings, 95):.0f} |")
        all_timings += timings
        total_games += len(seeds)
        total_moves += moves
        total_time += elapsed
    mean_us = 1e6 * sum(all_timings) / len(all_timings)
    lines = [
        "## Engine: random Macao games",
        "",
        "Full games dealt from the seeds listed, played to the end by choosing uniformly among "
        "`legal_moves()` (`random.Random(seed)`); every move goes through `play`, which checks it. "
        "Default options; observed mode is not timed here.",
        "",
        "| players | seeds | games | moves/game | games/s | mean legal_moves µs | p95 legal_moves µs |",
        "|---|---|---|---|---|---|---|",
        *rows,
        "",
        f"**All: {total_games / total_time:.1f} games/s** ({total_games} games, {total_moves} moves, "
        f"{total_time:.1f} s); **mean `legal_moves()` {mean_us:.0f} µs**"
        + (f"; {unfinished} game(s) stopped at {MAX_MOVES} moves" if unfinished else "; every game ended") + ".",
    ]
    return "\n".join(lines)
