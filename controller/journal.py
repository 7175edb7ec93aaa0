"""The game journal: every stable scene, move, verdict, command and event, in SQLite.

One table ``entries`` (id, time, kind, data as JSON) in WAL mode, written
with ``synchronous=FULL`` so a power cut or ``kill -9`` keeps every entry
that was committed.  After each change of the game the referee writes a
``snapshot`` entry in the same transaction as the move: the whole game
(``Game.to_json()``), the reference scene the next move is read against,
the next event sequence number and where the frame source was.  Resuming is
reading the last snapshot.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from pathlib import Path

KINDS = ("scene", "move", "verdict", "command", "event", "snapshot", "unclear", "note")

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id    INTEGER PRIMARY KEY AUTOINCREMENT,
    ts    REAL NOT NULL,
    kind  TEXT NOT NULL,
    data  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_kind ON entries(kind, id);
"""


class Journal:
    """An append-only SQLite journal (":memory:" for a throwaway one)."""

    def __init__(self, path: str | Path = ":memory:"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.executescript(SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"journal {self.path}: not a Masa journal ({exc})") from None
        self._lock = threading.Lock()

    def close(self) -> None:
        self.db.close()

    def write(self, *entries: tuple[str, dict]) -> None:
        """Append entries (kind, data) in one transaction: all or none."""
        for kind, _ in entries:
            if kind not in KINDS:
                raise ValueError(f"unknown journal entry kind {kind!r}")
        now = time.time()
        with self._lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self.db.executemany(
                    "INSERT INTO entries (ts, kind, data) VALUES (?, ?, ?)",
                    [(now, kind, json.dumps(data, ensure_ascii=False, sort_keys=True))
                     for kind, data in entries])
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def entries(self, kind: str | None = None, after: int = 0) -> list[dict]:
        """Entries in order, each as {"id", "ts", "kind", **data}."""
        with self._lock:
            if kind is None:
                rows = self.db.execute("SELECT id, ts, kind, data FROM entries WHERE id > ? ORDER BY id",
                                       (after,)).fetchall()
            else:
                rows = self.db.execute("SELECT id, ts, kind, data FROM entries WHERE kind = ? AND id > ? "
                                       "ORDER BY id", (kind, after)).fetchall()
        return [{"id": i, "ts": ts, "kind": k, **json.loads(d)} for i, ts, k, d in rows]

    def _one(self, sql: str, params: tuple) -> dict | None:
        """One entry as {"id", "ts", "kind", **data}, or None; a damaged
        journal file or entry is a ValueError naming the file."""
        try:
            with self._lock:
                row = self.db.execute(sql, params).fetchone()
            if row is None:
                return None
            i, ts, k, d = row
            data = json.loads(d)
            if not isinstance(data, dict):
                raise ValueError(f"entry {i} is not a JSON object")
        except (sqlite3.DatabaseError, ValueError) as exc:
            raise ValueError(f"journal {self.path} is damaged: {exc}") from None
        return {"id": i, "ts": ts, "kind": k, **data}

    def last(self, kind: str) -> dict | None:
        return self._one("SELECT id, ts, kind, data FROM entries WHERE kind = ? ORDER BY id DESC LIMIT 1", (kind,))

    def last_snapshot(self, game: str | None = None) -> dict | None:
        """The state to resume from (of ``game`` when given: a demo journal
        holds a Macao and a Tintar game), or None."""
        if game is None:
            return self.last("snapshot")
        return self._one("SELECT id, ts, kind, data FROM entries WHERE kind = 'snapshot' AND "
                         "json_extract(data, '$.kind_of_game') = ? ORDER BY id DESC LIMIT 1", (game,))

    def count(self, kind: str | None = None) -> int:
        with self._lock:
            if kind is None:
                return self.db.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
            return self.db.execute("SELECT COUNT(*) FROM entries WHERE kind = ?", (kind,)).fetchone()[0]
