"""GPIO buttons at the table, turned into commands (gpiozero Button).

Each button is configured as ``pin -> command`` (BCM pin numbers), e.g.
``{17: {"cmd": "undo"}, 27: {"cmd": "new_game"}}``; a press hands the
command dict to ``on_command`` -- the same path as an MQTT ``cmd`` or the
CLI.  Off the Pi the pins are gpiozero's mock pins (tests press them with
``pin.drive_low()``).
"""

from __future__ import annotations

from typing import Callable

from gpiozero import Button

from .feedback import on_raspberry_pi, use_mock_pins

DEFAULT_BUTTONS = {17: {"cmd": "undo"}, 27: {"cmd": "new_game"}}


class Buttons:
    def __init__(self, mapping: dict[int, dict] | None, on_command: Callable[[dict], None],
                 mock: bool | None = None, bounce_time: float | None = 0.05):
        if mock is None:
            mock = not on_raspberry_pi()
        if mock:
            use_mock_pins()
            bounce_time = None       # mock pins have no bounce
        mapping = DEFAULT_BUTTONS if mapping is None else mapping
        self.buttons: dict[int, Button] = {}
        for pin, command in mapping.items():
            if not isinstance(command, dict) or "cmd" not in command:
                raise ValueError(f"button on pin {pin}: the command must be a table with 'cmd'")
            button = Button(int(pin), pull_up=True, bounce_time=bounce_time)
            button.when_pressed = (lambda cmd=dict(command): on_command(dict(cmd)))
            self.buttons[int(pin)] = button

    def close(self) -> None:
        for b in self.buttons.values():
            b.close()
