"""The Referee with a scene double: frames are Observations, the reader is the identity."""

import io

import numpy as np

import pytest

from controller.config import load_layout
from controller.journal import Journal
from controller.loop import Referee
from controller.stability import Observation
from hardware.feedback import Feedback
from hardware.voice import Voice


def hand(*zones, n=2):
    return [Observation(None, hand=True, hand_zones=tuple(zones))] * n


def pile(*cards, n=3, unread=0):
    return [Observation({"pile": sorted(cards), "pile_unread": unread})] * n


def board(**points):
    from engine.tintar import POINTS
    return [Observation({"board": {p: points.get(p) for p in POINTS}})] * 3


class Table:
    def __init__(self, kind="macao", players=3, journal=None, lang="ro", publisher=None):
        self.out = io.StringIO()
        self.journal = journal or Journal(":memory:")
        self.voice = Voice(lang, backend="print", out=self.out)
        self.feedback = Feedback(players, pins={"seat_leds": [5, 6, 13][:players], "green": 20, "red": 16,
                                                "buzzer": 12}, mock=True, quiet_buzzer=True)
        self.lines = []
        layout = load_layout(f"macao-{players}" if kind == "macao" else "tintar")
        self.ref = Referee(kind, players, reader=lambda f: f, journal=self.journal, layout=layout,
                           feedback=self.feedback, voice=self.voice, lang=lang, publisher=publisher,
                           log=self.lines.append, options={"play_drawn_card": False} if kind == "macao" else None)

    def play(self, *steps):
        for group in steps:
            for obs in group:
                self.ref.step(obs)

    def kinds(self):
        return [e["kind"] for e in self.journal.entries("event")]

    def close(self):
        self.voice.close()
        self.feedback.close()


@pytest.fixture
def table():
    t = Table()
    yield t
    t.close()


def test_macao_moves_flag_and_put_right(table):
    t = table
    t.play(pile("7H"))
    assert t.ref.game is not None and t.ref.game.state()["top"] == "7H"
    t.play(hand("seat0", "pile"), pile("7H", "8H"))
    # 9C on 8H: illegal, flagged once, spoken with the engine's reason.
    t.play(hand("seat1", "pile"), pile("7H", "8H", "9C"))
    t.play(hand("seat1"), pile("7H", "8H", "9C"))       # a hand comes and goes: not said again
    assert t.feedback.snapshot()["red"]
    t.play(hand("seat1", "pile"), pile("7H", "8H"))     # put right
    assert not t.feedback.snapshot()["red"]
    t.play(hand("seat1", "stock"), pile("7H", "8H"))    # seat 1 draws
    t.play(hand("seat2", "pile"), pile("7H", "8H", "8C"))
    assert t.kinds() == ["game_start", "move", "engine", "score", "illegal", "put_right", "move", "engine",
                         "score", "move", "engine", "score"]
    moves = [(e["seat"], e["move"]) for e in t.journal.entries("event") if e["kind"] == "move"]
    assert moves == [(0, "8H"), (1, "draw"), (2, "8C")]
    illegal = [e for e in t.journal.entries("event") if e["kind"] == "illegal"]
    assert len(illegal) == 1 and illegal[0]["verdict"]["code"] == "wrong_suit_or_rank"
    assert illegal[0]["seat"] == 1
    t.voice.wait_idle()
    said = [line for line in t.voice.spoken if line.startswith("Mutare ilegală")]
    assert said == ["Mutare ilegală: " + illegal[0]["verdict"]["ro"]]
    assert t.feedback.snapshot()["turn"] == [0]
    seqs = [e["seq"] for e in t.journal.entries("event")]
    assert seqs == list(range(1, len(seqs) + 1))


def test_not_your_turn_only_when_the_hand_is_sure(table):
    t = table
    t.play(pile("7H"))
    # Seat 2's hand puts down a card while seat 0 is to move: flagged.
    t.play(hand("seat2", "pile"), pile("7H", "8H"))
    flags = [e for e in t.journal.entries("event") if e["kind"] == "illegal"]
    assert flags and flags[-1]["verdict"]["code"] == "not_your_turn"
    t.play(hand("seat2"), pile("7H"))                   # taken back
    # Hands from two seats: who played is not sure, so it goes to the seat to move.
    t.play(hand("seat1", "seat2", "pile"), pile("7H", "8H"))
    assert [e["move"] for e in t.journal.entries("event") if e["kind"] == "move"] == ["8H"]
    assert len([e for e in t.journal.entries("event") if e["kind"] == "illegal"]) == 1


def test_unclear_never_flags(table):
    t = table
    t.play(pile("7H"))
    t.play(hand("seat0", "pile"), pile("7H", unread=1))         # a card that cannot be read
    t.play(hand("seat0", "pile"), pile())                      # the starter vanished
    kinds = t.kinds()
    assert "illegal" not in kinds
    assert kinds.count("unclear") == 2
    assert not t.feedback.snapshot()["red"]
    assert t.feedback.history[-1] == "unclear"
    t.play(hand("seat0", "pile"), pile("7H"))
    assert t.kinds()[-1] == "put_right"


def test_commands_and_malformed_commands(table):
    t = table
    t.play(pile("7H"))
    n = len(t.kinds())
    assert not t.ref.handle_command(b"{oops", "mqtt")
    assert not t.ref.handle_command(b'{"cmd": "trump", "suit": "H"}', "mqtt")   # not a Macao move
    assert t.kinds()[n:] == ["error", "command_refused"]
    assert t.ref.game.moves == []
    assert t.ref.handle_command({"cmd": "seat_names", "names": ["Ana", "Dan", "Ion"]}, "button")
    assert t.ref.scoreboard()["lines"][0].startswith(">Ana")
    t.play(hand("seat0", "pile"), pile("7H", "JH"))
    assert t.ref.handle_command({"cmd": "request", "value": "7"}, "mqtt")
    assert t.ref.game.state()["request"]["value"] == "7"
    assert t.ref.handle_command({"cmd": "undo"}, "cli")
    assert t.ref.handle_command({"cmd": "undo"}, "cli")
    assert t.ref.game.moves == []
    assert t.ref.reference == {"pile": ["7H"], "pile_unread": 0}
    assert t.ref.handle_command({"cmd": "new_game"}, "mqtt")
    assert t.ref.game is None and t.ref.game_no == 2
    cmds = t.journal.entries("command")
    assert [c["ok"] for c in cmds] == [False, True, True, True, True, True, True]


def test_tintar_through_the_loop():
    t = Table("tintar", 2)
    try:
        t.play(board())
        t.play(hand("seat0"), board(d2="white"))
        t.play(hand("seat1"), board(d2="white", a1="black"))
        t.play(hand("seat1"), board(d2="white", a1="black", g7="black"))   # black twice: not its turn
        flags = [e for e in t.journal.entries("event") if e["kind"] == "illegal"]
        assert [f["verdict"]["code"] for f in flags] == ["not_your_turn"]
        t.play(hand("seat1"), board(d2="white", a1="black"))
        t.play(hand("seat0"), board(d2="white", a1="black", a4="white", d6="black"))  # two pieces at once
        assert t.kinds()[-1] == "unclear"
        assert [e["move"] for e in t.journal.entries("event") if e["kind"] == "move"] == ["d2", "a1"]
    finally:
        t.close()


def test_resume_after_kill(tmp_path):
    path = tmp_path / "j.db"
    t = Table(journal=Journal(path))
    t.play(pile("7H"), hand("seat0", "pile"), pile("7H", "8H"), hand("seat1", "pile"), pile("7H", "8H", "9C"))
    state = t.ref.state()
    seq = t.ref.seq
    t.close()
    # A new process: same journal.
    t2 = Table(journal=Journal(path))
    assert t2.ref.resume()
    assert t2.ref.state() == state
    assert t2.ref.seq == seq
    t2.play(hand("seat1", "pile"), pile("7H", "8H"), hand("seat1", "pile"), pile("7H", "8H", "8S"))
    assert [e["move"] for e in t2.journal.entries("event") if e["kind"] == "move"] == ["8H", "8S"]
    seqs = [e["seq"] for e in t2.journal.entries("event")]
    assert seqs == list(range(1, len(seqs) + 1))
    t2.close()


def test_a_camera_that_stops_sending_frames_is_reported_and_the_game_waits(table):
    from gpiozero import Device

    from hardware.camera import Resilient, ScriptedSource

    t = table
    clock = [0.0]
    stall = [ScriptedSource.STALL] * 6
    frames = pile("7H") + hand("seat0", "pile") + stall + pile("7H", "8H") + hand("seat1", "pile") + \
        pile("7H", "8H", "9C")

    def script():
        for f in frames:
            clock[0] += 1.0
            yield f

    source = Resilient(ScriptedSource(script()), on_status=t.ref.on_camera, stall_seconds=2.5, min_backoff=0.0,
                       clock=lambda: clock[0], sleep=lambda s: None)
    t.ref.run(source)
    kinds = t.kinds()
    camera = [e["status"] for e in t.journal.entries("event") if e["kind"] == "camera"]
    assert camera == ["lost", "back"]
    assert kinds.index("camera") < kinds.index("move")
    assert [e["move"] for e in t.journal.entries("event") if e["kind"] == "move"] == ["8H"]
    assert any("Camera nu mai trimite" in line for line in t.voice.spoken)
    # The illegal 9C: the red LED pin is high, the green one low, seat 2's LED still lit.
    assert Device.pin_factory.pin(16).state == 1 and Device.pin_factory.pin(20).state == 0
    assert [Device.pin_factory.pin(p).state for p in (5, 6, 13)] == [0, 1, 0]
    t.feedback.wait()
    assert t.feedback.history[-2:] == ["good", "illegal"]


def test_a_card_the_camera_is_not_sure_of_is_never_flagged(table):
    t = table
    t.play(pile("7H"))
    # 9C would be illegal on 7H, but the reader was not sure of it: the table is asked, not flagged.
    t.play(hand("seat0", "pile"), [Observation({"pile": ["7H", "9C"], "unsure": ["9C"]})] * 3)
    assert "illegal" not in t.kinds()
    assert t.kinds()[-1] == "unclear"
    assert not t.feedback.snapshot()["red"]
    # Put back, then the same card read with certainty is flagged.
    t.play(hand("seat0", "pile"), pile("7H"))
    t.play(hand("seat0", "pile"), [Observation({"pile": ["7H", "9C"], "unsure": []})] * 3)
    assert t.kinds()[-1] == "illegal"


def test_buttons_give_the_same_commands_as_mqtt(table):
    from gpiozero import Device

    from hardware.buttons import Buttons

    t = table
    buttons = Buttons({22: {"cmd": "undo"}, 23: {"cmd": "new_game"}},
                      lambda cmd: t.ref.commands.put((cmd, "button")), mock=True)
    try:
        t.play(pile("7H"), hand("seat0", "pile"), pile("7H", "8H"))
        Device.pin_factory.pin(22).drive_low()      # undo
        Device.pin_factory.pin(22).drive_high()
        t.ref.drain_commands()
        assert t.ref.game.moves == [] and t.kinds()[-1] == "undo"
        Device.pin_factory.pin(23).drive_low()      # new game
        t.ref.drain_commands()
        assert t.ref.game is None and t.ref.game_no == 2
        assert [c["source"] for c in t.journal.entries("command")] == ["button", "button"]
    finally:
        buttons.close()


def test_after_the_game_nothing_is_flagged(table):
    t = table
    t.ref.handle_command({"cmd": "new_game", "players": 2}, "cli")
    assert t.ref.players == 2
    t.play(pile("7H"))
    game = t.ref.game
    # Seat 0 holds 5 cards; play them all (hidden hands: any fitting card is accepted).
    for seat_cards in (["8H"], ["8C"], ["9C"], ["9D"], ["TD"], ["TS"], ["JS"], ["JH"], ["QH"]):
        seat = game.to_move
        t.play(hand(f"seat{seat}", "pile"), pile("7H", *seat_cards))
        if game.is_over:
            break
    assert game.is_over
    n = len(t.kinds())
    t.play(hand("seat0", "pile"), pile())                # the cards are gathered
    t.play(hand("seat1", "pile"), pile("2S"))
    assert len(t.kinds()) == n
    assert not t.feedback.snapshot()["red"]


def test_an_old_card_peeking_out_of_the_pile_is_not_a_move(table):
    t = table
    t.play(pile("7H"), hand("seat0", "pile"), pile("8H"))
    # 8C goes on top and the corner of the 7H under it shows again.
    t.play(hand("seat1", "pile"), pile("7H", "8C"))
    assert [e["move"] for e in t.journal.entries("event") if e["kind"] == "move"] == ["8H", "8C"]
    assert "illegal" not in t.kinds()


def test_after_an_unclear_change_nothing_is_flagged_until_the_table_settles(table):
    t = table
    t.play(pile("7H"))
    # Seat 0 puts down a card the camera cannot read: unclear.
    t.play(hand("seat0", "pile"), pile("7H", unread=1))
    # Seat 1 then plays 9C, which the engine would call out of turn: not flagged,
    # the camera may have missed seat 0's move.
    t.play(hand("seat1", "pile"), pile("7H", "9C", unread=1))
    assert "illegal" not in t.kinds() and t.kinds()[-1] == "unclear"
    # The table is put back as the game knows it: settled; now a flag counts again.
    t.play(hand("seat1", "pile"), pile("7H"))
    assert t.kinds()[-1] == "put_right"
    t.play(hand("seat1", "pile"), pile("7H", "9C"))
    assert t.kinds()[-1] == "illegal"


def test_an_unsure_extra_card_does_not_stop_a_legal_move(table):
    t = table
    t.play(pile("7H"))
    # 8H read with certainty, and a ghost KS the reader was not sure of.
    t.play(hand("seat0", "pile"), [Observation({"pile": ["8H", "KS"], "unsure": ["KS"]})] * 3)
    assert [e["move"] for e in t.journal.entries("event") if e["kind"] == "move"] == ["8H"]
    assert "illegal" not in t.kinds()


@pytest.mark.parametrize("bad", [None, "frame", np.zeros((60, 80), np.uint8), np.zeros((60, 80, 3), np.float32),
                                 np.zeros((60, 80, 4), np.uint8), np.zeros((0, 0, 3), np.uint8)])
def test_a_bad_frame_is_reported_once_and_changes_nothing(bad):
    # A camera that hands over None or a picture of the wrong type or shape:
    # the real reader refuses it with a reason, the loop logs it once, goes on.
    from controller.readers import TintarReader
    from engine.tintar import POINTS

    lines = []
    journal = Journal(":memory:")
    ref = Referee("tintar", 2, reader=TintarReader(read=lambda f: {p: None for p in POINTS}),
                  journal=journal, log=lines.append)
    good = np.full((60, 80, 3), 90, np.uint8)
    for frame in (good, good, good, bad, bad, good, good, good):
        ref.step(frame)
    assert [line for line in lines if "cadru de nefolosit" in line and "BGR picture" in line][:1] \
        and sum("cadru de nefolosit" in line for line in lines) == 1
    assert ref.game.moves == [] and journal.count("event") == 1     # game_start only


def test_a_stable_scene_and_its_move_are_one_synced_journal_write(table):
    # Each journal write is a synced transaction: a move read from the table
    # is written once, its scene first, not the scene and then the move.
    t = table
    t.play(pile("7H"))
    writes = []
    real = t.journal.write
    t.journal.write = lambda *rows: (writes.append([k for k, _ in rows]), real(*rows))[1]
    t.play(hand("seat0", "pile"), pile("7H", "8H"))
    assert len(writes) == 1 and writes[0][:3] == ["scene", "move", "verdict"] and "event" in writes[0]
    t.play(hand("seat0"), pile("7H", "8H", "9C", n=1), pile("7H", "8H"))   # nothing new: the scene alone
    assert len(writes) == 2 and writes[1] == ["scene"]
    assert [e["kind"] for e in t.journal.entries()][-1] == "scene"
