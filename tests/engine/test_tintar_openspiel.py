"""Tintar against OpenSpiel's ``nine_mens_morris``: the legal moves agree.

OpenSpiel (PyPI ``open_spiel``) plays nine men's morris with flying at three
pieces and a loss below three pieces, so Masa's Tintar runs with the options
``flying`` and ``lose_below_three`` on.  OpenSpiel makes a capture a separate
action by the same player; here a place/move action and the capture that
follows it are composed into one Masa move (``a1-a4xg7``), as the camera sees
a turn.  Over 1,000 random playouts, at every position the two sets of legal
moves, the boards and the seats to move are the same, and the games end
alike (OpenSpiel also stops a game as a draw after 200 turns; Masa has no
such rule, so a playout ends there without a verdict to compare).
"""

import random

import pytest

from engine import create_game
from engine.tintar import INDEX

pytestmark = pytest.mark.slow

try:
    import pyspiel
except ImportError as exc:  # not installed, or a build that does not load here
    pytest.skip(f"OpenSpiel (PyPI open_spiel) cannot be imported ({exc}): pip install open_spiel",
                allow_module_level=True)

PLAYOUTS = 1000

# OpenSpiel numbers the points row by row from the top of its picture:
# rows 7, 6, 5 (three points each), row 4 (six), rows 3, 2, 1 (three each).
_ROWS = [("a7", "d7", "g7"), ("b6", "d6", "f6"), ("c5", "d5", "e5"),
         ("a4", "b4", "c4", "e4", "f4", "g4"), ("c3", "d3", "e3"), ("b2", "d2", "f2"),
         ("a1", "d1", "g1")]
SPIEL_POINT = [name for row in _ROWS for name in row]
NUM_POINTS = 24


# Where OpenSpiel's ToString() draws each point: (line, column), in its numbering.
_DRAWN_AT = [(0, 0), (0, 7), (0, 14), (2, 2), (2, 7), (2, 12), (4, 4), (4, 7), (4, 10), (6, 0), (6, 2),
             (6, 4), (6, 10), (6, 12), (6, 14), (8, 4), (8, 7), (8, 10), (10, 2), (10, 7), (10, 12),
             (12, 0), (12, 7), (12, 14)]
_COLOUR = {"W": "white", "B": "black", ".": None}


def spiel_board(state) -> dict:
    """OpenSpiel's board, read from its text picture, as Masa's board dict."""
    lines = str(state).splitlines()
    return {SPIEL_POINT[i]: _COLOUR[lines[r][c]] for i, (r, c) in enumerate(_DRAWN_AT)}


def action_text(action: int) -> str:
    if action < NUM_POINTS:
        return SPIEL_POINT[action]
    frm, to = divmod(action - NUM_POINTS, NUM_POINTS)
    return f"{SPIEL_POINT[frm]}-{SPIEL_POINT[to]}"


def composed_moves(state) -> dict[str, list[int]]:
    """OpenSpiel's legal actions as whole turns: text -> its actions."""
    player = state.current_player()
    turns: dict[str, list[int]] = {}
    for action in state.legal_actions():
        child = state.child(action)
        if not child.is_terminal() and child.current_player() == player:
            for capture in child.legal_actions():
                turns[f"{action_text(action)}x{SPIEL_POINT[capture]}"] = [action, capture]
        else:
            turns[action_text(action)] = [action]
    return turns


def test_the_point_numbering_matches_openspiels_own_move_strings():
    game = pyspiel.load_game("nine_mens_morris")
    state = game.new_initial_state()
    assert sorted(SPIEL_POINT) == sorted(INDEX)
    # "Move 0 -> 9": a7 down to a4, the first point of the middle row.
    assert state.action_to_string(0, NUM_POINTS + 0 * NUM_POINTS + 9) == "Move 0 -> 9"
    assert action_text(NUM_POINTS + 9) == "a7-a4"


def test_legal_moves_agree_with_openspiel_over_1000_random_playouts():
    game = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(20261130)
    positions = captures = flights = decided = 0
    for _ in range(PLAYOUTS):
        state = game.new_initial_state()
        ours = create_game("tintar", seed=0, options={"flying": True, "lose_below_three": True})
        while not state.is_terminal():
            assert ours.to_move == state.current_player()
            assert ours.board() == spiel_board(state)
            theirs = composed_moves(state)
            mine = {str(m) for m in ours.legal_moves()}
            assert mine == set(theirs), (ours.render("en"), sorted(mine ^ set(theirs)))
            text = rng.choice(sorted(theirs))
            for action in theirs[text]:
                state.apply_action(action)
            ours.play(text)
            positions += 1
            captures += "x" in text
            flights += ours.phase(1 - ours.to_move) == "flying"
        returns = state.returns()
        if returns[0] != returns[1]:
            decided += 1
            assert ours.is_over and ours.winner == (0 if returns[0] > 0 else 1)
        else:
            assert not ours.is_over
    assert positions > 50 * PLAYOUTS and captures > PLAYOUTS and decided > PLAYOUTS // 10
    assert flights > 0
    print(f"{positions} positions, {captures} captures, {flights} flights, {decided} decided")
