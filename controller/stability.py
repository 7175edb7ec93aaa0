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


def _merge_volatile(scenes: list[dict], volatile: tuple[str, ...]) -> dict:
    """One scene from a run of frames that agree on everything but the
    volatile fields: lists are joined, numbers take their largest value (the
    least certain reading wins)."""
    merged = dict(scenes[-1])
    for name in volatile:
        values = [sc[name] for sc in scenes if name in sc]
        if not values:
            continue
        if all(isinstance(v, list) for v in values):
            merged[name] = sorted({x for v in values for x in v})
        elif all(isinstance(v, (int, float)) for v in values):
            merged[name] = max(values)
    return merged


@dataclass
class Stability:
    """``frames`` frames in a row that agree, with no hand.  The fields in
    ``volatile`` (how sure the reader was of a card, how many cards it could
    not read) may differ from frame to frame without breaking the run: the
    stable scene carries the least certain of them."""

    frames: int = 3
    volatile: tuple[str, ...] = ("unsure", "pile_unread")
    _key: str | None = None
    _count: int = 0
    _run: list = field(default_factory=list)
    _last_stable: str | None = None
    _hand_seen: bool = False
    _zones: list[str] = field(default_factory=list)

    def _stable_key(self, scene: dict) -> str:
        return scene_key({k: v for k, v in scene.items() if k not in self.volatile})

    def __post_init__(self):
        if not isinstance(self.frames, int) or self.frames < 1:
            raise ValueError(f"stability frames must be a positive integer, not {self.frames!r}")

    def reset(self, last_stable: dict | None = None) -> None:
        """Forget the run in progress; ``last_stable`` is the scene the table
        is known to show (after a resume)."""
        self._key, self._count, self._run = None, 0, []
        self._last_stable = None if last_stable is None else self._stable_key(last_stable)
        self._hand_seen = False
        self._zones = []

    def feed(self, obs: Observation, frame: int = 0) -> StableScene | None:
        if obs.hand:
            self._hand_seen = True
            for z in obs.hand_zones:
                if z not in self._zones:
                    self._zones.append(z)
            self._key, self._count, self._run = None, 0, []
            return None
        if obs.scene is None:
            self._key, self._count, self._run = None, 0, []
            return None
        key = self._stable_key(obs.scene)
        if key == self._key:
            self._count += 1
            if self._count <= self.frames:      # a still table for hours keeps only the run it needs
                self._run.append(obs.scene)
        else:
            self._key, self._count, self._run = key, 1, [obs.scene]
        if self._count != self.frames:
            return None
        if key == self._last_stable and not self._hand_seen:
            return None
        scene = _merge_volatile(self._run, self.volatile)
        stable = StableScene(scene, tuple(self._zones), frame, self._hand_seen)
        self._last_stable = key
        self._hand_seen = False
        self._zones = []
        return stable
