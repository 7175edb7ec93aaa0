"""LEDs and buzzer at the table, through gpiozero.

One LED per seat shows whose turn it is; a green and a red status LED show
the last verdict; a TonalBuzzer plays short patterns: a short high tone for
a good move, a low long one for an illegal move, two middle blips when the
table is unclear.  Pin numbers (BCM) come from config.

Off a Raspberry Pi (or with ``mock=True``) gpiozero's mock pins are used
(``MockFactory(pin_class=MockPWMPin)``), so the same code runs in the demo
and the tests, which read the pins back.  Buzzer patterns play in a
background thread so the loop never waits for them; ``wait()`` joins it.
An optional serial seat node (hardware/serial_link.py) mirrors everything.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from gpiozero import LED, Device, TonalBuzzer
from gpiozero.tones import Tone

# Buzzer patterns: lists of (frequency in Hz or None for silence, seconds).
PATTERNS: dict[str, list[tuple[float | None, float]]] = {
    "good": [(880.0, 0.08)],
    "illegal": [(220.0, 0.9)],
    "unclear": [(440.0, 0.07), (None, 0.07), (440.0, 0.07)],
    "game_over": [(440.0, 0.12), (660.0, 0.12), (880.0, 0.25)],
}

DEFAULT_PINS = {"seat_leds": [5, 6, 13, 19, 26, 21], "green": 20, "red": 16, "buzzer": 12}


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def use_mock_pins() -> None:
    """Point gpiozero at mock pins (with PWM, which TonalBuzzer needs)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    if not isinstance(Device.pin_factory, MockFactory):
        Device.pin_factory = MockFactory(pin_class=MockPWMPin)


# How many recent entries the record of what was done keeps (tests and the log read it).
KEEP = 1000


class Feedback:
    """Seat LEDs, status LEDs and the buzzer of one table."""

    def __init__(self, seats: int, pins: dict | None = None, mock: bool | None = None,
                 serial_link=None, quiet_buzzer: bool = False):
        pins = {**DEFAULT_PINS, **(pins or {})}
        if len(pins["seat_leds"]) < seats:
            raise ValueError(f"pins.seat_leds names {len(pins['seat_leds'])} pins for {seats} seats")
        if mock is None:
            mock = not on_raspberry_pi()
        if mock:
            use_mock_pins()
        self.mock = mock
        self.pins = pins
        self.seats = seats
        self.seat_leds = [LED(p) for p in pins["seat_leds"][:seats]]
        self.green = LED(pins["green"])
        self.red = LED(pins["red"])
        self.buzzer = TonalBuzzer(pins["buzzer"], mid_tone=Tone(440.0), octaves=1)
        self.serial = serial_link
        self.quiet_buzzer = quiet_buzzer
        self.history: list[str] = []          # patterns played, in order
        self._buzz_thread: threading.Thread | None = None
        self._lock = threading.Lock()

    # ----- what the referee says ---------------------------------------------
    def turn(self, seat: int | None) -> None:
        """Light the LED of the seat to move (None: all off)."""
        for i, led in enumerate(self.seat_leds):
            led.value = 1 if i == seat else 0
        if self.serial is not None:
            self.serial.turn(seat)

    def good(self) -> None:
        self.red.off()
        self.green.on()
        self._status("G")
        self.buzz("good")

    def illegal(self) -> None:
        self.green.off()
        self.red.on()
        self._status("R")
        self.buzz("illegal")

    def unclear(self) -> None:
        self.green.off()
        self.red.off()
        self._status("C")
        self.buzz("unclear")

    def clear(self) -> None:
        """The table was put right: the red LED goes out."""
        self.red.off()
        self._status("C")

    def game_over(self) -> None:
        self.turn(None)
        self.buzz("game_over")

    def _status(self, letter: str) -> None:
        if self.serial is not None:
            self.serial.status(letter)

    # ----- buzzer -------------------------------------------------------------
    def buzz(self, pattern: str) -> None:
        """Play a pattern in the background (the previous one finishes first)."""
        if pattern not in PATTERNS:
            raise ValueError(f"unknown buzzer pattern {pattern!r}; patterns: {', '.join(PATTERNS)}")
        self.history.append(pattern)
        del self.history[:-KEEP]  # a long session keeps only the recent patterns
        if self.serial is not None:
            for freq, seconds in PATTERNS[pattern]:
                if freq:
                    self.serial.beep(freq, seconds)
        previous = self._buzz_thread

        def play() -> None:
            if previous is not None:
                previous.join()
            for freq, seconds in PATTERNS[pattern]:
                with self._lock:
                    if freq is None:
                        self.buzzer.stop()
                    else:
                        self.buzzer.play(Tone(freq))
                if not self.quiet_buzzer:
                    time.sleep(seconds)
            with self._lock:
                self.buzzer.stop()

        self._buzz_thread = threading.Thread(target=play, name="masa-buzzer", daemon=True)
        self._buzz_thread.start()

    def wait(self, timeout: float = 5.0) -> None:
        if self._buzz_thread is not None:
            self._buzz_thread.join(timeout)

    def snapshot(self) -> dict:
        """What the LEDs show now (for logs and tests)."""
        return {"turn": [i for i, led in enumerate(self.seat_leds) if led.value],
                "green": bool(self.green.value), "red": bool(self.red.value)}

    def close(self) -> None:
        self.wait()
        for dev in [*self.seat_leds, self.green, self.red, self.buzzer]:
            dev.close()
