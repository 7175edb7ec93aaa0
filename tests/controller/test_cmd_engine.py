"""`masa engine`: play or replay any game as text, through controller.cli.main."""

import io
import json

import pytest

from controller.cli import main
from engine import load_game

DEAL = {"hands": [["7S", "JH"], ["9S", "8S"], ["6D", "QC"]], "starter": "7H", "stock": ["KC", "QD", "5H"]}


def run(capsys, monkeypatch, argv, stdin=""):
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(["engine", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def macao_args(*extra):
    return ["macao", "--players", "3", "--deal", json.dumps(DEAL), "--lang", "en", *extra]


def test_list_names_the_games(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["list"])
    assert code == 0 and "macao" in out and "(2-6)" in out


def test_replay_from_a_file_prints_verdicts_and_events(capsys, monkeypatch, tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("7S   # seat 1\n\n9S\ndraw\npass\n")
    code, out, _ = run(capsys, monkeypatch, macao_args("--file", str(moves)))
    assert code == 0
    assert "[1] 7S: Legal move." in out and "Player 1 put down seven of spades." in out
    assert "[3] draw: Legal move." in out and "Player 3 passed." in out


def test_an_illegal_move_in_a_file_is_reported_and_the_replay_goes_on(capsys, monkeypatch, tmp_path):
    moves = tmp_path / "moves.txt"
    moves.write_text("QC\n7S\n")
    code, out, _ = run(capsys, monkeypatch, macao_args("--file", str(moves)))
    assert code == 1
    assert "[1] QC: ILLEGAL (not_in_hand)" in out and "[1] 7S: Legal move." in out


def test_romanian_verdicts(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["macao", "--players", "3", "--deal", json.dumps(DEAL)], "JH\n9S\ndraw\n")
    assert code == 1
    assert "[2] 9S: ILEGAL (wrong_suit_or_rank)" in out and "[1] JH: Mutare corectă." in out
    assert "Jucătorul 1 a pus valet de inimă roșie." in out and "Jucătorul 2 a tras 1 carte." in out


def test_seat_given_explicitly_and_commands(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, macao_args(), "JH\n@1 ask 7\nmoves\nundo\nundo\nundo\nboard\njson\nquit\n7S\n")
    assert code == 0
    assert "[1] ask 7: Legal move." in out and "Player 1 asks for seven." in out
    assert "Legal moves: draw" in out          # player 2 holds no 7 and no jack
    assert "undone: ask 7" in out and "undone: JH" in out and "nothing to undo" in out
    saved = [line for line in out.splitlines() if line.startswith('{"format": "masa-game"')]
    assert saved and load_game(saved[0]).moves == []
    assert "[1] 7S" not in out                 # quit stops reading


def test_a_bad_seat_is_reported(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, macao_args(), "@9 7S\n@x\n")
    assert code == 1 and out.count("ILLEGAL (bad_input)") == 2


def test_random_moves_play_a_demo_to_the_end(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, ["macao", "--players", "2", "--seed", "3", "--random", "2000",
                                              "--lang", "en"])
    assert code == 0 and "The game is over." in out and '"loser"' in out


def test_observed_mode_and_show(capsys, monkeypatch):
    deal = json.dumps({"starter": "7H", "hand_sizes": [5, 5]})
    code, out, _ = run(capsys, monkeypatch, ["macao", "--observed", "--deal", deal, "--show", "--lang", "en"],
                       "QH\ndraw\nQS\n5C\n")
    assert code == 1
    assert "[1] QH: Legal move." in out and "player 1:  4" in out
    assert "[2] QS: Legal move. (accepted, cannot be checked yet)" in out
    assert "[1] 5C: ILLEGAL (wrong_suit_or_rank)" in out


def test_options_reach_the_game(capsys, monkeypatch):
    code, out, _ = run(capsys, monkeypatch, macao_args("--option", "draw_when_able=false"), "draw\n")
    assert code == 1 and "must_play_if_able" in out


@pytest.mark.parametrize("argv,message", [
    (["nosuchgame"], "unknown game"),
    (["macao", "--option", "end_rule=never"], "end_rule"),
    (["macao", "--option", "nonsense"], "KEY=VALUE"),
    (["macao", "--option", "colour=red"], "unknown option"),
    (["macao", "--players", "9"], "2 to 6 players"),
    (["macao", "--set", "position_id=x"], "position_id"),
    (["macao", "--deal", "{not json"], "JSON"),
    (["macao", "--file", "/nonexistent/moves.txt"], "cannot read"),
    (["macao", "--deal", "/"], "cannot read the deal"),
])
def test_bad_arguments_exit_2_with_a_clear_message(capsys, monkeypatch, argv, message):
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2 and message in err


def test_load_a_saved_game(capsys, monkeypatch, tmp_path):
    code, out, _ = run(capsys, monkeypatch, macao_args(), "7S\njson\n")
    saved = [line for line in out.splitlines() if line.startswith('{"format"')][0]
    path = tmp_path / "game.json"
    path.write_text(saved)
    code, out, _ = run(capsys, monkeypatch, ["macao", "--load", str(path), "--lang", "en"], "9S\n")
    assert code == 0 and "[2] 9S: Legal move." in out
    code, _, err = run(capsys, monkeypatch, ["tintar", "--load", str(path)])
    assert code == 2 and "holds a game of macao" in err
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"format": "masa-game", "game": "macao"}')
    code, _, err = run(capsys, monkeypatch, ["macao", "--load", str(damaged)])
    assert code == 2 and "not a saved" in err


@pytest.mark.parametrize("game", ["tintar", "table"])
def test_the_command_is_generic(capsys, monkeypatch, game):
    """Any registered game plays through the same command (here a few random moves)."""
    code, out, err = run(capsys, monkeypatch, [game, "--seed", "1", "--random", "3", "--lang", "en"])
    if code == 2 and "not in the engine" in err:
        pytest.skip(f"{game} is not in the engine in this tree")
    assert code == 0 and out.count("[") >= 1
