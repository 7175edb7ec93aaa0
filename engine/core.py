"""The engine's common vocabulary: Move, Verdict, Event, IllegalMove and Game.

Every game is a subclass of :class:`Game` in a module of its own and follows
python-chess: ``legal_moves()``, ``parse_move(text)``, ``check(move)``,
``play(move)`` / ``undo()``, and an exact JSON round trip.

A game is fully described by how it was created (players, seed or deal,
options) plus the moves played since, so ``to_json`` stores exactly that and
``load_game`` replays it; the RNG state is stored too and must come out the
same, which proves the replay exact.  ``undo`` replays all moves but the last.

A subclass implements:

* ``_setup(deal)``: deal from ``self.rng`` (or take the given deal);
* ``_parse(text) -> Move``;
* ``_legal_moves() -> list[Move]`` (for the seat to move);
* ``_check(move) -> Verdict`` (move.seat is already the acting seat);
* ``_apply(move) -> list[Event]`` (only called after ``_check`` said ok);
* the properties ``to_move``, ``is_over`` and ``result()``, ``scores()``,
  and for card games ``hand(seat)`` / ``hand_size(seat)``.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from . import cards as _cards

JSON_VERSION = 1

# --------------------------------------------------------------------------
# Messages: every Verdict code has a Romanian and an English sentence.

MESSAGES: dict[str, dict[str, str]] = {
    "ok": {"ro": "Mutare corectă.", "en": "Legal move."},
    "not_your_turn": {"ro": "Nu este rândul jucătorului {seat_name}; este rândul lui {to_move_name}.",
                      "en": "It is not {seat_name}'s turn; it is {to_move_name}'s turn."},
    "game_over": {"ro": "Jocul s-a terminat.", "en": "The game is over."},
    "bad_notation": {"ro": "Mutare neînțeleasă: „{text}”.", "en": "Cannot read the move {text!r}: {detail}"},
    "not_in_hand": {"ro": "Jucătorul nu are {card} în mână.", "en": "The player does not hold the {card}."},
    "no_such_seat": {"ro": "Nu există locul {seat}.", "en": "There is no seat {seat}."},
}


def register_messages(messages: dict[str, dict[str, str]], game: str = "") -> None:
    """Add sentences (code -> {"ro": ..., "en": ...}).

    Verdict codes are shared by all games (``not_your_turn`` means the same
    everywhere), so registering a code again with other words is an error.
    A game's event sentences are its own: register them with ``game=<id>``
    and ``Event.message`` finds them first for that game's events.
    """
    for code, texts in messages.items():
        if "ro" not in texts or "en" not in texts:
            raise ValueError(f"message {code!r} needs both 'ro' and 'en'")
        key = f"{game}:{code}" if game else code
        if key in MESSAGES and MESSAGES[key] != texts:
            raise ValueError(f"message {key!r} is registered twice with different words; "
                             f"give a game's own sentences with register_messages(..., game=<id>)")
        MESSAGES[key] = texts


def _speak(key: str, value: Any, lang: str) -> str:
    """Render one message argument for speech: cards by name, seats from 1."""
    if key.endswith("cards") and isinstance(value, (list, tuple)):
        return ", ".join(_cards.card_name(c, lang) for c in value)
    if key.endswith("card") and isinstance(value, str):
        try:
            return _cards.card_name(_cards.parse_card(value), lang)
        except ValueError:
            return value
    if key.endswith("suit") and isinstance(value, str) and len(value) == 1 and value in _cards.SUITS:
        return _cards.SUIT_NAMES[lang if lang in _cards.SUIT_NAMES else "en"][value]
    if key.endswith("rank") and isinstance(value, str) and len(value) == 1 and value in _cards.RANKS:
        return _cards.RANK_NAMES[lang if lang in _cards.RANK_NAMES else "en"][value]
    return str(value)


def format_message(code: str, args: dict, lang: str = "ro", game: str = "") -> str:
    """The sentence for ``code`` in ``lang``: the game's own first, then the shared one."""
    texts = (MESSAGES.get(f"{game}:{code}") if game else None) or MESSAGES.get(code)
    if texts is None:
        return code
    template = texts.get(lang) or texts["en"]
    spoken = {k: _speak(k, v, lang) for k, v in args.items()}
    for k in ("seat", "to_move"):
        if k in args and isinstance(args[k], int):
            spoken[k + "_name"] = str(args[k] + 1)
    try:
        return template.format(**spoken)
    except (KeyError, IndexError):
        return template


# The two sides of a board game (Table, Tintar): seat 0 white, seat 1 black.
COLOUR_WORDS = {"ro": ("albul", "negrul"), "en": ("white", "black")}


def colour_word(seat: int, lang: str = "ro", capital: bool = False) -> str:
    """A board game player's colour as a word ("albul" / "white")."""
    word = COLOUR_WORDS.get(lang, COLOUR_WORDS["en"])[seat]
    return word[0].upper() + word[1:] if capital else word


# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    """One move in a game's text notation.

    ``text`` is the canonical notation (``str(move)``); ``kind`` says what
    sort of move it is (``play``, ``draw``, ``pass``, ``bid``, ...); ``cards``
    the cards it puts down; ``arg`` a word that goes with it (a requested
    suit, a bid); ``data`` anything else a game parses out of the text.
    ``seat`` is who makes the move (None: the seat to move) and does not
    take part in comparisons, so ``move in g.legal_moves()`` works.
    """

    text: str
    kind: str = "play"
    cards: tuple[str, ...] = ()
    arg: str | None = None
    data: tuple = ()
    seat: int | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.text

    def by(self, seat: int | None) -> "Move":
        """The same move made by ``seat``."""
        return replace(self, seat=seat)


@dataclass(frozen=True, eq=False)
class Verdict:
    """The engine's answer about a move.

    ``ok`` says whether the move may be played; ``code`` is a stable
    snake_case reason; ``message(lang)`` is the sentence spoken aloud.
    ``sure`` is False when the engine accepted a move only because the
    public facts cannot decide it yet (observed play): it is never an
    illegal flag.
    """

    ok: bool
    code: str = "ok"
    args: dict = field(default_factory=dict)
    sure: bool = True

    def __bool__(self) -> bool:
        return self.ok

    def message(self, lang: str = "ro") -> str:
        return format_message(self.code, self.args, lang)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "code": self.code, "args": dict(self.args), "sure": self.sure,
                "ro": self.message("ro"), "en": self.message("en")}

    def __repr__(self) -> str:
        return f"Verdict(ok={self.ok}, code={self.code!r}, args={self.args!r})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Verdict) and (self.ok, self.code, self.args, self.sure)
                == (other.ok, other.code, other.args, other.sure))


OK = Verdict(True)


def illegal(code: str, **args) -> Verdict:
    return Verdict(False, code, args)


class IllegalMove(ValueError):
    """Raised by ``play`` for a move that ``check`` rejects."""

    def __init__(self, verdict: Verdict):
        self.verdict = verdict
        super().__init__(verdict.message("en"))

    def message(self, lang: str = "ro") -> str:
        return self.verdict.message(lang)


@dataclass(frozen=True)
class Event:
    """Something that happened because of a move (for journal, voice, MQTT)."""

    kind: str
    seat: int | None = None
    data: dict = field(default_factory=dict)
    # the game that produced it (set by Game.play), for the game's own sentences
    game: str = field(default="", compare=False)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "seat": self.seat, **self.data}

    def message(self, lang: str = "ro") -> str:
        return format_message("event_" + self.kind, {"seat": self.seat, **self.data}, lang, self.game)


# --------------------------------------------------------------------------

class Game(ABC):
    """Base class of every game; see the module docstring."""

    id: ClassVar[str] = ""
    title: ClassVar[dict[str, str]] = {}
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int | None] = None
    # option name -> default value; each game documents its options.
    OPTIONS: ClassVar[dict[str, Any]] = {}

    def __init__(self, players: int | None = None, seed: int | None = None,
                 deal: dict | None = None, options: dict | None = None,
                 observed: bool = False, **setup: Any):
        if players is None:
            players = self.default_players or self.min_players
        if not isinstance(players, int) or not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.id} is played by {self.min_players} to "
                             f"{self.max_players} players, not {players!r}")
        unknown = set(options or {}) - set(self.OPTIONS)
        if unknown:
            raise ValueError(f"unknown option(s) for {self.id}: {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(sorted(self.OPTIONS)) or 'none'}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        self.players = players
        self.seed = seed
        self.observed = observed
        self.options = {**self.OPTIONS, **(options or {})}
        self.rng = random.Random(seed)
        self._init = {"players": players, "seed": seed, "deal": deal,
                      "options": dict(options or {}), "observed": observed, **setup}
        self._moves: list[Move] = []
        self._setup(deal, **setup)

    # ----- to implement -------------------------------------------------
    @abstractmethod
    def _setup(self, deal: dict | None, **setup: Any) -> None:
        """Implemented by each game."""

    @abstractmethod
    def _parse(self, text: str) -> Move:
        """Implemented by each game."""

    @abstractmethod
    def _legal_moves(self) -> list[Move]:
        """Implemented by each game."""

    @abstractmethod
    def _check(self, move: Move) -> Verdict:
        """Implemented by each game."""

    @abstractmethod
    def _apply(self, move: Move) -> list[Event]:
        """Implemented by each game."""

    @property
    @abstractmethod
    def to_move(self) -> int:
        """Implemented by each game."""

    @property
    @abstractmethod
    def is_over(self) -> bool:
        """Implemented by each game."""

    @abstractmethod
    def result(self) -> dict:
        """Implemented by each game."""

    @abstractmethod
    def scores(self) -> list:
        """Implemented by each game."""

    def hand(self, seat: int) -> list[str] | None:
        """The cards in ``seat``'s hand (full information), else None."""
        return None

    def _seat(self, seat: int) -> int:
        """``seat`` itself, or ValueError when the game has no such seat (not
        Python's counting from the end for a negative number)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.players:
            raise ValueError(f"there is no seat {seat!r}: seats are 0 to {self.players - 1}")
        return seat

    def hand_size(self, seat: int) -> int:
        return 0

    def render(self, lang: str = "ro") -> str:
        """A short text picture of the position for the terminal."""
        return f"{self.id}: seat {self.to_move + 1} to move"

    def state(self) -> dict:
        """Public state for displays (MQTT ``state``): overridden by games."""
        return {"game": self.id, "players": self.players, "to_move": self.to_move,
                "scores": self.scores(), "is_over": self.is_over,
                "hand_sizes": [self.hand_size(s) for s in range(self.players)]}

    # ----- the public API -------------------------------------------------
    @property
    def moves(self) -> list[Move]:
        """The moves played so far, each with its seat."""
        return list(self._moves)

    def legal_moves(self) -> list[Move]:
        if self.is_over:
            return []
        return self._legal_moves()

    def parse_move(self, text: str) -> Move:
        """Text -> Move; ValueError (with the text and the notation) on bad text."""
        if isinstance(text, Move):
            return text
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"empty move for {self.id}")
        return self._parse(" ".join(text.split()))

    def _resolve(self, move: Move | str, seat: int | None) -> tuple[Move | None, Verdict]:
        try:
            m = self.parse_move(move)
        except ValueError as exc:
            return None, illegal("bad_notation", text=str(move), detail=str(exc))
        if seat is None:
            seat = m.seat
        if seat is None:
            seat = self.to_move
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            return None, illegal("no_such_seat", seat=seat)
        return m.by(seat), OK

    def check(self, move: Move | str, seat: int | None = None) -> Verdict:
        """May ``seat`` (default: the seat to move) play ``move`` now?"""
        m, verdict = self._resolve(move, seat)
        if m is None:
            return verdict
        if self.is_over:
            return illegal("game_over")
        if m.seat != self.to_move:
            return illegal("not_your_turn", seat=m.seat, to_move=self.to_move)
        return self._check(m)

    def play(self, move: Move | str, seat: int | None = None) -> list[Event]:
        """Play a move; raises IllegalMove (a ValueError) and changes nothing
        if ``check`` rejects it."""
        m, verdict = self._resolve(move, seat)
        if m is None:
            raise IllegalMove(verdict)
        verdict = self.check(m)
        if not verdict.ok:
            raise IllegalMove(verdict)
        events = [e if e.game else replace(e, game=self.id) for e in self._apply(m)]
        self._moves.append(m)
        return events

    def push(self, move: Move | str, seat: int | None = None) -> list[Event]:
        """python-chess's name for :meth:`play`."""
        return self.play(move, seat)

    def undo(self) -> Move:
        """Take back the last move (by replaying all the others)."""
        if not self._moves:
            raise ValueError("no move to undo")
        last = self._moves[-1]
        fresh = type(self)(**self._init)
        for m in self._moves[:-1]:
            fresh._apply(m)
            fresh._moves.append(m)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)
        return last

    pop = undo

    # ----- persistence ------------------------------------------------------
    def to_json(self) -> str:
        """The whole game as JSON: its creation, its moves, its RNG state."""
        state = self.rng.getstate()
        return json.dumps({
            "format": "masa-game", "version": JSON_VERSION, "game": self.id,
            "init": self._init,
            "moves": [[m.text, m.seat] for m in self._moves],
            "rng": [state[0], list(state[1]), state[2]],
        }, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict) -> "Game":
        """The game ``to_json`` wrote; ValueError when ``data`` is not one."""
        init, moves, saved = data.get("init"), data.get("moves"), data.get("rng")
        if (not isinstance(init, dict) or not isinstance(moves, list)
                or not all(isinstance(m, list) and len(m) == 2 for m in moves)
                or (saved is not None and not (isinstance(saved, list) and len(saved) == 3
                                               and isinstance(saved[1], list)))):
            raise ValueError("not a saved Masa game: it needs 'init' (an object), 'moves' "
                             "(a list of [text, seat]) and 'rng' as to_json writes them")
        try:
            game = cls(**init)
        except TypeError as exc:
            raise ValueError(f"not a saved {cls.id} game: {exc}") from None
        for text, seat in moves:
            game.play(text, seat=seat)
        if saved is not None:
            if [saved[0], tuple(saved[1]), saved[2]] != list(game.rng.getstate()):
                raise ValueError("the saved game does not replay to its saved random state "
                                 "(was it written by another version of Masa?)")
        return game

    def copy(self) -> "Game":
        return type(self).from_dict(json.loads(self.to_json()))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.id} players={self.players} moves={len(self._moves)}>"
