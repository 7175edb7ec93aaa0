"""Cards, packs, tiles and hidden hands: the engine's vocabulary."""

import pytest

from engine import cards, tiles
from engine.observed import HiddenHand


@pytest.mark.parametrize("text,canon", [("QH", "QH"), ("qh", "QH"), ("10D", "TD"), ("TD", "TD"),
                                        (" 2s ", "2S"), ("x1", "X1"), ("X02", "X2")])
def test_parse_card_canonical(text, canon):
    assert cards.parse_card(text) == canon


@pytest.mark.parametrize("bad", ["", "1H", "QQ", "11D", "H2", "X0", "QHH", "10"])
def test_parse_card_rejects_with_the_text(bad):
    with pytest.raises(ValueError, match="not a card"):
        cards.parse_card(bad)


def test_standard_pack_is_52_distinct():
    pack = cards.standard_pack()
    assert len(pack) == 52 == len(set(pack))
    assert len(cards.standard_pack(jokers=2, copies=2)) == 106


@pytest.mark.parametrize("players,lowest", [(3, "9"), (4, "7"), (5, "5"), (6, "3")])
def test_short_pack_has_eight_cards_per_player(players, lowest):
    # "de la A in jos pana se obtine un numar de carti egal cu 8 ori numarul de jucatori
    #  (pt 3 - de la 9 in sus, pt 4 - de la 7, pt 5 - de la 5, pt 6 - de la 3)"
    pack = cards.short_pack(players)
    assert len(pack) == 8 * players
    assert lowest + "S" in pack and "AS" in pack
    below = cards.ACE_HIGH_ORDER[cards.ACE_HIGH_ORDER.index(lowest) - 1] if lowest != "2" else None
    assert below + "S" not in pack


def test_pack_20_is_ace_ten_king_queen_jack():
    pack = cards.pack_20()
    assert len(pack) == 20 and {cards.rank(c) for c in pack} == set("ATKQJ")


def test_german_suits_map_as_the_rules_say():
    assert [cards.parse_suit(w) for w in ("ghindă", "verde", "roșu", "dubă")] == ["S", "C", "H", "D"]


def test_card_names_in_both_languages():
    assert cards.card_name("QH", "ro") == "damă de inimă roșie"
    assert cards.card_name("TS", "en") == "ten of spades"


def test_tile_set_has_106_tiles():
    ts = tiles.tile_set()
    assert len(ts) == 106 and ts.count("R7") == 2 and ts.count("J1") == 1
    assert tiles.parse_tile("k13") == "K13"
    with pytest.raises(ValueError, match="not a rummy tile"):
        tiles.parse_tile("R14")


def test_hidden_hand_counts_and_voids():
    h = HiddenHand(count=5)
    h.receive(1, ["7H"])
    h.give("7H")
    assert h.count == 5 and h.known == []
    h.prove_void("S", trick=3)
    assert h.revoke_in("S") == 3 and h.revoke_in("H") is None
    assert HiddenHand.from_dict(h.to_dict()) == h
    with pytest.raises(ValueError):
        HiddenHand(count=0).give("2H")
