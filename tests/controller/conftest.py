"""Fixtures: an embedded amqtt broker, a Mosquitto of our own, a subscriber."""

from __future__ import annotations

import getpass
import json
import shutil
import subprocess
import threading
import time

import paho.mqtt.client as paho
import pytest

from controller.broker import EmbeddedBroker, free_port, wait_for_port

MOSQUITTO = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")


@pytest.fixture
def broker():
    b = EmbeddedBroker().start()
    yield b
    b.stop()


class Mosquitto:
    """A mosquitto process on a free loopback port, with persistence."""

    def __init__(self, workdir):
        self.port = free_port()
        self.workdir = workdir
        self.conf = workdir / "mosquitto.conf"
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\nallow_anonymous true\nuser {getpass.getuser()}\n"
            f"persistence true\npersistence_location {workdir}/\nautosave_interval 1\n"
            f"log_dest file {workdir}/mosquitto.log\n")
        self.proc = None

    @property
    def url(self):
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self):
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_for_port("127.0.0.1", self.port, 10):
            raise RuntimeError("mosquitto did not start")
        return self

    def stop(self):
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(10)
            self.proc = None


@pytest.fixture
def mosquitto(tmp_path):
    if MOSQUITTO is None:
        pytest.skip("mosquitto not installed (apt-get install mosquitto)")
    m = Mosquitto(tmp_path).start()
    yield m
    m.stop()


class Subscriber:
    """A separate MQTT client that records everything under masa/#."""

    def __init__(self, port, client_id="test-sub", persistent=False):
        self.messages = []
        self.lock = threading.Lock()
        self.subscribed = threading.Event()
        c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=client_id,
                        clean_session=not persistent)
        c.reconnect_delay_set(0.05, 0.2)
        c.on_connect = lambda cl, u, f, rc, p: cl.subscribe("masa/#", qos=1)
        c.on_subscribe = lambda cl, u, mid, rcs, p: self.subscribed.set()
        c.on_disconnect = lambda cl, u, f, rc, p: self.subscribed.clear()
        c.on_message = self._on_message
        c.connect_async("127.0.0.1", port, keepalive=5)
        c.loop_start()
        self.client = c
        assert self.subscribed.wait(10), "subscriber could not subscribe"

    def _on_message(self, client, userdata, m):
        with self.lock:
            self.messages.append((m.topic, m.payload.decode("utf-8"), bool(m.retain)))

    def payloads(self, topic_suffix):
        with self.lock:
            out = []
            for t, p, _ in self.messages:
                if t.endswith("/" + topic_suffix):
                    try:
                        out.append(json.loads(p))
                    except json.JSONDecodeError:
                        out.append(p)
            return out

    def events(self):
        """Events by sequence number, duplicates (QoS 1 resends) dropped."""
        seen = {}
        for e in self.payloads("event"):
            seen.setdefault(e["seq"], e)
        return [seen[k] for k in sorted(seen)]

    def wait_for(self, predicate, timeout=10.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate(self):
                return True
            time.sleep(0.02)
        return predicate(self)

    def close(self):
        self.client.disconnect()
        self.client.loop_stop()


@pytest.fixture
def subscriber_factory():
    made = []

    def make(port, **kw):
        s = Subscriber(port, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()
