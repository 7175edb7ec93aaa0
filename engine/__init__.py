"""Masa's rules engine: pure rules, no I/O, standard library only.

The API follows python-chess (see ARCHITECTURE.md, contract 1)::

    from engine import create_game, list_games, load_game, IllegalMove
    g = create_game("macao", players=4, seed=7)
    g.legal_moves(); g.check("2H"); g.play("2H"); g.undo()
    load_game(g.to_json())

Each game lives in a module of its own in this package and registers itself
by subclassing :class:`engine.core.Game` with a non-empty ``id``; the
registry below finds the modules, so adding a game is adding a file.
"""

from __future__ import annotations

import importlib
import json
import pkgutil

from .core import Event, Game, IllegalMove, Move, Verdict, register_messages

__all__ = ["create_game", "list_games", "load_game", "game_class", "replay",
           "Event", "Game", "IllegalMove", "Move", "Verdict", "register_messages"]

# Modules of this package that hold no game.
_NOT_GAMES = {"core", "cards", "tiles", "observed"}

# Every game of the product, with the rule text it comes from; the ones not
# yet written are named in clear errors rather than silently missing.
ALL_GAME_IDS = ["macao", "toci", "rentz", "whist", "tabinet", "66", "kemps", "repezita",
                "trombon", "tarnib", "8-5-3", "filcau", "remi", "rummy", "canasta",
                "table", "tintar"]

_registry: dict[str, type[Game]] | None = None


def _games() -> dict[str, type[Game]]:
    global _registry
    if _registry is None:
        found: dict[str, type[Game]] = {}
        for info in pkgutil.iter_modules(__path__):
            if info.name in _NOT_GAMES or info.name.startswith("_"):
                continue
            module = importlib.import_module(f"{__name__}.{info.name}")
            for value in vars(module).values():
                if (isinstance(value, type) and issubclass(value, Game) and value.id
                        and value.__module__ == module.__name__):
                    found[value.id] = value
        _registry = found
    return _registry


def list_games() -> list[str]:
    """The ids of the games the engine plays, sorted."""
    return sorted(_games())


def game_class(game_id: str) -> type[Game]:
    games = _games()
    if game_id not in games:
        if game_id in ALL_GAME_IDS:
            raise ValueError(f"the rules of {game_id!r} are not in the engine yet; "
                             f"available: {', '.join(sorted(games))}")
        raise ValueError(f"unknown game {game_id!r}; available: {', '.join(sorted(games))}")
    return games[game_id]


def create_game(game_id: str, **kwargs) -> Game:
    """Start a game: ``players``, ``seed`` or ``deal``, ``options``,
    ``observed`` and whatever the game's own docstring lists."""
    return game_class(game_id)(**kwargs)


def load_game(text: str) -> Game:
    """Rebuild a game from ``Game.to_json()`` output, exactly."""
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as exc:
        raise ValueError(f"not a saved game: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != "masa-game":
        raise ValueError("not a saved Masa game (no 'format': 'masa-game')")
    if not isinstance(data.get("game"), str):
        raise ValueError("not a saved Masa game: 'game' must name the game")
    return game_class(data["game"]).from_dict(data)


def replay(game_id: str, moves, **kwargs) -> Game:
    """Create a game and play ``moves`` (text or Move, or (text, seat) pairs)."""
    game = create_game(game_id, **kwargs)
    for m in moves:
        if isinstance(m, (tuple, list)):
            game.play(m[0], seat=m[1])
        else:
            game.play(m)
    return game
