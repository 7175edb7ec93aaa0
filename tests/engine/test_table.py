"""Table (backgammon): rules, gnubg notation, Position ID / Match ID with
vectors taken from GNU Backgammon 1.07, the camera result check, scoring,
bad input.  (The full legal-move comparison with gnubg is
test_table_gnubg.py.)"""

import json
import random

import pytest

from engine import IllegalMove, create_game, load_game
from engine.table import (BAR, ROLLS, MatchState, Position, decode_position_id, explain_result, format_play,
                          generate_plays, parse_play, playout_positions, position_id)

START_ID = "4HPwATDgc/ABMA"


def side(points: dict) -> tuple:
    """{point: count} in the owner's numbering ("bar" for the bar) -> 25 counts."""
    s = [0] * 25
    for p, n in points.items():
        s[BAR if p == "bar" else p - 1] = n
    return tuple(s)


def pos(me: dict, opp: dict) -> Position:
    p = Position(side(me), side(opp))
    p.validate()
    return p


def game(me: dict, opp: dict, dice, **options) -> "object":
    return create_game("table", position_id=position_id(pos(me, opp)), dice=dice, options=options)


def after(before: Position, moves: list[tuple], hits: list[int] = ()) -> Position:
    """Move the mover's checkers by hand: (from, to) with 25 bar and 0 off;
    ``hits`` are the mover's points whose lone opposing checker goes to the bar."""
    me, opp = list(before.me), list(before.opp)
    for a, b in moves:
        me[a - 1] -= 1
        if b:
            me[b - 1] += 1
    for p in hits:
        opp[24 - p] -= 1
        opp[BAR] += 1
    return Position(tuple(me), tuple(opp))


# ----- Position ID and Match ID: vectors from gnubg ----------------------------

# (position ID, gnubg.board() after "set board": (player not on roll, player on roll))
GNUBG_BOARDS = [
    (START_ID, ((0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0),) * 2),
    ("vwMxiEA3AKPJRA", ((6, 3, 0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1),
                        (3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 1, 2, 0, 1, 0, 2, 0, 1, 0, 0, 1))),
    ("vx0AAPB3AAAAAA", ((6, 2, 3) + (0,) * 22, (7, 3) + (0,) * 23)),
    ("50EAdHDfNwAEQQ", ((3, 0, 4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 0, 0, 0, 3),
                        (5, 5, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))),
    ("DwAAIAAAAAAAAA", ((4,) + (0,) * 24, (1,) + (0,) * 24)),
    ("4P8PAAAA8P8DIA", ((0, 0, 0, 0, 0, 15) + (0,) * 19, (0,) * 12 + (14,) + (0,) * 10 + (1, 0))),
]


@pytest.mark.parametrize("pid,board", GNUBG_BOARDS)
def test_position_id_both_ways(pid, board):
    p = decode_position_id(pid)
    assert (p.opp, p.me) == board
    assert position_id(p) == pid


# (match ID, fields gnubg set: match length, score, player on roll, dice)
GNUBG_MATCHES = [
    ("MIEKAAAAAAAA", 0, (0, 0), 0, (5, 2)),
    ("MAEXAAAAAAAA", 0, (0, 0), 0, (6, 5)),
    ("cAkXAAAAAAAA", 0, (0, 0), 1, (6, 5)),
    ("MIHqAAAAAAAE", 7, (0, 0), 0, (5, 2)),
    ("MIEKAAAAAAAE", 0, (0, 0), 0, (5, 2)),       # money game without the Jacoby rule
    ("MIHqAGAAEAAE", 7, (6, 2), 0, (5, 2)),
    ("cAn7ADAAKAAE", 7, (3, 5), 1, (6, 6)),
    ("MAHmAGAAEAAE", 7, (6, 2), 0, (4, 1)),
    ("cInlACAAMAAE", 7, (2, 6), 1, (3, 1)),
    ("cAmgAAAAAAAE", 5, (0, 0), 1, (0, 0)),
]


@pytest.mark.parametrize("mid,length,score,turn,dice", GNUBG_MATCHES)
def test_match_id_both_ways(mid, length, score, turn, dice):
    ms = MatchState.decode(mid)
    assert (ms.match_to, ms.score, ms.turn, ms.dice, ms.cube, ms.cube_owner) == (length, score, turn, dice, 1, None)
    assert ms.encode() == mid


def test_game_exports_ids_like_gnubg():
    g = create_game("table", position_id=START_ID, dice=(5, 2))
    assert g.position_id() == START_ID and g.match_id() == "MIEKAAAAAAAA"
    # gnubg: new match 5, set board <start>, set dice 5 2, move 13/11 13/8
    g = create_game("table", position_id=START_ID, dice=(5, 2), options={"match_to": 5, "roller": "table"})
    g.play("13/11 13/8")
    assert g.to_move == 1
    assert g.position_id() == "4PPIATDgc/ABMA" and g.match_id() == "cAmgAAAAAAAE"


def test_match_id_sets_turn_dice_and_score():
    g = create_game("table", position_id="vwMxiEA3AKPJRA", match_id="cAn7ADAAKAAE")
    assert (g.to_move, g.dice, g.scores(), g.options["match_to"]) == (1, (6, 6), [3, 5], 7)
    assert g.position_id() == "vwMxiEA3AKPJRA" and g.match_id() == "cAn7ADAAKAAE"
    assert (g.position().opp, g.position().me) == GNUBG_BOARDS[1][1]


def test_contract_example_and_json_lists():
    g = create_game("table", position_id="4HPwATDgc/ABMA", dice=(5, 2))
    assert sorted(str(m) for m in g.legal_moves()) == sorted(
        ["24/22 13/8", "13/11 13/8", "13/8 6/4", "13/6", "24/22 8/3", "13/11 8/3", "8/3 6/4", "8/6 8/3"])
    g.play("8/3 6/4")
    h = load_game(g.to_json())      # the dice come back as a JSON list
    assert h.position_id() == g.position_id() and h.moves == g.moves


# ----- notation --------------------------------------------------------------------

def test_gnubg_notation_variants_read_to_the_canonical_play():
    g = create_game("table", position_id=START_ID, dice=(5, 2))
    for text in ("8/3 6/4", "6/4 8/3", "8/3  6/4", "8/3 6/4"):
        assert str(g.parse_move(text)) == "8/3 6/4"
    assert str(g.parse_move("13/8/6")) == "13/6"
    assert str(g.parse_move("13/11 11/6")) == "13/6"
    g = create_game("table", position_id=START_ID, dice=(6, 6))
    assert str(g.parse_move("13/7 13/7 24/18 24/18")) == "24/18(2) 13/7(2)"
    assert g.check("24/18(2) 13/7(2)").ok


def test_hits_bar_and_off_notation():
    g = game({"bar": 1, 6: 14}, {3: 1, 6: 14}, (3, 1))    # opp 3 = my 22: hit on entering with the 3
    moves = {m.text for m in g.legal_moves()}
    assert "bar/22* 6/5" in moves and "bar/21 6/3" not in moves
    assert str(g.parse_move("bar/22 6/5")) == "bar/22* 6/5"
    assert str(g.parse_move("25/22 6/5")) == "bar/22* 6/5"
    g.play("bar/22 6/5")
    assert g.board[1][BAR] == 1
    g = game({2: 1, 1: 1}, {6: 15}, (6, 5))
    assert [m.text for m in g.legal_moves()] == ["2/off 1/off"]
    assert str(g.parse_move("1/0 2/off")) == "2/off 1/off"


def test_quiet_and_hitting_ways_are_told_apart():
    # from the bar with 5-4, through 21 (a lone opposing checker) or 20
    g = game({"bar": 1, 6: 14}, {4: 1, 6: 14}, (5, 4))
    moves = {m.text for m in g.legal_moves()}
    assert {"bar/16", "bar/21*/16"} <= moves
    assert str(g.parse_move("bar/16")) == "bar/16"
    assert str(g.parse_move("bar/21*/16")) == "bar/21*/16"


def test_every_legal_play_round_trips_through_parse():
    chooser = random.Random(5)
    for seed in range(6):
        g = create_game("table", seed=seed)
        while not g.is_over:
            moves = g.legal_moves()
            for m in moves:
                assert g.parse_move(str(m)) == m
            g.play(chooser.choice(moves))


def test_format_and_parse_helpers():
    assert format_play([(23, 17, True), (17, 12, False)]) == "24/18*/13"
    assert format_play([(12, 6, False), (12, 6, False)]) == "13/7(2)"
    assert format_play([(5, -1, False)]) == "6/off"
    assert parse_play("13/7(2) bar/22*") == [[13, 7], [13, 7], [25, 22]]
    with pytest.raises(ValueError):
        parse_play("27/21")
    with pytest.raises(ValueError):
        parse_play("13-7")


# ----- the rules ----------------------------------------------------------------

def test_bar_checker_enters_first_and_a_closed_board_loses_the_turn():
    opp = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5}         # my points 24..20 closed, 19 open
    g = game({"bar": 1, 6: 14}, opp, (6, 5))
    assert {m.text for m in g.legal_moves()} == {"bar/14", "bar/19 6/1"}
    v = g.check("6/1 6/off")
    assert not v.ok and v.code in ("bar_must_enter_first", "bearoff_not_allowed_yet")
    assert g.check("6/1 19/13").code in ("bar_must_enter_first", "no_checker_there")
    assert g.check("6/1").code == "bar_must_enter_first"
    g = game({"bar": 1, 6: 14}, opp, (5, 5))
    assert [m.text for m in g.legal_moves()] == ["pass"]
    assert g.check("6/1(4)").code == "bar_must_enter_first"
    g.play("pass")
    assert g.to_move == 1
    g = game({"bar": 1, 6: 14}, opp, (6, 5))
    assert g.check("pass").code == "table_cannot_pass"


def test_doubles_are_played_four_times_and_both_dice_when_possible():
    g = create_game("table", position_id=START_ID, dice=(6, 6))
    assert g.check("24/18(2)").code == "die_could_be_played"
    assert g.check("24/18(2) 13/7(2)").ok
    g = create_game("table", position_id=START_ID, dice=(6, 1))
    v = g.check("8/7")
    assert v.code == "die_could_be_played" and v.message("en") == "The 6 could have been played."
    assert v.message("ro") == "Zarul de 6 putea fi jucat."


def test_the_larger_die_when_only_one_can_be_played():
    # one checker can move (13); 13/7/2 and 13/8/2 are blocked on 2
    g = game({13: 1, 1: 14}, {23: 2, 6: 13}, (6, 5))
    assert [m.text for m in g.legal_moves()] == ["13/7"]
    v = g.check("13/8")
    assert v.code == "must_use_larger_die" and "6" in v.message("en")


def test_bear_off_standard_and_the_literal_reading():
    home = {4: 3, 3: 4, 2: 4, 1: 4}
    g = game(home, {19: 15}, (6, 5))
    assert [m.text for m in g.legal_moves()] == ["4/off(2)"]
    assert g.check("4/off 3/off").code in ("bearoff_higher_checker", "bearoff_from_highest")
    g = game(home, {19: 15}, (6, 5), bearoff="any")
    moves = {m.text for m in g.legal_moves()}
    assert {"4/off(2)", "4/off 3/off", "3/off 1/off", "2/off(2)"} <= moves
    # Situation 1: 4-3 with two checkers on 5 moves them, bears nothing off
    for reading in ("standard", "any"):
        g = game({5: 2, 2: 6, 1: 7}, {19: 15}, (4, 3), bearoff=reading)
        assert g.check("2/off 1/off").code == "bearoff_higher_checker"
        assert g.check("5/1 5/2").ok
    g = game({8: 1, 2: 7, 1: 7}, {19: 15}, (2, 1))
    assert g.check("2/off 1/off").code == "bearoff_not_allowed_yet"


# ----- the camera's result check -----------------------------------------------------

def test_explain_result_ok_and_illegal_reasons():
    start = Position.start()
    assert explain_result(start, (5, 2), after(start, [(13, 8), (13, 11)])).ok
    assert explain_result(START_ID, (5, 2), position_id(after(start, [(8, 3), (6, 4)]))).ok
    v = explain_result(start, (6, 1), after(start, [(8, 7)]))
    assert (v.ok, v.code, v.args, v.sure) == (False, "die_could_be_played", {"die": 6}, True)
    v = explain_result(start, (6, 1), start)
    assert v.code == "die_could_be_played" and v.args["die"] == 6
    v = explain_result(start, (5, 2), after(start, [(6, 11)]))
    assert v.code == "moved_backwards"
    v = explain_result(start, (5, 2), after(start, [(13, 5)]))
    assert v.code == "moved_too_far"
    v = explain_result(start, (5, 2), after(start, [(13, 7)]))
    assert v.code == "no_such_play" and v.sure
    b = pos({13: 1, 1: 14}, {23: 2, 6: 13})
    assert explain_result(b, (6, 5), after(b, [(13, 8)])).code == "must_use_larger_die"
    b = pos({"bar": 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 13: 5})
    v = explain_result(b, (6, 5), after(b, [(6, 1), (6, 0)]))
    assert v.code in ("bar_must_enter_first", "bearoff_not_allowed_yet")
    v = explain_result(b, (6, 5), after(b, [(6, 1)]))
    assert v.code == "bar_must_enter_first" and v.message("en") == "The checker on the bar must enter first."
    assert explain_result(b, (5, 5), b).ok          # closed board: nothing moves, nothing to flag
    b = pos({8: 1, 2: 7, 1: 7}, {19: 15})
    v = explain_result(b, (2, 1), after(b, [(2, 0), (1, 0)]), off_seen=True)
    assert (v.code, v.sure) == ("bearoff_not_allowed_yet", True)
    v = explain_result(b, (2, 1), after(b, [(2, 0), (1, 0)]))      # unless the off tray was counted:
    assert (v.code, v.sure) == ("camera_impossible_position", False)   # a checker the camera missed
    b = Position.from_id("fxcAAGzu3YoAAA")                             # 10/5 7/2 5/off, one checker home
    assert explain_result(b, (5, 5), after(b, [(10, 5), (7, 2), (5, 0)])).code == "die_could_be_played"
    b = pos({4: 3, 3: 4, 2: 4, 1: 4}, {19: 15})
    assert explain_result(b, (6, 5), after(b, [(3, 0), (2, 0)])).code == "bearoff_from_highest"
    assert explain_result(b, (6, 5), after(b, [(3, 0), (2, 0)]), bearoff="any").ok


def test_explain_result_agrees_with_the_legal_plays_on_playout_positions():
    rng = random.Random(8)
    for p in playout_positions(150, seed=99):
        roll = rng.choice(ROLLS)
        legal = generate_plays(p.me, p.opp, roll)
        for key in rng.sample(sorted(legal), min(3, len(legal))):
            assert explain_result(p, roll, Position(*key)).ok
        reach = sorted(generate_plays(p.me, p.opp, roll, partial=True))
        for m, o, _ in rng.sample(reach, min(4, len(reach))):
            v = explain_result(p, roll, Position(m, o))
            assert v.ok == ((m, o) in legal)
            assert v.ok or (v.sure and v.code != "camera_impossible_position")


def test_impossible_pictures_are_not_illegal_flags():
    start = Position.start()
    gone = after(start, [(13, 0)])                           # a checker vanished from mid-board
    extra = Position(tuple(n + (i == 12) for i, n in enumerate(start.me)), start.opp)
    both = Position(after(start, [(24, 20)]).me,                    # both colours on the mover's 20
                    tuple(n - (i == 5) + (i == 4) for i, n in enumerate(start.opp)))
    opp_lost = Position(start.me, tuple(n - (i == 5) for i, n in enumerate(start.opp)))
    for picture in (gone, extra, both, opp_lost):
        v = explain_result(start, (5, 2), picture)
        assert (v.ok, v.sure, v.code) == (False, False, "camera_impossible_position"), picture
        assert "camera" in v.message("en") and "Camera" in v.message("ro")
    moved_opp = Position(start.me, tuple(n - (i == 5) + (i == 4) for i, n in enumerate(start.opp)))
    assert explain_result(start, (5, 2), moved_opp).code == "opponent_checkers_moved"


def test_check_position_reads_a_camera_table():
    g = create_game("table", position_id=START_ID, dice=(5, 2))
    # white's view; after 13/8 13/11 the camera reports points as [white, black] pairs
    points = [[0, 0] for _ in range(24)]
    for p, n in {24: 2, 13: 3, 11: 1, 8: 4, 6: 5}.items():
        points[p - 1][0] = n
    for p, n in {24: 2, 13: 5, 8: 3, 6: 5}.items():
        points[24 - p][1] = n
    assert g.check_position({"points": points, "bar": [0, 0], "off": [0, 0]}).ok
    points[10][0] = 0
    v = g.check_position({"points": points, "bar": [0, 0]})
    assert v.code == "camera_impossible_position" and not v.sure
    v = g.check_position({"points": points, "bar": [0, 0], "off": [0, 0]})     # off tray disagrees
    assert v.code == "camera_impossible_position" and not v.sure


# ----- dice, rolls, scoring, replay ---------------------------------------------------

def test_rolls_entered_at_the_table():
    g = create_game("table", options={"roller": "table"})
    assert g.dice is None and len(g.legal_moves()) == 21
    assert g.check("13/8 13/11").code == "table_no_dice_yet"
    g.play("roll 2 5")
    assert g.dice == (5, 2) and g.check("roll 3 1").code == "table_dice_already_rolled"
    g.play("13/8 13/11")
    g.play("64: 24/18 13/9")
    assert g.to_move == 0 and g.dice is None
    assert str(g.parse_move("31:8/5 6/5")) == "31: 8/5 6/5"
    h = load_game(g.to_json())
    assert h.position_id() == g.position_id()


def test_observed_play_waits_for_the_table_roll_and_the_opening_roll_option():
    g = create_game("table", observed=True, seed=3)
    assert g.dice is None and g.legal_moves()[0].kind == "roll"
    for seed in range(20):
        g = create_game("table", seed=seed, options={"opening": "dice"})
        assert g.dice[0] > g.dice[1]            # the higher die's owner begins with both numbers
    assert {create_game("table", seed=s, options={"opening": "dice"}).to_move for s in range(20)} == {0, 1}


def test_engine_rolls_are_seeded_and_a_wrong_roll_prefix_is_refused():
    a, b = create_game("table", seed=11), create_game("table", seed=11)
    assert a.dice == b.dice
    other = next(r for r in ((6, 5), (4, 1)) if tuple(sorted(r)) != tuple(sorted(a.dice)))
    before = a.to_json()
    v = a.check(f"{other[0]}{other[1]}: 13/8")
    assert v.code == "table_wrong_dice"
    with pytest.raises(IllegalMove):
        a.play(f"{other[0]}{other[1]}: 13/8")
    assert a.to_json() == before
    a.play(a.legal_moves()[0])
    a.undo()
    assert a.to_json() == before


def test_single_game_gammon_and_backgammon_scoring():
    # white bears off its last checker; black has borne off nothing
    base = ({1: 1}, {6: 14, 20: 1})            # black's 20 is white's 5: in white's home
    g = game(*base, (2, 1))
    events = g.play("1/off")
    assert g.is_over and g.result()["winner"] == 0 and g.result()["kind"] == "backgammon"
    assert g.scores() == [2, 0]                # backgammon off: counts as a gammon
    assert any(e.kind == "game_over" for e in events)
    assert "marț" in [e for e in events if e.kind == "game_over"][0].message("ro")
    g = game(*base, (2, 1), backgammon=True)
    g.play("1/off")
    assert g.scores() == [3, 0]
    g = game(*base, (2, 1), gammon=False)
    g.play("1/off")
    assert g.scores() == [1, 0]
    g = game({1: 1}, {6: 13}, (2, 1))          # black has two off: a single game
    g.play("1/off")
    assert g.scores() == [1, 0] and g.result()["kind"] == "single"
    assert g.legal_moves() == [] and g.check("pass").code == "game_over"


def test_match_continues_to_n_points_with_the_crawford_flag():
    g = game({1: 1}, {6: 14, 13: 1}, (2, 1), match_to=3)
    g.play("1/off")
    assert not g.is_over and g.scores() == [2, 0]
    assert g.position_id() == START_ID and g.to_move == 0 and g.dice is not None
    assert MatchState.decode(g.match_id()).crawford
    assert MatchState.decode(g.match_id()).score == (2, 0)


def test_with_the_cube_and_engine_rolls_a_roll_prefix_cannot_choose_the_dice():
    # the engine rolls: a player about to roll may not name the dice in a "66: ..." prefix
    g = create_game("table", seed=1, options={"cube": True})
    assert g.dice is None and g.engine_rolls
    before = g.to_json()
    assert g.check("66: 24/18(2) 13/7(2)").code == "table_engine_rolls"
    with pytest.raises(IllegalMove):
        g.play("66: 24/18(2) 13/7(2)")
    assert g.to_json() == before
    t = create_game("table", seed=1, options={"cube": True, "roller": "table"})
    assert t.check("66: 24/18(2) 13/7(2)").ok


def test_a_double_offered_comes_with_no_dice():
    g = create_game("table", seed=3, options={"cube": True})
    g.play("double")
    with pytest.raises(ValueError, match="before the roll"):
        create_game("table", position_id=g.position_id(), match_id=g.match_id(), dice=(5, 2),
                    options={"cube": True})
    h = create_game("table", position_id=g.position_id(), match_id=g.match_id(), options={"cube": True})
    assert h.offered and h.dice is None and h.match_id() == g.match_id()


def test_the_cube_as_gnubg_writes_it():
    # gnubg: new match 5, set turn 0, set board <start>, double, take, set dice 3 1, move 8/5 6/5, double
    g = create_game("table", position_id=START_ID, options={"match_to": 5, "cube": True, "roller": "table"})
    assert g.match_id() == "MAGgAAAAAAAE"
    assert "double" in {m.text for m in g.legal_moves()}
    g.play("double")
    assert g.to_move == 1 and g.match_id() == "MBmgAAAAAAAE"
    assert [m.text for m in g.legal_moves()] == ["drop", "take"]
    assert g.check("roll 3 1", seat=1).code == "table_answer_double"
    g.play("take")
    assert (g.to_move, g.cube, g.cube_owner) == (0, 2, 1) and g.match_id() == "EQGgAAAAAAAE"
    assert g.check("double").code == "table_cube_not_yours"
    g.play("roll 3 1")
    assert g.match_id() == "EYGlAAAAAAAE" and g.check("double").code == "table_double_before_roll"
    g.play("8/5 6/5")
    assert g.position_id() == "sGfwATDgc/ABMA" and g.match_id() == "UQmgAAAAAAAE"
    g.play("double")
    assert g.match_id() == "URGgAAAAAAAE"
    events = g.play("drop")
    assert g.scores() == [0, 2] and not g.is_over and g.games[-1]["kind"] == "drop"
    assert any(e.kind == "game_over" for e in events) and (g.cube, g.cube_owner) == (1, None)
    h = create_game("table", position_id="sGfwATDgc/ABMA", match_id="URGgAAAAAAAE", options={"cube": True})
    assert (h.to_move, h.turn, h.offered, h.cube, h.cube_owner) == (0, 1, True, 2, 1)
    assert h.match_id() == "URGgAAAAAAAE"
    with pytest.raises(ValueError, match="cube"):
        create_game("table", position_id="sGfwATDgc/ABMA", match_id="URGgAAAAAAAE")


def test_the_cube_with_engine_rolls_crawford_and_points():
    g = create_game("table", seed=1, options={"cube": True})
    assert g.dice is None and {m.text for m in g.legal_moves()} == {"double", "roll"}
    assert g.check("roll 5 2").code == "table_engine_rolls"
    g.play("roll")
    assert g.dice is not None
    g = create_game("table", options={"cube": True, "roller": "table"})
    assert g.check("roll").code == "table_roll_needs_numbers"
    assert create_game("table", seed=1).check("double").code == "table_no_cube"
    # a gammon with the cube at 2 is worth 4
    g = game({1: 1}, {6: 14, 13: 1}, None, cube=True, roller="table")
    g.play("double")
    g.play("take")
    g.play("roll 2 1")
    g.play("1/off")
    assert g.scores() == [4, 0] and g.result()["kind"] == "gammon"
    # the Crawford game: no double
    g = game({1: 1}, {6: 14, 13: 1}, (2, 1), cube=True, match_to=3, roller="table")
    g.play("1/off")
    assert g.crawford and g.check("double").code == "table_crawford_no_double"


def test_render_shows_board_dice_pips_and_ids():
    g = create_game("table", position_id=START_ID, dice=(5, 2))
    text = g.render("en")
    assert "pips 167" in text and "5-2" in text and START_ID in text and "bar 0" in text
    assert "zaruri 5-2" in g.render("ro")


# ----- bad input --------------------------------------------------------------------

def test_bad_input_is_a_clear_error_and_changes_nothing():
    for bad in ("4HPwATDgc/ABM", "4HPwATDgc/AB!A", "////////////////", 42):
        with pytest.raises(ValueError):
            create_game("table", position_id=bad)
    sixteen = Position(side({6: 16}), side({6: 14}))
    with pytest.raises(ValueError, match="16 checkers"):
        create_game("table", position_id=position_id(sixteen))
    both = Position(side({6: 15}), side({19: 1, 6: 14}))     # its 19 is the mover's 6
    with pytest.raises(ValueError, match="both players"):
        create_game("table", position_id=position_id(both))
    with pytest.raises(ValueError):
        create_game("table", match_id="nonsense")
    with pytest.raises(ValueError):
        create_game("table", dice=(7, 1))
    with pytest.raises(ValueError):
        create_game("table", options={"bearoff": "sometimes"})
    with pytest.raises(ValueError, match="table deal is a dict"):
        create_game("table", deal=5)
    g = create_game("table", position_id=START_ID, dice=(5, 2))
    before = g.to_json()
    for text in ("27/21", "13/x", "bar/22 25/20 13/8 13/8 6/1", "roll 7 1"):
        with pytest.raises(ValueError):
            g.parse_move(text)
        assert g.check(text).code == "bad_notation"
        with pytest.raises(IllegalMove):
            g.play(text)
    with pytest.raises(IllegalMove):
        g.play("13/7 13/9")
    assert g.to_json() == before
    assert json.loads(before)["moves"] == []


def test_camera_check_without_a_known_roll_is_never_a_sure_flag():
    """A position seen before the dice are known is not judged illegal for sure."""
    g = create_game("table", options={"roller": "table"})
    assert g.dice is None
    v = g.check_position(g.position())
    assert not v.ok and v.code == "table_no_dice_yet" and v.sure is False
