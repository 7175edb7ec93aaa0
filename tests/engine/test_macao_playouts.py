"""Macao random playouts (hypothesis): cards are conserved, turn order holds,
every legal move checks, every game ends, and saved games replay exactly."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import create_game, load_game
from engine.cards import standard_pack

MAX_MOVES = 3000

OPTION_SETS = [
    {},
    {"two_on_three": "any", "play_after_penalty": True, "request_lasts": "turn"},
    {"starter_effect": True, "end_rule": "last_loses", "four_on_four": False, "draw_when_able": False},
    {"black_king_target": "next", "play_drawn_card": False, "jack_on_anything": True, "ace_on_anything": True},
]


def all_cards(g):
    return sorted([c for s in range(g.players) for c in g.hand(s)] + g.stock + g.pile)


def expected_next_seat(g, seat):
    """The next seat holding cards after ``seat``."""
    for step in range(1, g.players + 1):
        s = (seat + step) % g.players
        if s not in g.finished:
            return s
    return seat


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), options=st.sampled_from(OPTION_SETS),
       policy=st.integers(0, 2**32 - 1))
def test_random_games_conserve_cards_keep_turn_order_and_end(players, seed, options, policy):
    g = create_game("macao", players=players, seed=seed, options=options)
    rng = random.Random(policy)
    pack = sorted(standard_pack())
    for _ in range(MAX_MOVES):
        if g.is_over:
            break
        moves = g.legal_moves()
        assert moves
        plays = [m for m in moves if m.kind == "play"]
        move = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(moves)
        assert g.check(move).ok, (str(move), g.render("en"))
        seat, state = g.to_move, g.state()
        g.play(move)
        assert all_cards(g) == pack
        assert sum(g.scores()) + g.stock_size() + len(g.pile) == 52
        # turn order: a plain play with nothing pending passes to the next seat holding cards
        plain = (move.kind == "play" and state["pending"] is None and not g.is_over and g.state()["pending"] is None
                 and not any(state["lost_turns"]))
        if plain:
            assert g.to_move == expected_next_seat(g, seat)
        if g.state()["pending"] and not g.is_over:
            assert g.to_move == g.state()["pending"]["seat"]
    assert g.is_over, g.render("en")
    result = g.result()
    assert sorted(result["ranking"]) == list(range(players))
    assert result["losers"] and all(g.hand_size(s) > 0 for s in result["losers"])
    assert load_game(g.to_json()).to_json() == g.to_json()


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 60))
def test_observed_mirror_of_a_full_game_accepts_every_move(players, seed, steps):
    """The camera's view of a real game (hands hidden) never flags a legal move."""
    full = create_game("macao", players=players, seed=seed)
    seen = create_game("macao", players=players, observed=True,
                       deal={"starter": full.top, "hand_sizes": [5] * players})
    rng = random.Random(seed)
    for _ in range(steps):
        if full.is_over:
            break
        move, seat = rng.choice(full.legal_moves()), full.to_move
        verdict = seen.check(str(move), seat=seat)
        assert verdict.ok, (str(move), verdict, seen.render("en"))
        full.play(move)
        seen.play(str(move), seat=seat)
        assert seen.scores() == full.scores() and seen.to_move == full.to_move
        assert seen.is_over == full.is_over
