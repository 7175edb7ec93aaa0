"""LEDs and buzzer through gpiozero's mock pins; buttons; the serial line protocol."""

import pytest
import serial
from gpiozero import Device

from hardware.buttons import Buttons
from hardware.feedback import PATTERNS, Feedback
from hardware.serial_link import SerialLink, encode_beep, encode_turn, parse_line


@pytest.fixture
def fb():
    f = Feedback(3, pins={"seat_leds": [5, 6, 13], "green": 20, "red": 16, "buzzer": 12},
                 mock=True, quiet_buzzer=True)
    yield f
    f.close()


def pin(n):
    return Device.pin_factory.pin(n)


def test_turn_led_follows_the_seat(fb):
    fb.turn(1)
    assert [pin(p).state for p in (5, 6, 13)] == [0, 1, 0]
    fb.turn(2)
    assert [pin(p).state for p in (5, 6, 13)] == [0, 0, 1]
    fb.turn(None)
    assert [pin(p).state for p in (5, 6, 13)] == [0, 0, 0]


def test_illegal_lights_red_and_plays_a_low_long_tone(fb):
    frequencies = []
    buzzer = pin(12)
    original = type(buzzer)._set_frequency

    def spy(self, value):
        if self is buzzer and value:
            frequencies.append(value)
        original(self, value)

    type(buzzer)._set_frequency = spy
    try:
        fb.good()
        fb.wait()
        assert pin(20).state and not pin(16).state
        fb.illegal()
        fb.wait()
    finally:
        type(buzzer)._set_frequency = original
    assert pin(16).state and not pin(20).state
    assert frequencies == [880.0, 220.0]
    assert PATTERNS["illegal"][0][1] > PATTERNS["good"][0][1] * 5
    assert fb.history == ["good", "illegal"]
    assert not buzzer.frequency            # silent once the pattern is over
    fb.clear()
    assert not pin(16).state


def test_unknown_pattern_is_an_error(fb):
    with pytest.raises(ValueError, match="unknown buzzer pattern"):
        fb.buzz("fanfare")


def test_too_few_seat_pins():
    with pytest.raises(ValueError, match="seat_leds"):
        Feedback(4, pins={"seat_leds": [5, 6]}, mock=True)


def test_buttons_give_commands():
    got = []
    b = Buttons({23: {"cmd": "undo"}, 24: {"cmd": "new_game", "game": "tintar"}}, got.append, mock=True)
    try:
        pin(24).drive_low()
        pin(24).drive_high()
        pin(23).drive_low()
        assert got == [{"cmd": "new_game", "game": "tintar"}, {"cmd": "undo"}]
    finally:
        b.close()


def test_serial_protocol_round_trip_on_loopback():
    link = SerialLink("loop://")
    link.turn(2)
    link.status("R")
    link.beep(220, 0.9)
    lines = [link.readline() for _ in range(3)]
    assert lines == ["T 2", "S R", "B 220 900"]
    assert [parse_line(x) for x in lines] == [("turn", 2), ("status", "R"), ("beep", 220, 900)]
    link.close()


def test_feedback_mirrors_to_the_serial_node():
    link = SerialLink("loop://")
    f = Feedback(2, pins={"seat_leds": [7, 8], "green": 9, "red": 10, "buzzer": 11}, mock=True,
                 serial_link=link, quiet_buzzer=True)
    f.turn(1)
    f.illegal()
    f.close()
    assert link.sent == ["T 1", "S R", "B 220 900"]


@pytest.mark.parametrize("line", ["T 9", "S X", "B 10 100", "B 440", "hello", ""])
def test_bad_serial_lines_are_refused(line):
    with pytest.raises(ValueError):
        parse_line(line)


def test_encoders_check_ranges():
    assert encode_turn(None) == "T -"
    with pytest.raises(ValueError):
        encode_turn(8)
    with pytest.raises(ValueError):
        encode_beep(20000, 0.1)


def test_serial_bad_url():
    with pytest.raises(ValueError, match="cannot open"):
        SerialLink("/dev/does-not-exist-masa")
    assert serial.VERSION


def test_firmware_parses_the_protocol_as_the_pi_does():
    import ast
    from pathlib import Path

    src = (Path(__file__).resolve().parents[2] / "firmware" / "seat_node" / "main.py").read_text()
    tree = ast.parse(src)
    fn = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "parse_line")
    scope = {}
    exec(compile(ast.Module([fn], []), "seat_node", "exec"), scope)
    node_parse = scope["parse_line"]
    for line in ["P", "T 0", "T 7", "T 8", "T -", "S G", "S R", "S C", "S X", "B 220 900", "B 49 10",
                 "B 440 0", "B 440", "X", "", "T  3", "B 5000 5000"]:
        try:
            expected = parse_line(line)
        except ValueError:
            expected = "error"
        try:
            got = node_parse(line)
        except ValueError:
            got = "error"
        assert got == expected, line
