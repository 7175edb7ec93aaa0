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
CommandError (a ValueError, in English and Romanian) naming the field;
nothing else is accepted.
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


class CommandError(ValueError):
    """A malformed command; ``str()`` is English, ``message("ro")`` Romanian."""

    def __init__(self, en: str, ro: str):
        super().__init__(en)
        self.texts = {"en": en, "ro": ro}

    def message(self, lang: str = "ro") -> str:
        return self.texts.get(lang, self.texts["en"])


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
    if isinstance(payload, str):
        payload = payload.encode("utf-8", "surrogatepass")
    if isinstance(payload, (bytes, bytearray)):
        if len(payload) > MAX_PAYLOAD:
            raise CommandError(f"command too long ({len(payload)} bytes; at most {MAX_PAYLOAD})",
                               f"comandă prea lungă ({len(payload)} octeți; cel mult {MAX_PAYLOAD})")
        try:
            payload = payload.decode("utf-8")
        except UnicodeDecodeError:
            raise CommandError("command is not UTF-8 text", "comanda nu este text UTF-8") from None
    if isinstance(payload, str):
        try:
            payload = json.loads(payload)
        except json.JSONDecodeError as exc:
            raise CommandError(f"command is not JSON: {exc.msg} at position {exc.pos}",
                               f"comanda nu este JSON: {exc.msg} la poziția {exc.pos}") from None
        except RecursionError:
            raise CommandError("command is nested too deeply", "comanda are prea multe niveluri") from None
    if not isinstance(payload, dict):
        raise CommandError("command must be a JSON object like {\"cmd\": \"undo\"}",
                           "comanda trebuie să fie un obiect JSON, de exemplu {\"cmd\": \"undo\"}")
    name = payload.get("cmd")
    if not isinstance(name, str) or name not in SCHEMA:
        raise CommandError(f"unknown command {name!r}; commands: {', '.join(SCHEMA)}",
                           f"comandă necunoscută {name!r}; comenzi: {', '.join(SCHEMA)}")
    spec = SCHEMA[name]
    unknown = set(payload) - set(spec) - COMMON_FIELDS
    if unknown:
        raise CommandError(f"{name}: unknown field(s) {', '.join(sorted(unknown))}; "
                           f"fields: {', '.join(spec) or 'none'}",
                           f"{name}: câmp(uri) necunoscut(e) {', '.join(sorted(unknown))}; "
                           f"câmpuri: {', '.join(spec) or 'niciunul'}")
    cid = payload.get("id")
    if cid is not None and (not isinstance(cid, str) or len(cid) > 64):
        raise CommandError(f"{name}: 'id' must be a string of at most 64 characters",
                           f"{name}: 'id' trebuie să fie un text de cel mult 64 de caractere")
    args = {}
    for key, (types, required) in spec.items():
        if key not in payload:
            if required:
                raise CommandError(f"{name}: missing field {key!r}", f"{name}: lipsește câmpul {key!r}")
            continue
        value = payload[key]
        if not _is_type(value, types):
            want = " or ".join("integer" if t is int else "text" if t is str else "list" for t in types)
            vrea = " sau ".join("număr întreg" if t is int else "text" if t is str else "listă" for t in types)
            raise CommandError(f"{name}: field {key!r} must be {want}, not {json.dumps(value)}",
                               f"{name}: câmpul {key!r} trebuie să fie {vrea}, nu {json.dumps(value)}")
        args[key] = value
    _check_values(name, args)
    return Command(name, args, cid, source)


def _check_values(name: str, args: dict) -> None:
    seat = args.get("seat")
    if seat is not None and not 0 <= seat < 8:
        raise CommandError(f"{name}: 'seat' must be from 0 to 7, not {seat}",
                           f"{name}: 'seat' trebuie să fie între 0 și 7, nu {seat}")
    if name == "trump" and args["suit"].upper() not in SUITS:
        raise CommandError(f"trump: 'suit' must be one of {' '.join(SUITS)}, not {args['suit']!r}",
                           f"trump: 'suit' trebuie să fie una din {' '.join(SUITS)}, nu {args['suit']!r}")
    if name == "trump":
        args["suit"] = args["suit"].upper()
    if name == "bid":
        v = args["value"]
        if isinstance(v, int) and not 0 <= v <= 99:
            raise CommandError(f"bid: 'value' must be from 0 to 99, not {v}",
                               f"bid: 'value' trebuie să fie între 0 și 99, nu {v}")
        if isinstance(v, str) and (not v.strip() or len(v) > 16 or not v.replace(" ", "").isalnum()):
            raise CommandError(f"bid: 'value' {v!r} is not a bid", f"bid: 'value' {v!r} nu este o licitație")
    if name == "request":
        v = args["value"].strip().upper()
        if not v or len(v) > 8 or not v.isalnum():
            raise CommandError(f"request: 'value' {args['value']!r} is not a rank or a suit",
                               f"request: 'value' {args['value']!r} nu este nici valoare, nici culoare")
        args["value"] = v
    if name == "new_game":
        players = args.get("players")
        if players is not None and not 1 <= players <= 8:
            raise CommandError(f"new_game: 'players' must be from 1 to 8, not {players}",
                               f"new_game: 'players' trebuie să fie între 1 și 8, nu {players}")
        game = args.get("game")
        if game is not None and (not game or len(game) > 16 or not all(ch.isalnum() or ch == "-" for ch in game)):
            raise CommandError(f"new_game: 'game' {game!r} is not a game id",
                               f"new_game: 'game' {game!r} nu este numele unui joc")
    if name == "seat_names":
        names = args["names"]
        if not 1 <= len(names) <= 8 or not all(isinstance(n, str) and 0 < len(n.strip()) <= 24 for n in names):
            raise CommandError("seat_names: 'names' must be a list of 1 to 8 names of 1 to 24 characters",
                               "seat_names: 'names' trebuie să fie o listă de 1-8 nume de 1-24 de caractere")
        args["names"] = [n.strip() for n in names]
