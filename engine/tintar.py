"""Tintar (moara, nine men's morris): the rules as Masa referees them.

Source: the user's text "Regulament Tintar (Moara)" (rules/002, from the line
"Regulament Tintar (Moara)"); where it is silent the game is played as it is
normally played, and each choice is a named option (docs/rules/tintar.md).

The board
    24 points, three nested squares joined at the middles of their sides::

        7 o-----------o-----------o
          |           |           |
        6 |   o-------o-------o   |
          |   |       |       |   |
        5 |   |   o---o---o   |   |
          |   |   |       |   |   |
        4 o---o---o       o---o---o
          |   |   |       |   |   |
        3 |   |   o---o---o   |   |
          |   |       |       |   |
        2 |   o-------o-------o   |
          |           |           |
        1 o-----------o-----------o
          a   b   c   d   e   f   g

    Points: ``a1 a4 a7 b2 b4 b6 c3 c4 c5 d1 d2 d3 d5 d6 d7 e3 e4 e5 f2 f4 f6
    g1 g4 g7``.  Two points are adjacent when a line joins them with no
    point between; a mill ("moara") is three points of one line: the eight
    sides of the squares and the eight half-lines joining them (``a4 b4 c4``,
    ``d1 d2 d3``, ...).

Placing ("Asezarea pieselor")
    "Initial tabla de joc este goala, si fiecare jucator are noua piese la
    dispozitie."  "Pe rand, cei doi aseaza piesele pe tabla."  White (seat
    0) plays first: the text does not say who starts; standard play.  A
    player who still has pieces in hand must place one on a free point.

Moving ("Mutarea pieselor")
    "Cand s-au terminat de pozitionat cele noua piese, incepe faza in care
    se poate muta. ... fiecare jucator poate muta una dintre piesele sale
    intr-una din pozitiile adiacente (doar daca respectivul punct este
    liber)."  With the option ``flying`` a player with three pieces or fewer
    on the board (and none in hand) may move a piece to any free point.

Mills and captures
    "Cand unul dintre jucatori reuseste sa completeze un segment ... a format
    o moara. In acest caz, are dreptul (si obligatia) sa captureze una din
    piesele adversarului aflate pe tabla."  A mill counts when the piece just
    placed or moved is one of its three; it captures one piece (a double
    mill still captures one).  "In cazul in care adversarul are pe tabla
    doar piese care fac parte din cel putin o moara, poate captura pe
    oricare dintre ele. Altfel, e obligat sa captureze o piesa care nu face
    parte din nici o moara."  If the opponent has no piece on the board the
    mill captures nothing.

The end
    "Cand unul dintre jucatori reuseste sa captureze toate piesele
    adversarului, jocul se termina si respectivul este declarat castigator."
    A player who cannot move on their turn loses (standard; the text is
    silent).  Options: ``lose_below_three`` (a player left with fewer than
    three pieces, on the board and in hand, loses: the common rule),
    ``draw_repetition`` (N: the same position with the same player to move
    for the N-th time is a draw; 0 = off), ``draw_no_capture`` (N: N moves in
    a row, by either player, without a capture are a draw; 0 = off).

Notation (contract 1)
    A move is one turn, the capture included, as the camera sees a turn:
    ``d2`` places a piece on d2, ``a1-a4`` slides (or flies) from a1 to a4,
    and a capture is appended as ``xg7``: ``d2xg7``, ``a1-a4xg7``.

Setting up a position
    ``create_game("tintar", position={"a1": "white", "g7": "black"},
    to_move=1, in_hand=(3, 4))``: the pieces on the board, the seat to move
    (0 white, 1 black) and the pieces each still holds (default 9 and 9 for
    an empty board, 0 and 0 when a position is given); the pieces neither
    on the board nor in hand are the captured ones.  ``deal`` may hold the
    same keys.

The camera
    ``explain_observation(board)`` / ``explain_position(before, after)``
    judge a board the camera saw after a turn (``{"a1": "white" | "black" |
    None, ...}``): ok with the move, an illegal verdict with its reason, or
    a verdict with ``sure=False`` (``unclear_observation``,
    ``capture_pending``, ...) when the picture cannot come from one move and
    so proves nothing.  ``infer_move(before, after)`` gives the move alone;
    ``check_position(board)`` is the controller's entry point (as Table's).
"""

from __future__ import annotations

import re
from typing import Any

from .core import OK, Event, Game, Move, Verdict, colour_word, format_message, illegal, register_messages

POINTS: tuple[str, ...] = ("a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3",
                           "d5", "d6", "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7")
INDEX: dict[str, int] = {name: i for i, name in enumerate(POINTS)}

LINES: tuple[tuple[str, str, str], ...] = (
    ("a1", "d1", "g1"), ("b2", "d2", "f2"), ("c3", "d3", "e3"), ("a4", "b4", "c4"),
    ("e4", "f4", "g4"), ("c5", "d5", "e5"), ("b6", "d6", "f6"), ("a7", "d7", "g7"),
    ("a1", "a4", "a7"), ("b2", "b4", "b6"), ("c3", "c4", "c5"), ("d1", "d2", "d3"),
    ("d5", "d6", "d7"), ("e3", "e4", "e5"), ("f2", "f4", "f6"), ("g1", "g4", "g7"),
)

# point index -> the indices adjacent to it
ADJACENT: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted({INDEX[line[j + d]] for line in LINES for j in range(3)
                  if line[j] == name for d in (-1, 1) if 0 <= j + d < 3}))
    for name in POINTS)

# point index -> for each mill line through it, the other two points
MILL_PARTNERS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(tuple(INDEX[q] for q in line if q != name) for line in LINES if name in line)
    for name in POINTS)

EMPTY = -1
WHITE, BLACK = 0, 1
PIECES = 9
COLOURS = ("white", "black")
PIECE_LETTERS = {"ro": ("A", "N"), "en": ("W", "B")}

_MOVE_RE = re.compile(r"^([a-z]\d{1,2})(?:-([a-z]\d{1,2}))?(?:x([a-z]\d{1,2}))?$")

register_messages({
    "no_such_point": {"ro": "Nu există punctul {point} pe tablă.",
                      "en": "There is no point {point} on the board."},
    "point_occupied": {"ro": "Punctul {point} este ocupat.",
                       "en": "The point {point} is taken."},
    "no_piece_there": {"ro": "Nu este nicio piesă pe {point}.",
                       "en": "There is no piece on {point}."},
    "not_your_piece": {"ro": "Piesa de pe {point} este a adversarului.",
                       "en": "The piece on {point} is the opponent's."},
    "not_adjacent": {"ro": "Piesa se mută doar pe un punct vecin liber: {to} nu este lângă {frm}.",
                     "en": "A piece moves only to a free neighbouring point: {to} is not next to {frm}."},
    "still_placing": {"ro": "Mai aveți piese de așezat: așezați o piesă pe un punct liber.",
                      "en": "You still have pieces to place: place one on a free point."},
    "no_pieces_in_hand": {"ro": "Toate piesele sunt pe tablă: mutați una dintre ele.",
                          "en": "All your pieces are on the board: move one of them."},
    "must_capture": {"ro": "Ați făcut moară: trebuie să luați o piesă a adversarului.",
                     "en": "You made a mill: you must take one of the opponent's pieces."},
    "no_mill_no_capture": {"ro": "Fără moară nu se ia nicio piesă.",
                           "en": "No mill was made, so no piece may be taken."},
    "capture_in_mill": {"ro": "Piesa de pe {point} face parte dintr-o moară, iar altele nu: "
                              "luați o piesă care nu este în moară.",
                        "en": "The piece on {point} is in a mill and others are not: "
                              "take a piece that is not in a mill."},
    "capture_not_opponent": {"ro": "Pe {point} nu este o piesă a adversarului de luat.",
                             "en": "There is no opponent's piece on {point} to take."},
    "unclear_observation": {"ro": "Nu se vede clar ce mutare s-a făcut ({changes}).",
                            "en": "Cannot tell which move was made ({changes})."},
    "no_change": {"ro": "Tabla nu s-a schimbat.", "en": "The board has not changed."},
    "capture_pending": {"ro": "Moară cu {move}: se așteaptă luarea unei piese.",
                        "en": "A mill with {move}: waiting for a piece to be taken."},
    "unreadable_board": {"ro": "Tabla de țintar nu a putut fi citită.",
                         "en": "The morris board could not be read."},
    "board_differs": {"ro": "Tabla văzută înainte nu este cea din joc ({points}).",
                      "en": "The board seen before is not the game's board ({points})."},
    "tintar_outcome_all_captured": {"ro": "{colour} a luat toate piesele adversarului și câștigă",
                             "en": "{colour} has taken all the opponent's pieces and wins"},
    "tintar_outcome_below_three": {"ro": "adversarul a rămas cu mai puțin de trei piese, {colour} câștigă",
                            "en": "the opponent has fewer than three pieces left, {colour} wins"},
    "tintar_outcome_blocked": {"ro": "adversarul nu mai poate muta, {colour} câștigă",
                        "en": "the opponent cannot move, {colour} wins"},
    "tintar_outcome_repetition": {"ro": "remiză prin repetarea poziției", "en": "a draw by repetition"},
    "tintar_outcome_no_capture": {"ro": "remiză: {moves} mutări fără captură",
                           "en": "a draw: {moves} moves without a capture"},
})

# The game's own event sentences (Event.message finds them for this game's events).
register_messages({
    "event_placed": {"ro": "{colour} a așezat pe {point}.", "en": "{colour} placed on {point}."},
    "event_moved": {"ro": "{colour} a mutat de pe {frm} pe {to}.", "en": "{colour} moved from {frm} to {to}."},
    "event_mill": {"ro": "Moară! {colour} ia o piesă.", "en": "A mill! {colour} takes a piece."},
    "event_captured": {"ro": "{colour} a luat piesa de pe {point}.", "en": "{colour} took the piece on {point}."},
    "event_game_over": {"ro": "Jocul s-a terminat: {outcome}.", "en": "The game is over: {outcome}."},
}, game="tintar")


class TintarEvent(Event):
    """An event whose sentence names the player by colour in each language."""

    def message(self, lang: str = "ro") -> str:
        args = dict(self.data)
        if self.seat is not None:
            args["colour"] = colour_word(self.seat, lang, capital=True)
        if self.kind == "game_over":
            reason = self.data.get("reason")
            winner = self.data.get("winner")
            outcome_args = {"moves": self.data.get("moves", "")}
            if winner is not None:
                outcome_args["colour"] = colour_word(winner, lang)
            args["outcome"] = format_message("tintar_outcome_" + str(reason), outcome_args, lang)
        return format_message("event_" + self.kind, args, lang, self.game or "tintar")


def _parse_colour(value: Any, where: str) -> int:
    if value is None:
        return EMPTY
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("white", "w", "alb", "a"):
            return WHITE
        if word in ("black", "b", "negru", "n"):
            return BLACK
        if word in ("", "none", "empty", "."):
            return EMPTY
    raise ValueError(f"{where}: {value!r} is not a piece colour (white, black or None)")


# Keys of the camera's "tintar" reading (contract 2) that describe the pieces
# beside the board, not a point: left out of a board.
SIDE_KEYS = ("in_hand", "captured")


def board_from_dict(board: dict, base: list[int] | None = None) -> list[int]:
    """A board dict ``{"a1": "white" | "black" | None, ...}`` -> a list by point
    index; points missing from the dict are taken from ``base`` (empty if no
    base), the camera's side counts (``in_hand``, ``captured``) are left
    out.  ValueError names a point that does not exist or a bad colour."""
    if not isinstance(board, dict):
        raise ValueError(f"a Tintar board is a dict of point -> colour, not {type(board).__name__}")
    cells = list(base) if base is not None else [EMPTY] * len(POINTS)
    for name, value in board.items():
        if name in SIDE_KEYS:
            continue
        key = str(name).strip().lower()
        if key not in INDEX:
            raise ValueError(f"there is no point {name!r} on a Tintar board; points: {' '.join(POINTS)}")
        cells[INDEX[key]] = _parse_colour(value, key)
    return cells


def _forms_mill(cells: list[int], point: int, seat: int) -> bool:
    for a, b in MILL_PARTNERS[point]:
        if cells[a] == seat and cells[b] == seat:
            return True
    return False


def capturable(cells: list[int], seat: int) -> list[int]:
    """The points of ``seat``'s pieces that a mill may take: those in no
    mill, or all of them when every one is in a mill."""
    pieces = [p for p in range(len(POINTS)) if cells[p] == seat]
    free = [p for p in pieces if not _forms_mill(cells, p, seat)]
    return free or pieces


def _move_text(frm: int | None, to: int, cap: int | None) -> str:
    text = POINTS[to] if frm is None else f"{POINTS[frm]}-{POINTS[to]}"
    return text if cap is None else f"{text}x{POINTS[cap]}"


def _make_move(frm: int | None, to: int, cap: int | None) -> Move:
    return Move(_move_text(frm, to, cap), "place" if frm is None else "move",
                data=(None if frm is None else POINTS[frm], POINTS[to],
                      None if cap is None else POINTS[cap]))


class Tintar(Game):
    """Tintar (nine men's morris); see the module docstring for the rules."""

    id = "tintar"
    title = {"ro": "Țintar (moara)", "en": "Nine men's morris"}
    min_players = max_players = 2
    OPTIONS = {
        "flying": False,            # three pieces or fewer may fly to any free point
        "lose_below_three": False,  # fewer than three pieces (board + hand) loses
        "draw_repetition": 0,       # N-fold repetition is a draw (0 = off)
        "draw_no_capture": 0,       # N moves in a row without a capture are a draw (0 = off)
    }

    # ----- setup ------------------------------------------------------------
    def _setup(self, deal: dict | None, position: dict | None = None, to_move: int = 0,
               in_hand=None, **unknown: Any) -> None:
        if deal:
            if not isinstance(deal, dict):
                raise ValueError("a Tintar deal is a dict with position, to_move, in_hand")
            extra = set(deal) - {"position", "to_move", "in_hand"}
            if extra:
                raise ValueError(f"unknown Tintar deal key(s): {', '.join(sorted(extra))}")
            position = deal.get("position", position)
            to_move = deal.get("to_move", to_move)
            in_hand = deal.get("in_hand", in_hand)
        if unknown:
            raise ValueError(f"unknown Tintar setup argument(s): {', '.join(sorted(unknown))}; "
                             "known: position, to_move, in_hand")
        for name in ("flying", "lose_below_three"):
            if not isinstance(self.options[name], bool):
                raise ValueError(f"option {name} is true or false, not {self.options[name]!r}")
        for name in ("draw_repetition", "draw_no_capture"):
            value = self.options[name]
            if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value == 1:
                raise ValueError(f"option {name} is 0 (off) or a whole number from 2, not {value!r}")
        self.cells = board_from_dict(position or {})
        if in_hand is None:
            in_hand = (PIECES, PIECES) if not position else (0, 0)
        if (not isinstance(in_hand, (list, tuple)) or len(in_hand) != 2
                or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in in_hand)):
            raise ValueError(f"in_hand is two counts (white, black), not {in_hand!r}")
        self.in_hand = list(in_hand)
        for seat in (WHITE, BLACK):
            total = self.cells.count(seat) + self.in_hand[seat]
            if total > PIECES:
                raise ValueError(f"{COLOURS[seat]} has {total} pieces on the board and in hand; "
                                 f"a player has {PIECES}")
        if to_move not in (0, 1) or isinstance(to_move, bool):
            raise ValueError(f"to_move is 0 (white) or 1 (black), not {to_move!r}")
        self.turn = to_move
        self.winner: int | None = None
        self.draw = False
        self.end_reason: str | None = None
        self.since_capture = 0
        self.seen: dict[tuple, int] = {}
        self._note_position()
        self._settle(mover=1 - self.turn)

    # ----- facts ------------------------------------------------------------
    def captured(self, seat: int) -> int:
        """How many of ``seat``'s pieces have been taken."""
        return PIECES - self.cells.count(seat) - self.in_hand[seat]

    def pieces_left(self, seat: int) -> int:
        return self.cells.count(seat) + self.in_hand[seat]

    def phase(self, seat: int | None = None) -> str:
        """``placing``, ``moving`` or ``flying`` for ``seat`` (default: to move)."""
        seat = self.turn if seat is None else seat
        if self.in_hand[seat] > 0:
            return "placing"
        if self.options["flying"] and self.cells.count(seat) <= 3:
            return "flying"
        return "moving"

    def board(self) -> dict[str, str | None]:
        """The board as ``{"a1": "white" | "black" | None, ...}``."""
        return {name: (COLOURS[c] if c != EMPTY else None) for name, c in zip(POINTS, self.cells)}

    # ----- the Game API -------------------------------------------------------
    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.draw

    def result(self) -> dict:
        if not self.is_over:
            return {}
        return {"winner": self.winner, "draw": self.draw, "reason": self.end_reason,
                "captured": [self.captured(0), self.captured(1)]}

    def scores(self) -> list:
        """Pieces each player has taken from the other."""
        return [self.captured(1), self.captured(0)]

    def _parse(self, text: str) -> Move:
        compact = text.replace(" ", "").lower()
        m = _MOVE_RE.match(compact)
        if not m:
            raise ValueError(f"cannot read {text!r} as a Tintar move: write a point to place on "
                             "(d2), a slide (a1-a4), and a capture as xg7 (d2xg7, a1-a4xg7)")
        first, second, cap = m.groups()
        frm, to = (first, second) if second else (None, first)
        canon = (f"{frm}-{to}" if frm else to) + (f"x{cap}" if cap else "")
        return Move(canon, "move" if frm else "place", data=(frm, to, cap))

    def _sources_and_targets(self, seat: int):
        """(from, to) pairs the seat may play, before any capture."""
        cells = self.cells
        if self.in_hand[seat] > 0:
            return [(None, p) for p in range(len(POINTS)) if cells[p] == EMPTY]
        own = [p for p in range(len(POINTS)) if cells[p] == seat]
        if self.options["flying"] and len(own) <= 3:
            empty = [p for p in range(len(POINTS)) if cells[p] == EMPTY]
            return [(f, t) for f in own for t in empty]
        return [(f, t) for f in own for t in ADJACENT[f] if cells[t] == EMPTY]

    def _legal_moves(self) -> list[Move]:
        seat, cells = self.turn, self.cells
        moves = []
        for frm, to in self._sources_and_targets(seat):
            if frm is not None:
                cells[frm] = EMPTY
            cells[to] = seat
            if _forms_mill(cells, to, seat):
                targets = capturable(cells, 1 - seat)
                if targets:
                    moves.extend(_make_move(frm, to, cap) for cap in targets)
                else:
                    moves.append(_make_move(frm, to, None))
            else:
                moves.append(_make_move(frm, to, None))
            cells[to] = EMPTY
            if frm is not None:
                cells[frm] = seat
        return moves

    def _check(self, move: Move) -> Verdict:
        frm, to, cap = move.data
        for name in (frm, to, cap):
            if name is not None and name not in INDEX:
                return illegal("no_such_point", point=name)
        seat, cells = move.seat, self.cells
        t = INDEX[to]
        if frm is None:
            if self.in_hand[seat] == 0:
                return illegal("no_pieces_in_hand")
            if cells[t] != EMPTY:
                return illegal("point_occupied", point=to)
        else:
            f = INDEX[frm]
            if self.in_hand[seat] > 0:
                return illegal("still_placing")
            if cells[f] == EMPTY:
                return illegal("no_piece_there", point=frm)
            if cells[f] != seat:
                return illegal("not_your_piece", point=frm)
            if cells[t] != EMPTY:
                return illegal("point_occupied", point=to)
            if self.phase(seat) != "flying" and t not in ADJACENT[f]:
                return illegal("not_adjacent", frm=frm, to=to)
        after = list(cells)
        if frm is not None:
            after[INDEX[frm]] = EMPTY
        after[t] = seat
        mill = _forms_mill(after, t, seat)
        if cap is None:
            if mill and capturable(after, 1 - seat):
                return illegal("must_capture")
            return OK
        if not mill:
            return illegal("no_mill_no_capture")
        c = INDEX[cap]
        if after[c] != 1 - seat:
            return illegal("capture_not_opponent", point=cap)
        if c not in capturable(after, 1 - seat):
            return illegal("capture_in_mill", point=cap)
        return OK

    def _apply(self, move: Move) -> list[Event]:
        frm, to, cap = move.data
        seat = self.turn
        events: list[Event] = []
        if frm is None:
            self.in_hand[seat] -= 1
            self.cells[INDEX[to]] = seat
            events.append(TintarEvent("placed", seat, {"point": to}))
        else:
            self.cells[INDEX[frm]] = EMPTY
            self.cells[INDEX[to]] = seat
            events.append(TintarEvent("moved", seat, {"frm": frm, "to": to}))
        if _forms_mill(self.cells, INDEX[to], seat):
            events.append(TintarEvent("mill", seat, {"point": to}))
        if cap is not None:
            self.cells[INDEX[cap]] = EMPTY
            self.since_capture = 0
            events.append(TintarEvent("captured", seat, {"point": cap}))
        else:
            self.since_capture += 1
        self.turn = 1 - seat
        self._note_position()
        if self._settle(mover=seat):
            events.append(TintarEvent("game_over", None, self.result() | (
                {"moves": self.since_capture} if self.end_reason == "no_capture" else {})))
        return events

    def _note_position(self) -> None:
        key = (tuple(self.cells), self.turn, tuple(self.in_hand))
        self.seen[key] = self.seen.get(key, 0) + 1
        self._repeats = self.seen[key]

    def _has_move(self, seat: int) -> bool:
        return bool(self._sources_and_targets(seat))

    def _settle(self, mover: int) -> bool:
        """Decide whether the game has ended after ``mover``'s turn."""
        victim = 1 - mover
        if self.pieces_left(victim) == 0:
            self.winner, self.end_reason = mover, "all_captured"
        elif self.options["lose_below_three"] and self.pieces_left(victim) < 3:
            self.winner, self.end_reason = mover, "below_three"
        elif not self._has_move(victim):
            self.winner, self.end_reason = mover, "blocked"
        elif self.options["draw_repetition"] and self._repeats >= self.options["draw_repetition"]:
            self.draw, self.end_reason = True, "repetition"
        elif self.options["draw_no_capture"] and self.since_capture >= self.options["draw_no_capture"]:
            self.draw, self.end_reason = True, "no_capture"
        return self.is_over

    # ----- display ------------------------------------------------------------
    def render(self, lang: str = "ro") -> str:
        letters = PIECE_LETTERS.get(lang, PIECE_LETTERS["en"])
        grid = [list(row) for row in (
            "7 o-----------o-----------o",
            "  |           |           |",
            "6 |   o-------o-------o   |",
            "  |   |       |       |   |",
            "5 |   |   o---o---o   |   |",
            "  |   |   |       |   |   |",
            "4 o---o---o       o---o---o",
            "  |   |   |       |   |   |",
            "3 |   |   o---o---o   |   |",
            "  |   |       |       |   |",
            "2 |   o-------o-------o   |",
            "  |           |           |",
            "1 o-----------o-----------o",
            "  a   b   c   d   e   f   g",
        )]
        for name, c in zip(POINTS, self.cells):
            row, col = (7 - int(name[1])) * 2, 2 + 4 * (ord(name[0]) - ord("a"))
            grid[row][col] = "." if c == EMPTY else letters[c]
        lines = ["".join(r) for r in grid]
        ro = lang == "ro"
        for seat in (WHITE, BLACK):
            name = colour_word(seat, lang, capital=True)
            lines.append(f"{letters[seat]} {name}: "
                         + (f"în mână {self.in_hand[seat]}, pe tablă {self.cells.count(seat)}, "
                            f"pierdute {self.captured(seat)}" if ro else
                            f"in hand {self.in_hand[seat]}, on board {self.cells.count(seat)}, "
                            f"lost {self.captured(seat)}"))
        if self.is_over:
            lines.append(TintarEvent("game_over", None, self.result() | {"moves": self.since_capture})
                         .message(lang))
        else:
            phase_words = {"ro": {"placing": "așază", "moving": "mută", "flying": "zboară"},
                           "en": {"placing": "places", "moving": "moves", "flying": "flies"}}
            words = phase_words["ro" if ro else "en"]
            lines.append(f"{colour_word(self.turn, lang, capital=True)} "
                         f"{'la mutare' if ro else 'to move'} ({words[self.phase()]}).")
        return "\n".join(lines)

    def state(self) -> dict:
        return {**super().state(), "board": self.board(), "in_hand": list(self.in_hand),
                "on_board": [self.cells.count(0), self.cells.count(1)],
                "captured": [self.captured(0), self.captured(1)],
                "phase": self.phase(), "phases": [self.phase(0), self.phase(1)],
                "result": self.result()}

    # ----- what the camera saw ----------------------------------------------
    def _observation(self, before: dict | None, after: dict) -> tuple[Move | None, Verdict]:
        """The move that leads from ``before`` (default: the game's board) to
        ``after``, with the verdict on it; (None, unsure verdict) when the
        picture does not show one move."""
        if before is not None:
            seen_before = board_from_dict(before, base=self.cells)
            differ = [POINTS[p] for p in range(len(POINTS)) if seen_before[p] != self.cells[p]]
            if differ:
                return None, Verdict(False, "board_differs", {"points": " ".join(differ)}, sure=False)
        seen = board_from_dict(after, base=self.cells)
        changes = {p: (self.cells[p], seen[p]) for p in range(len(POINTS)) if self.cells[p] != seen[p]}
        if not changes:
            return None, Verdict(False, "no_change", {}, sure=False)

        def unclear() -> tuple[None, Verdict]:
            text = ", ".join(f"{POINTS[p]} {'.' if a == EMPTY else COLOURS[a]}->"
                             f"{'.' if b == EMPTY else COLOURS[b]}" for p, (a, b) in sorted(changes.items()))
            return None, Verdict(False, "unclear_observation", {"changes": text}, sure=False)

        if any(a != EMPTY and b != EMPTY for a, b in changes.values()):
            return unclear()  # a piece turned into the other colour
        appeared = {s: [p for p, (a, b) in changes.items() if b == s] for s in (WHITE, BLACK)}
        vanished = {s: [p for p, (a, b) in changes.items() if a == s] for s in (WHITE, BLACK)}
        movers = [s for s in (WHITE, BLACK) if appeared[s]]
        if len(movers) != 1 or len(appeared[movers[0]]) != 1:
            return unclear()
        seat = movers[0]
        other = 1 - seat
        if len(vanished[seat]) > 1 or len(vanished[other]) > 1:
            return unclear()
        to = appeared[seat][0]
        frm = vanished[seat][0] if vanished[seat] else None
        cap = vanished[other][0] if vanished[other] else None
        if frm is None and self.in_hand[seat] == 0:
            return unclear()  # a piece from nowhere while the seat has none in hand
        move = _make_move(frm, to, cap).by(seat)
        verdict = self.check(move)
        if verdict.code == "must_capture":
            # The mill is made; the player may not have taken a piece yet.
            return None, Verdict(False, "capture_pending", {"move": move.text}, sure=False)
        if verdict.ok:
            return move, Verdict(True, "ok", {"move": move.text})
        return move, verdict

    def explain_position(self, before_board: dict | None, after_board: dict) -> Verdict:
        """Judge the board the camera saw after a turn against the board
        before it (None: the game's board, which ``before_board`` must
        match).  Ok carries the move as ``args["move"]``; an illegal verdict
        says why; ``sure=False`` verdicts flag nothing."""
        return self._observation(before_board, after_board)[1]

    def explain_observation(self, after_board: dict) -> Verdict:
        """:meth:`explain_position` from the game's own board."""
        return self._observation(None, after_board)[1]

    def check_position(self, after_board: Any) -> Verdict:
        """The controller's camera entry point (the same name as Table's):
        :meth:`explain_observation`, except that a reading that is not a
        Tintar board gives an unsure ``unreadable_board`` verdict instead of
        a ValueError."""
        try:
            return self.explain_observation(after_board)
        except ValueError as exc:
            return Verdict(False, "unreadable_board", {"error": str(exc)}, sure=False)

    def infer_move(self, before_board: dict | None, after_board: dict) -> Move | None:
        """The move (legal or not, with its seat) that the change from
        ``before_board`` to ``after_board`` shows, or None when it shows no
        single move (or a mill whose capture has not been made yet)."""
        return self._observation(before_board, after_board)[0]
