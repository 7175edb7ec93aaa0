"""The Referee: frame -> vision -> stable scene -> move -> engine -> feedback, journal, MQTT.

``Referee.step(frame)`` runs one frame through the whole loop:

1. the scene reader turns the frame into an Observation (scene + hand);
2. :class:`controller.stability.Stability` waits for a still table;
3. :func:`controller.infer.infer` compares it with the reference scene (the
   table as the game last accepted it) and gives a move, Unclear or nothing;
4. the engine checks the move (Contract 1): a legal one is played, the LEDs
   and buzzer say so, the journal and MQTT get it; an illegal one lights the
   red LED, plays the low tone and the voice says why, once per table state,
   and the table must be put right (the reference does not move); an unsure
   verdict or an unclear change never flags anything: the voice asks the
   players to put the table right.

Commands (MQTT ``cmd``, GPIO buttons, the CLI) go into ``commands`` and are
handled between frames through the same check/play path; a malformed one
gets an ``error`` event and changes nothing.

Every event carries a sequence number; each change is journaled together
with a snapshot in one transaction, so ``Referee.resume()`` after a kill -9
continues exactly where the game was.
"""

from __future__ import annotations

import queue
import time
from typing import Callable

from engine import IllegalMove, create_game, load_game
from controller.commands import parse_command
from controller.infer import Inferred, NoChange, Unclear, infer, unclear_message
from controller.stability import Observation, Stability, StableScene, scene_key
from hardware.camera import EndOfFrames, Resilient

WORDS = {
    "illegal": {"ro": "Mutare ilegală: ", "en": "Illegal move: "},
    "put_right": {"ro": "Masa e din nou în ordine.", "en": "The table is right again."},
    "camera_lost": {"ro": "Camera nu mai trimite imagini; aștept.", "en": "The camera stopped; waiting."},
    "camera_back": {"ro": "Camera merge din nou.", "en": "The camera is back."},
    "show_starter": {"ro": "Puneți cartea de început pe mijlocul mesei.",
                     "en": "Put the starting card in the middle of the table."},
    "game_over": {"ro": "Joc terminat.", "en": "Game over."},
    "new_game": {"ro": "Joc nou.", "en": "New game."},
    "player": {"ro": "Jucătorul", "en": "Player"},
    "cards": {"ro": "cărți", "en": "cards"},
    "pieces": {"ro": "piese", "en": "pieces"},
    "to_move": {"ro": "La mutare", "en": "To move"},
    "command_refused": {"ro": "Comandă respinsă: ", "en": "Command refused: "},
}


def word(key: str, lang: str) -> str:
    return WORDS[key][lang]


class Referee:
    """One table's referee; see the module docstring."""

    def __init__(self, kind: str, players: int, *, reader: Callable, journal, layout: dict | None = None,
                 publisher=None, feedback=None, voice=None, lang: str = "ro", stability_frames: int = 3,
                 options: dict | None = None, seat_names: list[str] | None = None, log=print,
                 hand_size: int = 5):
        if kind not in ("macao", "tintar"):
            raise ValueError(f"the live loop referees macao and tintar; not {kind!r}")
        if lang not in ("ro", "en"):
            raise ValueError(f"lang must be ro or en, not {lang!r}")
        self.kind = kind
        self.players = 2 if kind == "tintar" else players
        self.reader = reader
        self.journal = journal
        self.layout = layout
        self.publisher = publisher
        self.feedback = feedback
        self.voice = voice
        self.lang = lang
        self.options = dict(options or {})
        self.hand_size = hand_size
        self.log = log or (lambda *a, **k: None)
        self.stability = Stability(stability_frames)
        self.commands: queue.Queue = queue.Queue()
        self.names = list(seat_names or [])
        self.game = None
        self.reference: dict | None = None
        self.refs: list[dict] = []
        self.seq = 0
        self.game_no = 1
        self.frame = 0
        self.flag_key: str | None = None
        # After an unclear change the referee is not sure what the table
        # holds (a move it could not read?): until the table is settled
        # again, nothing is flagged illegal.
        self.table_unclear = False
        self.last_verdict: dict | None = None
        self._pending: list[tuple[str, dict]] = []   # journal rows waiting for the next write
        self.bad_frame: str | None = None  # the last bad-frame message, said once
        self.timings: list[dict] = []      # per stable scene: when it settled, judged, published
        self.check_options(kind, self.players, self.options, hand_size)
        if self.kind == "tintar":
            self.game = create_game("tintar", options=self.options or None)

    @staticmethod
    def check_options(kind: str, players: int, options: dict | None, hand_size: int = 5) -> None:
        """ValueError now for game options the engine refuses, rather than
        at the first stable scene, in the middle of the loop."""
        if kind == "macao":
            create_game("macao", players=players, observed=True, options=options or None,
                        deal={"hand_sizes": [hand_size] * players, "starter": "7H"})
        else:
            create_game(kind, options=options or None)

    # ----- names and words ----------------------------------------------------
    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        if seat < len(self.names):
            return self.names[seat]
        if self.kind == "tintar":
            return ("alb", "negru")[seat] if self.lang == "ro" else ("white", "black")[seat]
        return f"{word('player', self.lang)} {seat + 1}"

    # ----- publishing -----------------------------------------------------------
    def _snapshot(self) -> dict:
        return {"kind_of_game": self.kind, "players": self.players,
                "game": self.game.to_json() if self.game is not None else None,
                "reference": self.reference, "refs": self.refs, "seq": self.seq, "game_no": self.game_no,
                "names": self.names, "frame": self.frame, "flag_key": self.flag_key,
                "table_unclear": self.table_unclear, "last_verdict": self.last_verdict}

    def _emit(self, events: list[dict], entries: list[tuple[str, dict]] = (), snapshot: bool = False) -> None:
        """Number the events, journal them (with a snapshot) in one
        transaction, then publish them and the state."""
        now = time.time()
        numbered = []
        for e in events:
            self.seq += 1
            numbered.append({"seq": self.seq, "ts": round(now, 3), "game_no": self.game_no, **e})
        rows = self._pending + list(entries) + [("event", e) for e in numbered]
        self._pending = []
        if snapshot:
            rows.append(("snapshot", self._snapshot()))
        if rows:
            self.journal.write(*rows)
        if self.publisher is not None:
            for e in numbered:
                self.publisher.publish_event(e)
            if snapshot or numbered:
                self.publisher.publish_state(self.state())
                self.publisher.publish_scoreboard(self.scoreboard())

    def state(self) -> dict:
        g = self.game
        engine_state = g.state() if g is not None else None
        return {"game": self.kind, "game_no": self.game_no, "players": self.players,
                "seats": [self.seat_name(s) for s in range(self.players)],
                "scores": g.scores() if g is not None else None,
                "to_move": g.to_move if g is not None and not g.is_over else None,
                "phase": ("waiting" if g is None else "over" if g.is_over
                          else "put_right" if self.flag_key else "play"),
                "last_verdict": self.last_verdict, "seq": self.seq, "engine": engine_state}

    def scoreboard(self) -> dict:
        g = self.game
        lines = []
        if g is not None:
            unit = word("pieces" if self.kind == "tintar" else "cards", self.lang)
            scores = g.scores() if self.kind == "macao" else g.state().get("on_board", g.scores())
            for s in range(self.players):
                mark = ">" if (not g.is_over and g.to_move == s) else " "
                lines.append(f"{mark}{self.seat_name(s)}: {scores[s]} {unit}")
            if g.is_over:
                lines.append(word("game_over", self.lang))
        return {"game": self.kind, "game_no": self.game_no, "lines": lines}

    def say(self, text: str, key=None) -> None:
        if self.voice is not None:
            self.voice.say(text, key=key)

    # ----- the loop -----------------------------------------------------------------
    def step(self, frame, index: int | None = None) -> None:
        """One frame through the loop (then any waiting command)."""
        self.frame = index if index is not None else self.frame + 1
        try:
            obs = self.reader(frame)
        except ValueError as exc:
            # A frame the reader cannot take (None, wrong type or shape): an
            # unreadable frame, said once until a good frame comes.
            if self.bad_frame != str(exc):
                self.bad_frame = str(exc)
                self.log(f"[{self.frame:05d}] {'cadru de nefolosit' if self.lang == 'ro' else 'bad frame'}: {exc}")
            obs = Observation(None)
        else:
            self.bad_frame = None
        stable = self.stability.feed(obs, self.frame)
        if stable is not None:
            self.on_stable(stable)
        self.drain_commands()

    def run(self, source, max_frames: int | None = None, stop_when_over: bool = False,
            idle: Callable[[], None] | None = None) -> None:
        """Pull frames from ``source`` (a FrameSource or Resilient) until it ends."""
        if not isinstance(source, Resilient):
            source = Resilient(source, on_status=self.on_camera)
        n = 0
        while max_frames is None or n < max_frames:
            try:
                frame = source.read()
            except EndOfFrames:
                break
            if frame is None:
                self.drain_commands()
                if idle is not None:
                    idle()
                continue
            n += 1
            self.step(frame, source.index)
            if stop_when_over and self.game is not None and self.game.is_over:
                break

    def on_camera(self, status: str, detail: str) -> None:
        key = "camera_lost" if status == "lost" else "camera_back"
        self.log(f"  camera: {status} ({detail})")
        self.say(word(key, self.lang), key=("camera", status))
        self._emit([{"kind": "camera", "status": status, "detail": detail}])

    # ----- stable scenes -------------------------------------------------------------
    def on_stable(self, st: StableScene) -> None:
        # The scene goes into the journal in the same transaction as what it
        # leads to (one synced write per stable scene, not two), or alone.
        self._pending = [("scene", {"scene": st.scene, "frame": st.frame, "hand_zones": list(st.hand_zones)})]
        try:
            self._on_stable(st)
        finally:
            if self._pending:
                self.journal.write(*self._pending)
                self._pending = []

    def _on_stable(self, st: StableScene) -> None:
        t_stable = time.perf_counter()
        if self.game is None:
            self._start_macao(st)
            return
        if self.game.is_over:
            return          # the cards are being gathered: nothing to judge until a new game
        if self.reference is None:
            self.reference = st.scene
            self.log(f"[{self.frame:05d}] {'joc nou' if self.lang == 'ro' else 'new game'}: {self.kind}")
            self._emit([{"kind": "game_start", "game": self.kind, "players": self.players}], snapshot=True)
            self._turn_led()
            return
        result = infer(self.game, self.kind, self.reference, st.scene, st.hand_zones, self.layout)
        if isinstance(result, NoChange):
            if self.flag_key is not None and result.settled:
                self._put_right()
            return
        if isinstance(result, Unclear):
            self._unclear(result.code, result.args, st)
            return
        self._judge(result, st, t_stable)

    def _start_macao(self, st: StableScene) -> None:
        pile = st.scene.get("pile", [])
        if len(pile) != 1 or st.scene.get("pile_unread", 0) or st.scene.get("unsure"):
            self.say(word("show_starter", self.lang), key=("starter", scene_key(st.scene)))
            return
        deal = {"hand_sizes": [self.hand_size] * self.players, "starter": pile[0]}
        self.game = create_game("macao", players=self.players, observed=True, deal=deal,
                                options=self.options or None)
        self.reference = st.scene
        self.refs = []
        self.log(f"[{self.frame:05d}] {'joc nou' if self.lang == 'ro' else 'new game'}: macao, "
                 f"{self.players} {'jucători' if self.lang == 'ro' else 'players'}, "
                 f"{'prima carte' if self.lang == 'ro' else 'starter'} {pile[0]}")
        self._emit([{"kind": "game_start", "game": self.kind, "players": self.players, "starter": pile[0]}],
                   snapshot=True)
        self._turn_led()

    def _turn_led(self) -> None:
        if self.feedback is not None and self.game is not None:
            self.feedback.turn(None if self.game.is_over else self.game.to_move)

    def _judge(self, result: Inferred, st: StableScene, t_stable: float) -> None:
        g = self.game
        seat = result.seat
        if seat is not None and seat != g.to_move and g.check("pass").ok:
            # The player before drew and did not say "pass" aloud: the camera
            # sees the next player act, so the pass is implied.
            trial = g.copy()
            trial.play("pass")
            if any(trial.check(t, seat=seat).ok for t in result.candidates):
                self._play("pass", g.to_move, g.check("pass"), st, new_reference=False)
        chosen, verdict = None, None
        for text in result.candidates:
            v = g.check(text, seat=seat)
            if verdict is None:
                chosen, verdict = text, v
            if v.ok:
                chosen, verdict = text, v
                break
        acting = seat if seat is not None else g.to_move
        t_verdict = time.perf_counter()
        if verdict.ok:
            self._play(chosen, acting, verdict, st)
        elif not verdict.sure:
            self._unclear(verdict.code, dict(verdict.args), st, engine_message=verdict)
        elif not result.sure:
            # The engine would flag it, but the camera is not sure of the card.
            self._unclear("unsure_card", {"cards": chosen}, st)
        elif self.table_unclear:
            self._unclear("table_unclear", {}, st)
        else:
            self._illegal(chosen, acting, verdict, st)
        self.timings.append({"frame": st.frame, "stable": t_stable, "verdict": t_verdict,
                             "published": time.perf_counter()})
        del self.timings[:-1000]  # the benchmark reads the recent ones

    def _play(self, text: str, seat: int, verdict, st: StableScene, new_reference: bool = True) -> None:
        g = self.game
        try:
            engine_events = g.play(text, seat=seat)
        except IllegalMove as exc:  # check said yes: this cannot differ, but never crash the table
            self._illegal(text, seat, exc.verdict, st)
            return
        was_flagged = self.flag_key is not None
        self.flag_key = None
        self.table_unclear = False
        self.refs.append(self.reference)
        if new_reference:
            self.reference = st.scene
        events = self._played(f"[{st.frame:05d}] {self.seat_name(seat)}", text, seat, verdict, engine_events)
        events.append({"kind": "score", "scores": g.scores()})
        if g.is_over:
            events.append({"kind": "game_over", "result": g.result()})
        self._emit(events, [("move", {"move": text, "seat": seat, "frame": st.frame}),
                            ("verdict", {"move": text, "seat": seat, **verdict.to_dict()})], snapshot=True)
        if self.feedback is not None:
            if was_flagged:
                self.feedback.clear()
            self.feedback.good()
        if self.voice is not None:
            self.voice.forget()
        self._turn_led()
        if g.is_over:
            if self.feedback is not None:
                self.feedback.game_over()
            self.say(self._game_over_text(), key=("over", self.game_no))
            self.log(f"          {self._game_over_text()}")

    def _played(self, who: str, text: str, seat: int, verdict, engine_events, **extra) -> list[dict]:
        """A legal move was played (from the table or a command): remember
        it, log it with the engine's sentences, and give its events."""
        self.last_verdict = {"ok": True, "move": text, "seat": seat}
        events = [{"kind": "move", "seat": seat, "move": text, "verdict": verdict.to_dict(), **extra}]
        self.log(f"{who}: {text}  ->  {'corect' if self.lang == 'ro' else 'legal'}")
        for ev in engine_events:
            events.append({"kind": "engine", "event": ev.to_dict(), "ro": ev.message("ro"), "en": ev.message("en")})
            msg = ev.message(self.lang)
            if msg and not msg.startswith("event_"):
                self.log(f"          {msg}")
        return events

    def _game_over_text(self) -> str:
        g = self.game
        if self.kind == "macao":
            losers = g.result().get("losers", [])
            who = ", ".join(self.seat_name(s) for s in losers)
            return f"{word('game_over', self.lang)} " + (
                (f"Pierde {who}." if self.lang == "ro" else f"{who} loses.") if who else "")
        return word("game_over", self.lang) + " " + g.render(self.lang).splitlines()[0]

    def _illegal(self, text: str, seat: int, verdict, st: StableScene) -> None:
        key = scene_key({"flag": verdict.code, "move": text, "scene": st.scene})
        if key == self.flag_key:
            return          # the same flag, the table unchanged: said once
        self.flag_key = key
        spoken = word("illegal", self.lang) + verdict.message(self.lang)
        self.last_verdict = {"ok": False, "move": text, "seat": seat, "code": verdict.code}
        self.log(f"[{st.frame:05d}] {self.seat_name(seat)}: {text}  ->  "
                 f"{'ILEGAL' if self.lang == 'ro' else 'ILLEGAL'}: {verdict.message(self.lang)}")
        self._emit([{"kind": "illegal", "seat": seat, "move": text, "verdict": verdict.to_dict()}],
                   [("verdict", {"move": text, "seat": seat, **verdict.to_dict()})], snapshot=True)
        if self.feedback is not None:
            self.feedback.illegal()
        self.say(spoken, key=("illegal", key))

    def _unclear(self, code: str, args: dict, st: StableScene, engine_message=None) -> None:
        key = scene_key({"unclear": code, "scene": st.scene})
        if key == self.flag_key:
            return
        self.flag_key = key
        self.table_unclear = True
        text = engine_message.message(self.lang) if engine_message is not None else \
            unclear_message(code, args, self.lang)
        both = {lang: (engine_message.message(lang) if engine_message is not None
                       else unclear_message(code, args, lang)) for lang in ("ro", "en")}
        self.log(f"[{st.frame:05d}] {'neclar' if self.lang == 'ro' else 'unclear'}: {text}")
        self._emit([{"kind": "unclear", "code": code, **both}],
                   [("unclear", {"code": code, "args": args, "frame": st.frame})], snapshot=True)
        if self.feedback is not None:
            self.feedback.unclear()
        self.say(text, key=("unclear", key))

    def _put_right(self) -> None:
        self.flag_key = None
        self.table_unclear = False
        self.log(f"[{self.frame:05d}] {word('put_right', self.lang)}")
        self._emit([{"kind": "put_right"}], snapshot=True)
        if self.feedback is not None:
            self.feedback.clear()
        if self.voice is not None:
            self.voice.forget()

    # ----- commands ------------------------------------------------------------------
    def drain_commands(self) -> None:
        while True:
            try:
                payload, source = self.commands.get_nowait()
            except queue.Empty:
                return
            self.handle_command(payload, source)

    def handle_command(self, payload, source: str = "cli") -> bool:
        """Validate and carry out one command; False (and an error event) when
        it is malformed or refused."""
        try:
            cmd = parse_command(payload, source)
        except ValueError as exc:
            raw = payload if isinstance(payload, (dict, list)) else (
                payload.decode("utf-8", "replace") if isinstance(payload, (bytes, bytearray)) else str(payload))
            said = exc.message(self.lang) if hasattr(exc, "message") else str(exc)
            self.log(f"  {word('command_refused', self.lang)}{said}")
            self._emit([{"kind": "error", "source": source, "error": str(exc),
                         "ro": exc.message("ro") if hasattr(exc, "message") else str(exc),
                         "payload": raw if isinstance(raw, (dict, list)) else raw[:200]}],
                       [("command", {"ok": False, "source": source, "error": str(exc)})])
            return False
        entry = ("command", {"ok": True, **cmd.to_dict()})
        if cmd.name == "seat_names":
            if len(cmd.args["names"]) != self.players:
                return self._refuse(cmd, f"seat_names: {self.players} names are needed, "
                                         f"not {len(cmd.args['names'])}")
            self.names = cmd.args["names"]
            self._emit([{"kind": "seat_names", "names": self.names}], [entry], snapshot=True)
            return True
        if cmd.name == "new_game":
            game = cmd.args.get("game", self.kind)
            if game != self.kind:
                return self._refuse(cmd, f"new_game: this table is set up for {self.kind}, not {game}")
            players = cmd.args.get("players", self.players)
            if self.kind == "macao" and not 2 <= players <= 6:
                return self._refuse(cmd, f"new_game: macao is played by 2 to 6, not {players}")
            self.players = players if self.kind == "macao" else 2
            self.game_no += 1
            self.game = create_game("tintar", options=self.options or None) if self.kind == "tintar" else None
            self.reference = None
            self.refs = []
            self.flag_key = None
            self.table_unclear = False
            self.last_verdict = None
            self.stability.reset()
            self.log(f"  {word('new_game', self.lang)} (#{self.game_no})")
            self._emit([{"kind": "new_game", "game": self.kind, "players": self.players}], [entry], snapshot=True)
            self.say(word("new_game", self.lang), key=("new_game", self.game_no))
            if self.feedback is not None:
                self.feedback.clear()
            self._turn_led()
            return True
        if self.game is None:
            return self._refuse(cmd, f"{cmd.name}: no game is running yet")
        if cmd.name == "undo":
            try:
                undone = self.game.undo()
            except ValueError as exc:
                return self._refuse(cmd, f"undo: {exc}")
            self.reference = self.refs.pop() if self.refs else self.reference
            self.flag_key = None
            self.table_unclear = False
            self.stability.reset(self.reference)
            self.log(f"  undo: {undone.text}")
            self._emit([{"kind": "undo", "move": undone.text, "seat": undone.seat}], [entry], snapshot=True)
            self._turn_led()
            return True
        text = cmd.move_text()
        verdict = self.game.check(text, seat=cmd.seat)
        if not verdict.ok:
            spoken = word("command_refused", self.lang) + verdict.message(self.lang)
            self.log(f"  {cmd.name}: {spoken}")
            self._emit([{"kind": "command_refused", "command": cmd.to_dict(), "verdict": verdict.to_dict()}],
                       [entry])
            self.say(spoken, key=("cmd", text, self.seq))
            return False
        engine_events = self.game.play(text, seat=cmd.seat)
        seat = self.game.moves[-1].seat
        events = self._played(f"  {cmd.name} ({source})", text, seat, verdict, engine_events, source=source)
        # A command changes the game, not the table: the reference scene stays,
        # and undo puts back the same scene.
        self.refs.append(self.reference)
        self._emit(events, [entry, ("move", {"move": text, "seat": seat, "source": source})], snapshot=True)
        self._turn_led()
        return True

    def _refuse(self, cmd, reason: str) -> bool:
        self.log(f"  {word('command_refused', self.lang)}{reason}")
        self._emit([{"kind": "error", "source": cmd.source, "error": reason, "payload": cmd.to_dict()}],
                   [("command", {"ok": False, **cmd.to_dict(), "error": reason})])
        return False

    # ----- resume ---------------------------------------------------------------------
    def resume(self) -> bool:
        """Continue from the journal's last snapshot; False for a fresh journal."""
        snap = self.journal.last_snapshot(self.kind)     # ValueError for a damaged journal
        if snap is None:
            return False
        try:
            game = load_game(snap["game"]) if snap["game"] else None
            fields = {name: snap[name] for name in ("players", "reference", "refs", "seq", "game_no", "names",
                                                    "frame", "flag_key", "last_verdict")}
            for name in ("players", "seq", "game_no", "frame"):
                if not isinstance(fields[name], int) or isinstance(fields[name], bool):
                    raise ValueError(f"{name} is not an integer")
            if not isinstance(fields["refs"], list) or not isinstance(fields["names"], list):
                raise ValueError("refs and names must be lists")
        except (KeyError, TypeError, ValueError) as exc:
            where = getattr(self.journal, "path", "")
            raise ValueError(f"journal {where}: the last {self.kind} snapshot (entry {snap['id']}) "
                             f"cannot be resumed: {exc!r}; use another journal file") from None
        # Checked: now the referee takes it all at once.
        self.game = game
        for name, value in fields.items():
            setattr(self, name, value)
        self.table_unclear = snap.get("table_unclear", False)
        self.stability.reset(self.reference)
        self._turn_led()
        if self.publisher is not None:
            self.publisher.publish_state(self.state())
            self.publisher.publish_scoreboard(self.scoreboard())
        return True

