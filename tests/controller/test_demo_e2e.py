"""End to end: the scripted games through the whole loop, a separate MQTT
subscriber, the journal, kill -9 and resume, a broker restart mid-game."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from controller import demo
from controller.cli import main as masa
from controller.config import load_layout
from controller.journal import Journal
from controller.loop import Referee
from controller.mqtt import Publisher
from hardware.camera import ScriptedSource

MACAO_EVENTS = (["game_start", "move", "engine", "score", "illegal", "put_right"]
                + ["move", "engine", "score"] * 2          # 8C, JC
                + ["move", "engine"]                       # the request, a command over MQTT
                + ["move", "engine", "score"]              # 5C
                + ["move", "engine", "engine", "score"]    # 5D, the request is over
                + ["move", "engine", "score"] * 4          # 5S 6S draw 6H
                + ["move", "engine", "engine", "engine", "score", "game_over"])
TINTAR_EVENTS = (["game_start"] + ["move", "engine", "score"] * 5 + ["illegal", "put_right"]
                 + ["move", "engine", "score", "move", "engine", "engine", "engine", "score",
                    "move", "engine", "score"])
DEMO_EVENTS = ["seat_names", "error"] + MACAO_EVENTS + TINTAR_EVENTS


def _check_demo(journal_path, sub, out):
    j = Journal(journal_path)
    events = j.entries("event")
    assert [e["kind"] for e in events] == DEMO_EVENTS
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    flags = [e for e in events if e["kind"] == "illegal"]
    assert [(f["seat"], f["move"], f["verdict"]["code"]) for f in flags] == [
        (1, "9C", "wrong_suit_or_rank"), (0, "g7", "not_your_turn")]
    # The spoken reason is the engine's, in Romanian.
    assert f"[voce] Mutare ilegală: {flags[0]['verdict']['ro']}" in out
    moves = [(e["seat"], e["move"]) for e in events if e["kind"] == "move"]
    assert moves[:4] == [(0, "8H"), (1, "8C"), (2, "JC"), (2, "request 5")]
    assert [e["source"] for e in events if e["kind"] == "move" and "source" in e] == ["mqtt"]
    assert moves[10] == (0, "QH QD")
    assert moves[11:] == [(0, "a1"), (1, "d2"), (0, "a4"), (1, "d3"), (0, "d1"), (1, "b4"), (0, "a7xb4"), (1, "f4")]
    # What a separate subscriber received: the same events, in order.
    assert sub.wait_for(lambda s: len(s.events()) == len(events), timeout=20)
    assert [e["kind"] for e in sub.events()] == DEMO_EVENTS
    assert sub.payloads("scoreboard")[-1]["lines"][0].startswith(">alb")
    assert j.count("move") == len(moves) and j.count("scene") > 20
    j.close()


def test_demo_on_the_embedded_broker(broker, subscriber_factory, tmp_path, capsys):
    sub = subscriber_factory(broker.port)
    path = tmp_path / "j.db"
    assert masa(["demo", "--fast", "--mqtt", broker.url, "--journal", str(path)]) == 0
    _check_demo(path, sub, capsys.readouterr().out)


def test_demo_on_mosquitto(mosquitto, subscriber_factory, tmp_path, capsys):
    sub = subscriber_factory(mosquitto.port)
    path = tmp_path / "j.db"
    assert masa(["demo", "--fast", "--mqtt", mosquitto.url, "--journal", str(path), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "[voice] Illegal move: " in out
    j = Journal(path)
    assert [e["kind"] for e in j.entries("event")] == DEMO_EVENTS
    assert sub.wait_for(lambda s: len(s.events()) == len(DEMO_EVENTS), timeout=20)


def test_kill_9_mid_game_and_resume(tmp_path, capsys):
    path = tmp_path / "j.db"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "controller.cli", "demo", "--fast", "--journal", str(path),
                             "--pace", "0.03"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                            cwd=Path(__file__).resolve().parents[2])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if path.exists():
                try:
                    if Journal(path).count("move") >= 4:
                        break
                except Exception:
                    pass
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    j = Journal(path)
    before = j.count("move")
    snap = j.last_snapshot("macao")
    j.close()
    assert 4 <= before < 17 and snap is not None
    assert masa(["demo", "--fast", "--resume", "--journal", str(path)]) == 0
    assert "continuă de la cadrul" in capsys.readouterr().out
    j = Journal(path)
    events = j.entries("event")
    kinds = [e["kind"] for e in events]
    # Exactly the uninterrupted run's events, once each, numbered without a gap.
    assert kinds == DEMO_EVENTS
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))


def _run_macao(ref, plan, upto=None):
    frames = demo.Frames(plan, "script", on_command=lambda payload, i: ref.handle_command(payload, "mqtt"))
    ref.run(ScriptedSource(lambda i: frames(i) if upto is None or i < upto else None, start=ref.frame))


@pytest.mark.parametrize("which", ["embedded", "mosquitto"])
def test_broker_restart_mid_game_loses_no_event(which, request, subscriber_factory, tmp_path):
    server = request.getfixturevalue("broker" if which == "embedded" else "mosquitto")
    sub = subscriber_factory(server.port, client_id="watch", persistent=True)
    pub = Publisher(server.url, table_id="demo", client_id="masa-restart", min_backoff=0.5, max_backoff=1.0).start()
    assert pub.wait_connected(10)
    ref = Referee("macao", 3, reader=lambda f: f, journal=Journal(tmp_path / "j.db"), layout=load_layout("macao-3"),
                  publisher=pub, options=demo.MACAO_OPTIONS, log=None)
    plan = demo.macao_frames()
    _run_macao(ref, plan, upto=30)
    assert pub.flush(10)
    first = ref.seq
    server.stop()
    _run_macao(ref, plan, upto=60)                # the game goes on while the broker is away
    assert ref.seq > first and pub.backlog > 0
    if which == "embedded":
        # amqtt keeps no sessions over a restart: let the watcher subscribe
        # again before the table reconnects (Mosquitto keeps its session).
        pub.client.loop_stop()
    server.start()
    assert sub.wait_for(lambda s: s.subscribed.is_set(), timeout=20)
    if which == "embedded":
        pub.client.loop_start()
    assert pub.wait_connected(20)
    _run_macao(ref, plan)
    assert pub.flush(20)
    assert sub.wait_for(lambda s: len(s.events()) == ref.seq, timeout=20)
    assert [e["seq"] for e in sub.events()] == list(range(1, ref.seq + 1))
    assert [e["kind"] for e in sub.events()] == MACAO_EVENTS
    pub.stop()


@pytest.mark.slow
def test_the_demo_through_real_rendering_and_vision(broker, subscriber_factory, tmp_path, capsys):
    """The same events as the scene double, from rendered pictures read by the
    real hand detector, card reader and Tintar board reader."""
    pytest.importorskip("vision.morris")
    model = Path(__file__).resolve().parents[2] / "vision" / "models" / "cards.npz"
    sub = subscriber_factory(broker.port)
    path = tmp_path / "j.db"
    assert masa(["demo", "--mqtt", broker.url, "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    if "!!" in out:
        if not model.exists():
            pytest.skip("the card model vision/models/cards.npz is not built: Macao ran on the script's scenes")
        pytest.fail("the card reader did not read the demo's starting card:\n" + out)
    _check_demo(path, sub, out)


@pytest.mark.parametrize("argv, words", [
    (["--voice", "wav"], "--wav-dir"),
    (["--mqtt", "http://host"], "scheme"),
    (["--resume"], "--journal"),
    (["--pace", "-1"], "--pace"),
])
def test_demo_bad_options_exit_2(argv, words, capsys):
    assert masa(["demo", "--fast", *argv]) == 2
    assert words in capsys.readouterr().err


def test_demo_with_an_unreachable_broker_says_so_and_leaves_no_thread(monkeypatch, tmp_path, capsys):
    import threading

    wait = Publisher.wait_connected
    monkeypatch.setattr(Publisher, "wait_connected", lambda self, timeout=10.0: wait(self, 0.3))
    before = set(threading.enumerate())
    assert masa(["demo", "--fast", "--only", "tintar", "--mqtt", "mqtt://127.0.0.1:1",
                 "--journal", str(tmp_path / "j.db")]) == 1
    assert "cannot reach the MQTT broker" in capsys.readouterr().err
    time.sleep(0.3)
    left = [t.name for t in set(threading.enumerate()) - before if t.is_alive()]
    assert left == []
