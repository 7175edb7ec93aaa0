"""Play or replay a game as text through the rules engine (any game).

    masa engine list
    masa engine macao --players 4 --seed 7 --lang en          # moves from stdin
    masa engine macao --players 3 --file moves.txt --show     # replay a file
    masa engine table --set position_id=4HPwATDgc/ABMA        # a game's own settings
    masa engine macao --random 50                             # a random demo

One move per line in the game's notation (see its docstring).  ``@N move``
gives the seat (1-based) explicitly.  Commands: ``undo``, ``moves`` (the
legal moves), ``board``, ``json`` (the saved game), ``quit``.  Blank lines
and text after ``#`` are ignored.  Each move prints the verdict in the
chosen language and what happened.

Exit codes: 0 done; 1 a replayed file or piped input held an illegal move
(reported, then the replay went on); 2 bad arguments (unknown game, bad
option or deal).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from engine import IllegalMove, create_game, game_class, list_games, load_game

TEXT = {
    "ro": {"illegal": "ILEGAL", "unsure": "acceptat, neverificabil", "over": "Jocul s-a terminat.",
           "result": "Rezultat", "no_moves": "nicio mutare legală", "undone": "anulat",
           "nothing_to_undo": "nu este nimic de anulat", "prompt": "mutare> ", "moves": "Mutări legale",
           "bad_seat": "locul se scrie @N, cu N de la 1 la {n}"},
    "en": {"illegal": "ILLEGAL", "unsure": "accepted, cannot be checked yet", "over": "The game is over.",
           "result": "Result", "no_moves": "no legal move", "undone": "undone",
           "nothing_to_undo": "nothing to undo", "prompt": "move> ", "moves": "Legal moves",
           "bad_seat": "write the seat as @N, N from 1 to {n}"},
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="a game id (see 'masa engine list'), or 'list'")
    p.add_argument("--players", type=int, default=None, help="number of players")
    p.add_argument("--seed", type=int, default=None, help="seed of the shuffle (default: random)")
    p.add_argument("--lang", choices=("ro", "en"), default="ro", help="language of the verdicts")
    p.add_argument("--file", default=None, help="read the moves from this file instead of stdin")
    p.add_argument("--observed", action="store_true", help="hands hidden, as the camera sees the table")
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="a rule option of the game (repeatable)")
    p.add_argument("--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
                   help="a setting the game takes at creation, e.g. position_id=... (repeatable)")
    p.add_argument("--deal", default=None, help="the deal as JSON text, or a JSON file")
    p.add_argument("--load", default=None, help="continue a saved game (the output of 'json')")
    p.add_argument("--show", action="store_true", help="print the board after every move")
    p.add_argument("--random", type=int, default=0, metavar="N", help="play N random legal moves")


def parse_value(text: str):
    """An option value from the command line: JSON (true, 3, "x") or plain text."""
    lowered = text.strip().lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_pairs(pairs: list[str], what: str) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"{what} must be KEY=VALUE, not {pair!r}")
        out[key.strip()] = parse_value(value)
    return out


def _read_deal(text: str) -> dict:
    path = Path(text)
    source = text
    if not text.lstrip().startswith("{") and path.exists():
        try:
            source = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ValueError(f"cannot read the deal {text}: {exc.strerror}") from None
    try:
        deal = json.loads(source)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--deal is neither a JSON object nor a JSON file: {exc}") from None
    if not isinstance(deal, dict):
        raise ValueError("--deal must be a JSON object")
    return deal


def build_game(args):
    """The game the arguments describe; ValueError with a clear message otherwise."""
    if args.load:
        try:
            game = load_game(Path(args.load).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ValueError(f"cannot read {args.load}: {exc.strerror}") from None
        if game.id != args.game:
            raise ValueError(f"{args.load} holds a game of {game.id}, not {args.game}")
        return game
    game_class(args.game)             # unknown game -> ValueError naming the available ones
    kwargs = parse_pairs(args.settings, "--set")
    if args.players is not None:
        kwargs["players"] = args.players
    if args.seed is not None:
        kwargs["seed"] = args.seed
    options = parse_pairs(args.option, "--option")
    if options:
        kwargs["options"] = options
    if args.observed:
        kwargs["observed"] = True
    if args.deal:
        kwargs["deal"] = _read_deal(args.deal)
    try:
        return create_game(args.game, **kwargs)
    except TypeError as exc:            # a --set the game does not take
        raise ValueError(f"{args.game}: {exc}") from None


def print_events(events, lang: str) -> None:
    for e in events:
        text = e.message(lang)
        if text != "event_" + e.kind:  # the game has a sentence for it
            print(f"  {text}")
        else:
            data = " ".join(f"{k}={v}" for k, v in e.data.items())
            seat = f" seat {e.seat + 1}" if isinstance(e.seat, int) else ""
            print(f"  {e.kind}{seat} {data}".rstrip())


def print_result(game, lang: str) -> None:
    print(TEXT[lang]["over"])
    print(f"{TEXT[lang]['result']}: {json.dumps(game.result(), ensure_ascii=False, sort_keys=True)}")


class Session:
    """Feeds lines to a game and prints what happens."""

    def __init__(self, game, lang: str, show: bool):
        self.game = game
        self.lang = lang
        self.show = show
        self.illegal = 0

    def line(self, raw: str) -> bool:
        """Handle one line; False when the session should stop."""
        text = raw.split("#", 1)[0].strip()
        if not text:
            return True
        g, lang, t = self.game, self.lang, TEXT[self.lang]
        word = text.lower()
        if word in ("quit", "exit", "q"):
            return False
        if word == "board":
            print(g.render(lang))
            return True
        if word == "json":
            print(g.to_json())
            return True
        if word == "moves":
            moves = [str(m) for m in g.legal_moves()]
            print(f"{t['moves']}: {', '.join(moves) if moves else t['no_moves']}")
            return True
        if word == "undo":
            try:
                move = g.undo()
                print(f"{t['undone']}: {move}")
            except ValueError:
                print(t["nothing_to_undo"])
            return True
        seat = None
        if text.startswith("@"):
            head, _, rest = text.partition(" ")
            if not head[1:].isdigit() or not 1 <= int(head[1:]) <= g.players or not rest.strip():
                self.report_illegal(text, t["bad_seat"].format(n=g.players))
                return True
            seat, text = int(head[1:]) - 1, rest.strip()
        self.play(text, seat)
        return True

    def report_illegal(self, text: str, message: str, code: str = "bad_input") -> None:
        self.illegal += 1
        print(f"{text}: {TEXT[self.lang]['illegal']} ({code}): {message}")

    def play(self, text, seat=None) -> None:
        g, lang = self.game, self.lang
        was_over = g.is_over
        mover = seat if seat is not None else g.to_move
        verdict = g.check(text, seat=seat)
        if not verdict.ok:
            self.report_illegal(f"[{mover + 1}] {text}", verdict.message(lang), verdict.code)
            return
        try:
            events = g.play(text, seat=seat)
        except IllegalMove as exc:       # check and play disagree: report, never crash
            self.report_illegal(f"[{mover + 1}] {text}", exc.message(lang), exc.verdict.code)
            return
        made = g.moves[-1]
        note = "" if verdict.sure else f" ({TEXT[lang]['unsure']})"
        print(f"[{(made.seat if made.seat is not None else mover) + 1}] {made}: {verdict.message(lang)}{note}")
        print_events(events, lang)
        if self.show:
            print(g.render(lang))
        if g.is_over and not was_over:
            print_result(g, lang)


def main(args) -> int:
    if args.game == "list":
        for gid in list_games():
            cls = game_class(gid)
            title = cls.title.get(args.lang) or cls.title.get("en") or gid
            print(f"{gid:10s} {title} ({cls.min_players}-{cls.max_players})")
        return 0
    try:
        game = build_game(args)
    except ValueError as exc:
        print(f"masa engine: {exc}", file=sys.stderr)
        return 2
    if args.random < 0:
        print("masa engine: --random needs a count of 0 or more", file=sys.stderr)
        return 2
    session = Session(game, args.lang, args.show)
    print(game.render(args.lang))
    interactive = False
    if args.file:
        try:
            lines = Path(args.file).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            print(f"masa engine: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
            return 2
    elif args.random:
        lines = []
    else:
        interactive = sys.stdin.isatty()
        lines = None
    if lines is not None:
        for raw in lines:
            if not session.line(raw):
                break
    else:
        prompt = TEXT[args.lang]["prompt"]
        while True:
            try:
                raw = input(prompt) if interactive else sys.stdin.readline()
            except EOFError:
                break
            if not interactive and raw == "":
                break
            if not session.line(raw):
                break
    if args.random:
        rng = random.Random(args.seed if args.seed is not None else 0)
        for _ in range(args.random):
            moves = game.legal_moves()
            if game.is_over or not moves:
                break
            session.play(str(rng.choice(moves)))
    if not args.show and (args.random or not interactive):
        print(game.render(args.lang))
    return 1 if session.illegal and not interactive else 0
