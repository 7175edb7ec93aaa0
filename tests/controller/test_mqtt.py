"""The MQTT publisher against the embedded broker and against Mosquitto."""

import time

import pytest

from controller.mqtt import Publisher, parse_url


def test_parse_url():
    a = parse_url("mqtts://ana:p%40ss@club.local")
    assert (a.host, a.port, a.tls, a.username, a.password) == ("club.local", 8883, True, "ana", "p@ss")
    assert parse_url("mqtt://127.0.0.1:1999").port == 1999
    for bad, words in [("club.local", "must look like"), ("http://x", "scheme"), ("mqtt://x:99999", "port"),
                       ("mqtt://", "no host")]:
        with pytest.raises(ValueError, match=words):
            parse_url(bad)


def _exercise(url, port, subscriber_factory):
    sub = subscriber_factory(port)
    commands = []
    pub = Publisher(url, table_id="t1", client_id="masa-test-pub", on_command=commands.append).start()
    assert pub.wait_connected(10)
    pub.publish_state({"game": "macao", "to_move": 0})
    for seq in range(1, 6):
        pub.publish_event({"seq": seq, "kind": "move"})
    pub.publish_scoreboard({"lines": ["1: 0", "2: 0"]})
    assert pub.flush(10)
    assert sub.wait_for(lambda s: len(s.events()) == 5 and s.payloads("scoreboard"))
    assert [e["seq"] for e in sub.events()] == [1, 2, 3, 4, 5]
    assert "online" in sub.payloads("status")
    # Commands come in on cmd.
    sub.client.publish("masa/t1/cmd", b'{"cmd": "undo"}', qos=1)
    deadline = time.monotonic() + 10
    while not commands and time.monotonic() < deadline:
        time.sleep(0.02)
    assert commands == [b'{"cmd": "undo"}']
    # A late subscriber gets the retained state and scoreboard.
    late = subscriber_factory(port, client_id="late")
    assert late.wait_for(lambda s: s.payloads("state") and s.payloads("scoreboard"))
    assert late.payloads("state")[-1] == {"game": "macao", "to_move": 0}
    assert not late.payloads("event")
    # A dead table: the broker publishes the Last Will.
    pub.kill()
    assert late.wait_for(lambda s: "offline" in s.payloads("status"), timeout=30)


@pytest.mark.parametrize("which", ["embedded", "mosquitto"])
def test_a_command_sent_once_the_table_is_subscribed_arrives(which, request, subscriber_factory):
    """The demo sends its first commands right after the table connects.  On a loaded machine the
    broker could pass them on before the table's subscription was in place, and they were lost
    (a seat_names command, once, in a full test run).  ``wait_subscribed`` waits for the broker's
    acknowledgement: a command sent after it arrives, five times over, each on a new connection."""
    server = request.getfixturevalue("broker" if which == "embedded" else "mosquitto")
    sub = subscriber_factory(server.port)
    for k in range(5):
        commands = []
        pub = Publisher(server.url, table_id=f"s{k}", client_id=f"masa-sub-test-{k}",
                        on_command=commands.append).start()
        assert pub.wait_subscribed(10) and pub.connected
        sub.client.publish(f"masa/s{k}/cmd", b'{"cmd": "undo"}', qos=1)
        deadline = time.monotonic() + 10
        while not commands and time.monotonic() < deadline:
            time.sleep(0.02)
        assert commands == [b'{"cmd": "undo"}']
        pub.stop()
        assert not pub.wait_subscribed(0)


def test_embedded_broker_round_trip(broker, subscriber_factory):
    _exercise(broker.url, broker.port, subscriber_factory)


def test_mosquitto_round_trip(mosquitto, subscriber_factory):
    _exercise(mosquitto.url, mosquitto.port, subscriber_factory)


def test_events_published_while_the_broker_is_down_are_delivered(mosquitto, subscriber_factory):
    sub = subscriber_factory(mosquitto.port, client_id="persistent-sub", persistent=True)
    pub = Publisher(mosquitto.url, table_id="t2", client_id="masa-t2", min_backoff=0.1,
                    max_backoff=0.5).start()
    assert pub.wait_connected(10)
    pub.publish_event({"seq": 1})
    assert pub.flush(10)
    mosquitto.stop()
    for seq in range(2, 6):
        pub.publish_event({"seq": seq})
    assert pub.backlog >= 4
    mosquitto.start()
    assert pub.wait_connected(20)
    pub.publish_event({"seq": 6})
    assert pub.flush(10)
    assert sub.wait_for(lambda s: len(s.events()) == 6, timeout=20)
    assert [e["seq"] for e in sub.events()] == [1, 2, 3, 4, 5, 6]
    pub.stop()


def test_tls_and_password_on_mosquitto(tmp_path, subscriber_factory):
    import getpass
    import shutil
    import subprocess

    from controller.broker import free_port, wait_for_port

    MOSQUITTO = shutil.which("mosquitto") or shutil.which("mosquitto", path="/usr/sbin")
    if MOSQUITTO is None:
        pytest.skip("mosquitto not installed (apt-get install mosquitto)")
    if shutil.which("openssl") is None:
        pytest.skip("openssl not installed (apt-get install openssl)")
    run = lambda *a: subprocess.run(a, cwd=tmp_path, check=True, capture_output=True)  # noqa: E731
    run("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=masa-test-ca",
        "-keyout", "ca.key", "-out", "ca.crt")
    run("openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout", "server.key",
        "-out", "server.csr")
    (tmp_path / "ext.cnf").write_text("subjectAltName=DNS:localhost,IP:127.0.0.1\n")
    run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", "ext.cnf", "-out", "server.crt")
    run("mosquitto_passwd", "-c", "-b", "passwords", "table1", "s3cret") if shutil.which("mosquitto_passwd") \
        else pytest.skip("mosquitto_passwd not installed (apt-get install mosquitto)")
    port = free_port()
    (tmp_path / "m.conf").write_text(
        f"listener {port} 127.0.0.1\ncafile {tmp_path}/ca.crt\ncertfile {tmp_path}/server.crt\n"
        f"keyfile {tmp_path}/server.key\nallow_anonymous false\npassword_file {tmp_path}/passwords\n"
        f"user {getpass.getuser()}\n")
    proc = subprocess.Popen([MOSQUITTO, "-c", str(tmp_path / "m.conf")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        assert wait_for_port("127.0.0.1", port, 10)
        pub = Publisher(f"mqtts://table1:s3cret@localhost:{port}", table_id="tls",
                        ca_file=str(tmp_path / "ca.crt")).start()
        assert pub.wait_connected(10)
        pub.publish_event({"seq": 1})
        assert pub.flush(10)
        pub.stop()
        wrong = Publisher(f"mqtts://table1:wrong@localhost:{port}", table_id="tls", client_id="masa-wrong",
                          ca_file=str(tmp_path / "ca.crt")).start()
        assert not wrong.wait_connected(2)
        wrong.kill()
    finally:
        proc.terminate()
        proc.wait(10)


def test_acknowledged_messages_are_not_kept_forever(broker):
    # A table publishing for days must not keep every message it ever sent.
    pub = Publisher(broker.url, table_id="t3", client_id="masa-t3").start()
    assert pub.wait_connected(10)
    infos = []
    for seq in range(1, 3001):
        pub.publish_event({"seq": seq})
        if seq % 500 == 0:
            infos.append(pub._in_flight[-1])
            infos[-1].wait_for_publish(10)
    assert all(info.is_published() for info in infos)
    assert len(pub._in_flight) <= 2048
    pub.stop()


def test_while_the_broker_is_away_only_the_newest_state_waits_beside_every_event():
    from controller.mqtt import Publisher
    pub = Publisher("mqtt://127.0.0.1:1", table_id="t1")   # never started: everything waits
    for i in range(50):
        pub.publish_event({"seq": i + 1, "kind": "move"})
        pub.publish_state({"n": i})
        pub.publish_scoreboard({"lines": [str(i)]})
    assert pub.backlog == 50 + 2


def test_a_stopped_embedded_broker_frees_its_port_at_once(monkeypatch):
    """A broker whose shutdown hangs (amqtt waits on connected clients; ``stop`` gives it two
    seconds) still gives its port back before ``stop`` returns, so the table's broker can start
    again on it.  amqtt closes its listener only at the end of its shutdown: before the fix a
    restart failed with "address already in use" about one time in four in the restart test."""
    import asyncio
    import socket

    from amqtt.broker import Broker

    from controller.broker import EmbeddedBroker

    async def hangs(self):
        await asyncio.sleep(30)

    monkeypatch.setattr(Broker, "shutdown", hangs)
    b = EmbeddedBroker().start()
    b.stop()
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # as asyncio's listeners do
        s.bind(("127.0.0.1", b.port))                              # OSError 98 while it listens
    monkeypatch.undo()
    b.start()
    try:
        assert b.running
    finally:
        b.stop()
