"""The embedded MQTT broker (amqtt) that a Pi runs by default.

``EmbeddedBroker`` runs an amqtt broker on its own asyncio loop in a
background thread, on a configured port or a free one (port 0), so the
controller and any scoreboard on the LAN can talk MQTT without installing
Mosquitto.  ``start()`` returns once the listener accepts connections;
``stop()`` shuts it down (sessions and retained messages are in memory and
go with it, as with a restarted Mosquitto without persistence).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_for_port(host: str, port: int, timeout: float = 10.0) -> bool:
    """True once something accepts TCP connections on host:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False


class EmbeddedBroker:
    """An amqtt broker in a background thread."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0):
        self.host = host
        self.port = port or free_port(host if host != "0.0.0.0" else "127.0.0.1")
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broker = None
        self._stopped: asyncio.Event | None = None
        self._error: BaseException | None = None
        self._ready = threading.Event()

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host == "0.0.0.0" else self.host
        return f"mqtt://{host}:{self.port}"

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _config(self) -> dict:
        return {
            "listeners": {"default": {"type": "tcp", "bind": f"{self.host}:{self.port}"}},
            "plugins": {"amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}},
        }

    def start(self, timeout: float = 15.0) -> "EmbeddedBroker":
        if self.running:
            return self
        # amqtt logs every connection at INFO; the demo's log is ours.
        logging.getLogger("amqtt").setLevel(logging.ERROR)
        self._ready.clear()
        self._error = None
        self._thread = threading.Thread(target=self._run, name="masa-broker", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise RuntimeError(f"the embedded MQTT broker did not start on {self.host}:{self.port}")
        if self._error is not None:
            raise RuntimeError(f"the embedded MQTT broker could not start on "
                               f"{self.host}:{self.port}: {self._error}") from self._error
        return self

    def _run(self) -> None:
        from amqtt.broker import Broker

        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)

        async def main() -> None:
            self._stopped = asyncio.Event()
            try:
                self._broker = Broker(self._config())
                await self._broker.start()
            except BaseException as exc:  # reported to start()
                self._error = exc
                self._ready.set()
                return
            self._ready.set()
            await self._stopped.wait()
            self._close_listeners()
            try:
                # amqtt waits for connected clients; a stop must not hang on them.
                await asyncio.wait_for(self._broker.shutdown(), timeout=2.0)
            except (Exception, asyncio.TimeoutError) as exc:
                logging.getLogger(__name__).info("broker shutdown: %r", exc)
            for task in asyncio.all_tasks() - {asyncio.current_task()}:
                task.cancel()

        try:
            loop.run_until_complete(main())
        finally:
            loop.close()

    def _close_listeners(self) -> None:
        """Stop listening before anything else: the port is free the moment ``stop`` returns, so a
        broker started again on it binds (amqtt closes its listeners only at the end of a shutdown
        that may time out on connected clients, and a listener left open held the port until it
        was garbage-collected: "address already in use" in one run of four of the restart test)."""
        for server in getattr(self._broker, "_servers", {}).values():
            instance = getattr(server, "instance", None)
            if instance is not None:
                instance.close()

    def stop(self, timeout: float = 10.0) -> None:
        if not self.running or self._loop is None or self._stopped is None:
            return
        self._loop.call_soon_threadsafe(self._stopped.set)
        self._thread.join(timeout)
        self._thread = None

    def __enter__(self) -> "EmbeddedBroker":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
