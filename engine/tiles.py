"""Rummy tiles (Remi, Rummy) as text.

A tile is its colour ``R`` red, ``Y`` yellow, ``B`` blue, ``K`` black and a
number 1-13 (``R7``, ``K13``); jokers are ``J1`` and ``J2``.  The full set
has 106 tiles: two of every coloured number and two jokers.
"""

from __future__ import annotations

COLOURS = "RYBK"
COLOUR_NAMES = {
    "ro": {"R": "roșu", "Y": "galben", "B": "albastru", "K": "negru"},
    "en": {"R": "red", "Y": "yellow", "B": "blue", "K": "black"},
}


def parse_tile(text: str) -> str:
    """Canonical form of a tile; ValueError on anything else."""
    t = str(text).strip().upper()
    if t in ("J1", "J2"):
        return t
    if len(t) >= 2 and t[0] in COLOURS and t[1:].isdigit() and 1 <= int(t[1:]) <= 13:
        return t[0] + str(int(t[1:]))
    raise ValueError(f"not a rummy tile: {text!r} (colour R Y B K and 1-13, e.g. R7, K13; jokers J1, J2)")


def is_joker(tile: str) -> bool:
    return tile[0] == "J"


def colour(tile: str) -> str:
    return "" if is_joker(tile) else tile[0]


def number(tile: str) -> int:
    return 0 if is_joker(tile) else int(tile[1:])


def tile_set() -> list[str]:
    """All 106 tiles: 2 x 4 colours x 13 numbers + 2 jokers."""
    return [f"{c}{n}" for _ in range(2) for c in COLOURS for n in range(1, 14)] + ["J1", "J2"]


def tile_name(tile: str, lang: str = "ro") -> str:
    if is_joker(tile):
        return "joker"
    names = COLOUR_NAMES.get(lang, COLOUR_NAMES["en"])
    return f"{number(tile)} {names[colour(tile)]}" if lang == "ro" else f"{names[colour(tile)]} {number(tile)}"
