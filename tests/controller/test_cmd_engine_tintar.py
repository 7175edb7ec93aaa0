"""`masa engine tintar`: Tintar played and replayed as text through the generic command."""

import io
import json

from controller.cli import main
from engine import load_game


def run(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["engine", "tintar", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_a_mill_and_its_capture_in_english(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["--lang", "en"], "d2\nd6\nd1\nd7\nd3xd6\njson\n")
    assert code == 0
    assert "[1] d3xd6: Legal move." in out and "White took the piece on d6." in out
    assert "2 |   .-------W-------.   |" in out and "Black: in hand 7, on board 1, lost 1" in out
    saved = next(line for line in out.splitlines() if line.startswith('{"format": "masa-game"'))
    assert load_game(saved).board()["d6"] is None


def test_a_point_that_does_not_exist_is_reported_and_changes_nothing(capsys, monkeypatch, tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("d2\nd4\nd6\n")
    code, out, _ = run(capsys, monkeypatch, ["--file", str(moves)])
    assert code == 1
    assert "[2] d4: ILEGAL (no_such_point): Nu există punctul d4 pe tablă." in out
    assert "[2] d6: Mutare corectă." in out and "Negrul a așezat pe d6." in out


def test_a_set_up_position_with_options_plays_to_the_end(capsys, monkeypatch):
    position = {"a1": "white", "a4": "white", "d7": "white", "g1": "black", "g4": "black", "f6": "black"}
    code, out, _ = run(capsys, monkeypatch, ["--set", "position=" + json.dumps(position),
                                             "--option", "lose_below_three=true", "--lang", "en"],
                       "d7-a7xg1\n")
    assert code == 0
    assert "the opponent has fewer than three pieces left, white wins" in out


def test_a_bad_option_is_exit_code_2(capsys, monkeypatch):
    code, _, err = run(capsys, monkeypatch, ["--option", "flying=maybe"])
    assert code == 2 and "flying" in err
