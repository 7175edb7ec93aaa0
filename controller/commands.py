"""The ``cmd`` schema: commands the camera cannot see, and their validation.

A command is a JSON object with ``"cmd"`` naming it; the same commands come
from MQTT (``masa/<table>/cmd``), GPIO buttons and the CLI::

    {"cmd": "bid", "seat": 1, "value": 3}
    {"cmd": "trump", "seat": 0, "suit": "H"}
    {"cmd": "request", "seat": 2, "value": "H"}     # Macao: after a J (a rank) or an A (a suit)
    {"cmd": "new_game", "game": "macao", "players": 3}
    {"cmd": "undo"}
    {"cmd": "seat_names", "names": ["Ana", "Dan", "Ion"]}

An optional ``"id"`` (a short string) is echoed in the answer event.
``parse_command`` turns bytes / text / dict into a :class:`Command` or raises
ValueError with a message naming the field; nothing else is accepted.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

SUITS = ("S", "H", "D", "C")
MAX_PAYLOAD = 4096

# command -> {field: (type(s), required)}
SCHEMA: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "bid": {"seat": ((int,), False), "value": ((int, str), True)},
    "trump": {"seat": ((int,), False), "suit": ((str,), True)},
    "request": {"seat": ((int,), False), "value": ((str,), True)},
    "new_game": {"game": ((str,), False), "players": ((int,), False), "seed": ((int,), False)},
    "undo": {},
    "seat_names": {"names": ((list,), True)},
}
COMMON_FIELDS = {"cmd", "id"}


@dataclass(frozen=True)
class Command:
    """A validated command; ``args`` holds its fields (without cmd / id)."""

    name: str
    args: dict = field(default_factory=dict)
    id: str | None = None
    source: str = "mqtt"

    @property
    def seat(self) -> int | None:
        return self.args.get("seat")

    def move_text(self) -> str | None:
        """The engine notation of a command that is a move (bid, trump,
        request), else None."""
        if self.name == "bid":
            return f"bid {self.args['value']}"
        if self.name == "trump":
            return f"trump {self.args['suit']}"
        if self.name == "request":
            return f"request {self.args['value']}"
        return None

    def to_dict(self) -> dict:
        d = {"cmd": self.name, **self.args, "source": self.source}
        if self.id is not None:
            d["id"] = self.id
        return d


def _is_type(value, types: tuple[type, ...]) -> bool:
    # bool is an int in Python; a seat of `true` is still malformed.
    return isinstance(value, types) and not isinstance(value, bool)


def parse_command(payload, source: str = "mqtt") -> Command:
    """Validate ``payload`` (bytes, str or dict) against the schema."""
    if isinstance(payload, (bytes, bytearray)):
        if len(payload) > MAX_PAYLOAD:
            raise ValueError(f"command too long ({len(payload)} bytes; at most {MAX_PAYLOAD})")
        try:
            payload = payload.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError("command is not UTF-8 text") from None
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except json.JSONDecodeError as exc:
            raise ValueError(f"command is not JSON: {exc.msg} at position {exc.pos}") from None
    if not isinstance(payload, dict):
        raise ValueError("command must be a JSON object like {\"cmd\": \"undo\"}")
    name = payload.get("cmd")
    if not isinstance(name, str) or name not in SCHEMA:
        raise ValueError(f"unknown command {name!r}; commands: {', '.join(SCHEMA)}")
    spec = SCHEMA[name]
    unknown = set(payload) - set(spec) - COMMON_FIELDS
    if unknown:
        raise ValueError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}; "
                         f"fields: {', '.join(spec) or 'none'}")
    cid = payload.get("id")
    if cid is not None and (not isinstance(cid, str) or len(cid) > 64):
        raise ValueError(f"{name}: 'id' must be a string of at most 64 characters")
    args = {}
    for key, (types, required) in spec.items():
        if key not in payload:
            if required:
                raise ValueError(f"{name}: missing field {key!r}")
            continue
        value = payload[key]
        if not _is_type(value, types):
            want = " or ".join("integer" if t is int else "text" if t is str else "list" for t in types)
            raise ValueError(f"{name}: field {key!r} must be {want}, not {json.dumps(value)}")
        args[key] = value
    _check_values(name, args)
    return Command(name, args, cid, source)


def _check_values(name: str, args: dict) -> None:
    seat = args.get("seat")
    if seat is not None and not 0 <= seat < 8:
        raise ValueError(f"{name}: 'seat' must be from 0 to 7, not {seat}")
    if name == "trump" and args["suit"].upper() not in SUITS:
        raise ValueError(f"trump: 'suit' must be one of {' '.join(SUITS)}, not {args['suit']!r}")
    if name == "trump":
        args["suit"] = args["suit"].upper()
    if name == "bid":
        v = args["value"]
        if isinstance(v, int) and not 0 <= v <= 99:
            raise ValueError(f"bid: 'value' must be from 0 to 99, not {v}")
        if isinstance(v, str) and (not v.strip() or len(v) > 16 or not v.replace(" ", "").isalnum()):
            raise ValueError(f"bid: 'value' {v!r} is not a bid")
    if name == "request":
        v = args["value"].strip().upper()
        if not v or len(v) > 8 or not v.isalnum():
            raise ValueError(f"request: 'value' {args['value']!r} is not a rank or a suit")
        args["value"] = v
    if name == "new_game":
        players = args.get("players")
        if players is not None and not 1 <= players <= 8:
            raise ValueError(f"new_game: 'players' must be from 1 to 8, not {players}")
        game = args.get("game")
        if game is not None and (not game or len(game) > 16 or not all(ch.isalnum() or ch == "-" for ch in game)):
            raise ValueError(f"new_game: 'game' {game!r} is not a game id")
    if name == "seat_names":
        names = args["names"]
        if not 1 <= len(names) <= 8 or not all(isinstance(n, str) and 0 < len(n.strip()) <= 24 for n in names):
            raise ValueError("seat_names: 'names' must be a list of 1 to 8 names of 1 to 24 characters")
        args["names"] = [n.strip() for n in names]
