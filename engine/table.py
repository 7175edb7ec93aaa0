"""Table (backgammon, "jocul de table"): the rules as Masa referees them.

Source: the user's text "Regulament Table" (rules/002, from the line
"Regulament Table"); where it is silent the game is played as it is normally
played, and each choice is a named option (docs/rules/table.md).

The board and the start
    Two players, fifteen checkers each: seat 0 plays white ("albul"), seat 1
    black ("negrul").  "Pozitia initiala a tablei este mereu aceeasi": the
    standard start, in each player's own numbering two checkers on the
    24-point, five on the 13, three on the 8, five on the 6.  Points are
    always named from the view of the player who moves (1 to 24, ``bar``,
    ``off``), as GNU Backgammon names them.  "Albul muta circular, in sensul
    acelor de ceasornic. Negrul muta tot circular, dar in sens invers": each
    player moves from its 24-point towards its 1-point.  "Cel care muta
    primul este cu piesele albe": white (seat 0) begins with an ordinary
    roll of both dice (option ``opening="white"``, the default); with
    ``opening="dice"`` each game opens as in tournament play: each player
    rolls one die, the higher one begins and plays those two numbers.  In a
    match, with ``opening="white"``, the winner of a game begins the next.

The dice
    "Pentru fiecare numar care a iesit pe cele doua zaruri, jucatorul este
    obligat sa isi aleaga cate o piesa ... si sa o mute atatea spatii cat
    este numarul de pe zar."  A double is played four times; both dice must
    be used when possible, otherwise one of them, and then the larger one
    when either could be played (standard; the text is silent).  "O mutare
    poate fi facuta doar daca spatiul in care se ajunge este liber, sau
    contine o singura piesa a adversarului" (or the mover's own checkers).
    A roll is part of the game's state.  With ``roller="engine"`` (the
    default) the engine rolls with its seeded ``rng`` at the start of every
    turn; with ``roller="table"`` (and always in observed play) the dice are
    rolled at the table and entered as a move, ``roll 5 2``.

Hitting and the bar ("Capturarea pieselor")
    "In cazul in care se muta peste un spatiu in care se afla o singura
    piesa a adversarului, aceasta este scoasa pe margine."  "Atunci cand un
    jucator are piese pe margine, el nu poate muta nimic altceva pana cand
    nu le introduce pe acestea in joc": a checker on the bar enters on the
    opponent's home board, on point 25 minus the die; "Daca acele spatii nu
    sunt valide ... atunci jucatorul isi pierde randul" (the move ``pass``).

Bearing off ("Faza finala a jocului")
    "Cand unul dintre jucatori si-a dus toate piesele in coltul sau, poate
    incepe sa le scoata."  A die takes off a checker from its own point; if
    that point is empty the player must move a checker from a higher point
    if one exists, and only if none exists may a checker come off from a
    lower point.  Option ``bearoff``: ``"standard"`` (default, as GNU
    Backgammon: the checker from the highest occupied point) or ``"any"``
    (the text's second example read literally: "va putea scoate oricare din
    piesele de pe tabla", any checker below the die).

Winning and scoring ("Cine castiga?")
    "Cel care reuseste sa isi scoata primul toate piesele de pe tabla, este
    declarat castigator."  A game is worth 1 point; with ``gammon=True``
    (default) 2 points ("marț") when the loser has borne off no checker;
    with ``backgammon=True`` (default False) 3 points when the loser has
    also a checker on the bar or in the winner's home board.  ``match_to``:
    0 (default) for a single game, N for a match to N points; the score
    goes into ``scores()``.  With ``cube=True`` (default False) the doubling
    cube is in play: before rolling, the player on roll (cube centred or
    its own) may ``double``; the opponent answers ``take`` (the cube doubles
    and passes to it) or ``drop`` (the game ends, the doubler scores the
    cube's value); a game's points are multiplied by the cube.  No double
    in the Crawford game; no Jacoby rule, no beavers.  With the cube the
    engine does not roll by itself: the player says ``roll`` (or enters the
    table's roll).

Notation (contract 1, GNU Backgammon's)
    A play lists each checker's way, from the view of the player who moves:
    ``8/5 6/5``, ``bar/22*`` (``*`` marks a hit), ``6/off``, ``13/7(2)``
    (two checkers), ``24/18/13`` (one checker, two dice).  On input the
    ``*`` may be left out, ``bar`` may be written ``25`` and ``off`` ``0``,
    and the parts may come in any order; ``str(move)`` is the canonical
    form (as GNU Backgammon writes it) and reads back to the same Move.
    ``pass`` ends a turn in which the roll cannot be used.  ``roll 5 2``
    enters a roll rolled at the table; ``52: 8/3 6/4`` is a roll and a play
    in one move (when the engine rolls, the prefix must name its roll).

Setting up a position
    ``create_game("table", position_id="4HPwATDgc/ABMA", dice=(5, 2))``:
    GNU Backgammon's Position ID, read with the player on roll as GNU
    Backgammon reads it (seat ``turn``, default 0), and optionally the roll;
    ``match_id="cAkXAAAAAAAA"`` sets the player on roll, the roll, the match
    length, the score and the cube from GNU Backgammon's Match ID (a cube in
    play needs the option ``cube=True``).  ``g.position_id()`` and ``g.match_id()``
    export the current ones, from the view of the player now on roll.

The camera
    :func:`explain_result` (and ``Table.check_position``) judge a position
    the camera saw after a turn: ok if some legal play leads there, else an
    illegal verdict that says why in words ("the 6 could have been played",
    "the checker on the bar must enter first"), or ``sure=False`` with the
    code ``camera_impossible_position`` when no move at all could produce
    the picture (a checker appeared, both colours on one point).
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass
from typing import Any, Iterable

from .core import OK, Event, Game, Move, Verdict, colour_word, format_message, illegal, register_messages

CHECKERS = 15
BAR = 24            # index of the bar in a side's 25 slots (points 1-24 are 0-23)
OFF = -1            # destination index of a checker borne off
START = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
ROLLS: tuple[tuple[int, int], ...] = tuple((a, b) for a in range(6, 0, -1) for b in range(a, 0, -1))
LETTERS = {"ro": ("A", "N"), "en": ("W", "B")}

register_messages({
    "table_no_dice_yet": {"ro": "Întâi se aruncă zarurile.", "en": "Roll the dice first."},
    "table_dice_already_rolled": {"ro": "Zarurile au fost deja aruncate: {dice}.",
                                  "en": "The dice have already been rolled: {dice}."},
    "table_wrong_dice": {"ro": "Zarurile sunt {dice}, nu {given}.", "en": "The dice are {dice}, not {given}."},
    "table_must_pass": {"ro": "Cu {dice} nu se poate muta nimic: se pierde rândul (pass).",
                        "en": "Nothing can be moved with {dice}: the turn is lost (pass)."},
    "table_cannot_pass": {"ro": "Există mutări cu {dice}; nu se poate pierde rândul.",
                          "en": "There are plays with {dice}; the turn cannot be passed."},
    "bar_must_enter_first": {"ro": "Piesa de pe margine trebuie introdusă în joc mai întâi.",
                             "en": "The checker on the bar must enter first."},
    "die_could_be_played": {"ro": "Zarul de {die} putea fi jucat.", "en": "The {die} could have been played."},
    "must_use_both_dice": {"ro": "Trebuie folosite ambele zaruri, {dice}.",
                           "en": "Both dice, {dice}, must be used."},
    "must_use_larger_die": {"ro": "Se poate juca un singur zar: trebuie jucat cel mare, {die}.",
                            "en": "Only one die can be played: it must be the larger, the {die}."},
    "moved_backwards": {"ro": "Piesele nu se mută înapoi.", "en": "Checkers do not move backwards."},
    "moved_too_far": {"ro": "Piesele s-au mutat {moved} spații, iar zarurile {dice} dau {pips}.",
                      "en": "The checkers moved {moved} points, but the dice {dice} give {pips}."},
    "bearoff_not_allowed_yet": {"ro": "Piesele se scot doar după ce toate cele cincisprezece sunt în casă.",
                                "en": "Checkers come off only once all fifteen are home."},
    "bearoff_from_highest": {"ro": "Cu zarul mai mare decât orice spațiu ocupat se scoate piesa de pe "
                                   "spațiul cel mai mare.",
                             "en": "A die larger than every occupied point bears off the checker on the "
                                   "highest point."},
    "bearoff_higher_checker": {"ro": "Întâi trebuie mutată piesa de pe un spațiu mai mare decât {die}.",
                               "en": "A checker on a point higher than {die} must be moved first."},
    "point_blocked": {"ro": "Spațiul {point} este ocupat de adversar.",
                      "en": "Point {point} is held by the opponent."},
    "no_checker_there": {"ro": "Nu este nicio piesă proprie pe {point}.",
                         "en": "There is no checker of yours on {point}."},
    "does_not_match_dice": {"ro": "Mutarea {play} nu se potrivește cu zarurile {dice}.",
                            "en": "The play {play} does not match the dice {dice}."},
    "opponent_checkers_moved": {"ro": "Piesele adversarului au fost mutate.",
                                "en": "The opponent's checkers were moved."},
    "no_such_play": {"ro": "Nicio mutare legală cu {dice} nu duce la această poziție.",
                     "en": "No legal play with {dice} leads to this position."},
    "camera_impossible_position": {"ro": "Camera a văzut o poziție imposibilă ({detail}); verificați tabla.",
                                   "en": "The camera saw an impossible position ({detail}); please check the "
                                         "board."},
    "table_no_cube": {"ro": "Se joacă fără cubul de dublare.", "en": "This game is played without the cube."},
    "table_answer_double": {"ro": "Întâi se răspunde la dublare: primesc (take) sau refuz (drop).",
                            "en": "First answer the double: take or drop."},
    "table_double_before_roll": {"ro": "Se dublează doar înainte de a da cu zarurile.",
                                 "en": "A double is offered only before rolling."},
    "table_cube_not_yours": {"ro": "Cubul este al adversarului.", "en": "The cube belongs to the opponent."},
    "table_crawford_no_double": {"ro": "În jocul Crawford nu se dublează.",
                                 "en": "There is no doubling in the Crawford game."},
    "table_cube_at_most": {"ro": "Cubul este deja la {cube}, cel mai mult.", "en": "The cube is at {cube}, its highest."},
    "table_no_double_offered": {"ro": "Nu s-a oferit nicio dublare.", "en": "No double has been offered."},
    "table_engine_rolls": {"ro": "Zarurile le dă motorul: scrieți doar 'roll'.",
                           "en": "The engine rolls the dice: write just 'roll'."},
    "table_roll_needs_numbers": {"ro": "Scrieți zarurile de pe masă, de exemplu 'roll 5 2'.",
                                 "en": "Give the dice on the table, e.g. 'roll 5 2'."},
})

# The game's own event sentences (Event.message finds them for this game's events).
register_messages({
    "event_dice_rolled": {"ro": "{colour} a dat {dice}.", "en": "{colour} rolled {dice}."},
    "event_checkers_moved": {"ro": "{colour} a mutat {play}.", "en": "{colour} played {play}."},
    "event_no_play": {"ro": "{colour} nu poate muta cu {dice} și pierde rândul.",
                   "en": "{colour} cannot move with {dice} and loses the turn."},
    "event_game_over": {"ro": "{colour} a scos toate piesele și câștigă {points} {unit} ({kind}).",
                        "en": "{colour} has borne off all checkers and wins {points} {unit} ({kind})."},
    "event_doubled": {"ro": "{colour} dublează la {cube}.", "en": "{colour} doubles to {cube}."},
    "event_took": {"ro": "{colour} primește; cubul este la {cube}.", "en": "{colour} takes; the cube is at {cube}."},
    "event_dropped": {"ro": "{colour} refuză dublarea.", "en": "{colour} drops the double."},
    "event_match_over": {"ro": "{colour} câștigă meciul, {score}.", "en": "{colour} wins the match, {score}."},
    "event_new_game": {"ro": "Jocul {number} începe; scorul {score}.",
                       "en": "Game {number} begins; the score is {score}."},
}, game="table")

_DETAILS = {
    "checker_count_changed": {"ro": "s-a schimbat numărul de piese", "en": "the number of checkers changed"},
    "opponent_bore_off": {"ro": "adversarul are mai puține piese", "en": "the opponent has fewer checkers"},
    "too_many_checkers": {"ro": "mai mult de cincisprezece piese", "en": "more than fifteen checkers"},
    "both_colours_on_point": {"ro": "ambele culori pe spațiul {point}", "en": "both colours on point {point}"},
    "checkers_came_back": {"ro": "piese scoase au revenit pe tablă", "en": "borne-off checkers came back"},
    "bad_board": {"ro": "tablă necitibilă", "en": "unreadable board"},
}
_KIND_WORDS = {"ro": {"single": "simplu", "gammon": "marț", "backgammon": "marț dublu",
                      "drop": "dublare refuzată"},
               "en": {"single": "single", "gammon": "gammon", "backgammon": "backgammon",
                      "drop": "double dropped"}}


def dice_text(dice: Iterable[int]) -> str:
    return "-".join(str(d) for d in dice)


# --------------------------------------------------------------------------
# Positions: two sides of 25 slots, each in its owner's numbering.

@dataclass(frozen=True)
class Position:
    """A position from the view of the player on roll.

    ``me`` and ``opp`` hold 25 counts each, in their owner's own numbering:
    index 0-23 are the points 1-24, index 24 the bar; the checkers not on
    the board are borne off.  Opponent's point p is the mover's 25-p.
    """

    me: tuple[int, ...]
    opp: tuple[int, ...]

    def __post_init__(self):
        for side in (self.me, self.opp):
            if len(side) != 25 or any(not isinstance(n, int) or n < 0 for n in side):
                raise ValueError("a side of a position is 25 counts (points 1-24 and the bar), "
                                 "each a whole number from 0")

    @property
    def key(self) -> tuple:
        return self.me, self.opp

    def off(self, side: int = 0) -> int:
        return CHECKERS - sum(self.me if side == 0 else self.opp)

    def pips(self, side: int = 0) -> int:
        s = self.me if side == 0 else self.opp
        return sum((i + 1) * n for i, n in enumerate(s))

    def validate(self) -> None:
        """ValueError unless this is a position of real backgammon."""
        for who, side in (("the player on roll", self.me), ("the opponent", self.opp)):
            if sum(side) > CHECKERS:
                raise ValueError(f"{who} has {sum(side)} checkers on the board; a player has {CHECKERS}")
        for i in range(24):
            if self.me[i] and self.opp[23 - i]:
                raise ValueError(f"both players have checkers on point {i + 1}")

    def position_id(self) -> str:
        return position_id(self)

    @classmethod
    def from_id(cls, pid: str) -> "Position":
        return decode_position_id(pid)

    @classmethod
    def start(cls) -> "Position":
        return cls(START, START)

    @classmethod
    def from_scene(cls, table: dict, seat: int) -> "Position":
        """A ``masa see`` table reading (contract 2: ``points`` is 24 pairs
        [white, black] in white's numbering, ``bar`` [white, black]) from
        the view of ``seat`` (0 white, 1 black)."""
        try:
            points = [[int(p[0]), int(p[1])] for p in table["points"]]
            bar = [int(table.get("bar", [0, 0])[0]), int(table.get("bar", [0, 0])[1])]
        except (KeyError, TypeError, ValueError, IndexError):
            raise ValueError("a table reading needs 'points' (24 pairs [white, black]) and 'bar'") from None
        if len(points) != 24:
            raise ValueError(f"a table reading has 24 points, not {len(points)}")
        white = [points[i][0] for i in range(24)] + [bar[0]]
        black = [points[23 - i][1] for i in range(24)] + [bar[1]]
        sides = (tuple(white), tuple(black))
        return cls(sides[seat], sides[1 - seat])


def _pack_bits(bits: list[int], nbytes: int) -> bytes:
    out = bytearray(nbytes)
    for i, b in enumerate(bits):
        if b:
            out[i // 8] |= 1 << (i % 8)
    return bytes(out)


def _unpack_bits(data: bytes) -> list[int]:
    return [(data[i // 8] >> (i % 8)) & 1 for i in range(len(data) * 8)]


def _b64decode(text: str, nchars: int, what: str) -> bytes:
    if not isinstance(text, str) or len(text.strip()) != nchars or not re.fullmatch(r"[A-Za-z0-9+/]+", text.strip()):
        raise ValueError(f"a GNU Backgammon {what} is {nchars} characters of A-Z a-z 0-9 + /, not {text!r}")
    text = text.strip()
    return base64.b64decode(text + "=" * (-len(text) % 4))


def position_id(pos: Position) -> str:
    """GNU Backgammon's Position ID (as gnubg writes it: the opponent's
    checkers first, then those of the player on roll; bits little-endian)."""
    bits: list[int] = []
    for side in (pos.opp, pos.me):
        for n in side:
            bits.extend([1] * n)
            bits.append(0)
    if len(bits) > 80:
        raise ValueError("too many checkers for a Position ID")
    return base64.b64encode(_pack_bits(bits, 10)).decode("ascii")[:14]


def decode_position_id(pid: str) -> Position:
    """Position ID -> Position (ValueError on a malformed ID)."""
    bits = _unpack_bits(_b64decode(pid, 14, "Position ID"))
    sides: list[list[int]] = [[], []]
    count = 0
    side = 0
    for b in bits:
        if side == 2:
            if b:
                raise ValueError(f"Position ID {pid!r} holds more than two players' checkers")
            continue
        if b:
            count += 1
        else:
            sides[side].append(count)
            count = 0
            if len(sides[side]) == 25:
                side += 1
    if side < 2:
        raise ValueError(f"Position ID {pid!r} is cut short")
    pos = Position(tuple(sides[1]), tuple(sides[0]))
    try:
        pos.validate()
    except ValueError as exc:
        raise ValueError(f"Position ID {pid!r}: {exc}") from None
    return pos


@dataclass(frozen=True)
class MatchState:
    """The fields of GNU Backgammon's Match ID (players are seats 0 and 1)."""

    cube: int = 1
    cube_owner: int | None = None      # None: centred
    dice_owner: int = 0
    crawford: bool = False
    game_state: int = 1                # 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
    turn: int = 0
    doubled: bool = False
    resign: int = 0
    dice: tuple[int, int] = (0, 0)
    match_to: int = 0
    score: tuple[int, int] = (0, 0)
    # bit 67, undocumented in the manual: gnubg writes 0 when the Jacoby
    # rule is in force (its default for money games) and 1 otherwise
    jacoby: bool = True

    def encode(self) -> str:
        fields = [(self.cube.bit_length() - 1, 4), (3 if self.cube_owner is None else self.cube_owner, 2),
                  (self.dice_owner, 1), (int(self.crawford), 1), (self.game_state, 3), (self.turn, 1),
                  (int(self.doubled), 1), (self.resign, 2), (self.dice[0], 3), (self.dice[1], 3),
                  (self.match_to, 15), (self.score[0], 15), (self.score[1], 15), (int(not self.jacoby), 1)]
        bits: list[int] = []
        for value, width in fields:
            bits.extend((value >> k) & 1 for k in range(width))
        return base64.b64encode(_pack_bits(bits, 9)).decode("ascii")

    @classmethod
    def decode(cls, mid: str) -> "MatchState":
        bits = _unpack_bits(_b64decode(mid, 12, "Match ID"))
        values = []
        at = 0
        for width in (4, 2, 1, 1, 3, 1, 1, 2, 3, 3, 15, 15, 15, 1):
            values.append(sum(bits[at + k] << k for k in range(width)))
            at += width
        cube_log, owner, dice_owner, crawford, state, turn, doubled, resign, d1, d2, length, s0, s1, nj = values
        if owner == 2:
            raise ValueError(f"Match ID {mid!r}: cube owner 2 does not exist")
        if not (0 <= d1 <= 6 and 0 <= d2 <= 6) or (d1 == 0) != (d2 == 0):
            raise ValueError(f"Match ID {mid!r}: dice {d1} and {d2} are not a roll")
        if state > 4:
            raise ValueError(f"Match ID {mid!r}: game state {state} does not exist")
        if length and (s0 >= length or s1 >= length) and state == 1:
            raise ValueError(f"Match ID {mid!r}: the score {s0}-{s1} has already reached the match length {length}")
        return cls(1 << cube_log, None if owner == 3 else owner, dice_owner, bool(crawford), state, turn,
                   bool(doubled), resign, (d1, d2), length, (s0, s1), not nj)


# --------------------------------------------------------------------------
# Move generation (on bare tuples, for speed).

def _hops(me: tuple, opp: tuple, die: int, any_rule: bool, top: int = BAR) -> list[tuple[int, int]]:
    """The single checker moves (source index, destination index) with one
    die; sources at or below ``top`` only (used to order doubles)."""
    if me[BAR]:
        if top < BAR:
            return []
        dst = BAR - die
        return [] if opp[23 - dst] >= 2 else [(BAR, dst)]
    hops = []
    home = not any(me[6:24])
    for i in range(min(top, 23), -1, -1):
        if not me[i]:
            continue
        dst = i - die
        if dst >= 0:
            if opp[23 - dst] < 2:
                hops.append((i, dst))
        elif home:
            if dst == -1:
                hops.append((i, OFF))
            elif not any(me[(die - 1 if any_rule else i + 1):6]):
                hops.append((i, OFF))
    return hops


def _step(me: tuple, opp: tuple, hop: tuple[int, int]) -> tuple[tuple, tuple, bool]:
    src, dst = hop
    m = list(me)
    m[src] -= 1
    hit = False
    if dst >= 0:
        m[dst] += 1
        j = 23 - dst
        if opp[j] == 1:
            o = list(opp)
            o[j] = 0
            o[BAR] += 1
            opp = tuple(o)
            hit = True
    return tuple(m), opp, hit


def _walk(me: tuple, opp: tuple, dice: tuple[int, int], any_rule: bool, partial: bool
          ) -> tuple[dict, tuple[int, int]]:
    """Every sequence of single moves with the dice, deduplicated: ->
    ({key: (dice used, pips used, path)}, best (dice, pips)).  Keys are
    (me, opp) for the ends of sequences, or (me, opp, dice used) for every
    step on the way with ``partial``."""
    doubles = dice[0] == dice[1]
    orders = [(dice[0],) * 4] if doubles else [tuple(dice), (dice[1], dice[0])]
    found: dict[tuple, tuple[int, int, list]] = {}
    seen: set = set()
    best = [0, 0]

    def walk(me, opp, order, k, path, pips, top):
        state = (me, opp, order[k:], top if doubles else 0)
        if state in seen:
            return
        seen.add(state)
        hops = _hops(me, opp, order[k], any_rule, top if doubles else BAR) if k < len(order) else []
        if partial or not hops:
            key = (me, opp, k) if partial else (me, opp)
            if key not in found or (k, pips) > found[key][:2]:
                found[key] = (k, pips, list(path))
            if k > best[0] or (k == best[0] and pips > best[1]):
                best[0], best[1] = k, pips
        for hop in hops:
            m2, o2, hit = _step(me, opp, hop)
            path.append((hop[0], hop[1], hit))
            walk(m2, o2, order, k + 1, path, pips + order[k], hop[0])
            path.pop()

    for order in orders:
        walk(tuple(me), tuple(opp), order, 0, [], 0, BAR)
    return found, (best[0], best[1])


def generate_plays(me: tuple, opp: tuple, dice: tuple[int, int], any_rule: bool = False,
                   partial: bool = False) -> dict[tuple, list[tuple[int, int, bool]]]:
    """Every distinct resulting position -> one way to reach it.

    With ``partial=False`` only the legal plays: as many dice as possible,
    and when only one of two can be played, the larger (keys (me, opp)).
    With ``partial=True`` every position reachable with any number of the
    dice, keyed (me, opp, dice used), used to explain an illegal result.
    """
    found, best = _walk(me, opp, tuple(dice), any_rule, partial)
    if partial:
        return {key: v[2] for key, v in found.items()}
    return {key: v[2] for key, v in found.items() if v[:2] == best}


# --------------------------------------------------------------------------
# Notation.

_SEG_RE = re.compile(r"^(bar|\d{1,2})(\*?)((?:/(?:\d{1,2}|off)\*?)+)(?:\((\d)\))?$")


def _point_name(n: int) -> str:
    return "bar" if n == 25 else "off" if n == 0 else str(n)


def format_play(path: list[tuple[int, int, bool]]) -> str:
    """A sequence of hops (source index, destination index, hit) -> the
    canonical gnubg text: one checker's way as one part, ``*`` at hits,
    repeats as ``(n)``, parts from the highest point down."""
    chains: list[list] = []   # [start point, [(stop point, hit), ...]]
    for src, dst, hit in path:
        s = src + 1
        d = dst + 1 if dst >= 0 else 0
        for ch in chains:
            if ch[1][-1][0] == s and s != 0:
                ch[1].append((d, hit))
                break
        else:
            chains.append([s, [(d, hit)]])
    parts = []
    for start, stops in chains:
        text = _point_name(start)
        for i, (p, hit) in enumerate(stops):
            if hit or i == len(stops) - 1:
                text += "/" + _point_name(p) + ("*" if hit else "")
        parts.append((start, stops[-1][0], text))
    counted: dict[str, list] = {}
    for start, end, text in parts:
        if text in counted:
            counted[text][2] += 1
        else:
            counted[text] = [start, end, 1]
    ordered = sorted(counted.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
    return " ".join(t + (f"({c})" if c > 1 else "") for t, (_, _, c) in ordered)


def parse_play(text: str) -> list[list[int]]:
    """gnubg play text -> list of checker ways, each a list of points
    (25 = bar, 0 = off), one way per checker (``(2)`` repeated)."""
    ways = []
    for token in text.lower().split():
        m = _SEG_RE.match(token)
        if not m:
            raise ValueError(f"cannot read {token!r}: a play is written like 8/5 6/5, bar/22*, 6/off, "
                             f"13/7(2), 24/18/13")
        points = [m.group(1)] + [p.rstrip("*") for p in m.group(3).split("/")[1:]]
        way = []
        for i, p in enumerate(points):
            n = 25 if p == "bar" else 0 if p == "off" else int(p)
            if i == 0 and not 1 <= n <= 25:
                raise ValueError(f"there is no point {p} to move from: points are 1-24 and bar")
            if i > 0 and not 0 <= n <= 24:
                raise ValueError(f"there is no point {p} to move to: points are 1-24 and off")
            way.append(n)
        repeat = int(m.group(4) or 1)
        if not 1 <= repeat <= 4:
            raise ValueError(f"cannot move {repeat} checkers in one turn along {token!r}")
        ways.extend([way] * repeat)
    if not ways:
        raise ValueError("an empty play")
    if sum(len(w) - 1 for w in ways) > 4:
        raise ValueError(f"{text!r} has more than four steps; a turn has at most four")
    return ways


def _ways_text(ways: list[list[int]]) -> str:
    """Normalise ways syntactically (for a play that is not legal here)."""
    parts = ["/".join(_point_name(p) for p in w) for w in ways]
    counted: dict[str, int] = {}
    for p in parts:
        counted[p] = counted.get(p, 0) + 1
    order = sorted(counted, key=lambda t: [-(25 if x == "bar" else 0 if x == "off" else int(x))
                                           for x in t.split("/")])
    return " ".join(p + (f"({counted[p]})" if counted[p] > 1 else "") for p in order)


def _simulate(pos: Position, dice: tuple[int, int], ways: list[list[int]], any_rule: bool
              ) -> tuple[Position | None, Verdict | None]:
    """Follow the written ways with the dice, the checkers' steps in any
    interleaving: the position reached, or the reason the text cannot be
    played (from the attempt that got furthest)."""
    mismatch = illegal("does_not_match_dice", play=_ways_text(ways), dice=dice_text(dice))
    for w in ways:
        if any(b >= a for a, b in zip(w, w[1:])) or 0 in w[1:-1]:
            return None, illegal("moved_backwards")
    pool = tuple([dice[0]] * 4 if dice[0] == dice[1] else sorted(dice, reverse=True))
    best: list = [-1, mismatch]
    seen: set = set()

    def fail(depth: int, verdict: Verdict) -> None:
        if depth > best[0]:
            best[0], best[1] = depth, verdict

    def dfs(me, opp, cur, nxt, remaining, depth):
        if all(nxt[w] == len(ways[w]) for w in range(len(ways))):
            return me, opp
        state = (me, opp, cur, nxt, remaining)
        if state in seen:
            return None
        seen.add(state)
        if not remaining:
            fail(depth, mismatch)
            return None
        for w in range(len(ways)):
            if nxt[w] == len(ways[w]):
                continue
            src, target = cur[w], ways[w][nxt[w]]
            if not me[src - 1]:
                fail(depth, illegal("no_checker_there", point=_point_name(src)))
                continue
            if me[BAR] and src != 25:
                fail(depth, illegal("bar_must_enter_first"))
                continue
            # an unwritten stop hits only when no quiet way exists (so that
            # "bar/16" is the quiet way and "bar/21*/16" the hitting one)
            dice_here = sorted(set(remaining), key=lambda d: 0 < src - d != target and opp[24 - (src - d)] == 1)
            for die in dice_here:
                land = src - die
                if target > 0 and land < target:
                    fail(depth, mismatch)
                    continue
                if land > 0:
                    if opp[24 - land] >= 2:
                        fail(depth, illegal("point_blocked", point=land))
                        continue
                    hop = (src - 1, land - 1)
                else:
                    if any(me[6:25]):
                        fail(depth, illegal("bearoff_not_allowed_yet"))
                        continue
                    if (src - 1, OFF) not in _hops(me, opp, die, any_rule):
                        fail(depth, illegal("bearoff_higher_checker", die=die))
                        continue
                    hop = (src - 1, OFF)
                m2, o2, _ = _step(me, opp, hop)
                reached = max(land, 0)
                cur2 = cur[:w] + (reached,) + cur[w + 1:]
                nxt2 = nxt[:w] + (nxt[w] + (reached == target),) + nxt[w + 1:]
                rest = list(remaining)
                rest.remove(die)
                r = dfs(m2, o2, cur2, nxt2, tuple(rest), depth + 1)
                if r:
                    return r
        return None

    result = dfs(pos.me, pos.opp, tuple(w[0] for w in ways), tuple(1 for _ in ways), pool, 0)
    if result:
        return Position(*result), None
    return None, best[1]


# --------------------------------------------------------------------------
# Judging a result the camera saw.

def _impossible(reason: str, **args) -> Verdict:
    return TableVerdict(False, "camera_impossible_position", {"reason": reason, "detail": _Detail(reason, args)},
                        sure=False)


class _Detail(str):
    """A detail string that speaks itself in the language asked for."""

    def __new__(cls, reason: str, args: dict):
        obj = super().__new__(cls, _DETAILS[reason]["en"].format(**args))
        obj.reason = reason
        obj.args = args
        return obj

    def spoken(self, lang: str) -> str:
        return _DETAILS[self.reason].get(lang, _DETAILS[self.reason]["en"]).format(**self.args)


class TableVerdict(Verdict):
    """A Verdict whose ``detail`` argument is spoken in the language asked."""

    def message(self, lang: str = "ro") -> str:
        args = {k: (v.spoken(lang) if isinstance(v, _Detail) else v) for k, v in self.args.items()}
        return format_message(self.code, args, lang)


def _as_position(value: Any, what: str) -> Position:
    if isinstance(value, Position):
        return value
    if isinstance(value, str):
        return decode_position_id(value)
    if isinstance(value, (tuple, list)) and len(value) == 2:
        return Position(tuple(value[0]), tuple(value[1]))
    raise ValueError(f"{what} must be a Position, a Position ID or a pair (me, opp) of 25 counts")


def explain_result(before: Any, dice: Iterable[int], after: Any, bearoff: str = "standard",
                   off_seen: bool = False) -> Verdict:
    """Can a legal play with ``dice`` turn ``before`` into ``after``?

    Both positions are from the view of the player who moves (Position,
    Position ID or (me, opp) pair).  Returns OK, an illegal verdict with a
    reason a player understands, or ``camera_impossible_position`` with
    ``sure=False`` when no move at all could give ``after``.
    ``off_seen``: the camera counted the borne-off checkers and they agree
    with ``after``; without it a checker gone from the board while others
    are still outside the home board is taken for a checker the camera
    missed (unsure), not for an illegal bear-off.
    """
    dice = _check_dice(dice)
    b = _as_position(before, "before")
    try:
        a = _as_position(after, "after")
    except ValueError:
        return _impossible("bad_board")
    return _explain(b, dice, a, bearoff, off_seen)


def _explain(b: Position, dice: tuple[int, int], a: Position, bearoff: str, off_seen: bool = True) -> Verdict:
    # 1. pictures no move can make: not an illegal move, a doubtful picture.
    for side in (a.me, a.opp):
        if sum(side) > CHECKERS:
            return _impossible("too_many_checkers")
    for i in range(24):
        if a.me[i] and a.opp[23 - i]:
            return _impossible("both_colours_on_point", point=i + 1)
    if sum(a.opp) != sum(b.opp):
        return _impossible("opponent_bore_off" if sum(a.opp) < sum(b.opp) else "checker_count_changed")
    if sum(a.me) > sum(b.me):
        return _impossible("checkers_came_back")
    any_rule = bearoff == "any"
    if _reaches_with_every_die(b, dice, a, any_rule):
        return OK
    full = _max_dice(b, dice, any_rule)
    if full < (4 if dice[0] == dice[1] else 2) and a.key in generate_plays(b.me, b.opp, dice, any_rule):
        return OK
    # 2. the opponent's checkers may only go to the bar (hit).
    moved_away = [i for i in range(24) if a.opp[i] < b.opp[i]]
    arrived = [i for i in range(24) if a.opp[i] > b.opp[i]]
    if arrived:
        return illegal("opponent_checkers_moved")
    hit_points = {23 - i for i in moved_away}
    if any(b.opp[23 - p] != 1 or a.me[p] == 0 for p in hit_points) or a.opp[BAR] - b.opp[BAR] != len(moved_away):
        return illegal("opponent_checkers_moved")
    # 3. the mover's checkers: forward only.
    sources, dests = [], []
    for i in range(25):
        if a.me[i] < b.me[i]:
            sources += [i + 1] * (b.me[i] - a.me[i])
        elif a.me[i] > b.me[i]:
            dests += [i + 1] * (a.me[i] - b.me[i])
    dests += [0] * (sum(b.me) - sum(a.me))
    sources.sort(reverse=True)
    dests.sort(reverse=True)
    if any(d >= s for s, d in zip(sources, dests)):
        return illegal("moved_backwards")
    if b.me[BAR] and a.me[BAR] and any(a.me[i] < b.me[i] for i in range(24)):
        return illegal("bar_must_enter_first")
    borne = sum(b.me) - sum(a.me)
    if borne and any(a.me[6:25]):
        if not off_seen:
            # no play takes a checker off now: more likely one the camera missed
            return _impossible("checker_count_changed")
        return illegal("bearoff_not_allowed_yet")
    # 4. a legal part of the roll, but not all that had to be played.
    used = _dice_used_to_reach(b, dice, a, any_rule, full)
    if used:
        k = min(used)
        if dice[0] != dice[1] and k == 1 and full == 1:
            return illegal("must_use_larger_die", die=max(dice))
        if k < full:
            if dice[0] == dice[1]:
                return illegal("die_could_be_played", die=dice[0])
            if k == 0:
                playable = [d for d in sorted(dice, reverse=True) if _hops(b.me, b.opp, d, any_rule)]
                return illegal("die_could_be_played", die=playable[0] if playable else max(dice))
            played = _die_used_to(b, dice, a, any_rule)
            other = [d for d in dice if d != played] or [dice[0]]
            return illegal("die_could_be_played", die=other[0])
    # 5. too far, or a bear-off by the literal rule under the standard one.
    moved = sum(sources) - sum(dests)
    total = dice[0] * (4 if dice[0] == dice[1] else 1) + (0 if dice[0] == dice[1] else dice[1])
    if moved > total:
        return illegal("moved_too_far", moved=moved, pips=total, dice=dice_text(dice))
    if borne and not any_rule and a.key in generate_plays(b.me, b.opp, dice, True):
        return illegal("bearoff_from_highest")
    return illegal("no_such_play", dice=dice_text(dice))


def _may_still_reach(a: Position):
    """A test of positions on the way: False when no sequence of moves can
    end at ``a`` from there.  Checkers only move down, so the number of the
    mover's checkers at or above any point only falls, and an opposing
    checker once hit stays on the bar."""
    goal_opp = a.opp
    goal_above = [0] * 25
    run = 0
    for i in range(24, -1, -1):
        run += a.me[i]
        goal_above[i] = run

    def possible(me, opp) -> bool:
        run = 0
        for i in range(24, -1, -1):
            run += me[i]
            if run < goal_above[i]:
                return False
        return all(opp[i] >= goal_opp[i] for i in range(24))

    return possible


def _max_dice(b: Position, dice: tuple[int, int], any_rule: bool) -> int:
    """The most dice any sequence can use (a legal play uses that many);
    stops at the first sequence that uses them all."""
    doubles = dice[0] == dice[1]
    orders = [(dice[0],) * 4] if doubles else [tuple(dice), (dice[1], dice[0])]
    best = 0
    seen: set = set()

    def walk(me, opp, order, k, top) -> bool:
        nonlocal best
        best = max(best, k)
        if k == len(order):
            return True
        state = (me, opp, order[k:], top)
        if state in seen:
            return False
        seen.add(state)
        for hop in _hops(me, opp, order[k], any_rule, top if doubles else BAR):
            m2, o2, _ = _step(me, opp, hop)
            if walk(m2, o2, order, k + 1, hop[0] if doubles else BAR):
                return True
        return False

    for order in orders:
        if walk(b.me, b.opp, order, 0, BAR):
            break
    return best


def _reaches_with_every_die(b: Position, dice: tuple[int, int], a: Position, any_rule: bool) -> bool:
    """Does a sequence using every die (2, or 4 for a double) turn ``b``
    into ``a``?  Such a play is always legal.  The search drops a branch as
    soon as it cannot end at ``a`` (see ``_may_still_reach``)."""
    doubles = dice[0] == dice[1]
    orders = [(dice[0],) * 4] if doubles else [tuple(dice), (dice[1], dice[0])]
    goal_me, goal_opp = a.me, a.opp
    possible = _may_still_reach(a)
    seen: set = set()

    def walk(me, opp, order, k, top):
        if k == len(order):
            return me == goal_me and opp == goal_opp
        state = (me, opp, order[k:], top)
        if state in seen:
            return False
        seen.add(state)
        for hop in _hops(me, opp, order[k], any_rule, top if doubles else BAR):
            m2, o2, _ = _step(me, opp, hop)
            if possible(m2, o2) and walk(m2, o2, order, k + 1, hop[0] if doubles else BAR):
                return True
        return False

    return any(walk(b.me, b.opp, order, 0, BAR) for order in orders)


def _dice_used_to_reach(b: Position, dice: tuple[int, int], a: Position, any_rule: bool, full: int) -> list[int]:
    """How many dice (at most ``full``, the number a legal play uses) a
    sequence of single moves uses to turn ``b`` into ``a``."""
    if full == 0:
        return []
    doubles = dice[0] == dice[1]
    orders = [(dice[0],) * 4] if doubles else [tuple(dice), (dice[1], dice[0])]
    target = a.key
    possible = _may_still_reach(a)
    out: list[int] = []
    seen: set = set()

    def walk(me, opp, order, k, top):
        if (me, opp) == target:
            out.append(k)
        if k >= min(len(order), full):
            return
        state = (me, opp, order[k:], top)
        if state in seen:
            return
        seen.add(state)
        for hop in _hops(me, opp, order[k], any_rule, top if doubles else BAR):
            m2, o2, _ = _step(me, opp, hop)
            if possible(m2, o2):
                walk(m2, o2, order, k + 1, hop[0] if doubles else BAR)

    for order in orders:
        walk(b.me, b.opp, order, 0, BAR)
    return out


def _die_used_to(b: Position, dice: tuple[int, int], a: Position, any_rule: bool) -> int:
    for d in dice:
        for hop in _hops(b.me, b.opp, d, any_rule):
            m, o, _ = _step(b.me, b.opp, hop)
            if (m, o) == a.key:
                return d
    return dice[0]


def _check_dice(dice: Any) -> tuple[int, int]:
    try:
        d = tuple(int(x) for x in dice)
    except (TypeError, ValueError):
        raise ValueError(f"dice are two numbers 1-6, not {dice!r}") from None
    if len(d) != 2 or not all(1 <= x <= 6 for x in d):
        raise ValueError(f"dice are two numbers 1-6, not {dice!r}")
    return d


# --------------------------------------------------------------------------

class TableEvent(Event):
    """An event whose sentence names the player by colour in each language."""

    def message(self, lang: str = "ro") -> str:
        args = dict(self.data)
        if self.seat is not None:
            args["colour"] = colour_word(self.seat, lang, capital=True)
        if "dice" in args:
            args["dice"] = dice_text(args["dice"])
        if "score" in args:
            args["score"] = "-".join(str(s) for s in args["score"])
        if self.kind == "game_over":
            args["kind"] = _KIND_WORDS.get(lang, _KIND_WORDS["en"])[args["kind"]]
            one = args["points"] == 1
            args["unit"] = ("punct" if one else "puncte") if lang == "ro" else ("point" if one else "points")
        return format_message("event_" + self.kind, args, lang, self.game or "table")


class Table(Game):
    """Table (backgammon) for two: see the module docstring."""

    id = "table"
    title = {"ro": "Table", "en": "Backgammon"}
    min_players = 2
    max_players = 2
    OPTIONS = {
        "bearoff": "standard",   # "standard" | "any" (the text's "oricare")
        "match_to": 0,           # 0: a single game; N: a match to N points
        "gammon": True,          # "marț": 2 points when the loser bore off nothing
        "backgammon": False,     # 3 points when the loser also has a checker on the bar / in the winner's home
        "opening": "white",      # "white": white (seat 0) begins; "dice": the opening roll decides
        "roller": "engine",      # "engine": the engine rolls; "table": rolls are entered ("roll 5 2")
        "cube": False,           # the doubling cube: "double", "take", "drop" before a roll
    }

    # ----- setup -----------------------------------------------------------
    def _setup(self, deal: dict | None, **setup: Any) -> None:
        if deal is not None and not isinstance(deal, dict):
            raise ValueError(f"a table deal is a dict (position_id, match_id, dice, turn), not {deal!r}")
        setup = {**(deal or {}), **setup}
        unknown = set(setup) - {"position_id", "match_id", "dice", "turn"}
        if unknown:
            raise ValueError(f"unknown setup for table: {', '.join(sorted(unknown))}; "
                             f"known: position_id, match_id, dice, turn")
        o = self.options
        if o["bearoff"] not in ("standard", "any"):
            raise ValueError(f"option bearoff is 'standard' or 'any', not {o['bearoff']!r}")
        if o["opening"] not in ("white", "dice"):
            raise ValueError(f"option opening is 'white' or 'dice', not {o['opening']!r}")
        if o["roller"] not in ("engine", "table"):
            raise ValueError(f"option roller is 'engine' or 'table', not {o['roller']!r}")
        if not isinstance(o["match_to"], int) or isinstance(o["match_to"], bool) or not 0 <= o["match_to"] < 2**15:
            raise ValueError(f"option match_to is 0 (one game) or a number of points, not {o['match_to']!r}")
        for name in ("gammon", "backgammon", "cube"):
            if not isinstance(o[name], bool):
                raise ValueError(f"option {name} is True or False, not {o[name]!r}")
        self.engine_rolls = o["roller"] == "engine" and not self.observed
        self.cube = 1
        self.cube_owner: int | None = None
        self.offered = False          # a double waits for take or drop
        self.dropped = False
        self.score = [0, 0]
        self.games: list[dict] = []
        self.crawford = False
        self.crawford_played = False
        self.over = False
        self.dice: tuple[int, int] | None = None
        self.board = [list(START), list(START)]
        self.turn = 0
        self._legal_cache: dict | None = None
        # as gnubg's defaults write it into the Match ID (the engine has no Jacoby rule)
        self.jacoby = o["match_to"] == 0 and not o["cube"]

        turn = setup.get("turn")
        if turn is not None and turn not in (0, 1):
            raise ValueError(f"turn is seat 0 or 1, not {turn!r}")
        dice = _check_dice(setup["dice"]) if setup.get("dice") is not None else None
        if setup.get("match_id") is not None:
            ms = MatchState.decode(setup["match_id"])
            if ms.resign:
                raise ValueError(f"Match ID {setup['match_id']!r} holds a resignation; this engine has none")
            if (ms.cube != 1 or ms.doubled or ms.cube_owner is not None) and not o["cube"]:
                raise ValueError(f"Match ID {setup['match_id']!r} has a cube in play: "
                                 f"use the option cube=True")
            if ms.doubled and (ms.dice != (0, 0) or dice is not None):
                raise ValueError(f"Match ID {setup['match_id']!r} has a double offered, which comes "
                                 f"before the roll: no dice go with it")
            if ms.game_state != 1:
                raise ValueError(f"Match ID {setup['match_id']!r} is not of a game in play")
            self.options["match_to"] = ms.match_to
            self.jacoby = ms.jacoby
            self.score = list(ms.score)
            self.crawford = ms.crawford
            self.crawford_played = ms.crawford or (ms.match_to > 0 and max(ms.score) == ms.match_to - 1)
            self.cube, self.cube_owner, self.offered = ms.cube, ms.cube_owner, ms.doubled
            if turn is None:
                turn = ms.dice_owner
            if dice is None and ms.dice != (0, 0):
                dice = ms.dice
        if setup.get("position_id") is not None:
            pos = decode_position_id(setup["position_id"])
            seat = turn or 0
            self.board[seat] = list(pos.me)
            self.board[1 - seat] = list(pos.opp)
            if pos.off(0) == CHECKERS or pos.off(1) == CHECKERS:
                raise ValueError(f"Position ID {setup['position_id']!r}: a player has already borne off "
                                 f"every checker")
            self.turn = seat
            self.dice = dice
            if self.dice is None and self._auto_roll and not self.offered:
                self.dice = self._roll()
        else:
            if turn is not None or dice is not None:
                self.turn = turn or 0
                self.dice = dice
                if self.dice is None and self._auto_roll and not self.offered:
                    self.dice = self._roll()
            else:
                self._open_game(first=0)

    @property
    def _auto_roll(self) -> bool:
        """The engine rolls at the start of a turn (without the cube, which
        is offered before the roll, so the player then says "roll")."""
        return self.engine_rolls and not self.options["cube"]

    def _roll(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def _open_game(self, first: int) -> None:
        self.board = [list(START), list(START)]
        self.dice = None
        self.turn = first
        self.cube, self.cube_owner, self.offered = 1, None, False
        if self.options["opening"] == "dice" and self.engine_rolls:
            while True:
                d0, d1 = self.rng.randint(1, 6), self.rng.randint(1, 6)
                if d0 != d1:
                    break
            self.turn = 0 if d0 > d1 else 1
            self.dice = (d0, d1) if d0 > d1 else (d1, d0)
        elif self._auto_roll:
            self.dice = self._roll()
        self._legal_cache = None

    # ----- positions ---------------------------------------------------------
    def position(self) -> Position:
        """The position from the view of the player on roll."""
        return Position(tuple(self.board[self.turn]), tuple(self.board[1 - self.turn]))

    def position_id(self) -> str:
        """GNU Backgammon's Position ID of the position, player on roll's view."""
        return position_id(self.position())

    def match_id(self) -> str:
        """GNU Backgammon's Match ID."""
        state = (4 if self.dropped else 2) if self.over else 1
        return MatchState(
            cube=self.cube, cube_owner=self.cube_owner, dice_owner=self.turn, crawford=self.crawford,
            game_state=state, turn=self.to_move, doubled=self.offered,
            dice=self.dice or (0, 0), match_to=self.options["match_to"],
            score=(self.score[0], self.score[1]), jacoby=self.jacoby).encode()

    def pips(self, seat: int) -> int:
        return sum((i + 1) * n for i, n in enumerate(self.board[seat]))

    def off(self, seat: int) -> int:
        return CHECKERS - sum(self.board[seat])

    # ----- the rules ------------------------------------------------------------
    @property
    def to_move(self) -> int:
        """The seat that acts now: the player on roll, or the one who must
        answer a double."""
        return 1 - self.turn if self.offered else self.turn

    def may_double(self) -> Verdict:
        """May the player on roll double now (before rolling)?"""
        if not self.options["cube"]:
            return illegal("table_no_cube")
        if self.offered:
            return illegal("table_answer_double")
        if self.dice is not None:
            return illegal("table_double_before_roll")
        if self.cube_owner is not None and self.cube_owner != self.turn:
            return illegal("table_cube_not_yours")
        if self.crawford:
            return illegal("table_crawford_no_double")
        if self.cube >= 2**15:
            return illegal("table_cube_at_most", cube=self.cube)
        return OK

    @property
    def is_over(self) -> bool:
        return self.over

    def _plays(self) -> dict[tuple, str]:
        """Legal resulting positions (me, opp) -> canonical play text."""
        if self._legal_cache is None:
            pos = self.position()
            found = generate_plays(pos.me, pos.opp, self.dice, self.options["bearoff"] == "any")
            self._legal_cache = {key: (format_play(path) if path else "pass") for key, path in found.items()}
        return self._legal_cache

    def _legal_moves(self) -> list[Move]:
        if self.offered:
            return [Move("drop", "drop"), Move("take", "take")]
        if self.dice is None:
            moves = [Move("double", "double")] if self.may_double().ok else []
            if self.engine_rolls:
                return moves + [Move("roll", "roll")]
            return moves + [Move(f"roll {a} {b}", "roll", data=(a, b)) for a, b in ROLLS]
        moves = [Move(text, "pass" if text == "pass" else "play") for text in self._plays().values()]
        return sorted(moves, key=lambda m: m.text)

    def _parse(self, text: str) -> Move:
        low = text.strip().lower()
        m = re.fullmatch(r"roll\s*([1-6])[\s,-]*([1-6])", low)
        if m:
            a, b = sorted((int(m.group(1)), int(m.group(2))), reverse=True)
            return Move(f"roll {a} {b}", "roll", data=(a, b))
        if low == "roll":
            return Move("roll", "roll")
        if low.startswith("roll"):
            raise ValueError(f"cannot read {text!r}: a roll is written 'roll 5 2' (or 'roll' when the engine rolls)")
        for kind, words in (("double", ("double", "dublez", "redouble")), ("take", ("take", "accept", "primesc")),
                            ("drop", ("drop", "reject", "refuz"))):
            if low in words:
                return Move(kind, kind)
        prefix = None
        m = re.fullmatch(r"([1-6])[\s-]?([1-6])\s*:\s*(.+)", low)
        if m:
            prefix = tuple(sorted((int(m.group(1)), int(m.group(2))), reverse=True))
            low = m.group(3)
        if low in ("pass", "-", "nu pot"):
            play = "pass"
            kind = "pass"
        else:
            ways = parse_play(low)
            play = self._canonical(ways, prefix) or _ways_text(ways)
            kind = "play"
        if prefix:
            return Move(f"{prefix[0]}{prefix[1]}: {play}", kind, data=prefix)
        return Move(play, kind)

    def _canonical(self, ways: list[list[int]], prefix) -> str | None:
        """The canonical text of a written play that is legal now, else None."""
        if self.over:
            return None
        dice = self.dice if self.dice is not None else prefix
        if dice is None or (self.dice is not None and prefix and tuple(sorted(self.dice, reverse=True)) != prefix):
            return None
        saved = self._legal_cache if self.dice is not None else None
        pos = self.position()
        result, _ = _simulate(pos, tuple(dice), ways, self.options["bearoff"] == "any")
        if result is None:
            return None
        if self.dice is None:
            found = generate_plays(pos.me, pos.opp, tuple(dice), self.options["bearoff"] == "any")
            return format_play(found[result.key]) if result.key in found else None
        plays = saved if saved is not None else self._plays()
        return plays.get(result.key)

    def _check(self, move: Move) -> Verdict:
        if move.kind == "double":
            return self.may_double()
        if move.kind in ("take", "drop"):
            return OK if self.offered else illegal("table_no_double_offered")
        if self.offered:
            return illegal("table_answer_double")
        if move.kind == "roll":
            if self.dice is not None:
                return illegal("table_dice_already_rolled", dice=dice_text(self.dice))
            if self.engine_rolls and move.data:
                return illegal("table_engine_rolls")
            if not self.engine_rolls and not move.data:
                return illegal("table_roll_needs_numbers")
            return OK
        dice = self.dice
        prefix = move.data or None
        if prefix:
            if dice is None:
                if self.engine_rolls:
                    return illegal("table_engine_rolls")
                dice = prefix
            elif tuple(sorted(dice, reverse=True)) != tuple(prefix):
                return illegal("table_wrong_dice", dice=dice_text(self.dice), given=dice_text(prefix))
        if dice is None:
            return illegal("table_no_dice_yet")
        return self._check_play(move, tuple(dice))

    def _check_play(self, move: Move, dice: tuple[int, int]) -> Verdict:
        pos = self.position()
        any_rule = self.options["bearoff"] == "any"
        found = generate_plays(pos.me, pos.opp, dice, any_rule) if dice != self.dice else None
        legal = set(found) if found is not None else set(self._plays())
        play = move.text.split(": ", 1)[-1]
        if move.kind == "pass":
            if legal == {pos.key}:
                return OK
            return illegal("table_cannot_pass", dice=dice_text(dice))
        result, why = _simulate(pos, dice, parse_play(play), any_rule)
        if legal == {pos.key}:
            return why if why is not None else illegal("table_must_pass", dice=dice_text(dice))
        if result is None:
            return why
        if result.key in legal:
            return OK
        return _explain(pos, dice, result, self.options["bearoff"])

    def check_position(self, after: Any, dice: Iterable[int] | None = None) -> Verdict:
        """Judge a position the camera saw after this turn (Position,
        Position ID from the mover's view, or a ``masa see`` table reading)."""
        off_seen = False
        if isinstance(after, dict):
            try:
                seen = Position.from_scene(after, self.turn)
            except ValueError:
                return _impossible("bad_board")
            if "off" in after:
                off = after["off"]
                counted = (off[self.turn], off[1 - self.turn]) if isinstance(off, (list, tuple)) and len(off) == 2 \
                    else None
                if counted is None or (seen.off(0), seen.off(1)) != tuple(counted):
                    return _impossible("checker_count_changed")
                off_seen = True
            after = seen
        if self.is_over:
            return Verdict(False, "game_over", {}, sure=False)
        d = dice if dice is not None else self.dice
        if d is None:
            # The camera may simply not have read the dice: never a flag.
            return Verdict(False, "table_no_dice_yet", {}, sure=False)
        return explain_result(self.position(), d, after, self.options["bearoff"], off_seen)

    def _apply(self, move: Move) -> list[Event]:
        events: list[Event] = []
        seat = self.turn
        if move.kind == "double":
            self.offered = True
            return [TableEvent("doubled", seat, {"cube": self.cube * 2})]
        if move.kind == "take":
            self.offered = False
            self.cube *= 2
            self.cube_owner = 1 - seat
            return [TableEvent("took", 1 - seat, {"cube": self.cube})]
        if move.kind == "drop":
            self.offered = False
            events = [TableEvent("dropped", 1 - seat, {"cube": self.cube})]
            return events + self._end_game(seat, dropped=True)
        if move.kind == "roll":
            self.dice = tuple(move.data) if move.data else self._roll()
            self._legal_cache = None
            return [TableEvent("dice_rolled", seat, {"dice": list(self.dice)})]
        if move.data and self.dice is None:
            self.dice = tuple(move.data)
            self._legal_cache = None
            events.append(TableEvent("dice_rolled", seat, {"dice": list(self.dice)}))
        dice = self.dice
        if move.kind == "pass":
            events.append(TableEvent("no_play", seat, {"dice": list(dice)}))
        else:
            pos = self.position()
            result, _ = _simulate(pos, dice, parse_play(move.text.split(": ", 1)[-1]),
                                  self.options["bearoff"] == "any")
            text = self._plays().get(result.key, move.text)
            self.board[seat] = list(result.me)
            self.board[1 - seat] = list(result.opp)
            events.append(TableEvent("checkers_moved", seat, {"play": text, "dice": list(dice),
                                                    "hits": result.opp[BAR] - pos.opp[BAR],
                                                    "borne_off": result.off(0) - pos.off(0)}))
        self._legal_cache = None
        if self.off(seat) == CHECKERS:
            events.extend(self._end_game(seat))
            return events
        self.turn = 1 - seat
        self.dice = self._roll() if self._auto_roll else None
        return events

    def _end_game(self, winner: int, dropped: bool = False) -> list[Event]:
        loser = 1 - winner
        lb = self.board[loser]
        kind = "drop" if dropped else "single"
        if not dropped and self.off(loser) == 0:
            kind = "gammon"
            # the loser's checkers on the bar or in the winner's home board (loser's points 19-24)
            if lb[BAR] or any(lb[18:24]):
                kind = "backgammon"
        o = self.options
        points = 1
        if kind in ("gammon", "backgammon") and o["gammon"]:
            points = 2
        if kind == "backgammon" and o["backgammon"]:
            points = 3
        points *= self.cube
        self.score[winner] += points
        self.dropped = dropped
        record = {"winner": winner, "points": points, "kind": kind, "cube": self.cube, "score": list(self.score)}
        self.games.append(record)
        events = [TableEvent("game_over", winner, dict(record))]
        if o["match_to"] == 0 or self.score[winner] >= o["match_to"]:
            self.over = True
            self.dice = None
            if o["match_to"]:
                events.append(TableEvent("match_over", winner, {"score": list(self.score)}))
            return events
        # the Crawford game: the first game after a player reaches match_to - 1
        if self.crawford:
            self.crawford = False
        elif not self.crawford_played and self.score[winner] == o["match_to"] - 1:
            self.crawford = True
            self.crawford_played = True
        self._open_game(first=winner)
        events.append(TableEvent("new_game", self.turn, {"number": len(self.games) + 1,
                                                          "score": list(self.score)}))
        return events

    def result(self) -> dict:
        winner = None
        if self.over and self.games:
            winner = self.games[-1]["winner"]
        return {"winner": winner, "score": list(self.score), "match_to": self.options["match_to"],
                "games": [dict(g) for g in self.games],
                "points": self.games[-1]["points"] if self.games else 0,
                "kind": self.games[-1]["kind"] if self.games else None}

    def scores(self) -> list:
        return list(self.score)

    def state(self) -> dict:
        st = super().state()
        st.update({"dice": list(self.dice) if self.dice else None, "position_id": self.position_id(),
                   "match_id": self.match_id(), "pips": [self.pips(0), self.pips(1)],
                   "off": [self.off(0), self.off(1)], "bar": [self.board[0][BAR], self.board[1][BAR]],
                   "match_to": self.options["match_to"]})
        if self.options["cube"]:
            st.update({"cube": self.cube, "cube_owner": self.cube_owner, "double_offered": self.offered})
        return st

    # ----- the text board ----------------------------------------------------
    def render(self, lang: str = "ro") -> str:
        """An ASCII board from the view of the player on roll: its points
        1-24, the bar, the checkers borne off, the dice, the pip counts."""
        letters = LETTERS.get(lang, LETTERS["en"])
        me, opp = self.turn, 1 - self.turn

        def cell(p: int) -> str:   # p: the mover's point 1-24
            mine = self.board[me][p - 1]
            theirs = self.board[opp][24 - p]
            if mine:
                return f"{letters[me]}{mine}".rjust(4)
            if theirs:
                return f"{letters[opp]}{theirs}".rjust(4)
            return "   .".rjust(4)

        top = list(range(13, 19)), list(range(19, 25))
        bottom = list(range(12, 6, -1)), list(range(6, 0, -1))
        line_nums = lambda ps: "".join(str(p).rjust(4) for p in ps)
        lines = [
            " " + line_nums(top[0]) + " |" + line_nums(top[1]),
            " " + "".join(cell(p) for p in top[0]) + " |" + "".join(cell(p) for p in top[1]),
            " " + "-" * 24 + "-+-" + "-" * 23,
            " " + "".join(cell(p) for p in bottom[0]) + " |" + "".join(cell(p) for p in bottom[1]),
            " " + line_nums(bottom[0]) + " |" + line_nums(bottom[1]),
        ]
        words = {"ro": ("bara", "scoase", "puncte", "zaruri", "la mutare", "scor", "meci până la"),
                 "en": ("bar", "off", "pips", "dice", "on roll", "score", "match to")}.get(lang)
        words = words or ("bar", "off", "pips", "dice", "on roll", "score", "match to")
        for s in (me, opp):
            lines.append(f" {letters[s]} {colour_word(s, lang)}: {words[0]} {self.board[s][BAR]}, "
                         f"{words[1]} {self.off(s)}, {words[2]} {self.pips(s)}")
        dice = dice_text(self.dice) if self.dice else "-"
        status = f" {words[4]}: {colour_word(me, lang)}, {words[3]} {dice}"
        if self.options["match_to"]:
            status += f"; {words[5]} {self.score[0]}-{self.score[1]}, {words[6]} {self.options['match_to']}"
        if self.options["cube"]:
            owner = "-" if self.cube_owner is None else colour_word(self.cube_owner, lang)
            status += f"; {'cub' if lang == 'ro' else 'cube'} {self.cube} ({owner})"
            if self.offered:
                status += " " + format_message("table_answer_double", {}, lang)
        if self.over:
            status = " " + format_message("game_over", {}, lang)
        lines.append(status)
        lines.append(f" Position ID: {self.position_id()}  Match ID: {self.match_id()}")
        return "\n".join(lines)


def playout_positions(count: int, seed: int = 2026) -> list[Position]:
    """``count`` distinct positions (the mover's view, before its play)
    from random playouts of seeded games: a quarter with the mover on the
    bar, a quarter bearing off (as far as the playouts give them), the
    rest drawn from all the others.  Used by the gnubg reference test and
    by ``masa bench``."""
    import random

    chooser = random.Random(seed)
    bar: dict[str, Position] = {}
    bearoff: dict[str, Position] = {}
    other: dict[str, Position] = {}
    game_seed = seed
    while len(bar) + len(bearoff) + len(other) < 3 * count:
        game = Table(seed=game_seed)
        game_seed += 1
        while not game.is_over:
            pos = game.position()
            pid = position_id(pos)
            if pos.me[BAR]:
                bar[pid] = pos
            elif not any(pos.me[6:]):
                bearoff[pid] = pos
            else:
                other[pid] = pos
            game.play(chooser.choice(game.legal_moves()))
    quarter = count // 4
    picked = list(bar.values())[:quarter] + list(bearoff.values())[:quarter]
    rest = list(other.values()) + list(bar.values())[quarter:] + list(bearoff.values())[quarter:]
    chooser.shuffle(rest)
    return picked + rest[: count - len(picked)]

