"""From two stable scenes to a move: per game, the change becomes a Move or Unclear.

A scene is a dict of JSON values made by the scene reader:

* Macao: ``{"pile": [cards read in the pile zone, sorted]}``, optionally
  ``"pile_unread": n``, face-up cards in the pile whose index could not be
  read (a reader that can count them reliably reports it), and
  ``"unsure": [cards]``, the cards of the pile the camera read without
  certainty: a move with one of them is never flagged illegal.
* Tintar: ``{"board": {"a1": "white" | "black" | None, ...}}``.

``infer(game, kind, before, after, hand_zones, layout)`` compares the scene
the game is at (``before``, the reference) with the new stable one and
returns :class:`Inferred` (candidate move texts, most likely first, and the
seat that made it when the camera saw whose hand it was), :class:`Unclear`
(the table must be put right; never an illegal flag) or :class:`NoChange`.
Which seat played comes from the zones of the layout the hand crossed; a
hand seen at several seats proves nothing and the move goes to the seat to
move.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import permutations


@dataclass(frozen=True)
class Inferred:
    candidates: tuple[str, ...]
    seat: int | None = None
    sure: bool = True          # False: the camera is not sure of what it read


@dataclass(frozen=True)
class Unclear:
    code: str
    args: dict


@dataclass(frozen=True)
class NoChange:
    settled: bool = True       # the table shows the game's position (False: a move half made)


UNCLEAR_MESSAGES = {
    "unreadable_card": {"ro": "Nu pot citi cartea pusă jos. Vă rog, îndreptați cartea.",
                        "en": "I cannot read the card put down. Please straighten it."},
    "card_removed": {"ro": "A dispărut o carte de pe teanc ({cards}). Vă rog, puneți-o la loc.",
                     "en": "A card left the pile ({cards}). Please put it back."},
    "too_many_changes": {"ro": "S-au schimbat prea multe pe masă. Vă rog, refaceți masa.",
                         "en": "Too much changed on the table. Please put it back as it was."},
    "unclear_observation": {"ro": "Nu se vede clar ce mutare s-a făcut. Vă rog, refaceți tabla.",
                            "en": "I cannot tell which move was made. Please set the board back."},
    "board_differs": {"ro": "Tabla nu arată ca în joc. Vă rog, refaceți tabla.",
                      "en": "The board does not look like the game. Please set it back."},
    "unreadable_board": {"ro": "Nu văd tabla de țintar.", "en": "I cannot see the Tintar board."},
    "table_unclear": {"ro": "Masa nu mai e limpede după o schimbare neclară. Vă rog, refaceți masa.",
                      "en": "The table is not clear after an unclear change. Please put it back."},
    "unsure_card": {"ro": "Nu sunt sigur ce carte s-a pus ({cards}). Vă rog, îndreptați cartea.",
                    "en": "I am not sure which card was put down ({cards}). Please straighten it."},
}


def unclear_message(code: str, args: dict, lang: str) -> str:
    texts = UNCLEAR_MESSAGES.get(code)
    if texts is None:
        return code
    try:
        return texts[lang].format(**args)
    except (KeyError, IndexError):
        return texts[lang]


def hand_seat(hand_zones, layout: dict | None) -> int | None:
    """The seat whose zone the hand crossed, when exactly one did."""
    if not layout:
        return None
    seats = {layout["zones"][z]["seat"] for z in hand_zones
             if z in layout["zones"] and "seat" in layout["zones"][z]}
    return seats.pop() if len(seats) == 1 else None


def infer_macao(game, before: dict, after: dict, hand_zones, layout) -> Inferred | Unclear | NoChange:
    seat = hand_seat(hand_zones, layout)
    old, new = set(before.get("pile", [])), set(after.get("pile", []))
    # A card already in the discard pile that shows again (the corner of a
    # card under the new top peeks out) is not a card put down now.
    played = set(getattr(game, "pile", None) or ())
    added = sorted(new - old - played)
    gone = sorted(old - new)
    unread_more = after.get("pile_unread", 0) - before.get("pile_unread", 0)
    if not added:
        if unread_more > 0:
            return Unclear("unreadable_card", {})
        top = getattr(game, "top", None)
        if top in gone:
            # The top card vanished with nothing readable on it.  (An older
            # card that no longer peeks out from under it does not matter.)
            return Unclear("card_removed", {"cards": top})
        if "stock" in hand_zones:
            return Inferred(("draw",), seat)
        return NoChange()
    if len(added) > 4:
        return Unclear("too_many_changes", {})
    # Cards put down together: the engine wants them in the order put down.
    # The camera cannot always tell the order, so every order is offered and
    # the referee takes the first one the engine accepts.
    # Not sure: a card read without certainty, or another card put down
    # with it that could not be read (the move may hold more cards).
    unsure = set(added) & set(after.get("unsure", []))
    sure = not unsure and unread_more <= 0
    candidates = [" ".join(p) for p in permutations(added)]
    if unsure and len(added) > len(unsure):
        # An unsure reading may be a ghost: the cards read with certainty,
        # alone, may make the move (played if legal, never flagged).
        candidates += [" ".join(p) for p in permutations([c for c in added if c not in unsure])]
    return Inferred(tuple(candidates), seat, sure)


def infer_tintar(game, before: dict, after: dict, hand_zones, layout) -> Inferred | Unclear | NoChange:
    board = after.get("board")
    if not isinstance(board, dict):
        return Unclear("unreadable_board", {})
    verdict = game.check_position(board)
    if verdict.ok:
        return Inferred((verdict.args["move"],), None)
    if not verdict.sure:
        if verdict.code == "no_change":
            return NoChange()
        if verdict.code == "capture_pending":
            return NoChange(settled=False)
        return Unclear(verdict.code, dict(verdict.args))
    move = game.infer_move(None, board)
    if move is None:
        return Unclear("unclear_observation", {})
    return Inferred((move.text,), move.seat)


INFER = {"macao": infer_macao, "tintar": infer_tintar}


def infer(game, kind: str, before: dict, after: dict, hand_zones=(), layout: dict | None = None):
    if kind not in INFER:
        raise ValueError(f"the controller cannot read moves of {kind!r} yet; games: {', '.join(INFER)}")
    return INFER[kind](game, before, after, tuple(hand_zones), layout)
