"""Playing cards, packs and their names, as text.

A card is a short canonical string: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then
suit ``S H D C`` (``QH``, ``TD``); ``10`` is accepted for ``T`` when parsing.
Jokers are ``X1``, ``X2``, ... .  German-suited packs (Filcău, 66) map
ghindă=S, verde=C, roșu=H, dubă=D, as the rule texts do.

Cards are plain strings so that hands, journals and MQTT payloads need no
conversion; the functions here parse, order, name and build packs of them.
"""

from __future__ import annotations

from functools import lru_cache

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RED_SUITS = frozenset("HD")
BLACK_SUITS = frozenset("SC")

# High-to-low rank order for trick games where the ace is high.
ACE_HIGH_ORDER = "23456789TJQKA"

GERMAN_SUITS = {"ghinda": "S", "ghindă": "S", "verde": "C", "rosu": "H",
                "roșu": "H", "duba": "D", "dubă": "D"}

_SUIT_WORDS = {
    "spades": "S", "spade": "S", "pica": "S", "pică": "S", "♠": "S",
    "hearts": "H", "heart": "H", "inima": "H", "inimă": "H", "♥": "H",
    "diamonds": "D", "diamond": "D", "caro": "D", "romb": "D", "♦": "D",
    "clubs": "C", "club": "C", "trefla": "C", "treflă": "C", "♣": "C",
    **GERMAN_SUITS,
}

RANK_NAMES = {
    "ro": {"A": "as", "2": "doi", "3": "trei", "4": "patru", "5": "cinci",
           "6": "șase", "7": "șapte", "8": "opt", "9": "nouă", "T": "zece",
           "J": "valet", "Q": "damă", "K": "rege"},
    "en": {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five",
           "6": "six", "7": "seven", "8": "eight", "9": "nine", "T": "ten",
           "J": "jack", "Q": "queen", "K": "king"},
}
SUIT_NAMES = {
    "ro": {"S": "pică", "H": "inimă roșie", "D": "caro", "C": "treflă"},
    "en": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
}


@lru_cache(maxsize=512)
def parse_card(text: str) -> str:
    """Return the canonical form of a card written as text.

    Accepts ``QH``, ``qh``, ``10D``, ``TD``, ``X1``; raises ValueError with
    the offending text otherwise.
    """
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text, not {type(text).__name__}")
    t = text.strip().upper()
    if len(t) >= 2 and t[0] == "X" and t[1:].isdigit() and int(t[1:]) >= 1:
        return "X" + str(int(t[1:]))
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) == 2 and t[0] in RANKS and t[1] in SUITS:
        return t
    raise ValueError(f"not a card: {text!r} (write rank A 2-9 T/10 J Q K and "
                     f"suit S H D C, e.g. QH, 10D; jokers X1, X2)")


def parse_cards(text: str) -> list[str]:
    """Parse a space- or comma-separated list of cards."""
    return [parse_card(part) for part in text.replace(",", " ").split()]


def parse_suit(text: str) -> str:
    """Parse a suit given as a letter or a word in Romanian or English."""
    t = text.strip()
    if t.upper() in SUITS and len(t) == 1:
        return t.upper()
    word = _SUIT_WORDS.get(t.lower())
    if word:
        return word
    raise ValueError(f"not a suit: {text!r} (use S H D C)")


def parse_rank(text: str) -> str:
    """Parse a rank: A 2-9 T/10 J Q K."""
    t = text.strip().upper()
    if t == "10":
        return "T"
    if len(t) == 1 and t in RANKS:
        return t
    raise ValueError(f"not a rank: {text!r} (use A 2-9 T J Q K)")


def is_joker(card: str) -> bool:
    return card[0] == "X"


def rank(card: str) -> str:
    return card[0]


def suit(card: str) -> str:
    return card[1] if not is_joker(card) else ""


def is_red(card: str) -> bool:
    return suit(card) in RED_SUITS


def is_black(card: str) -> bool:
    return suit(card) in BLACK_SUITS


def card_name(card: str, lang: str = "ro") -> str:
    """A card as spoken: ``"damă de inimă roșie"`` / ``"queen of hearts"``."""
    lang = lang if lang in RANK_NAMES else "en"
    if is_joker(card):
        return "joker" if lang == "en" else "joker"
    r = RANK_NAMES[lang][rank(card)]
    s = SUIT_NAMES[lang][suit(card)]
    return f"{r} de {s}" if lang == "ro" else f"{r} of {s}"


def standard_pack(jokers: int = 0, copies: int = 1) -> list[str]:
    """The 52-card French pack (``copies`` of it) plus ``jokers`` jokers."""
    pack = [r + s for _ in range(copies) for s in SUITS for r in RANKS]
    pack += [f"X{i}" for i in range(1, jokers + 1)]
    return pack


def pack_from(lowest: str) -> list[str]:
    """A pack holding, in every suit, the ranks from ``lowest`` up to the ace."""
    order = ACE_HIGH_ORDER
    keep = order[order.index(parse_rank(lowest)):]
    return [r + s for s in SUITS for r in RANKS if r in keep]


def short_pack(players: int) -> list[str]:
    """Rentz and Whist: from the ace down until there are 8 cards per player.

    "pt 3 - de la 9 in sus, pt 4 - de la 7, pt 5 - de la 5, pt 6 - de la 3"
    """
    lowest = {3: "9", 4: "7", 5: "5", 6: "3"}
    if players not in lowest:
        raise ValueError(f"the short pack is for 3 to 6 players, not {players}")
    return pack_from(lowest[players])


def pack_20() -> list[str]:
    """The 20-card pack of 66 and Filcău: A, 10, K, Q, J in each suit."""
    return [r + s for s in SUITS for r in "ATKQJ"]


def sort_cards(cards, order: str = RANKS) -> list[str]:
    """Sort by suit (S H D C) then by rank in ``order``; jokers last."""
    def key(c):
        if is_joker(c):
            return (9, int(c[1:]))
        return (SUITS.index(suit(c)), order.index(rank(c)))
    return sorted(cards, key=key)
