"""Stable-scene detection: a scene counts once it has held still with no hand in view.

The reader turns each frame into an :class:`Observation`: the scene (zone ->
sorted items, JSON-able; None when the frame could not be read), whether a
hand is in view and which zones it touches.  :class:`Stability` waits until
the same scene was seen in ``frames`` consecutive frames with no hand, then
hands it on once -- together with the zones the hands visited since the
last stable scene (who reached in, and where).  A scene that settles back
to the last stable one after a hand came and went is handed on too (a
player drew a card: nothing changed on the table, but someone acted).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Observation:
    """What the reader made of one frame."""

    scene: dict | None
    hand: bool = False
    hand_zones: tuple[str, ...] = ()


@dataclass(frozen=True)
class StableScene:
    scene: dict
    hand_zones: tuple[str, ...] = ()   # zones hands visited since the previous stable scene
    frame: int = 0                     # index of the frame that made it stable
    hand_seen: bool = False


def scene_key(scene: dict | None) -> str:
    """A canonical text of a scene, for comparisons and dedupe keys."""
    return json.dumps(scene, sort_keys=True, ensure_ascii=False)


@dataclass
class Stability:
    frames: int = 3
    _key: str | None = None
    _count: int = 0
    _last_stable: str | None = None
    _hand_seen: bool = False
    _zones: list[str] = field(default_factory=list)

    def __post_init__(self):
        if not isinstance(self.frames, int) or self.frames < 1:
            raise ValueError(f"stability frames must be a positive integer, not {self.frames!r}")

    def reset(self, last_stable: dict | None = None) -> None:
        """Forget the run in progress; ``last_stable`` is the scene the table
        is known to show (after a resume)."""
        self._key, self._count = None, 0
        self._last_stable = None if last_stable is None else scene_key(last_stable)
        self._hand_seen = False
        self._zones = []

    def feed(self, obs: Observation, frame: int = 0) -> StableScene | None:
        if obs.hand:
            self._hand_seen = True
            for z in obs.hand_zones:
                if z not in self._zones:
                    self._zones.append(z)
            self._key, self._count = None, 0
            return None
        if obs.scene is None:
            self._key, self._count = None, 0
            return None
        key = scene_key(obs.scene)
        if key == self._key:
            self._count += 1
        else:
            self._key, self._count = key, 1
        if self._count != self.frames:
            return None
        if key == self._last_stable and not self._hand_seen:
            return None
        stable = StableScene(obs.scene, tuple(self._zones), frame, self._hand_seen)
        self._last_stable = key
        self._hand_seen = False
        self._zones = []
        return stable
