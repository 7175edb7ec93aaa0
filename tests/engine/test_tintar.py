"""Tintar (nine men's morris): one test per rule, quoting the user's text.

The Romanian sentences come from rules/002, "Regulament Tintar (Moara)".
Also: the notation round trip, positions set up from the rules, the JSON
round trip, bad input leaving the game unchanged, and the camera's
before/after check (ok, illegal with its reason, or unsure: never a false
illegal flag).
"""

import random

import pytest

from engine import IllegalMove, create_game, load_game
from engine.tintar import ADJACENT, LINES, POINTS


def tintar(position=None, to_move=0, in_hand=None, **options):
    kwargs = {"options": options, "seed": 1}
    if position is not None:
        kwargs.update(position=position, to_move=to_move)
    if in_hand is not None:
        kwargs["in_hand"] = in_hand
    return create_game("tintar", **kwargs)


def board_after(game, text):
    """The board a camera would see after ``text`` (worked out here, apart
    from the engine)."""
    board = game.board()
    colour = "white" if game.to_move == 0 else "black"
    body, _, cap = text.partition("x")
    frm, _, to = body.rpartition("-")
    if frm:
        board[frm] = None
    board[to] = colour
    if cap:
        board[cap] = None
    return board


# ----- the board -----------------------------------------------------------------

def test_the_board_has_24_points_16_mills_and_32_links():
    # "O piesa poate fi asezata pe unul dintre cele 24 de puncte ale tablei"
    assert len(POINTS) == 24 and len(LINES) == 16
    links = {(a, b) for a, near in enumerate(ADJACENT) for b in near}
    assert all((b, a) in links for a, b in links) and len(links) == 2 * 32
    corner, middle_of_side, cross = POINTS.index("a1"), POINTS.index("d1"), POINTS.index("b4")
    assert [POINTS[p] for p in ADJACENT[corner]] == ["a4", "d1"]
    assert len(ADJACENT[middle_of_side]) == 3 and len(ADJACENT[cross]) == 4


# ----- placing ---------------------------------------------------------------------

def test_the_board_starts_empty_with_nine_pieces_each():
    # "Initial tabla de joc este goala, si fiecare jucator are noua piese la dispozitie."
    g = tintar()
    assert all(v is None for v in g.board().values())
    assert g.in_hand == [9, 9] and g.phase() == "placing"
    assert sorted(str(m) for m in g.legal_moves()) == sorted(POINTS)


def test_white_starts_and_the_players_place_in_turn():
    # "Pe rand, cei doi aseaza piesele pe tabla."  (White first: the text is silent.)
    g = tintar()
    assert g.to_move == 0
    g.play("d2")
    assert g.to_move == 1 and g.board()["d2"] == "white" and g.in_hand == [8, 9]
    g.play("d6")
    assert g.to_move == 0 and g.board()["d6"] == "black"


def test_a_piece_is_placed_on_a_free_point_only():
    # "O piesa poate fi asezata pe unul dintre cele 24 de puncte ale tablei"
    g = tintar()
    g.play("d2")
    v = g.check("d2")
    assert not v.ok and v.code == "point_occupied" and "d2" in v.message("ro")


def test_a_mill_while_placing_must_capture():
    # "a format o moara. In acest caz, are dreptul (si obligatia) sa captureze una din
    #  piesele adversarului aflate pe tabla."
    g = tintar({"a1": "white", "a4": "white", "g7": "black", "g4": "black"}, in_hand=(7, 7))
    assert g.check("a7").code == "must_capture"
    assert {str(m) for m in g.legal_moves() if str(m).startswith("a7")} == {"a7xg7", "a7xg4"}
    events = g.play("a7xg7")
    assert [e.kind for e in events] == ["placed", "mill", "captured"]
    assert g.board()["g7"] is None and g.captured(1) == 1 and g.scores() == [1, 0]


def test_a_piece_in_a_mill_is_safe_while_others_are_not():
    # "Altfel, e obligat sa captureze o piesa care nu face parte din nici o moara."
    g = tintar({"a1": "white", "a4": "white", "d5": "black", "d6": "black", "d7": "black",
                "g4": "black"}, in_hand=(7, 5))
    v = g.check("a7xd6")
    assert not v.ok and v.code == "capture_in_mill"
    assert "in a mill and others are not" in v.message("en")
    assert "face parte dintr-o moară" in v.message("ro")
    assert g.check("a7xg4").ok
    assert {str(m) for m in g.legal_moves() if "x" in str(m)} == {"a7xg4"}


def test_when_every_piece_is_in_a_mill_any_may_be_taken():
    # "In cazul in care adversarul are pe tabla doar piese care fac parte din cel putin o
    #  moara, poate captura pe oricare dintre ele."
    g = tintar({"a1": "white", "a4": "white", "d5": "black", "d6": "black", "d7": "black"},
               in_hand=(7, 6))
    assert {str(m) for m in g.legal_moves() if "x" in str(m)} == {"a7xd5", "a7xd6", "a7xd7"}


def test_no_mill_no_capture_and_only_opponents_pieces():
    # "completeze un segment - adica sa aseze trei piese proprii pe una din liniile tablei"
    g = tintar({"a1": "white", "a4": "white", "g4": "black"}, in_hand=(7, 8))
    assert g.check("d1xg4").code == "no_mill_no_capture"
    assert g.check("a7xa1").code == "capture_not_opponent"
    assert g.check("a7xg1").code == "capture_not_opponent"


def test_a_mill_with_no_opponent_piece_on_the_board_takes_nothing():
    # "sa captureze una din piesele adversarului aflate pe tabla": none there, none taken.
    g = tintar({"a1": "white", "a4": "white"}, in_hand=(7, 9))
    assert g.check("a7").ok and "a7" in {str(m) for m in g.legal_moves()}


# ----- moving ---------------------------------------------------------------------

def test_moving_starts_when_all_nine_pieces_are_placed():
    # "Cand s-au terminat de pozitionat cele noua piese, incepe faza in care se poate muta."
    g = tintar()
    rng = random.Random(5)
    for ply in range(18):
        assert {m.kind for m in g.legal_moves()} == {"place"}
        g.play(rng.choice(g.legal_moves()))
    assert g.in_hand == [0, 0] and g.phase() == "moving"
    assert {m.kind for m in g.legal_moves()} == {"move"}
    assert g.check(next(p for p, v in g.board().items() if v is None)).code == "no_pieces_in_hand"


def test_no_sliding_while_pieces_remain_in_hand():
    # "Cand s-au terminat de pozitionat cele noua piese, incepe faza in care se poate muta."
    g = tintar({"a1": "white", "g7": "black"}, in_hand=(1, 0))
    assert g.check("a1-a4").code == "still_placing"


def test_a_piece_moves_to_an_adjacent_free_point():
    # "fiecare jucator poate muta una dintre piesele sale intr-una din pozitiile adiacente
    #  (doar daca respectivul punct este liber)."
    g = tintar({"a1": "white", "b4": "white", "c5": "white", "e4": "white",
                "d1": "black", "g7": "black", "f6": "black", "b2": "black"})
    assert g.check("a1-a4").ok
    assert g.check("a1-a7").code == "not_adjacent"
    assert g.check("a1-d1").code == "point_occupied"
    assert g.check("c4-d4").code == "no_such_point"     # the centre is not a point
    assert g.check("g7-d7").code == "not_your_piece"
    assert g.check("a7-d7").code == "no_piece_there"
    assert {str(m) for m in g.legal_moves() if str(m).startswith("a1")} == {"a1-a4"}
    assert {str(m) for m in g.legal_moves() if str(m).startswith("b4")} == {"b4-b6", "b4-a4", "b4-c4"}


def test_a_mill_made_by_moving_captures_again():
    # "Si in aceasta faza scopul este realizarea de formatii de trei puncte adiacente, caz in
    #  care din nou va trebui capturata una din piesele adversarului."
    g = tintar({"a1": "white", "a4": "white", "d7": "white", "g1": "black", "g4": "black",
                "f6": "black"})
    assert g.check("d7-a7").code == "must_capture"
    g.play("d7-a7xg1")
    assert g.pieces_left(1) == 2 and not g.is_over
    g.play("g4-g7")
    # Breaking the mill and making it again captures again.
    g.play("a7-d7")
    g.play("g7-g4")
    assert g.check("d7-a7xg4").ok


# ----- the end --------------------------------------------------------------------

def test_the_game_ends_when_all_pieces_are_captured():
    # "Cand unul dintre jucatori reuseste sa captureze toate piesele adversarului, jocul se
    #  termina si respectivul este declarat castigator."
    g = tintar({"a1": "white", "a4": "white", "d7": "white", "g1": "black"})
    events = g.play("d7-a7xg1")
    assert g.is_over and g.result()["winner"] == 0 and g.result()["reason"] == "all_captured"
    assert events[-1].kind == "game_over"
    assert "câștigă" in events[-1].message("ro") and "wins" in events[-1].message("en")
    assert g.legal_moves() == [] and g.check("a7-d7").code == "game_over"


def test_two_pieces_left_play_on_by_the_text_and_lose_with_the_option():
    # The text: only "toate piesele" captured ends the game; option lose_below_three.
    position = {"a1": "white", "a4": "white", "d7": "white", "g1": "black", "g4": "black",
                "f6": "black"}
    g = tintar(position)
    g.play("d7-a7xg1")
    assert not g.is_over and g.pieces_left(1) == 2
    g = tintar(position, lose_below_three=True)
    g.play("d7-a7xg1")
    assert g.is_over and g.result()["reason"] == "below_three" and g.result()["winner"] == 0


def test_a_player_who_cannot_move_loses():
    # The text is silent; standard play (rules/README.md): a blocked player loses.
    position = {"a4": "white", "d2": "white", "a1": "black"}
    g = tintar(position)
    g.play("d2-d1")
    assert g.is_over and g.result() == {"winner": 0, "draw": False, "reason": "blocked",
                                        "captured": [7, 8]}
    g = tintar(position, flying=True)
    g.play("d2-d1")
    assert not g.is_over and "a1-g7" in {str(m) for m in g.legal_moves()}


def test_flying_is_an_option_for_three_pieces_or_fewer():
    # Not in the text: off by default (rules/README.md), an option.
    position = {"a1": "white", "a4": "white", "g7": "white", "b2": "black", "b4": "black",
                "f6": "black", "c3": "black"}
    assert tintar(position).check("g7-d1").code == "not_adjacent"
    g = tintar(position, flying=True)
    assert g.phase() == "flying" and g.check("g7-d1").ok
    assert g.check("g7-a7").code == "must_capture"
    assert tintar(position, to_move=1, flying=True).check("c3-g1").code == "not_adjacent"


def test_draw_after_n_moves_without_a_capture():
    g = tintar({"a1": "white", "g7": "black"}, draw_no_capture=5)
    for text in ("a1-a4", "g7-g4", "a4-a1", "g4-g7"):
        g.play(text)
    assert not g.is_over
    g.play("a1-d1")
    assert g.is_over and g.result()["draw"] and g.result()["reason"] == "no_capture"


def test_draw_by_repetition():
    g = tintar({"a1": "white", "g7": "black"}, draw_repetition=3)
    shuttle = ["a1-a4", "g7-g4", "a4-a1", "g4-g7"]
    for text in shuttle + shuttle[:3]:
        g.play(text)
        assert not g.is_over
    g.play(shuttle[3])
    assert g.is_over and g.result()["reason"] == "repetition"
    assert not tintar({"a1": "white", "g7": "black"}).is_over   # off by default


def test_options_are_checked():
    with pytest.raises(ValueError, match="draw_repetition"):
        tintar(draw_repetition=1)
    with pytest.raises(ValueError, match="flying"):
        tintar(flying="yes")
    with pytest.raises(ValueError, match="unknown option"):
        tintar(fly=True)


# ----- notation, setup, persistence ------------------------------------------------

def test_notation_round_trip_over_random_games():
    rng = random.Random(11)
    for _ in range(5):
        g = tintar(flying=True)
        while not g.is_over and len(g.moves) < 120:
            legal = g.legal_moves()
            for m in legal:
                assert g.parse_move(str(m)) == m
            g.play(rng.choice(legal))


def test_parse_accepts_case_and_spaces_and_gives_the_canonical_text():
    g = tintar()
    assert str(g.parse_move("A1 - A4 X G7")) == "a1-a4xg7"
    assert g.parse_move("d2xg7").kind == "place" and g.parse_move("a1-a4").kind == "move"


@pytest.mark.parametrize("text,code", [("a2", "no_such_point"), ("d4", "no_such_point"),
                                       ("z9", "no_such_point"), ("a1-a4xh8", "no_such_point"),
                                       ("hello", "bad_notation"), ("a1--a4", "bad_notation"),
                                       ("", "bad_notation")])
def test_bad_input_is_a_clear_error_and_changes_nothing(text, code):
    g = tintar()
    g.play("d2")
    saved = g.to_json()
    v = g.check(text)
    assert not v.ok and v.code == code and v.message("ro") and v.message("en")
    with pytest.raises(IllegalMove):
        g.play(text)
    assert g.to_json() == saved


def test_parse_move_explains_the_notation():
    with pytest.raises(ValueError, match="a1-a4xg7"):
        tintar().parse_move("a1/a4")


def test_set_up_positions_are_checked():
    with pytest.raises(ValueError, match="no point 'd4'"):
        tintar({"d4": "white"})
    with pytest.raises(ValueError, match="colour"):
        tintar({"a1": "green"})
    with pytest.raises(ValueError, match="10 pieces"):
        tintar({"a1": "white"}, in_hand=(9, 0))
    with pytest.raises(ValueError, match="to_move"):
        tintar({"a1": "white"}, to_move=2)
    with pytest.raises(ValueError, match="unknown Tintar setup"):
        create_game("tintar", position={}, pieces=12)


def test_json_round_trip_and_undo_from_a_set_up_position():
    g = tintar({"a1": "white", "a4": "white", "g4": "black"}, to_move=0, in_hand=(3, 4))
    for text in ("a7xg4", "d6", "g1"):
        g.play(text)
    again = load_game(g.to_json())
    assert again.board() == g.board() and again.in_hand == g.in_hand and again.to_move == g.to_move
    before = g.board()
    g.play("d7")
    assert g.undo().text == "d7" and g.board() == before and g.in_hand == [1, 3]


def test_events_and_board_speak_both_languages():
    g = tintar()
    events = g.play("d2")
    assert events[0].message("ro") == "Albul a așezat pe d2."
    assert events[0].message("en") == "White placed on d2."
    text = g.render("ro")
    assert "2 |   .-------A-------.   |" in text and "Negrul la mutare (așază)" in text
    assert "2 |   .-------W-------.   |" in g.render("en")
    state = g.state()
    assert state["board"]["d2"] == "white" and state["in_hand"] == [8, 9]
    assert state["phase"] == "placing" and state["captured"] == [0, 0]


# ----- what the camera sees ---------------------------------------------------------

def test_every_legal_move_seen_by_the_camera_is_recognised():
    rng = random.Random(3)
    for _ in range(4):
        g = tintar(flying=True)
        while not g.is_over and len(g.moves) < 80:
            legal = g.legal_moves()
            for m in legal:
                v = g.explain_observation(board_after(g, str(m)))
                assert v.ok and v.args["move"] == str(m), (str(m), v)
            g.play(rng.choice(legal))


def test_an_illegal_capture_is_flagged_with_the_reason():
    g = tintar({"a1": "white", "a4": "white", "d5": "black", "d6": "black", "d7": "black",
                "g4": "black"}, in_hand=(7, 5))
    before = g.board()
    v = g.explain_position(before, board_after(g, "a7xd6"))
    assert not v.ok and v.sure and v.code == "capture_in_mill"
    assert "in a mill and others are not" in v.message("en")
    assert str(g.infer_move(before, board_after(g, "a7xd6"))) == "a7xd6"
    assert g.explain_position(before, board_after(g, "a7xg4")).ok


def test_a_slide_to_a_far_point_is_flagged():
    g = tintar({"a1": "white", "b4": "white", "g7": "black", "f6": "black"})
    v = g.explain_observation(board_after(g, "a1-a7"))
    assert not v.ok and v.sure and v.code == "not_adjacent"


def test_a_mill_without_a_capture_yet_is_not_flagged():
    g = tintar({"a1": "white", "a4": "white", "g4": "black"}, in_hand=(7, 8))
    after = board_after(g, "a7")
    v = g.explain_observation(after)
    assert not v.ok and not v.sure and v.code == "capture_pending"
    assert g.infer_move(g.board(), after) is None


@pytest.mark.parametrize("change", [
    {"a1": None, "a4": "white", "b2": None, "b4": "white"},   # two pieces moved
    {"d1": "white"},                                           # a piece from nowhere
    {"a1": "black"},                                           # a piece changed colour
    {"g7": None},                                              # a piece vanished, nothing moved
    {"a1": None, "a4": "white", "g7": None, "f6": None},       # two pieces taken
])
def test_a_picture_that_is_no_single_move_is_unclear_never_illegal(change):
    g = tintar({"a1": "white", "b2": "white", "g7": "black", "f6": "black"})
    v = g.explain_observation({**g.board(), **change})
    assert not v.ok and not v.sure and v.code == "unclear_observation"
    assert v.message("ro") and v.message("en")


def test_the_wrong_player_moving_is_flagged():
    g = tintar({"a1": "white", "b2": "white", "g7": "black", "f6": "black"})
    v = g.explain_observation({**g.board(), "g7": None, "g4": "black"})
    assert not v.ok and v.sure and v.code == "not_your_turn"


def test_the_cameras_side_counts_are_not_points():
    # Contract 2's "tintar" reading also counts the pieces beside the board.
    g = tintar()
    seen = {**board_after(g, "d2"), "in_hand": {"white": 8, "black": 9},
            "captured": {"white": 0, "black": 0}}
    assert g.explain_observation(seen).args["move"] == "d2"


def test_the_board_before_must_be_the_games():
    g = tintar({"a1": "white", "g7": "black"})
    v = g.explain_position({**g.board(), "d1": "white"}, {**g.board(), "a1": None, "a4": "white"})
    assert not v.ok and not v.sure and v.code == "board_differs"
    assert g.explain_position(None, {**g.board(), "a1": None, "a4": "white"}).ok
    assert g.explain_observation(g.board()).code == "no_change"
    with pytest.raises(ValueError, match="no point 'h9'"):
        g.explain_observation({"h9": "white"})


def test_check_position_never_raises_on_a_bad_reading():
    g = tintar()
    v = g.check_position({"h9": "white"})
    assert not v.ok and not v.sure and v.code == "unreadable_board"
    assert g.check_position("not a board").code == "unreadable_board"
    assert g.check_position(board_after(g, "d2")).args["move"] == "d2"


def test_check_accepts_exactly_the_legal_moves():
    # legal_moves() and check() are written apart; the camera relies on check().
    rng = random.Random(17)
    for options in ({}, {"flying": True}):
        g = tintar(**options)
        while not g.is_over and len(g.moves) < 90:
            if len(g.moves) % 9 == 4:
                legal = {str(m) for m in g.legal_moves()}
                board = g.board()
                mine = "white" if g.to_move == 0 else "black"
                sources = [None] + [p for p in POINTS if board[p] == mine]
                targets = [None] + [p for p in POINTS if board[p] is not None]
                for frm in sources:
                    for to in POINTS:
                        for cap in targets:
                            text = (f"{frm}-{to}" if frm else to) + (f"x{cap}" if cap else "")
                            assert g.check(text).ok == (text in legal), text
            g.play(rng.choice(g.legal_moves()))


def test_saved_and_undone_games_come_back_the_same():
    rng = random.Random(23)
    g = tintar(flying=True, draw_no_capture=40)
    while not g.is_over and len(g.moves) < 100:
        g.play(rng.choice(g.legal_moves()))
        if len(g.moves) % 10 == 0:
            again = load_game(g.to_json())
            assert (again.board(), again.in_hand, again.to_move) == (g.board(), g.in_hand, g.to_move)
            assert again.legal_moves() == g.legal_moves()
            state = (g.board(), list(g.in_hand), g.to_move)
            last = g.moves[-1]
            g.undo()
            g.play(last)
            assert (g.board(), g.in_hand, g.to_move) == state
