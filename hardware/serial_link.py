"""The serial link to the seat-LED / buzzer node (firmware/seat_node).

A small line protocol, ASCII, one command per line ending in ``\\n``; the
node answers each line with ``OK <line>`` or ``ERR <reason>``:

=================  =========================================================
``P``              ping (answer ``OK P``)
``T <seat>``       light the turn LED of seat 0..7; ``T -`` all off
``S G|R|C``        status: green, red, clear (both off)
``B <hz> <ms>``    buzzer tone, 50..5000 Hz, 1..5000 ms
=================  =========================================================

Any pyserial URL works (``/dev/ttyACM0``, ``loop://`` for tests).  The link
never blocks the loop for long: writes have a timeout and a node that does
not answer is reported, not waited for.
"""

from __future__ import annotations

import serial


def encode_turn(seat: int | None) -> str:
    if seat is None:
        return "T -"
    if not isinstance(seat, int) or not 0 <= seat <= 7:
        raise ValueError(f"serial: seat must be 0..7 or None, not {seat!r}")
    return f"T {seat}"


def encode_status(letter: str) -> str:
    if letter not in ("G", "R", "C"):
        raise ValueError(f"serial: status must be G, R or C, not {letter!r}")
    return f"S {letter}"


def encode_beep(hz: float, seconds: float) -> str:
    hz, ms = int(round(hz)), int(round(seconds * 1000))
    if not 50 <= hz <= 5000 or not 1 <= ms <= 5000:
        raise ValueError(f"serial: a beep is 50..5000 Hz for 1..5000 ms, not {hz} Hz {ms} ms")
    return f"B {hz} {ms}"


def parse_line(line: str) -> tuple:
    """What the node does with a line: ("turn", seat|None), ("status", c),
    ("beep", hz, ms), ("ping",); ValueError for anything else.  The same
    rules are in firmware/seat_node/main.py."""
    parts = line.strip().split()
    if parts == ["P"]:
        return ("ping",)
    if len(parts) == 2 and parts[0] == "T":
        if parts[1] == "-":
            return ("turn", None)
        if parts[1].isdigit() and int(parts[1]) <= 7:
            return ("turn", int(parts[1]))
    if len(parts) == 2 and parts[0] == "S" and parts[1] in ("G", "R", "C"):
        return ("status", parts[1])
    if len(parts) == 3 and parts[0] == "B" and parts[1].isdigit() and parts[2].isdigit():
        hz, ms = int(parts[1]), int(parts[2])
        if 50 <= hz <= 5000 and 1 <= ms <= 5000:
            return ("beep", hz, ms)
    raise ValueError(f"bad line {line.strip()!r}")


# How many recent entries the record of what was done keeps (tests and the log read it).
KEEP = 1000


class SerialLink:
    """Sends the protocol's lines to the node at ``url``."""

    def __init__(self, url: str, baudrate: int = 115200, timeout: float = 0.2):
        try:
            self.port = serial.serial_for_url(url, baudrate=baudrate, timeout=timeout,
                                              write_timeout=timeout)
        except (serial.SerialException, ValueError) as exc:
            raise ValueError(f"serial: cannot open {url!r}: {exc}") from None
        self.url = url
        self.sent: list[str] = []
        self.errors: list[str] = []

    def send(self, line: str) -> None:
        try:
            self.port.write((line + "\n").encode("ascii"))
            self.sent.append(line)
            del self.sent[:-KEEP]  # a long session keeps only the recent lines
        except serial.SerialException as exc:
            self.errors.append(f"{line}: {exc}")

    def turn(self, seat: int | None) -> None:
        self.send(encode_turn(seat))

    def status(self, letter: str) -> None:
        self.send(encode_status(letter))

    def beep(self, hz: float, seconds: float) -> None:
        self.send(encode_beep(hz, seconds))

    def ping(self) -> bool:
        self.send("P")
        return self.readline() == "OK P"

    def readline(self) -> str:
        return self.port.readline().decode("ascii", "replace").strip()

    def close(self) -> None:
        self.port.close()
