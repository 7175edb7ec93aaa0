"""Macao: one test per rule of the user's text (000 / 004), each quoting it.

Positions are set up with ``deal=``; seat 0 plays first unless said
otherwise (the default dealer is the last seat).
"""

import json

import pytest

from engine import IllegalMove, create_game, load_game
from engine.cards import standard_pack
from engine.core import MESSAGES


def macao(hands, starter, stock=None, pile=None, options=None, **deal):
    d = {"hands": hands, "starter": starter, **deal}
    if stock is not None:
        d["stock"] = stock
    if pile is not None:
        d["pile"] = pile
    return create_game("macao", deal=d, options=options or {}, seed=1)


def codes(game, *moves):
    return [game.check(m).code for m in moves]


def snapshot(game):
    return (game.to_json(), game.render("en"), game.to_move, [game.hand(s) for s in range(game.players)])


# ----------------------------------------------------------------- the deal

def test_five_cards_each_and_the_starter_face_up():
    """"Fiecare jucator primeste 5 carti. ... o carte pe care jucatorii o vad se pune pe masa." (004)"""
    g = create_game("macao", players=4, seed=7)
    assert [g.hand_size(s) for s in range(4)] == [5] * 4
    assert g.state()["top"] == g.top and g.state()["stock_size"] == 52 - 20 - 1
    assert sorted(sum((g.hand(s) for s in range(4)), []) + g.pile + g.stock) == sorted(standard_pack())


@pytest.mark.parametrize("players", [1, 7])
def test_two_to_six_players(players):
    """"Cand doi, trei sau patru oameni joaca ... Cand cinci sau sase oameni joaca" - 2 to 6 players."""
    with pytest.raises(ValueError, match="2 to 6 players"):
        create_game("macao", players=players, seed=1)


def test_random_games_are_the_same_for_the_same_seed():
    """The deal comes from the seed alone (the game's own RNG)."""
    a, b = create_game("macao", players=3, seed=11), create_game("macao", players=3, seed=11)
    assert a.to_json() == b.to_json() and a.hand(0) == b.hand(0)


# ----------------------------------------------------------------- plain play

def test_follow_suit_or_rank():
    """"Un jucator care incepe trebuie sa adauge o carte cu acelasi semn sau valoare cu cea intoarsa de pe masa.\""""
    g = macao([["9H", "7S", "QC"], ["5D", "6D"]], "7H")
    assert codes(g, "9H", "7S", "QC") == ["ok", "ok", "wrong_suit_or_rank"]
    assert "seven of hearts" in g.check("QC").message("en")
    g.play("7S")
    assert g.to_move == 1 and codes(g, "5D") == ["wrong_suit_or_rank"]


def test_several_cards_of_one_rank_or_one_suit():
    """"Daca un jucator are mai multe carti de aceeasi culoare sau semn, poate sa le adune
    (pe toate sau numai o parte din ele) si sa le puna in teancul de jos.\""""
    g = macao([["7S", "7D", "9H", "QH", "9C"], ["5D"]], "7H")
    assert codes(g, "7S 7D", "9H QH", "7S 9H", "9C 9H", "9H 9C") == [
        "ok", "ok", "mixed_cards", "wrong_suit_or_rank", "ok"]
    g.play("9H 9C")
    assert g.top == "9C" and g.hand(0) == ["7S", "QH", "7D"]


def test_the_other_cards_in_any_order():
    """"Cartile care raman pot fi date in orice ordine." - the first fits, the last is the new top."""
    g = macao([["7S", "7D", "7C", "8C"], ["5D"]], "7H")
    assert codes(g, "7S 7C 7D", "7D 7S 7C") == ["ok", "ok"]
    g.play("7D 7S 7C")
    assert g.top == "7C" and g.to_move == 1 and g.check("8C", seat=0).code == "not_your_turn"


def test_draw_when_unable_or_unwilling():
    """"Daca jucatorul nu poate sau nu doreste sa puna nici o carte, trebuie sa ia o carte de jos\""""
    g = macao([["7S"], ["5D"]], "7H", stock=["KC", "QC"])
    assert g.check("draw").ok          # holds a fitting 7S, draws anyway ("nu doreste")
    strict = macao([["7S"], ["5D"]], "7H", stock=["KC"], options={"draw_when_able": False})
    assert codes(strict, "draw") == ["must_play_if_able"]
    g.play("draw")
    assert g.hand(0) == ["7S", "KC"] and g.to_move == 0


def test_the_drawn_card_may_be_played_at_once():
    """"Daca aceasta carte este de acelasi semn sau valoare cu cea pusa jos, poate si el sa o puna pe masa.\""""
    g = macao([["7S", "2C"], ["5D", "6S"]], "7H", stock=["9H", "QC"])
    g.play("draw")
    assert codes(g, "9H", "7S", "draw", "pass") == ["ok", "only_drawn_card", "already_drew", "ok"]
    g.play("9H")
    assert g.top == "9H" and g.to_move == 1
    g.play("draw")                                     # QC does not fit 9H
    assert codes(g, "QC") == ["wrong_suit_or_rank"] and [str(m) for m in g.legal_moves()] == ["pass"]
    g.play("pass")
    assert g.to_move == 0


def test_option_no_play_after_drawing():
    """Option play_drawn_card=False: drawing ends the turn."""
    g = macao([["7S"], ["5D"]], "7H", stock=["9H"], options={"play_drawn_card": False})
    g.play("draw")
    assert g.to_move == 1 and g.hand(0) == ["7S", "9H"]


# ----------------------------------------------------------------- 2, 3, K

def test_two_makes_the_next_player_draw_two():
    """"2 - Urmatorul jucator trebuie sa ia de jos 2 carti;\""""
    g = macao([["2H", "5C"], ["9S", "8S"], ["6D"]], "7H", stock=["QC", "JC", "TC"])
    events = g.play("2H")
    assert [e.kind for e in events] == ["played", "penalty"]
    assert events[1].message("ro") == "Jucătorul 2 are de luat 2 cărți."
    assert g.to_move == 1 and codes(g, "9S", "pass", "take 3", "take 2") == [
        "must_answer_penalty", "must_answer_penalty", "wrong_penalty_count", "ok"]
    g.play("take 2")
    assert g.hand(1) == ["8S", "9S", "JC", "QC"] and g.to_move == 2
    assert g.check("6D").code == "wrong_suit_or_rank" and g.check("draw").ok   # the 2 is spent


def test_three_makes_the_next_player_draw_three():
    """"3 - Urmatorul jucator trebuie sa ia de jos 3 carti;\""""
    g = macao([["3H"], ["9S"], ["6D"]], "7H", stock=["QC", "JC", "TC", "5C"])
    g.play("3H")
    g.play("draw")                                     # "draw" under a penalty takes it
    assert g.hand_size(1) == 4 and g.to_move == 2


def test_twos_add_up():
    """"Daca se aduna mai multi de 2 unul peste altul, atunci valoarea lor se aduna, de exemplu:
    daca se aduna 3 carti de 2, urmatorul jucator trebuia sa ia de jos 6 carti.\""""
    g = macao([["2H", "2S", "5C"], ["2D", "8S"], ["6D"]], "7H")
    g.play("2H 2S")
    g.play("2D")
    assert g.state()["pending"] == {"kind": "penalty", "count": 6, "seat": 2}
    assert [str(m) for m in g.legal_moves()] == ["take 6"]


def test_two_on_two():
    """"Urmatorul jucator poate sa puna si el un 2 sau mai multe carti de 2 daca are in mana.\""""
    g = macao([["2H", "5C"], ["2D", "2C", "8S"], ["6D"]], "7H")
    g.play("2H")
    assert codes(g, "2D", "2C 2D") == ["ok", "ok"]
    g.play("2C 2D")
    assert g.state()["pending"]["count"] == 6 and g.to_move == 2


def test_three_on_two_only_of_the_same_suit():
    """"Poate de asemenea sa puna o carte de 3, sau mai multe, dar cartea de 3 adaugata trebuie sa fie
    de acelasi semn cu cea de 2, ultima pusa in teanc.\""""
    g = macao([["2H", "5C"], ["3H", "3S", "8S"], ["6D"]], "7H")
    g.play("2H")
    assert codes(g, "3S", "3H", "3H 3S", "3S 3H") == ["three_needs_same_suit", "ok", "ok", "three_needs_same_suit"]
    g.play("3H 3S")
    assert g.state()["pending"]["count"] == 8


def test_red_king_only_on_a_red_two():
    """"Poate sa puna si K rosu, dar ultima carte adaugata trebuie sa fie un 2 rosu.\""""
    g = macao([["2S", "2D", "5C"], ["KH", "8S"], ["6D"]], "7S")
    g.play("2S")
    assert codes(g, "KH") == ["red_king_needs_red_two"]
    assert "red 2" in g.check("KH").message("en")
    red = macao([["2D", "5C"], ["KH", "8S"], ["6D"]], "7D")
    red.play("2D")
    assert codes(red, "KH") == ["ok"]


def test_black_king_only_on_a_black_two():
    """"Aceeasi situatie si cu K negru.\""""
    g = macao([["2H", "5C"], ["KS", "8S"], ["6D"]], "7H")
    g.play("2H")
    assert codes(g, "KS") == ["black_king_needs_black_two"]
    g2 = macao([["2C", "5C"], ["KS", "8S"], ["6D"]], "7C")
    g2.play("2C")
    assert codes(g2, "KS") == ["ok"]


def test_black_king_on_a_black_two_on_a_red_king_adds_up():
    """"Poate sa puna si, de exemplu K negru peste 2 negru si K rosu. In aceasta situatie suma cartilor se aduna.\""""
    g = macao([["KH", "5C"], ["2S", "8S"], ["KS", "6D"], ["9D", "9C"]], "7H")
    g.play("KH")            # seat 1 to take 5 ...
    g.play("2S")            # ... answers with a 2 on the K: seat 2 to take 7
    g.play("KS")            # black K on the black 2: the player before (seat 1) takes 12
    assert g.state()["pending"] == {"kind": "penalty", "count": 12, "seat": 1}
    g.play("take 12")
    assert g.hand_size(1) == 13 and g.to_move == 3     # play goes on after the black K's player


def test_another_three_on_a_three_and_a_two_on_a_king():
    """"Un jucator poate sa puna un alt 3 peste 3, 2 peste K; aceeasi situatie si in cazul lui 2.\""""
    g = macao([["3H", "5C"], ["3C", "8S"], ["KD", "6D"]], "7H")
    g.play("3H")
    assert codes(g, "3C") == ["ok"]
    g.play("3C")
    assert codes(g, "KD") == ["red_king_needs_red_two"]          # a K goes on a 2 or a K, not a 3
    k = macao([["KH", "5C"], ["2C", "8S"], ["6D"]], "7H")
    k.play("KH")
    assert codes(k, "2C") == ["ok"]


@pytest.mark.parametrize("answer", ["2S", "3C", "KC", "KD"])
def test_after_a_king_the_next_may_add_two_three_or_king(answer):
    """"Aceeasi situatie se intampla si cand un jucator a pus K rosu sau K negru.
    Urmatorul jucator poate sa adauge 2, 3 sau K.\""""
    g = macao([["KH", "5C"], [answer, "8S"], ["6D"]], "7H")
    g.play("KH")
    assert g.check(answer).ok and g.check("8S").code == "must_answer_penalty"


def test_two_on_a_three_option():
    """The text gives "3 peste 2" (same suit) and "un alt 3 peste 3"; a 2 on a 3 is the option
    two_on_three ("same_suit" by default, "any", "no")."""
    hands = [["3H", "5C"], ["2H", "2C", "8S"], ["6D"]]
    g = macao(hands, "7H")
    g.play("3H")
    assert codes(g, "2H", "2C") == ["ok", "two_on_three_needs_same_suit"]
    for mode, expected in (("any", ["ok", "ok"]), ("no", ["two_not_on_three", "two_not_on_three"])):
        o = macao(hands, "7H", options={"two_on_three": mode})
        o.play("3H")
        assert codes(o, "2H", "2C") == expected


def test_red_king_the_next_player_draws_five():
    """"daca e K rosu atunci urmatorul jucator trebuie sa ia 5 carti de jos\""""
    g = macao([["KH", "5C"], ["9S"], ["6D"]], "7H")
    g.play("KH")
    assert g.to_move == 1 and g.state()["pending"]["count"] == 5
    g.play("take 5")
    assert g.hand_size(1) == 6 and g.to_move == 2


def test_black_king_the_previous_player_draws_five():
    """"daca e K negru atunci jucatorul de dinainte trebuie sa ia 5 carti de jos\""""
    g = macao([["9C", "5H"], ["KC", "5C"], ["6D"]], "7C")
    g.play("9C")
    g.play("KC")
    assert g.to_move == 0 and g.state()["pending"] == {"kind": "penalty", "count": 5, "seat": 0}
    assert g.check("5H", seat=2).code == "not_your_turn"
    g.play("take 5")
    assert g.hand_size(0) == 6 and g.to_move == 2          # then the player after the K's
    nxt = macao([["9C", "5H"], ["KC", "5C"], ["6D"]], "7C", options={"black_king_target": "next"})
    nxt.play("9C")
    nxt.play("KC")
    assert nxt.to_move == 2


def test_black_king_with_two_players():
    """With two players "the previous player" is the other one; then it is the K's player's turn again."""
    g = macao([["KS", "5C"], ["9H", "8H"]], "7S")
    g.play("KS")
    g.play("take 5")
    assert g.hand_size(1) == 7 and g.to_move == 0


def test_option_play_after_penalty():
    """Option play_after_penalty=True: after taking, the same player plays on."""
    g = macao([["2H", "5C"], ["9H"], ["6D"]], "7H", options={"play_after_penalty": True})
    g.play("2H")
    g.play("take 2")
    assert g.to_move == 1 and g.check("9H").ok


def test_penalty_larger_than_the_cards_left():
    """Only the cards there are can be taken; the count is checked against them."""
    g = macao([["2H", "5C"], ["9S"]], "7H", stock=["QC"])
    g.play("2H")                               # stock 1 + pile under the top 1 = 2: all of it
    assert [str(m) for m in g.legal_moves()] == ["take 2"]
    small = macao([["2H", "5C"], ["9S"]], "7H", stock=[])
    small.play("2H")
    assert [str(m) for m in small.legal_moves()] == ["take 1"] and small.check("take 2").code == "wrong_penalty_count"


# ----------------------------------------------------------------- 4s

def test_four_the_next_player_loses_the_turn():
    """"4 - urmatorul jucator isi pierde randul;\""""
    g = macao([["4H", "5C"], ["9H", "8S"], ["6H"]], "7H")
    g.play("4H")
    assert g.to_move == 1 and codes(g, "9H", "draw", "pass") == ["skip_turn", "skip_turn", "ok"]
    events = g.play("pass")
    assert [e.kind for e in events] == ["turn_lost"] and g.to_move == 2


def test_several_fours_lose_as_many_turns():
    """"Cand un jucator pune jos un 4 sau mai multi de 4, urmatorul jucator isi pierde acelasi numar de ture
    de joc cu numarul cartilor de 4 puse jos.\""""
    g = macao([["4H", "4C", "5H", "6H"], ["9H", "8S"], ["TH", "JD"]], "7H")
    g.play("4H 4C")
    g.play("pass")                                     # seat 1 loses this turn and the next
    assert g.to_move == 2
    g.play("draw")
    g.play("pass")
    assert g.to_move == 0
    g.play("draw")
    events = g.play("pass")
    assert [e.kind for e in events][-1] == "turn_lost" and events[-1].seat == 1 and g.to_move == 2


def test_four_on_four_allowed_but_not_obligatory():
    """"Daca are si el 4, poate sa puna deasupra, dar nu este obligatoriu. Urmatorul jucator poate sa faca la fel,
    sau sa piarda gandul in joc - acelasi numar de tururi, cate carti de 4 sunt puse jos.\""""
    g = macao([["4H", "5C"], ["4S", "8S"], ["9H"]], "7H")
    g.play("4H")
    assert codes(g, "4S", "pass") == ["ok", "ok"]
    g.play("4S")
    assert g.state()["pending"] == {"kind": "skip", "count": 2, "seat": 2}
    g.play("pass")
    assert g.state()["lost_turns"] == [0, 0, 1] and g.to_move == 0
    off = macao([["4H", "5C"], ["4S", "8S"], ["9H"]], "7H", options={"four_on_four": False})
    off.play("4H")
    assert codes(off, "4S") == ["skip_turn"]


# ----------------------------------------------------------------- J and A

def test_jack_asks_for_any_card_but_the_special_ones():
    """"J - cel care pune J jos, poate sa ceara orice carte ... cu orice (in afara de 2, 3, 4, J, K si A);\""""
    g = macao([["JH", "5C"], ["7S", "8S"], ["6D"]], "7H")
    assert codes(g, "JH ask 7", "JH ask Q", "JH ask 10") == ["ok"] * 3
    assert codes(g, "JH ask 2", "JH ask K", "JH ask A", "JH ask H", "5C ask 7") == ["bad_request"] * 4 + [
        "wrong_suit_or_rank"]
    assert codes(macao([["JH", "5H"], ["7S"], ["6D"]], "7H"), "5H ask 7") == ["bad_request"]


def test_jack_request_is_not_obligatory():
    """"Daca un jucator pune jos un J, poate sa ceara o serie de carti de o valoare specificata, dar nu este obligatoriu.\""""
    g = macao([["JH", "5C"], ["9H", "JS", "8S"], ["6D"]], "7H")
    g.play("JH")
    assert g.state()["request"] is None and codes(g, "9H", "JS", "8S") == ["ok", "ok", "wrong_suit_or_rank"]


def test_the_request_is_answered_by_the_rank_or_another_jack():
    """"Urmatorii jucatori trebuie sa dea jos cartile cerute sau un alt J pentru a le substitui.\""""
    g = macao([["JH", "5C"], ["7S", "JC", "9H"], ["7D", "6D"]], "7H")
    events = g.play("JH ask 7")
    assert [e.kind for e in events] == ["played", "request"] and events[1].message("en") == "Player 1 asks for seven."
    assert codes(g, "9H", "7S", "JC") == ["must_play_requested_rank", "ok", "ok"]
    g.play("7S")
    assert codes(g, "6D", "7D") == ["must_play_requested_rank", "ok"]   # "urmatorii jucatori": still asked


def test_the_request_holds_for_one_round():
    """"Cererea este valabila pentru un singur tur.\" - until the turn comes back to the one who asked."""
    g = macao([["JH", "5D", "9S"], ["7S", "8S"], ["7D", "6D"]], "7H")
    g.play("JH ask 7")
    g.play("7S")
    g.play("7D")
    assert g.to_move == 0 and g.state()["request"] is None
    assert codes(g, "9S", "5D") == ["wrong_suit_or_rank", "ok"]   # plays on the 7D by suit or rank now
    one = macao([["JH", "5S"], ["7S", "8S"], ["6D", "7D"]], "7H", options={"request_lasts": "turn"})
    one.play("JH ask 7")
    one.play("7S")
    assert one.state()["request"] is None and one.check("6D").code == "wrong_suit_or_rank"


def test_a_request_separately_from_the_jack():
    """The camera sees the J; the request comes after it (MQTT "request", a button): ``ask 7`` from the J's
    player, allowed until the next player moves."""
    g = macao([["JH", "5C"], ["7S", "8S"], ["6D"]], "7H")
    g.play("JH")
    assert g.to_move == 1 and g.check("ask 7").ok and g.check("ask 7", seat=1).code == "no_request_window"
    assert g.check("ask H").code == "bad_request"
    g.play("ask 7")
    assert g.state()["request"]["value"] == "7" and g.to_move == 1
    assert codes(g, "8S", "ask 8") == ["must_play_requested_rank", "no_request_window"]
    late = macao([["JH", "5C"], ["7S", "8H"], ["6D"]], "7H")
    late.play("JH")
    late.play("8H")
    assert late.check("ask 7", seat=0).code == "no_request_window"


def test_ace_asks_for_a_suit():
    """"Cand un jucator pune jos un As, situatia este similara cu cea a lui J - poate sa ceara carti cu un anumit semn.\""""
    g = macao([["AH", "5C"], ["7S", "AD", "9H"], ["6D", "6S"]], "7H")
    assert codes(g, "AH ask S", "AH ask pica", "AH ask 7") == ["ok", "ok", "bad_request"]
    g.play("AH ask S")
    assert codes(g, "9H", "7S", "AD") == ["must_play_requested_suit", "ok", "ok"]
    assert "spades" in g.check("9H").message("en")
    g.play("7S")
    assert codes(g, "6D", "6S") == ["must_play_requested_suit", "ok"]


def test_option_jack_on_anything():
    """Option jack_on_anything (off: the text makes a J fit like any card)."""
    hands = [["JS", "5C"], ["7S"], ["6D"]]
    assert macao(hands, "7H").check("JS").code == "wrong_suit_or_rank"
    assert macao(hands, "7H", options={"jack_on_anything": True}).check("JS").ok


# ----------------------------------------------------------------- stock and end

def test_the_pile_is_shuffled_into_a_new_stock():
    """"Daca nu mai sunt carti jos, in teancul de unde se trag carti, teancul dat jos trebuie amestecat si pus
    cu fata in jos pentru a se putea lua carti din el in continuare.\""""
    g = macao([["9H", "5C"], ["8S", "6S"]], "7H", stock=[], pile=["2C", "3C", "4C"])
    events = g.play("9H")
    g2 = g.copy()
    events = g.play("draw")
    assert [e.kind for e in events] == ["reshuffle", "drew"] and events[0].data["count"] == 4
    assert g.top == "9H" and len(g.pile) == 1 and len(g.stock) == 3
    assert sorted(g.stock + g.hand(1)) == sorted(["2C", "3C", "4C", "7H", "8S", "6S"])
    g2.play("draw")
    assert g2.stock == g.stock        # the shuffle is the game's RNG: replays are exact


def test_two_to_four_players_the_last_with_cards_loses():
    """"Cand doi, trei sau patru oameni joaca, ultimul jucator care mai are carti in mane pierde jocul.\""""
    g = macao([["9H"], ["8H", "5H"], ["7S", "5D"]], "7H")
    events = g.play("9H")
    assert [e.kind for e in events] == ["played", "out"] and not g.is_over and g.to_move == 1
    g.play("8H")
    g.play("draw")
    g.play("pass")
    events = g.play("5H")
    assert g.is_over and events[-1].kind == "game_over"
    assert g.result()["loser"] == 2 and g.result()["ranking"] == [0, 1, 2]
    assert g.legal_moves() == [] and g.check("5D").code == "game_over"


def test_five_or_six_players_stop_when_the_third_goes_out():
    """"Cand cinci sau sase oameni joaca, jocul este oprit atunci cand al treilea om termina jocul.\""""
    hands = [["9H"], ["8H"], ["8C"], ["5C", "6C"], ["5D", "6D"]]
    g = macao(hands, "7H")
    g.play("9H")
    g.play("8H")
    assert not g.is_over
    g.play("8C")
    assert g.is_over and g.result()["finished"] == [0, 1, 2] and g.result()["losers"] == [3, 4]
    last = macao(hands, "7H", options={"end_rule": "last_loses"})
    for m in ("9H", "8H", "8C"):
        last.play(m)
    assert not last.is_over and last.to_move == 3
    first = macao(hands, "7H", options={"end_rule": "first_out"})
    first.play("9H")
    assert first.is_over and first.result()["ranking"][0] == 0


def test_a_game_where_no_one_can_play_or_draw_ends_blocked():
    """Engine's choice (the text is silent): a full round of passes with nothing left to draw ends the game."""
    g = macao([["5C", "6C"], ["5D", "6D"]], "7H", stock=[])
    for _ in range(2):
        g.play("draw")
        g.play("pass")
    assert g.is_over and g.result()["blocked"] and g.result()["losers"] == [0, 1]


# ----------------------------------------------------------------- the starter

def test_a_special_starter_has_no_effect_by_default():
    """README decision: a special card (2, 3, 4, J, K, A) as starter has no effect on the first player."""
    g = macao([["9H", "5C"], ["8S"]], "2H")
    assert g.state()["pending"] is None and g.check("9H").ok


@pytest.mark.parametrize("starter,pending,seat", [("2H", "penalty", 0), ("KS", "penalty", 1), ("4D", "skip", 0)])
def test_option_starter_effect(starter, pending, seat):
    """Option starter_effect=True: the starter acts as if the dealer had put it down."""
    g = macao([["9H", "5C"], ["8S", "9S"]], starter, options={"starter_effect": True})
    assert g.state()["pending"]["kind"] == pending and g.to_move == seat


def test_deal_first_and_dealer():
    """Deal keys ``dealer`` (play starts after the dealer) and ``first``."""
    assert macao([["9H"], ["8S"], ["6D"]], "7H", dealer=0).to_move == 1
    assert macao([["9H"], ["8S"], ["6D"]], "7H", first=2).to_move == 2


# ----------------------------------------------------------------- observed play

def observed(**deal):
    return create_game("macao", players=3, observed=True,
                       deal={"starter": "7H", "hand_sizes": [5, 5, 5], "dealer": 2, **deal})


def test_observed_mode_hides_hands_and_counts_them():
    g = observed()
    assert g.hand(0) is None and g.scores() == [5, 5, 5] and g.state()["stock_size"] == 52 - 16
    g.play("7S 7D")
    assert g.hand_size(0) == 3 and g.to_move == 1


def test_observed_mode_never_flags_a_card_not_in_hand():
    """A card "not in hand" cannot be known with hands hidden: any card that fits is accepted."""
    g = observed()
    for card in ("7S", "QH", "7C 7D"):
        assert g.check(card).ok
    assert g.check("QS").code == "wrong_suit_or_rank"          # the pile decides this one


def test_observed_mode_checks_the_pile_penalty_request_and_turn():
    g = observed()
    g.play("2H")
    assert codes(g, "9H", "3S", "3H", "take 3", "take 2") == [
        "must_answer_penalty", "three_needs_same_suit", "ok", "wrong_penalty_count", "ok"]
    assert g.check("3H", seat=2).code == "not_your_turn"
    g.play("take 2")
    assert g.hand_size(1) == 7 and g.state()["stock_size"] == 52 - 16 - 2


def test_observed_mode_after_a_draw_any_fitting_card_is_accepted():
    """The drawn card is unknown: any card that fits, alone, is accepted (not sure, never flagged)."""
    g = observed()
    g.play("draw")
    verdict = g.check("9H")
    assert verdict.ok and not verdict.sure
    assert codes(g, "QS", "7S 7C") == ["wrong_suit_or_rank", "only_drawn_card"]


def test_observed_mode_counts_what_a_hand_can_put_down():
    g = create_game("macao", players=2, observed=True, deal={"starter": "7H", "hand_sizes": [2, 5]})
    assert g.check("7S 7D 7C").code == "not_enough_cards"
    events = g.play("7S 7D")
    assert events[-1].kind == "game_over" and g.result()["loser"] == 1


def test_observed_mode_with_draw_when_able_off_cannot_refuse_a_draw():
    """Whether the player could have played is hidden: the draw is never flagged."""
    g = create_game("macao", players=2, observed=True, options={"draw_when_able": False},
                    deal={"starter": "7H", "hand_sizes": [5, 5]})
    assert g.check("draw").ok


def test_observed_reshuffle_counts_the_pile():
    g = create_game("macao", players=2, observed=True,
                    deal={"starter": "7H", "hand_sizes": [5, 5], "pile": ["2C", "3C"], "stock_size": 0})
    events = g.play("draw")
    assert [e.kind for e in events] == ["reshuffle", "drew"] and g.state()["stock_size"] == 1


# ----------------------------------------------------------------- legal moves

def test_legal_moves_all_check_ok_and_list_the_words():
    g = macao([["7S", "7D", "JH", "2H", "AH"], ["5D"]], "7H")
    texts = [str(m) for m in g.legal_moves()]
    assert all(g.check(t).ok for t in texts)
    for expected in ("7S", "7S 7D", "7D 7S", "JH", "JH ask 7", "AH ask C", "2H", "JH AH 2H", "draw"):
        assert expected in texts
    assert "5D" not in texts


def test_legal_moves_under_a_penalty_are_the_stacks_and_take():
    g = macao([["2S", "5C"], ["2C", "3C", "KS", "9H"], ["6D"]], "7S")
    g.play("2S")
    texts = sorted(str(m) for m in g.legal_moves())
    assert texts == sorted(["2C", "2C 3C", "KS", "take 2"])


# ----------------------------------------------------------------- round trips and bad input

def test_json_round_trip_and_undo():
    g = create_game("macao", players=4, seed=7)
    for _ in range(40):
        if g.is_over:
            break
        g.play(g.legal_moves()[0])
    text = g.to_json()
    again = load_game(text)
    assert again.to_json() == text and again.render("en") == g.render("en")
    assert not g.is_over
    before = g.copy()
    g.play(g.legal_moves()[-1])
    g.undo()
    assert g.to_json() == before.to_json() and g.render("en") == before.render("en")


def test_undo_restores_the_position_exactly():
    g = macao([["2H", "5C"], ["9S", "8S"], ["6D"]], "7H", stock=["QC", "JC", "TC"])
    g.play("2H")
    before = snapshot(g)
    g.play("take 2")
    assert g.undo().text == "take 2" and snapshot(g) == before


def test_observed_round_trip():
    g = observed()
    for m in ("JH", "ask 7", "draw", "7C", "7D"):
        g.play(m)
    assert load_game(g.to_json()).to_json() == g.to_json()


@pytest.mark.parametrize("text,message", [("ZZ", "not a card"), ("7H 7H", "twice"), ("X1", "without jokers"),
                                          ("take many", "take N"), ("ask", "ask"), ("7S ask", "ask"),
                                          ("draw 2", "nothing after")])
def test_bad_notation_is_a_value_error_with_the_text(text, message):
    g = macao([["7S", "5C"], ["9S"]], "7H")
    with pytest.raises(ValueError, match=message):
        g.parse_move(text)
    before = snapshot(g)
    with pytest.raises(IllegalMove) as info:
        g.play(text)
    assert info.value.verdict.code == "bad_notation" and snapshot(g) == before


@pytest.mark.parametrize("move,seat,code", [("9S", 1, "not_your_turn"), ("8H", None, "not_in_hand"),
                                            ("5C", None, "wrong_suit_or_rank"), ("pass", None, "cannot_pass"),
                                            ("take", None, "no_penalty"), ("7S", 5, "no_such_seat")])
def test_illegal_moves_raise_and_change_nothing(move, seat, code):
    g = macao([["7S", "5C"], ["9S"]], "7H")
    before = snapshot(g)
    with pytest.raises(IllegalMove) as info:
        g.play(move, seat=seat)
    assert info.value.verdict.code == code and isinstance(info.value, ValueError)
    assert info.value.message("ro") and info.value.message("en") and snapshot(g) == before


@pytest.mark.parametrize("deal,message", [
    ({"hands": [["7S"], ["7S"]], "starter": "7H"}, "dealt twice"),
    ({"hands": [["7S"], ["8S"]]}, "starter"),
    ({"hands": [["7S"], ["8S"]], "starter": "7H", "dealer": 5}, "dealer"),
    ({"hands": [["7S"], ["8S"]], "starter": "7H", "joker": 1}, "unknown macao deal key"),
    ({"hands": [["7S"], ["QQ"]], "starter": "7H"}, "not a card"),
    ({"hands": [["7S"], None], "starter": "7H"}, "each a list of cards"),
])
def test_bad_deals_are_refused(deal, message):
    with pytest.raises(ValueError, match=message):
        create_game("macao", deal=deal)


@pytest.mark.parametrize("options,message", [({"end_rule": "never"}, "end_rule"),
                                             ({"four_on_four": "yes"}, "true or false"),
                                             ({"colour": 1}, "unknown option")])
def test_bad_options_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        create_game("macao", players=2, seed=1, options=options)


def test_every_macao_message_speaks_both_languages():
    import engine.macao as m
    source = open(m.__file__, encoding="utf-8").read()
    for code in [c for c in MESSAGES if f'"{c}"' in source]:
        assert MESSAGES[code]["ro"] and MESSAGES[code]["en"]
    g = macao([["2H", "5C"], ["9S"], ["6D"]], "7H")
    for e in g.play("2H"):
        assert e.message("ro") != e.message("en") and "{" not in e.message("ro") + e.message("en")


def test_render_and_state():
    g = macao([["2H", "5C"], ["9S"], ["6D"]], "7H")
    g.play("2H")
    assert "De luat: 2" in g.render("ro") and "To take: 2" in g.render("en") and "5C" in g.render("en")
    state = g.state()
    json.dumps(state)
    assert state["top"] == "2H" and state["hand_sizes"] == [1, 1, 1] and state["to_move"] == 1


# ----------------------------------------------------------------- positions in mid-play

def test_a_standing_penalty_can_be_dealt():
    """Deal key ``penalty``: the first player owes N (the starter is a 2, 3 or K)."""
    g = macao([["2S", "5C"], ["9S"], ["6D"]], "2H", penalty=6)
    assert g.state()["pending"] == {"kind": "penalty", "count": 6, "seat": 0}
    assert codes(g, "2S", "5C") == ["ok", "must_answer_penalty"]
    with pytest.raises(ValueError, match="penalty"):
        macao([["2S"], ["9S"]], "7H", penalty=4)


def test_standing_fours_and_lost_turns_can_be_dealt():
    """Deal keys ``skip`` (4s faced by the first player) and ``lost_turns``."""
    g = macao([["4S", "5C"], ["9S"], ["6D"]], "4H", skip=2, lost_turns=[0, 1, 0])
    assert codes(g, "4S", "5C", "pass") == ["ok", "skip_turn", "ok"]
    events = g.play("pass")
    assert [e.kind for e in events] == ["turn_lost", "turn_lost"] and g.to_move == 2
    assert g.state()["lost_turns"] == [1, 0, 0]


def test_a_standing_request_can_be_dealt():
    """Deal keys ``request`` and ``requested_by`` (default: the seat before the first player)."""
    g = macao([["7S", "5H"], ["9S", "7D"], ["6D"]], "JH", request="7")
    assert g.state()["request"] == {"kind": "rank", "value": "7", "by": 2}
    assert codes(g, "5H", "7S") == ["must_play_requested_rank", "ok"]
    g.play("7S")
    g.play("7D")
    assert g.state()["request"] is None and g.to_move == 2


def test_players_already_out_can_be_dealt():
    """Deal key ``finished``: seats already out, in order; they are skipped."""
    g = macao([["7S", "5H"], [], ["6D", "9H"]], "7H", finished=[1])
    g.play("7S")
    assert g.to_move == 2
    with pytest.raises(ValueError, match="finished"):
        macao([["7S"], ["5H"], ["6D"]], "7H", finished=[1])


def test_the_mqtt_request_word():
    """``{"cmd": "request", "value": "7"}`` arrives as the move ``request 7`` (controller/commands.py)."""
    g = macao([["JH", "5C"], ["7S", "8S"], ["6D"]], "7H")
    g.play("JH")
    assert g.parse_move("request 7").text == "ask 7" and g.parse_move("JH request 7").text == "JH ask 7"
    g.play("request 7")
    assert g.state()["request"]["value"] == "7"


@pytest.mark.parametrize("seat", [-1, 3, True, "0"])
def test_hand_of_a_seat_that_does_not_exist_is_a_value_error(seat):
    g = create_game("macao", players=3, seed=7)
    with pytest.raises(ValueError, match="no seat"):
        g.hand(seat)
    with pytest.raises(ValueError, match="no seat"):
        g.hand_size(seat)
