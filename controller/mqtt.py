"""MQTT publisher of a Masa table (Contract 3), on paho-mqtt 2.

Topics under ``masa/<table_id>/``: ``status`` (retained, ``online`` /
``offline``, the latter as Last Will), ``state`` and ``scoreboard``
(retained JSON), ``event`` (every move, flag and score change with a
sequence number) and ``cmd`` (inbound commands, handed to a callback).
Everything goes out at QoS 1.

The client keeps a persistent session (``clean_session=False``, a fixed
client id), reconnects by itself with exponential backoff, and keeps an
outbound buffer: what is published while the broker is away waits in order
and goes out on reconnection; what paho already sent but the broker did not
acknowledge, paho sends again.  So a broker restart loses no event (a
subscriber may see one twice; the sequence number tells).
"""

from __future__ import annotations

import json
import logging
import ssl
import threading
import time
from collections import deque
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

import paho.mqtt.client as paho

log = logging.getLogger(__name__)

TOPICS = ("status", "state", "event", "cmd", "scoreboard")


@dataclass(frozen=True)
class BrokerAddress:
    """Where the broker is: parsed from ``mqtt[s]://user:pass@host:port``."""

    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @property
    def url(self) -> str:
        auth = f"{self.username}:***@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{auth}{self.host}:{self.port}"


def parse_url(url: str) -> BrokerAddress:
    """``mqtt://host[:port]`` or ``mqtts://user:pass@host[:port]`` -> BrokerAddress;
    ValueError naming what is wrong."""
    if not isinstance(url, str) or "://" not in url:
        raise ValueError(f"MQTT URL {url!r} must look like mqtt://host:1883 or mqtts://user:pass@host:8883")
    parts = urlsplit(url)
    if parts.scheme not in ("mqtt", "mqtts"):
        raise ValueError(f"MQTT URL {url!r}: the scheme must be mqtt or mqtts, not {parts.scheme!r}")
    if not parts.hostname:
        raise ValueError(f"MQTT URL {url!r} has no host")
    try:
        port = parts.port
    except ValueError:
        raise ValueError(f"MQTT URL {url!r}: the port is not a number from 1 to 65535") from None
    tls = parts.scheme == "mqtts"
    return BrokerAddress(parts.hostname, port or (8883 if tls else 1883), tls,
                         unquote(parts.username) if parts.username else None,
                         unquote(parts.password) if parts.password else None)


def topic(table_id: str, name: str) -> str:
    if name not in TOPICS:
        raise ValueError(f"unknown topic {name!r}; topics: {', '.join(TOPICS)}")
    return f"masa/{table_id}/{name}"


class Publisher:
    """The table's MQTT client: publishes status, state, events, scoreboard
    and receives commands (``on_command(payload: bytes)``, called from
    paho's thread: hand it to a queue)."""

    def __init__(self, url: str, table_id: str = "masa", client_id: str | None = None,
                 on_command=None, keepalive: int = 10, ca_file: str | None = None,
                 insecure: bool = False, min_backoff: float = 0.2, max_backoff: float = 10.0,
                 buffer_limit: int = 100_000):
        self.address = parse_url(url)
        self.table_id = table_id
        self.client_id = client_id or f"masa-{table_id}"
        self.on_command = on_command
        self.buffer_limit = buffer_limit
        self._buffer: deque[tuple[str, bytes]] = deque()   # events, in order
        self._retained: dict[str, bytes] = {}   # topic -> newest retained value (state, scoreboard)
        self._lock = threading.Lock()
        self._in_flight: list = []     # paho MQTTMessageInfo not yet acknowledged
        self._prune_at = 1024           # _in_flight length at which acknowledged ones are dropped
        self._connected = threading.Event()
        self._subscribed = threading.Event()     # the broker acknowledged the subscription to cmd
        self._started = False
        self.dropped = 0
        self.connections = 0

        c = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=self.client_id,
                        clean_session=False, protocol=paho.MQTTv311)
        c.will_set(topic(table_id, "status"), b"offline", qos=1, retain=True)
        if self.address.username:
            c.username_pw_set(self.address.username, self.address.password)
        if self.address.tls:
            c.tls_set(ca_certs=ca_file, cert_reqs=ssl.CERT_NONE if insecure else ssl.CERT_REQUIRED)
            if insecure:
                c.tls_insecure_set(True)
        # Exponential backoff: min_backoff, doubled each failed try, up to max_backoff.
        c.reconnect_delay_set(min_delay=min_backoff, max_delay=max_backoff)
        c.max_inflight_messages_set(100)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_subscribe = self._on_subscribe
        self._keepalive = keepalive
        self.client = c

    # ----- lifecycle --------------------------------------------------------
    def start(self) -> "Publisher":
        if not self._started:
            self.client.connect_async(self.address.host, self.address.port, keepalive=self._keepalive)
            self.client.loop_start()
            self._started = True
        return self

    def wait_connected(self, timeout: float = 10.0) -> bool:
        return self._connected.wait(timeout)

    def wait_subscribed(self, timeout: float = 10.0) -> bool:
        """Whether the broker has acknowledged the table's subscription to its commands (within
        ``timeout``).  A command published before that may reach no one: a broker passes on only
        what arrives after the subscription is in place."""
        return self._subscribed.wait(timeout)

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def stop(self, timeout: float = 5.0) -> None:
        """Flush what can be flushed, say ``offline``, disconnect."""
        if not self._started:
            return
        if self.connected:
            self.flush(timeout)
            info = self.client.publish(topic(self.table_id, "status"), b"offline", qos=1, retain=True)
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError):
                pass
        self._started = False
        self.client.disconnect()
        self.client.loop_stop()
        self._connected.clear()
        self._subscribed.clear()

    def kill(self) -> None:
        """Drop the connection without a clean disconnect (the broker then
        publishes the Last Will): for tests of a dead table."""
        self._started = False
        self.client.loop_stop()
        sock = self.client.socket()
        if sock is not None:
            sock.close()
        self._connected.clear()
        self._subscribed.clear()

    # ----- paho callbacks ------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties) -> None:
        if reason_code.is_failure:
            log.warning("MQTT broker %s refused the connection: %s", self.address.url, reason_code)
            return
        self.connections += 1
        self._subscribed.clear()
        client.subscribe(topic(self.table_id, "cmd"), qos=1)
        client.publish(topic(self.table_id, "status"), b"online", qos=1, retain=True)
        with self._lock:
            while self._buffer:
                t, payload = self._buffer.popleft()
                self._in_flight.append(client.publish(t, payload, qos=1, retain=False))
            # Then the newest state and scoreboard, after the events that led to them.
            for t, payload in self._retained.items():
                self._in_flight.append(client.publish(t, payload, qos=1, retain=True))
            self._retained.clear()
            self._connected.set()
        log.info("MQTT connected to %s", self.address.url)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties) -> None:
        if all(not rc.is_failure for rc in reason_codes):
            self._subscribed.set()
        else:
            log.warning("MQTT broker %s refused the subscription to commands: %s", self.address.url, reason_codes)

    def _on_disconnect(self, client, userdata, flags, reason_code, properties) -> None:
        self._connected.clear()
        self._subscribed.clear()
        if self._started:
            log.warning("MQTT connection to %s lost (%s); reconnecting", self.address.url, reason_code)

    def _on_message(self, client, userdata, message) -> None:
        if message.topic == topic(self.table_id, "cmd") and self.on_command is not None:
            try:
                self.on_command(message.payload)
            except Exception:  # a bad command must never kill the MQTT thread
                log.exception("command handler failed")

    # ----- publishing -----------------------------------------------------------
    def _publish(self, name: str, payload, retain: bool) -> None:
        if not isinstance(payload, (bytes, bytearray)):
            payload = json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8")
        t = topic(self.table_id, name)
        with self._lock:
            if self._connected.is_set():
                self._in_flight.append(self.client.publish(t, bytes(payload), qos=1, retain=retain))
                if len(self._in_flight) >= self._prune_at:
                    # Forget what the broker acknowledged, or a table that runs
                    # for days keeps every message it ever sent.
                    self._in_flight = [info for info in self._in_flight if not info.is_published()]
                    self._prune_at = max(1024, 2 * len(self._in_flight))
                return
            if retain:
                # Only the newest retained value of a topic matters.
                self._retained[t] = bytes(payload)
                return
            self._buffer.append((t, bytes(payload)))
            while len(self._buffer) > self.buffer_limit:
                self._buffer.popleft()
                self.dropped += 1

    def publish_event(self, event: dict) -> None:
        """An event dict carrying its ``seq`` (given by the referee)."""
        if "seq" not in event:
            raise ValueError("an MQTT event needs a sequence number 'seq'")
        self._publish("event", event, retain=False)

    def publish_state(self, state: dict) -> None:
        self._publish("state", state, retain=True)

    def publish_scoreboard(self, board: dict) -> None:
        self._publish("scoreboard", board, retain=True)

    @property
    def backlog(self) -> int:
        """Messages not yet acknowledged by the broker (buffered or in flight)."""
        with self._lock:
            self._in_flight = [info for info in self._in_flight if not info.is_published()]
            return len(self._buffer) + len(self._retained) + len(self._in_flight)

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until the broker acknowledged everything; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.backlog == 0:
                return True
            time.sleep(0.01)
        return self.backlog == 0
