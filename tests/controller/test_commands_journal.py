"""The cmd schema and the SQLite journal."""

import json
import sqlite3

import pytest

from controller.commands import parse_command
from controller.journal import Journal


def test_valid_commands():
    c = parse_command(b'{"cmd": "trump", "seat": 1, "suit": "h", "id": "x1"}')
    assert (c.name, c.args, c.id) == ("trump", {"seat": 1, "suit": "H"}, "x1")
    assert c.move_text() == "trump H"
    assert parse_command({"cmd": "bid", "value": 3}).move_text() == "bid 3"
    assert parse_command('{"cmd": "request", "value": "s"}').move_text() == "request S"
    assert parse_command({"cmd": "undo"}).move_text() is None
    assert parse_command({"cmd": "seat_names", "names": [" Ana ", "Dan"]}).args == {"names": ["Ana", "Dan"]}
    assert parse_command({"cmd": "new_game", "game": "tintar"}).args == {"game": "tintar"}


@pytest.mark.parametrize("payload, words", [
    (b"\xff\xfe", "UTF-8"),
    (b"{not json", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (b'{"cmd": "explode"}', "unknown command"),
    (b'{"cmd": "trump"}', "missing field 'suit'"),
    (b'{"cmd": "trump", "suit": "Z"}', "suit"),
    (b'{"cmd": "bid", "value": 3, "seat": "one"}', "'seat' must be integer"),
    (b'{"cmd": "bid", "value": 3, "seat": true}', "'seat' must be integer"),
    (b'{"cmd": "bid", "value": 3, "seat": 12}', "from 0 to 7"),
    (b'{"cmd": "undo", "force": 1}', "unknown field"),
    (b'{"cmd": "seat_names", "names": []}', "names"),
    (b'{"cmd": "new_game", "players": 0}', "players"),
    (b'{"cmd": "undo", "id": 5}', "'id'"),
    (b"{" + b" " * 5000 + b"}", "too long"),
])
def test_malformed_commands_are_refused_with_a_reason(payload, words):
    with pytest.raises(ValueError, match=words):
        parse_command(payload)


def test_journal_is_wal_and_survives_reopen(tmp_path):
    path = tmp_path / "j.db"
    j = Journal(path)
    j.write(("scene", {"scene": {"pile": ["7H"]}, "frame": 3}))
    j.write(("move", {"move": "8H", "seat": 0}), ("snapshot", {"game": "{}", "seq": 4}))
    j.close()
    assert sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    j = Journal(path)
    assert [e["kind"] for e in j.entries()] == ["scene", "move", "snapshot"]
    assert j.last_snapshot()["seq"] == 4
    assert j.count("move") == 1
    assert j.entries("scene")[0]["scene"] == {"pile": ["7H"]}


def test_journal_transaction_is_all_or_nothing(tmp_path):
    j = Journal(tmp_path / "j.db")
    with pytest.raises(ValueError, match="unknown journal entry kind"):
        j.write(("move", {"move": "7H"}), ("bogus", {}))
    assert j.count() == 0
    with pytest.raises(TypeError):
        j.write(("move", {"move": object()}))
    assert j.count() == 0


def test_not_a_journal(tmp_path):
    bad = tmp_path / "x.db"
    bad.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(ValueError, match="not a Masa journal"):
        Journal(bad)
    assert json.dumps({"ok": 1})


def test_example_config_is_the_defaults():
    from pathlib import Path

    from controller.config import DEFAULTS, load, validate

    example = Path(__file__).resolve().parents[2] / "masa.example.toml"
    assert load(example) == validate({}) == {**DEFAULTS}


@pytest.mark.parametrize("data, words", [
    ({"pins": {"green": "x"}}, r"\[pins\] green must be a GPIO number"),
    ({"camera": {"fps": 3}}, r"\[camera\] unknown key 'fps'"),
    ({"mqtt": {"url": "ftp://x"}}, r"\[mqtt\] url"),
    ({"buttons": {"launch": 4}}, r"\[buttons\] 'launch'"),
    ({"pins": {"red": 20}}, "used twice"),
    ({"table": {"id": "a/b"}}, r"\[table\] id"),
    ({"voice": {"lang": "fr"}}, r"\[voice\] lang must be one of"),
])
def test_bad_config_names_the_key(data, words):
    from controller.config import validate

    with pytest.raises(ValueError, match=words):
        validate(data)


def test_layouts_load_and_bad_layout(tmp_path):
    from controller.config import load_layout

    for n in range(2, 7):
        layout = load_layout(f"macao-{n}")
        assert sorted(z["seat"] for z in layout["zones"].values() if "seat" in z) == list(range(n))
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "macao"\ntable_mm = [100, 100]\n[zones.pile]\nrect = [0, 0, 200, 50]\n')
    with pytest.raises(ValueError, match="zone pile"):
        load_layout(str(bad))
    with pytest.raises(ValueError, match="unknown layout"):
        load_layout("chess")


def test_a_malformed_command_is_explained_in_both_languages():
    from controller.commands import CommandError, parse_command
    with pytest.raises(CommandError) as exc:
        parse_command({"cmd": "trump"})
    assert str(exc.value) == "trump: missing field 'suit'"
    assert exc.value.message("ro") == "trump: lipsește câmpul 'suit'"


@pytest.mark.parametrize("payload", [b"[" * 3000, "[" * 3000, '{"cmd": ' * 1000, "x" * 100_000])
def test_deep_or_huge_commands_are_refused_not_crashing(payload):
    # A command from the network that nests deeply (json recursion) or is a
    # huge text must be a CommandError, never an exception that stops the loop.
    with pytest.raises(ValueError, match="nested|too long|not JSON"):
        parse_command(payload)
