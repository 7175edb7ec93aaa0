"""Referee a real table, live: camera -> vision -> engine -> LEDs, buzzer, voice, journal, MQTT.

Configured by masa.toml (see masa.example.toml); the options below override
it.  The journal keeps every scene, move, verdict and command: started again
after a power cut or a kill, `masa run` continues the game where it was
(--new starts afresh).  Commands (JSON, one per line, as on MQTT cmd) can be
typed on standard input with --stdin-commands, e.g. {"cmd": "undo"}.

Examples:
  masa run --camera picamera --game macao --players 4
  masa run --camera 0 --game tintar --mqtt mqtt://club.local:1883
  masa run --camera rtsp://10.0.0.5/stream --config /etc/masa.toml
"""

from __future__ import annotations

import argparse
import sys
import threading
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--camera", default=None,
                   help="picamera, a webcam number, rtsp://..., a video file or a folder of images")
    p.add_argument("--game", choices=("macao", "tintar"), default=None)
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--config", default=None, help="masa.toml (default: ./masa.toml when it exists)")
    p.add_argument("--mqtt", default=None, metavar="URL", help="external broker mqtt[s]://user:pass@host:port")
    p.add_argument("--journal", default=None, metavar="FILE")
    p.add_argument("--lang", choices=("ro", "en"), default=None)
    p.add_argument("--calibration", default=None, metavar="FILE",
                   help="calibration JSON from `masa calibrate` (default: from the markers in the first frame)")
    p.add_argument("--new", action="store_true",
                   help="start a new game instead of resuming the one in the journal")
    p.add_argument("--stdin-commands", action="store_true", help="read JSON commands from standard input")
    p.add_argument("--max-frames", type=int, default=None, help="stop after this many frames")


def _settings(args) -> dict:
    from controller import config

    path = args.config
    if path is None and Path("masa.toml").is_file():
        path = "masa.toml"
    cfg = config.load(path)
    if args.camera is not None:
        cfg["camera"]["source"] = args.camera
    if args.game is not None:
        cfg["game"]["id"] = args.game
    if args.players is not None:
        cfg["game"]["players"] = args.players
    if args.mqtt is not None:
        cfg["mqtt"]["url"] = args.mqtt
    if args.journal is not None:
        cfg["journal"]["path"] = args.journal
    if args.lang is not None:
        cfg["table"]["lang"] = cfg["voice"]["lang"] = args.lang
    if args.calibration is not None:
        cfg["camera"]["calibration"] = args.calibration
    return config.validate(cfg, path or "options")


def main(args) -> int:
    from controller.broker import EmbeddedBroker
    from controller.config import default_layout, load_layout
    from controller.journal import Journal
    from controller.loop import Referee
    from controller.mqtt import Publisher
    from controller.readers import CardTableReader, TintarReader
    from hardware.buttons import Buttons
    from hardware.camera import Resilient, open_source
    from hardware.feedback import Feedback
    from hardware.serial_link import SerialLink
    from hardware.voice import Voice

    try:
        cfg = _settings(args)
        game = cfg["game"]["id"]
        players = 2 if game == "tintar" else cfg["game"]["players"]
        if game == "macao" and not 2 <= players <= 6:
            raise ValueError(f"macao is played by 2 to 6 players, not {players}")
        try:
            Referee.check_options(game, players, cfg["game"]["options"])
        except ValueError as exc:
            raise ValueError(f"[game] options: {exc}") from None
        layout = load_layout(cfg["game"]["layout"] or default_layout(game, players))
        cam = cfg["camera"]
        calibration = None
        if game == "macao" and cam["calibration"]:
            from vision.calibrate import Calibration

            calibration = Calibration.load(cam["calibration"])     # CalibrationError is a ValueError
        source = open_source(cam["source"], (cam["width"], cam["height"]))
        journal = Journal(cfg["journal"]["path"])
        serial_link = SerialLink(cfg["serial"]["port"], cfg["serial"]["baud"]) if cfg["serial"]["port"] else None
        feedback = Feedback(players, pins=cfg["pins"], serial_link=serial_link)
    except ValueError as exc:
        print(f"masa run: {exc}", file=sys.stderr)
        return 2
    lang = cfg["table"]["lang"]
    resilient = Resilient(source, stall_seconds=cam["stall_seconds"])
    broker = publisher = voice = None

    def close_all() -> None:
        """Stop what was started, whichever step failed."""
        for thing, stop in ((voice, "close"), (feedback, "close"), (publisher, "stop"), (journal, "close"),
                            (resilient, "close"), (serial_link, "close"), (broker, "stop")):
            if thing is not None:
                getattr(thing, stop)()

    url = cfg["mqtt"]["url"]
    if not url:
        try:
            broker = EmbeddedBroker(cfg["mqtt"]["embedded_host"], cfg["mqtt"]["embedded_port"]).start()
        except RuntimeError as exc:
            print(f"masa run: {exc}", file=sys.stderr)
            close_all()
            return 1
        url = broker.url
    print(f"masa run: {game}, {players} players, camera {source.name}, MQTT {url}, "
          f"journal {cfg['journal']['path']}", flush=True)
    publisher = Publisher(url, table_id=cfg["table"]["id"], ca_file=cfg["mqtt"]["ca_file"] or None,
                          insecure=cfg["mqtt"]["insecure"]).start()
    voice = Voice(cfg["voice"]["lang"], backend=cfg["voice"]["backend"])

    reader = _reader(game, layout, calibration, resilient, CardTableReader, TintarReader)
    if reader is None:
        print("masa run: no picture from the camera to calibrate on", file=sys.stderr)
        close_all()
        return 1
    ref = Referee(game, players, reader=reader, journal=journal, layout=layout, publisher=publisher,
                  feedback=feedback, voice=voice, lang=lang, stability_frames=cfg["stability"]["frames"],
                  options=cfg["game"]["options"] or None, log=lambda line: print(line, flush=True))
    resilient.on_status = ref.on_camera
    try:
        resumed = ref.resume()
    except ValueError as exc:
        print(f"masa run: {exc}", file=sys.stderr)
        close_all()
        return 2
    if resumed:
        if args.new:
            # A new game in the same journal: the event numbers go on.
            ref.handle_command({"cmd": "new_game"}, "cli")
        else:
            print(f"masa run: resuming game #{ref.game_no} "
                  f"({len(ref.game.moves) if ref.game else 0} moves played)", flush=True)
    publisher.on_command = lambda payload: ref.commands.put((payload, "mqtt"))
    buttons = Buttons({pin: {"cmd": name} for name, pin in cfg["buttons"].items()},
                      lambda cmd: ref.commands.put((cmd, "button")))
    if args.stdin_commands:
        def read_stdin() -> None:
            for line in sys.stdin:
                if line.strip():
                    ref.commands.put((line.strip().encode("utf-8"), "cli"))
        threading.Thread(target=read_stdin, name="masa-stdin", daemon=True).start()
    try:
        ref.run(resilient, max_frames=args.max_frames)
    except KeyboardInterrupt:
        print("masa run: stopped", file=sys.stderr)
    finally:
        ref.drain_commands()
        buttons.close()
        close_all()
    return 0


def _reader(game, layout, calibration, resilient, CardTableReader, TintarReader):
    """The scene reader; Macao needs the calibration (loaded from its file,
    or from the markers of the first picture)."""
    if game == "tintar":
        return TintarReader()
    from vision.calibrate import CalibrationError, calibrate

    if calibration is not None:
        return CardTableReader(layout, calibration)
    from hardware.camera import EndOfFrames

    for _ in range(200):
        try:
            frame = resilient.read()
        except EndOfFrames:
            return None
        if frame is None:
            continue
        try:
            return CardTableReader(layout, calibrate(frame, table_mm=tuple(layout["table_mm"])))
        except CalibrationError as exc:
            print(f"masa run: calibrating: {exc}", file=sys.stderr)
    return None
