"""masa.toml: the table's configuration, read with tomllib and checked.

Every key has a default (``DEFAULTS``); a file only says what differs.  A
wrong key or value gives a ValueError naming the file, the table and the key
(``masa.toml: [pins] green must be a GPIO number 0-27, not 'x'``).  See
``masa.example.toml`` at the top of the repository for every key.
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

LAYOUT_DIR = Path(__file__).resolve().parent / "layouts"

DEFAULTS: dict = {
    "table": {"id": "masa", "lang": "ro"},
    "game": {"id": "macao", "players": 3, "layout": "", "options": {}},
    "camera": {"source": "picamera", "width": 1920, "height": 1080, "calibration": "",
               "stall_seconds": 5.0},
    "stability": {"frames": 3},
    "mqtt": {"url": "", "embedded_host": "0.0.0.0", "embedded_port": 1883, "ca_file": "",
             "insecure": False},
    "journal": {"path": "masa-journal.db"},
    "voice": {"backend": "auto", "lang": "ro"},
    "pins": {"seat_leds": [5, 6, 13, 19, 26, 21], "green": 20, "red": 16, "buzzer": 12},
    "buttons": {"undo": 17, "new_game": 27},
    "serial": {"port": "", "baud": 115200},
}

_CHOICES = {("table", "lang"): ("ro", "en"), ("voice", "lang"): ("ro", "en"),
            ("game", "id"): ("macao", "tintar"),
            ("voice", "backend"): ("auto", "espeak", "print")}


def _fail(where: str, msg: str):
    raise ValueError(f"{where}: {msg}")


def _check_pin(where: str, key: str, value) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 27:
        _fail(where, f"{key} must be a GPIO number 0-27, not {value!r}")


def validate(data: dict, where: str = "masa.toml") -> dict:
    """Merge ``data`` over the defaults and check every value."""
    if not isinstance(data, dict):
        _fail(where, "the configuration must be a TOML table")
    cfg = copy.deepcopy(DEFAULTS)
    for section, values in data.items():
        if section not in DEFAULTS:
            _fail(where, f"unknown section [{section}]; sections: {', '.join(DEFAULTS)}")
        if not isinstance(values, dict):
            _fail(where, f"[{section}] must be a table")
        for key, value in values.items():
            if section != "buttons" and key not in DEFAULTS[section]:
                _fail(where, f"[{section}] unknown key {key!r}; keys: {', '.join(DEFAULTS[section])}")
            if section != "buttons":
                cfg[section][key] = value
    if data.get("buttons") is not None:
        cfg["buttons"] = dict(data["buttons"])
    # Types, by the type of the default.
    for section, keys in DEFAULTS.items():
        if section in ("buttons", "pins"):
            continue
        for key, default in keys.items():
            value = cfg[section][key]
            if isinstance(default, bool):
                ok = isinstance(value, bool)
            elif isinstance(default, float):
                ok = isinstance(value, (int, float)) and not isinstance(value, bool)
            elif isinstance(default, int):
                ok = isinstance(value, int) and not isinstance(value, bool)
            else:
                ok = isinstance(value, type(default))
            if not ok:
                _fail(where, f"[{section}] {key} must be {type(default).__name__}, not {value!r}")
            if (section, key) in _CHOICES and value not in _CHOICES[(section, key)]:
                _fail(where, f"[{section}] {key} must be one of {', '.join(_CHOICES[(section, key)])}, "
                             f"not {value!r}")
    if not cfg["table"]["id"] or not all(c.isalnum() or c in "-_" for c in cfg["table"]["id"]):
        _fail(where, f"[table] id must be letters, digits, - or _ (it is an MQTT topic level), "
                     f"not {cfg['table']['id']!r}")
    if not 1 <= cfg["game"]["players"] <= 8:
        _fail(where, f"[game] players must be from 1 to 8, not {cfg['game']['players']}")
    for key in ("width", "height"):
        if not 16 <= cfg["camera"][key] <= 10000:
            _fail(where, f"[camera] {key} must be from 16 to 10000 pixels, not {cfg['camera'][key]}")
    if cfg["camera"]["stall_seconds"] <= 0:
        _fail(where, f"[camera] stall_seconds must be more than 0, not {cfg['camera']['stall_seconds']}")
    if cfg["stability"]["frames"] < 1:
        _fail(where, f"[stability] frames must be at least 1, not {cfg['stability']['frames']}")
    if not 1 <= cfg["mqtt"]["embedded_port"] <= 65535:
        _fail(where, f"[mqtt] embedded_port must be 1-65535, not {cfg['mqtt']['embedded_port']}")
    if cfg["mqtt"]["url"]:
        from controller.mqtt import parse_url
        try:
            parse_url(cfg["mqtt"]["url"])
        except ValueError as exc:
            _fail(where, f"[mqtt] url: {exc}")
    pins = cfg["pins"]
    if not isinstance(pins["seat_leds"], list) or not pins["seat_leds"]:
        _fail(where, "[pins] seat_leds must be a list of GPIO numbers")
    for i, p in enumerate(pins["seat_leds"]):
        _check_pin(where, f"[pins] seat_leds[{i}]", p)
    for key in ("green", "red", "buzzer"):
        _check_pin(where, f"[pins] {key}", pins[key])
    seats = 2 if cfg["game"]["id"] == "tintar" else cfg["game"]["players"]
    if len(pins["seat_leds"]) < seats:
        _fail(where, f"[pins] seat_leds names {len(pins['seat_leds'])} pins for {seats} seats")
    for name, pin in cfg["buttons"].items():
        if name not in ("undo", "new_game"):
            _fail(where, f"[buttons] {name!r}: a button gives undo or new_game")
        _check_pin(where, f"[buttons] {name}", pin)
    used = [*pins["seat_leds"], pins["green"], pins["red"], pins["buzzer"], *cfg["buttons"].values()]
    dup = sorted({p for p in used if used.count(p) > 1})
    if dup:
        _fail(where, f"[pins]/[buttons] GPIO {', '.join(map(str, dup))} used twice")
    return cfg


def load(path: str | Path | None) -> dict:
    """Read and check a masa.toml (None: the defaults)."""
    if path is None:
        return validate({})
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{p}: no such configuration file") from None
    except UnicodeDecodeError:
        raise ValueError(f"{p}: not a text file (masa.toml is UTF-8 text)") from None
    except OSError as exc:
        raise ValueError(f"{p}: cannot be read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{p}: not valid TOML: {exc}") from None
    return validate(data, str(p))


# --------------------------------------------------------------------------
# Layouts: zones of the table in millimetres.

def layout_path(name: str) -> Path:
    p = Path(name)
    if p.suffix == ".toml" and p.is_file():
        return p
    q = LAYOUT_DIR / f"{name}.toml"
    if not q.is_file():
        known = ", ".join(sorted(x.stem for x in LAYOUT_DIR.glob("*.toml")))
        raise ValueError(f"unknown layout {name!r}; layouts: {known}")
    return q


def load_layout(name: str) -> dict:
    """A layout: {"name", "game", "table_mm": [w, h], "zones": {name: {"rect":
    [x0, y0, x1, y1], "seat": n?}}}; checked."""
    p = layout_path(name)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except UnicodeDecodeError:
        raise ValueError(f"layout {p}: not a text file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"layout {p}: not valid TOML: {exc}") from None
    where = f"layout {p.name}"
    for key in ("game", "table_mm", "zones"):
        if key not in data:
            _fail(where, f"missing key {key!r}")
    size = data["table_mm"]
    if (not isinstance(size, list) or len(size) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in size)):
        _fail(where, f"table_mm must be [width, height] in mm, not {size!r}")
    w, h = size
    if not isinstance(data["zones"], dict) or not data["zones"]:
        _fail(where, "zones must be a table of [zones.<name>] tables")
    for zname, zone in data["zones"].items():
        if not isinstance(zone, dict):
            _fail(where, f"zone {zname}: must be a table with a rect")
        rect = zone.get("rect")
        if (not isinstance(rect, list) or len(rect) != 4
                or not all(isinstance(v, (int, float)) for v in rect)
                or not (0 <= rect[0] < rect[2] <= w and 0 <= rect[1] < rect[3] <= h)):
            _fail(where, f"zone {zname}: rect must be [x0, y0, x1, y1] inside the {w}x{h} mm table")
        if "seat" in zone and not isinstance(zone["seat"], int):
            _fail(where, f"zone {zname}: seat must be an integer")
    data["name"] = p.stem
    return data


def default_layout(game: str, players: int) -> str:
    if game == "macao":
        return f"macao-{players}"
    return game
