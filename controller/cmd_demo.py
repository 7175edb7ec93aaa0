"""Run the demo: a rendered Macao game for three and a Tintar game through the whole loop.

Every frame goes through the real loop: ArUco calibration, hand detection,
card / board reading, stable scenes, the rules engine, LEDs and buzzer (on
gpiozero mock pins), the voice (espeak-ng, or printed), the SQLite journal
and MQTT (an embedded amqtt broker, or --mqtt URL).  The Macao game has an
illegal move (9C on 8H), the Tintar game one too (white plays twice).
Watch it from another terminal with: mosquitto_sub -h HOST -p PORT -t 'masa/#' -v

Examples:
  masa demo
  masa demo --lang en --mqtt mqtt://127.0.0.1:1883
  masa demo --journal demo.db      (kill it, then:)  masa demo --resume --journal demo.db
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import threading
import time
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--mqtt", metavar="URL", default=None,
                   help="an external broker, mqtt[s]://user:pass@host:port (default: embedded amqtt)")
    p.add_argument("--lang", choices=("ro", "en"), default="ro", help="language of the voice and log")
    p.add_argument("--resume", action="store_true", help="continue the games in --journal where they stopped")
    p.add_argument("--journal", metavar="FILE", default=None,
                   help="the SQLite journal (default: a new file in a temporary folder)")
    p.add_argument("--fast", action="store_true",
                   help="the scene double instead of rendering and vision (seconds, for tests)")
    p.add_argument("--voice", choices=("auto", "espeak", "wav", "print"), default="auto",
                   help="auto (default): espeak-ng aloud when there is a sound device, else print the lines")
    p.add_argument("--wav-dir", default=None, help="folder for --voice wav")
    p.add_argument("--table", default="demo", help="MQTT table id (default demo)")
    p.add_argument("--pace", type=float, default=0.0, metavar="SECONDS",
                   help="wait this long before each frame (to watch it, or to stop it mid-game)")
    p.add_argument("--only", choices=("macao", "tintar"), default=None, help="run one of the two games")


class Watcher:
    """A separate MQTT subscriber: counts what a scoreboard would receive."""

    def __init__(self, host: str, port: int, table: str, tls: bool = False, username=None, password=None):
        import paho.mqtt.client as paho

        self.events: dict[int, dict] = {}
        self.ready = threading.Event()
        c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"masa-demo-watcher-{int(time.time())}")
        if username:
            c.username_pw_set(username, password)
        if tls:
            c.tls_set()
        c.on_connect = lambda cl, u, f, rc, p: cl.subscribe(f"masa/{table}/#", qos=1)
        c.on_subscribe = lambda cl, u, mid, rc, p: self.ready.set()
        c.on_message = self._on_message
        c.connect_async(host, port, keepalive=10)
        c.loop_start()
        self.client = c

    def _on_message(self, client, userdata, m) -> None:
        if m.topic.endswith("/event"):
            try:
                e = json.loads(m.payload)
                self.events[e["seq"]] = e
            except (ValueError, KeyError, TypeError):
                pass

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def main(args) -> int:
    from controller import demo
    from controller.broker import EmbeddedBroker
    from controller.config import load_layout
    from controller.journal import Journal
    from controller.loop import Referee
    from controller.mqtt import Publisher, parse_url
    from controller.readers import CardTableReader, TintarReader
    from hardware.camera import ScriptedSource
    from hardware.feedback import Feedback
    from hardware.voice import Voice

    if args.resume and not args.journal:
        print("masa demo: --resume needs --journal FILE", file=sys.stderr)
        return 2
    if args.resume and not Path(args.journal).is_file():
        print(f"masa demo: no journal {args.journal} to resume", file=sys.stderr)
        return 2
    if args.voice == "wav" and not args.wav_dir:
        print("masa demo: --voice wav needs --wav-dir FOLDER", file=sys.stderr)
        return 2
    if args.pace < 0:
        print("masa demo: --pace must be 0 or more seconds", file=sys.stderr)
        return 2
    try:
        address = parse_url(args.mqtt) if args.mqtt else None
    except ValueError as exc:
        print(f"masa demo: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    lang = args.lang
    ro = lang == "ro"
    journal_path = args.journal or str(Path(tempfile.mkdtemp(prefix="masa-demo-")) / "journal.db")
    try:
        journal = Journal(journal_path)
    except ValueError as exc:
        print(f"masa demo: {exc}", file=sys.stderr)
        return 2

    broker = None
    if address is None:
        try:
            broker = EmbeddedBroker().start()
        except RuntimeError as exc:
            print(f"masa demo: {exc}", file=sys.stderr)
            journal.close()
            return 1
        url = broker.url
        address = parse_url(url)
        print(f"MQTT: {'broker amqtt încorporat pe' if ro else 'embedded amqtt broker on'} {url}")
    else:
        url = args.mqtt
        print(f"MQTT: {address.url}")
    print(f"  mosquitto_sub -h {address.host} -p {address.port} -t 'masa/#' -v")
    print(f"{'Jurnal' if ro else 'Journal'}: {journal_path}")
    if not args.fast:
        from vision.render import default_deck
        if default_deck() == "drawn":
            print("!! " + ("nu sunt instalate cărțile gnome-cards-data (și rsvg-convert): cărțile sunt "
                           "desenate de OpenCV, pe care cititorul le citește mai prost; instalați "
                           "gnome-cards-data librsvg2-bin (make demo o face ca root)" if ro else
                           "gnome-cards-data card artwork (or rsvg-convert) is not installed: the cards are "
                           "drawn by OpenCV, which the reader reads less well; install gnome-cards-data "
                           "librsvg2-bin (make demo does, as root)"))
    watcher = Watcher(address.host, address.port, args.table, address.tls, address.username, address.password)
    publisher = Publisher(url, table_id=args.table, client_id=f"masa-{args.table}").start()
    feedback = Feedback(3, mock=True, quiet_buzzer=True)
    voice = Voice(lang, backend=args.voice, wav_dir=args.wav_dir)
    mode = "script" if args.fast else "vision"
    referees = []
    seq = 0
    try:
        if not publisher.wait_connected(15):
            print(f"masa demo: cannot reach the MQTT broker at {address.url}", file=sys.stderr)
            return 1
        watcher.ready.wait(10)
        # the seat names and the trump question go to the table over MQTT: only once the broker has
        # its subscription in place (a loaded machine can take longer to subscribe than to connect)
        if not publisher.wait_subscribed(15):
            print(f"masa demo: the MQTT broker at {address.url} did not acknowledge the table's subscription "
                  "to its commands; commands sent now may be lost", file=sys.stderr)
        for kind in ("macao", "tintar"):
            if args.only and kind != args.only:
                continue
            plan = demo.macao_frames() if kind == "macao" else demo.tintar_frames()
            frames = demo.Frames(plan, mode)
            holder: dict = {}

            def send_command(payload: dict, index: int, holder=holder) -> None:
                """Publish a command on cmd, as a phone app would, and let
                the referee handle it before the next frame."""
                ref = holder["ref"]
                before = ref.seq
                ref.frame = index + 1      # this frame is done: a resume starts after it
                watcher.client.publish(f"masa/{args.table}/cmd", json.dumps(payload), qos=1)
                _wait(lambda: not ref.commands.empty(), 5)
                ref.drain_commands()
                if ref.seq == before:
                    print(f"  ({'comanda' if ro else 'the command'} {json.dumps(payload)} "
                          f"{'nu a ajuns' if ro else 'did not arrive'})", flush=True)

            frames.on_command = send_command
            layout = load_layout("macao-3" if kind == "macao" else "tintar")
            if mode == "script":
                reader = (lambda f: f)
            elif kind == "macao":
                reader = CardTableReader(layout, demo.calibration_for(frames(0)))
                starter = demo.MACAO_SCRIPT[0][1]
                seen = reader(frames(0)).scene
                reader = CardTableReader(layout, reader.calibration)
                if seen is None or seen.get("pile") != [starter] or seen.get("unsure"):
                    print(f"\n!! {'cititorul de cărți (vision.cards) nu citește cartea de început' if ro else 'the card reader (vision.cards) does not read the starting card'}"
                          f" {starter} ({'a văzut' if ro else 'it saw'} {seen and seen.get('pile')}): "
                          f"{'Macao rulează pe scenele scenariului, fără citirea cărților' if ro else 'Macao runs on the script scenes, without card reading'}",
                          flush=True)
                    frames = demo.Frames(plan, "script", on_command=send_command)
                    reader = (lambda f: f)
            else:
                reader = TintarReader()
            title = {"macao": "Macao, 3 jucători" if ro else "Macao, 3 players", "tintar": "Țintar" if ro else "Tintar"}
            print(f"\n=== {title[kind]} ===", flush=True)
            ref = Referee(kind, 3, reader=reader, journal=journal, layout=layout, publisher=publisher,
                          feedback=feedback, voice=voice, lang=lang,
                          options=demo.MACAO_OPTIONS if kind == "macao" else None,
                          log=_log_line)
            ref.seq = seq
            holder["ref"] = ref
            start = 0
            try:
                resumed = args.resume and ref.resume()
            except ValueError as exc:
                print(f"masa demo: {exc}", file=sys.stderr)
                return 2
            if resumed:
                start = ref.frame
                print(f"  ({'continuă de la cadrul' if ro else 'resuming at frame'} {start}, "
                      f"{len(ref.game.moves) if ref.game else 0} {'mutări jucate' if ro else 'moves played'})")
            publisher.on_command = lambda payload, r=ref: r.commands.put((payload, "mqtt"))
            if start == 0 and kind == "macao":
                names = ["Ana", "Bogdan", "Cristina"]
                watcher.client.publish(f"masa/{args.table}/cmd", json.dumps({"cmd": "seat_names", "names": names}),
                                       qos=1)
                watcher.client.publish(f"masa/{args.table}/cmd", b'{"cmd": "trump"}', qos=1)
                _wait_for_commands(ref, 2)
            source = frames
            if args.pace > 0:
                def source(i, frames=frames, pace=args.pace):
                    time.sleep(pace)
                    return frames(i)
            ref.run(ScriptedSource(source, name=f"{kind} script", start=start))
            voice.wait_idle(30)
            seq = ref.seq
            referees.append(ref)
        publisher.flush(10)
        _wait(lambda: seq == 0 or seq in watcher.events, 10)
        print(f"\n=== {'Scor' if ro else 'Scoreboard'} ===")
        for ref in referees:
            for line in ref.scoreboard()["lines"]:
                print(f"  {ref.kind:7s} {line}")
        got = sorted(watcher.events)
        print(f"\nMQTT: {'un abonat separat a primit' if ro else 'a separate subscriber received'} "
              f"{len(got)} {'evenimente' if ro else 'events'} (seq {got[0] if got else '-'}..{got[-1] if got else '-'}); "
              f"{'jurnal' if ro else 'journal'}: {journal.count()} {'înregistrări' if ro else 'entries'}; "
              f"LED: {feedback.snapshot()}; {time.perf_counter() - t0:.1f} s")
        complete = bool(referees) and all(ref.game is not None for ref in referees)
        return 0 if complete else 1
    finally:
        voice.close()
        feedback.close()
        publisher.stop()
        watcher.close()
        journal.close()
        if broker is not None:
            broker.stop()


def _log_line(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _wait(predicate, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def _wait_for_commands(ref, n: int, timeout: float = 5.0) -> None:
    """Let the commands sent over MQTT arrive before the first frame."""
    handled = 0
    deadline = time.monotonic() + timeout
    while handled < n and time.monotonic() < deadline:
        before = ref.commands.qsize()
        if before:
            ref.drain_commands()
            handled += before
        else:
            time.sleep(0.02)
