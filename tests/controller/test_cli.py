"""The `masa` dispatcher: help, unknown commands, exit codes."""

from controller.cli import commands, main


def test_help_lists_every_command(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("engine", "bench"):
        assert name in out
    assert set(commands()) >= {"engine", "bench"}


def test_no_command_prints_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "commands:" in capsys.readouterr().out


def test_unknown_command_is_exit_2_with_the_list(capsys):
    assert main(["fly"]) == 2
    assert "unknown command 'fly'" in capsys.readouterr().err
