"""The Game base class: turn checks, play/undo, JSON round trip, bad input.

A tiny counting game (take 1-3 counters, the one who takes the last wins)
exercises the base class alone, apart from any real game's rules.
"""

import json

import pytest

import engine
from engine.core import OK, Event, Game, IllegalMove, Move, Verdict, illegal, register_messages

register_messages({"too_many": {"ro": "Poți lua cel mult {limit}.", "en": "You may take at most {limit}."}})


class Take(Game):
    id = ""  # not registered: a test double of a game
    min_players, max_players = 2, 3
    OPTIONS = {"limit": 3}

    def _setup(self, deal, heap=None):
        self.heap = heap if heap is not None else self.rng.randint(10, 20)
        self.turn = 0

    def _parse(self, text):
        if not text.isdigit():
            raise ValueError(f"not a number of counters: {text!r}")
        return Move(text, "take", data=(int(text),))

    def _legal_moves(self):
        return [Move(str(n), "take", data=(n,)) for n in range(1, min(self.options["limit"], self.heap) + 1)]

    def _check(self, move):
        n = move.data[0]
        return OK if 1 <= n <= min(self.options["limit"], self.heap) else illegal("too_many", limit=self.options["limit"])

    def _apply(self, move):
        self.heap -= move.data[0]
        seat = self.turn
        self.turn = (self.turn + 1) % self.players
        self.rng.random()  # the RNG moves on with play, as reshuffles do
        return [Event("took", seat, {"n": move.data[0]})]

    @property
    def to_move(self):
        return self.turn

    @property
    def is_over(self):
        return self.heap == 0

    def result(self):
        return {"winner": (self.turn - 1) % self.players} if self.is_over else {}

    def scores(self):
        return [0] * self.players


def test_play_changes_turn_and_reports_events():
    g = Take(players=2, seed=1, heap=10)
    events = g.play("3")
    assert events == [Event("took", 0, {"n": 3})]
    assert g.to_move == 1 and g.heap == 7
    assert [str(m) for m in g.moves] == ["3"] and g.moves[0].seat == 0


def test_move_out_of_turn_is_not_your_turn_and_changes_nothing():
    g = Take(players=2, seed=1, heap=10)
    before = g.to_json()
    v = g.check("1", seat=1)
    assert not v.ok and v.code == "not_your_turn"
    assert "2" in v.message("en") and "1" in v.message("en")
    with pytest.raises(IllegalMove) as exc:
        g.play("1", seat=1)
    assert exc.value.verdict.code == "not_your_turn"
    assert g.to_json() == before


def test_illegal_move_raises_value_error_subclass_with_both_languages():
    g = Take(players=2, seed=1, heap=10)
    with pytest.raises(ValueError) as exc:
        g.play("4")
    assert isinstance(exc.value, IllegalMove)
    assert exc.value.message("ro") == "Poți lua cel mult 3."
    assert exc.value.message("en") == "You may take at most 3."


def test_bad_text_is_bad_notation_and_parse_move_raises():
    g = Take(players=2, seed=1, heap=10)
    assert g.check("lots").code == "bad_notation"
    with pytest.raises(ValueError, match="not a number"):
        g.parse_move("lots")
    with pytest.raises(ValueError):
        g.parse_move("   ")


def test_no_such_seat():
    g = Take(players=2, seed=1, heap=10)
    assert g.check("1", seat=5).code == "no_such_seat"


def test_legal_moves_are_found_by_membership():
    g = Take(players=2, seed=1, heap=2)
    assert g.parse_move("2") in g.legal_moves()
    assert g.parse_move("3") not in g.legal_moves()


def test_undo_restores_the_exact_state_including_rng():
    g = Take(players=3, seed=5, heap=12)
    g.play("2")
    snapshot = g.to_json()
    g.play("3")
    assert str(g.undo()) == "3"
    assert g.to_json() == snapshot and g.to_move == 1
    with pytest.raises(ValueError):
        Take(players=2, seed=1, heap=3).undo()


def test_json_round_trip_is_exact_and_checks_the_rng():
    g = Take(players=2, seed=99)
    for _ in range(3):
        g.play(g.legal_moves()[0])
    text = g.to_json()
    again = Take.from_dict(json.loads(text))
    assert again.to_json() == text
    data = json.loads(text)
    data["rng"][1][5] += 1
    with pytest.raises(ValueError, match="random state"):
        Take.from_dict(data)


def test_game_over_rejects_moves():
    g = Take(players=2, seed=1, heap=1)
    g.play("1")
    assert g.is_over and g.legal_moves() == [] and g.check("1").code == "game_over"


def test_creation_errors_are_clear():
    with pytest.raises(ValueError, match="2 to 3 players"):
        Take(players=7)
    with pytest.raises(ValueError, match="unknown option"):
        Take(options={"speed": 2})


def test_registry_errors_name_the_games():
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        engine.create_game("chess")
    with pytest.raises(ValueError, match="not a saved"):
        engine.load_game("{}")
    with pytest.raises(ValueError, match="not a saved game"):
        engine.load_game("not json")


@pytest.mark.parametrize("text", [
    '{"format": "masa-game"}',
    '{"format": "masa-game", "game": ["macao"]}',
    '{"format": "masa-game", "game": "macao"}',
    '{"format": "masa-game", "game": "macao", "init": 5, "moves": []}',
    '{"format": "masa-game", "game": "macao", "init": {"players": 2, "seed": [1]}, "moves": []}',
    '{"format": "masa-game", "game": "macao", "init": {"players": 2, "seed": 1}, "moves": [1]}',
    '{"format": "masa-game", "game": "macao", "init": {"players": 2, "seed": 1}, "moves": [], "rng": [1]}',
])
def test_a_damaged_saved_game_is_a_value_error(text):
    with pytest.raises(ValueError, match="not a saved"):
        engine.load_game(text)


def test_verdict_is_truthy_only_when_ok_and_serialises():
    assert OK and not illegal("too_many", limit=3)
    d = illegal("too_many", limit=2).to_dict()
    assert d["code"] == "too_many" and d["en"] == "You may take at most 2." and d["ok"] is False
    assert Verdict(True, "ok", sure=False) != OK


def test_a_verdict_code_cannot_be_registered_twice_with_other_words():
    register_messages({"core_test_code": {"ro": "unu", "en": "one"}})
    register_messages({"core_test_code": {"ro": "unu", "en": "one"}})  # the same words: fine
    with pytest.raises(ValueError, match="registered twice"):
        register_messages({"core_test_code": {"ro": "doi", "en": "two"}})


def test_each_game_speaks_its_own_game_over():
    """Macao, Table and Tintar each say the end of the game their own way."""
    import random
    events = {}
    for game_id in ("macao", "table", "tintar"):
        g = engine.create_game(game_id, seed=3)
        pick = random.Random(3)
        for _ in range(5000):
            if g.is_over:
                break
            for e in g.play(pick.choice(g.legal_moves())):
                assert e.game == game_id
                if e.kind == "game_over":
                    events[game_id] = e.message("en")
    assert len(set(events.values())) == 3, events
    assert all(not text.startswith("event_") for text in events.values())


def test_bad_notation_is_said_in_romanian_without_english_inside():
    v = Take(players=2, seed=1, heap=10).check("lots")
    assert v.message("ro") == "Mutare neînțeleasă: „lots”."
    assert v.message("en").startswith("Cannot read the move 'lots': not a number")
