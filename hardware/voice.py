"""The table's voice: espeak-ng in a worker thread, fed by a queue.

``say(text, key)`` never blocks the loop: the text goes into a queue and a
worker thread speaks it (``espeak-ng -v ro`` by default, ``-v en`` by
option).  ``key`` names what is being said about which table (the referee
uses the flag's code plus the scene): the same key twice in a row is said
once, so a flag is not repeated while the table stays unchanged.

Back ends: ``"espeak"`` speaks aloud; ``"wav"`` writes each line to a WAV
file in a folder (for tests and headless machines); ``"print"`` prints what
it would say.  Every line also goes to the log (``echo``).  ``"auto"`` speaks when espeak-ng is installed and a sound
device exists, else prints.  Without espeak-ng, the espeak and wav back ends
fall back to printing and say so.
"""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

VOICES = {"ro": "ro", "en": "en"}
LABEL = {"ro": "voce", "en": "voice"}       # how a spoken line shows in the log


def espeak_path() -> str | None:
    return shutil.which("espeak-ng")


# How many recent entries the record of what was done keeps (tests and the log read it).
KEEP = 1000


class Voice:
    def __init__(self, lang: str = "ro", backend: str = "auto", wav_dir: str | Path | None = None,
                 out=None, rate: int = 160, echo: bool = True):
        self.echo = echo
        if lang not in VOICES:
            raise ValueError(f"voice language must be one of {', '.join(VOICES)}, not {lang!r}")
        if backend not in ("auto", "espeak", "wav", "print"):
            raise ValueError(f"voice backend must be auto, espeak, wav or print, not {backend!r}")
        self.lang = lang
        self.rate = rate
        self.out = out if out is not None else sys.stdout
        exe = espeak_path()
        if backend == "auto":
            backend = "espeak" if exe and Path("/dev/snd").exists() else "print"
        if backend in ("espeak", "wav") and exe is None:
            print("voice: espeak-ng is not installed (apt-get install espeak-ng); printing instead",
                  file=self.out)
            backend = "print"
        if backend == "wav":
            if wav_dir is None:
                raise ValueError("the wav voice back end needs a folder (wav_dir)")
            Path(wav_dir).mkdir(parents=True, exist_ok=True)
        self.backend = backend
        self.exe = exe
        self.wav_dir = Path(wav_dir) if wav_dir is not None else None
        self.spoken: list[str] = []        # every line queued, in order
        self.wavs: list[Path] = []
        self.errors: list[str] = []
        self._last_key = None
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._worker, name="masa-voice", daemon=True)
        self._thread.start()

    def say(self, text: str, key=None) -> bool:
        """Queue ``text``; False when ``key`` equals the previous key (not repeated)."""
        if key is not None and key == self._last_key:
            return False
        self._last_key = key
        self.spoken.append(text)
        del self.spoken[:-KEEP]  # a long session keeps only the recent lines
        self._queue.put(text)
        return True

    def forget(self) -> None:
        """The table changed: the next flag is spoken even if it is the same."""
        self._last_key = None

    def _worker(self) -> None:
        n = 0
        while True:
            text = self._queue.get()
            try:
                if text is None:
                    return
                n += 1
                self._speak(text, n)
            finally:
                self._queue.task_done()

    def _speak(self, text: str, n: int) -> None:
        if self.backend == "print" or self.echo:
            # One write per line, so that it does not tear with the log's lines.
            self.out.write(f"  [{LABEL[self.lang]}] {text}\n")
            self.out.flush()
        if self.backend == "print":
            return
        cmd = [self.exe, "-v", VOICES[self.lang], "-s", str(self.rate)]
        if self.backend == "wav":
            path = self.wav_dir / f"{n:04d}.wav"
            cmd += ["-w", str(path)]
        try:
            subprocess.run(cmd + ["--", text], check=True, timeout=30,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           env={**os.environ, "LC_ALL": "C.UTF-8"})
        except (OSError, subprocess.SubprocessError) as exc:
            self.errors.append(f"{text!r}: {exc}")
            self.out.write(f"  [{LABEL[self.lang]}] espeak-ng: {exc}\n")
            self.out.flush()
            return
        if self.backend == "wav":
            self.wavs.append(path)

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until everything queued was spoken."""
        done = threading.Event()

        def waiter() -> None:
            self._queue.join()
            done.set()

        threading.Thread(target=waiter, daemon=True).start()
        return done.wait(timeout)

    def close(self, timeout: float = 30.0) -> None:
        self.wait_idle(timeout)
        self._queue.put(None)
        self._thread.join(timeout)
