"""Masa seat node (MicroPython, e.g. a Raspberry Pi Pico): seat LEDs, status LEDs, buzzer.

Reads the line protocol of hardware/serial_link.py from USB serial (stdin),
one command per line, and answers each with ``OK <line>`` or ``ERR <reason>``:

    P              ping
    T <seat>       light the turn LED of seat 0..7; "T -" all off
    S G|R|C        status LED: green, red, clear
    B <hz> <ms>    buzzer tone, 50..5000 Hz for 1..5000 ms

Pins (GPIO numbers of the board) are in PINS below; see firmware/README.md.
"""

import sys
import time

from machine import PWM, Pin

PINS = {"seats": [2, 3, 4, 5, 6, 7, 8, 9], "green": 10, "red": 11, "buzzer": 15}

seat_leds = [Pin(n, Pin.OUT, value=0) for n in PINS["seats"]]
green = Pin(PINS["green"], Pin.OUT, value=0)
red = Pin(PINS["red"], Pin.OUT, value=0)
buzzer = PWM(Pin(PINS["buzzer"]))
buzzer.duty_u16(0)


def parse_line(line):
    """The same rules as hardware/serial_link.parse_line."""
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
    raise ValueError("bad line")


def do(cmd):
    if cmd[0] == "turn":
        for i, led in enumerate(seat_leds):
            led.value(1 if i == cmd[1] else 0)
    elif cmd[0] == "status":
        green.value(1 if cmd[1] == "G" else 0)
        red.value(1 if cmd[1] == "R" else 0)
    elif cmd[0] == "beep":
        buzzer.freq(cmd[1])
        buzzer.duty_u16(32768)
        time.sleep_ms(cmd[2])
        buzzer.duty_u16(0)


def main():
    while True:
        line = sys.stdin.readline()
        if not line:
            time.sleep_ms(10)
            continue
        try:
            cmd = parse_line(line)
        except ValueError:
            print("ERR bad line " + line.strip())
            continue
        do(cmd)
        print("OK " + line.strip())


main()
