"""What the table knows about a hidden hand (observed play).

At a real table the camera sees only public cards.  Each seat's hand is then
a count plus what is known about it: cards seen going in (a card picked up
from the table, a card shown), and suits the seat has proven to be void in
(it did not follow suit).  Trick games use ``proven_void`` to flag a revoke
the moment later play shows the seat held a card of a suit it claimed not to
have; no flag is ever raised on a guess.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class HiddenHand:
    """A seat's hand as the table knows it."""

    count: int = 0
    known: list[str] = field(default_factory=list)
    void: set[str] = field(default_factory=set)
    # suit -> index of the trick in which the seat showed it had none
    void_since: dict[str, int] = field(default_factory=dict)

    def receive(self, n: int = 1, cards: list[str] | None = None) -> None:
        """The seat takes ``n`` cards; ``cards`` are the ones seen, if any."""
        if n < 0:
            raise ValueError("a hand cannot receive a negative number of cards")
        self.count += n
        if cards:
            self.known.extend(cards)

    def give(self, card: str) -> None:
        """The seat puts ``card`` on the table (seen by the camera)."""
        if self.count <= 0:
            raise ValueError("the seat has no cards left to play")
        self.count -= 1
        if card in self.known:
            self.known.remove(card)

    def prove_void(self, suit: str, trick: int = 0) -> None:
        """The seat did not follow ``suit``: from now on it holds none."""
        if suit not in self.void:
            self.void.add(suit)
            self.void_since[suit] = trick

    def revoke_in(self, card_suit: str) -> int | None:
        """If the seat now plays ``card_suit`` after proving it void in that
        suit, return the trick of the earlier denial, else None."""
        return self.void_since.get(card_suit) if card_suit in self.void else None

    def to_dict(self) -> dict:
        return {"count": self.count, "known": list(self.known),
                "void": sorted(self.void), "void_since": dict(self.void_since)}

    @classmethod
    def from_dict(cls, d: dict) -> "HiddenHand":
        return cls(d["count"], list(d["known"]), set(d["void"]), dict(d.get("void_since", {})))
