"""Macao, as the user's rule texts (000 and 004) describe it; see docs/rules/macao.md.

2 to 6 players, one 52-card pack, 5 cards each, the starter turned face up;
each player in turn puts down cards of the top card's suit or rank, or
draws one.  2, 3 and K make a player draw, 4 makes the next player lose
turns, J asks for a rank and A for a suit.

Deal keys (``create_game("macao", players=N, deal={...})``)
-----------------------------------------------------------
``hands``       list of hands, one list of cards per seat (full information);
``hand_sizes``  instead of ``hands`` in observed mode: cards per seat;
``starter``     the card turned up on the table (required);
``pile``        cards already under the starter, bottom first (default none);
``stock``       the face-down stock, in drawing order (first is drawn first);
                default: the rest of the pack, shuffled with the game's RNG;
``stock_size``  observed mode: cards in the stock (default 52 minus the rest);
``dealer``      the seat that dealt (default the last seat);
``first``       the seat that plays first (default the seat after the dealer);
``penalty``     cards owed by the first player (the starter is a 2, 3 or K);
``skip``        4s faced by the first player (the starter is a 4);
``request``     a standing request ("7" or "H") made by ``requested_by``
                (default the seat before the first player);
``lost_turns``  turns each seat still has to sit out;
``finished``    seats already out of cards, in the order they went out.
Seats are numbered 0..N-1 and play passes from seat s to seat s+1.

Move words (one line of text)
-----------------------------
``7H`` / ``2H 2S``   cards put down, in the order put down (the last is the new
                     top); several cards must be all of one rank or all of one
                     suit, the first one fitting the pile;
``JH ask 7``         a J with a request for a rank (5 6 7 8 9 T Q);
``AS ask H``         an A with a request for a suit (S H D C);
``ask 7``/``ask H``  the same request sent on its own by the player who has just
                     put down the J or A, before the next player moves (how a
                     "request" command from MQTT or a button arrives, the
                     camera having seen the J): it needs no seat, the engine
                     knows who may ask;
``draw``             take one card from the stock; afterwards the same player
                     may put that card down if it fits, or ``pass``; with a
                     penalty pending ``draw`` means ``take``;
``take N`` / ``take`` take the pending penalty (N cards, checked by count);
``pass``             end the turn after drawing, or accept losing the turn to
                     a 4 instead of adding a 4.
Romanian words are accepted too: ``trage`` (draw), ``ia`` (take), ``pas``
(pass), ``cere`` (ask), and ``request`` for ``ask`` (the MQTT command
``{"cmd": "request", "value": "7"}`` becomes the move ``request 7``).

Options (name: default - the quotes are in docs/rules/macao.md)
--------------------------------------------------------------
``starter_effect``: False - a special starter (2 3 4 J K A) has no effect;
``end_rule``: "text" - 2-4 players: the last with cards loses; 5-6: play stops
    when the third player goes out; "last_loses": always play to the last;
    "first_out": stop when the first player goes out;
``four_on_four``: True - a player losing turns to a 4 may put a 4 on it;
``play_drawn_card``: True - the card just drawn may be put down at once if it
    fits (False: drawing ends the turn);
``draw_when_able``: True - a player may draw while holding a card that fits;
``play_after_penalty``: False - taking a penalty ends the turn;
``two_on_three``: "same_suit" - a 2 on a pending 3: "same_suit", "any", "no";
``black_king_target``: "previous" - who draws 5 for a black K ("next" too);
``request_lasts``: "round" - a J/A request holds until the turn comes back
    to the player who asked ("turn": only for the next player);
``jack_on_anything`` / ``ace_on_anything``: False - a J / an A must fit the
    pile like any card.

Observed mode (``observed=True``): hands are hidden (``hand(seat)`` is None,
sizes are counted), a card put down is legal when the pile, the pending
penalty or request and the turn say so; draws are checked by count; after a
``draw`` any card that fits is accepted (the drawn card is unknown).

``scores()`` gives the cards left in each hand (Macao has no points);
``result()`` gives ``finished`` (seats in the order they went out),
``ranking`` (then the rest by fewest cards), ``losers`` and ``loser`` (the
single loser when there is one), ``blocked`` (no one could play or draw).
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from . import cards as C
from .core import OK, Event, Game, Move, Verdict, illegal, register_messages
from .observed import HiddenHand

PENALTY_VALUE = {"2": 2, "3": 3, "K": 5}
REQUESTABLE_RANKS = "56789TQ"
RANDOM_HAND = 5

_WORDS = {"draw": "draw", "trage": "draw", "take": "take", "ia": "take",
          "pass": "pass", "pas": "pass", "ask": "ask", "cere": "ask", "request": "ask"}

register_messages({
    "wrong_suit_or_rank": {"ro": "{card} nu se potrivește: trebuie aceeași culoare sau același număr ca {top_card}.",
                           "en": "The {card} does not fit: it must match the suit or rank of the {top_card}."},
    "mixed_cards": {"ro": "Mai multe cărți se pun doar dacă sunt toate de același număr sau toate de aceeași culoare.",
                    "en": "Several cards go down together only if all have one rank or all have one suit."},
    "must_answer_penalty": {"ro": "Jucătorul {seat_name} trebuie să ia {count} cărți sau să pună 2, 3 sau K.",
                            "en": "Player {seat_name} must take {count} cards or put down a 2, 3 or K."},
    "three_needs_same_suit": {"ro": "Un 3 se pune peste 2 doar de aceeași culoare ({top_card}).",
                              "en": "A 3 goes on a 2 only of the same suit ({top_card})."},
    "two_on_three_needs_same_suit": {"ro": "Un 2 se pune peste 3 doar de aceeași culoare ({top_card}).",
                                     "en": "A 2 goes on a 3 only of the same suit ({top_card})."},
    "two_not_on_three": {"ro": "Peste un 3 nu se pune 2.", "en": "A 2 may not go on a 3."},
    "red_king_needs_red_two": {"ro": "Regele roșu se pune doar peste un 2 roșu sau peste un rege.",
                               "en": "A red king goes only on a red 2 or on a king."},
    "black_king_needs_black_two": {"ro": "Regele negru se pune doar peste un 2 negru sau peste un rege.",
                                   "en": "A black king goes only on a black 2 or on a king."},
    "skip_turn": {"ro": "Jucătorul {seat_name} își pierde rândul: poate pune doar un 4 sau să spună „pas”.",
                  "en": "Player {seat_name} loses the turn: only a 4 or 'pass'."},
    "must_play_requested_rank": {"ro": "S-a cerut {rank}: se pune {rank} sau un valet.",
                                 "en": "A {rank} was asked for: play a {rank} or a jack."},
    "must_play_requested_suit": {"ro": "S-a cerut {suit}: se pune {suit} sau un as.",
                                 "en": "{suit} were asked for: play {suit} or an ace."},
    "not_enough_cards": {"ro": "Jucătorul {seat_name} are doar {count} cărți.",
                         "en": "Player {seat_name} holds only {count} cards."},
    "wrong_penalty_count": {"ro": "Trebuie luate {due} cărți, nu {count}.",
                            "en": "{due} cards must be taken, not {count}."},
    "no_penalty": {"ro": "Nu este nimic de luat.", "en": "There is no penalty to take."},
    "already_drew": {"ro": "Jucătorul a tras deja o carte: o poate pune pe ea sau spune „pas”.",
                     "en": "The player has already drawn: play that card or pass."},
    "only_drawn_card": {"ro": "După tragere se poate pune doar cartea trasă.",
                        "en": "After drawing only the card drawn may be put down."},
    "cannot_pass": {"ro": "Nu se poate spune „pas” acum: puneți o carte sau trageți.",
                    "en": "No passing now: put down a card or draw."},
    "must_play_if_able": {"ro": "Jucătorul are o carte care se potrivește și trebuie să o pună.",
                          "en": "The player holds a card that fits and must play it."},
    "no_request_window": {"ro": "Cererea se face doar de cel care tocmai a pus valetul sau asul.",
                          "en": "Only the player who has just put down the jack or ace may ask."},
    "bad_request": {"ro": "Valetul cere un număr: 5, 6, 7, 8, 9, 10 sau damă; asul cere o culoare.",
                    "en": "A jack asks for a rank (5 6 7 8 9 10 Q); an ace asks for a suit."},
    "blocked": {"ro": "Nimeni nu mai poate pune sau trage.", "en": "No one can play or draw any more."},
})

# The game's own event sentences (Event.message finds them for this game's events).
register_messages({
    "event_played": {"ro": "Jucătorul {seat_name} a pus {cards}.", "en": "Player {seat_name} put down {cards}."},
    "event_drew": {"ro": "Jucătorul {seat_name} a tras {count} carte.", "en": "Player {seat_name} drew {count} card."},
    "event_penalty": {"ro": "Jucătorul {player} are de luat {count} cărți.",
                      "en": "Player {player} has {count} cards to take."},
    "event_penalty_drawn": {"ro": "Jucătorul {seat_name} a luat {count} cărți.",
                            "en": "Player {seat_name} took {count} cards."},
    "event_skip": {"ro": "Jucătorul {player} pierde {count} ture.", "en": "Player {player} loses {count} turns."},
    "event_turn_lost": {"ro": "Jucătorul {seat_name} stă o tură.", "en": "Player {seat_name} loses a turn."},
    "event_request": {"ro": "Jucătorul {seat_name} cere {wanted_rank}{wanted_suit}.",
                      "en": "Player {seat_name} asks for {wanted_rank}{wanted_suit}."},
    "event_request_over": {"ro": "Cererea s-a încheiat.", "en": "The request is over."},
    "event_reshuffle": {"ro": "Teancul s-a amestecat: {count} cărți de tras.",
                        "en": "The pile was shuffled into a new stock of {count} cards."},
    "event_passed": {"ro": "Jucătorul {seat_name} a spus pas.", "en": "Player {seat_name} passed."},
    "event_out": {"ro": "Jucătorul {seat_name} a terminat cărțile (locul {place}).",
                  "en": "Player {seat_name} is out of cards (place {place})."},
    "event_game_over": {"ro": "Jocul s-a terminat; pierde: {losers}.", "en": "Game over; losing: {losers}."},
}, game="macao")


def _colour(card: str) -> str:
    return "red" if C.is_red(card) else "black"


class Macao(Game):
    """Macao (see the module docstring for deal keys, move words and options)."""

    id = "macao"
    title = {"ro": "Macao", "en": "Macao"}
    min_players = 2
    max_players = 6
    default_players = 4
    OPTIONS = {
        "starter_effect": False,
        "end_rule": "text",
        "four_on_four": True,
        "play_drawn_card": True,
        "draw_when_able": True,
        "play_after_penalty": False,
        "two_on_three": "same_suit",
        "black_king_target": "previous",
        "request_lasts": "round",
        "jack_on_anything": False,
        "ace_on_anything": False,
    }
    _CHOICES = {"end_rule": ("text", "last_loses", "first_out"),
                "two_on_three": ("same_suit", "any", "no"),
                "black_king_target": ("previous", "next"),
                "request_lasts": ("round", "turn")}

    def __init__(self, players: int | None = None, seed: int | None = None,
                 deal: dict | None = None, **kwargs: Any):
        if players is None and isinstance(deal, dict):
            sizes = deal.get("hands", deal.get("hand_sizes"))
            if isinstance(sizes, list):
                players = len(sizes)
        super().__init__(players=players, seed=seed, deal=deal, **kwargs)

    # ------------------------------------------------------------------ setup
    def _check_options(self) -> None:
        for name, value in self.options.items():
            default = self.OPTIONS[name]
            if name in self._CHOICES:
                if value not in self._CHOICES[name]:
                    raise ValueError(f"macao option {name} must be one of "
                                     f"{', '.join(self._CHOICES[name])}, not {value!r}")
            elif isinstance(default, bool) and not isinstance(value, bool):
                raise ValueError(f"macao option {name} is true or false, not {value!r}")

    def _setup(self, deal: dict | None, **setup: Any) -> None:
        if setup:
            raise ValueError(f"macao takes no setting(s) {', '.join(sorted(setup))}; "
                             f"use deal= and options=")
        self._check_options()
        n = self.players
        self.hands: list[list[str]] | None = None
        self.hidden: list[HiddenHand] | None = None
        self.stock: list[str] = []     # full information: next card drawn is stock[-1]
        self.stock_count = 0           # observed mode
        self.pile: list[str] = []
        if deal is None:
            pack = C.standard_pack()
            self.rng.shuffle(pack)
            hands = [pack[i * RANDOM_HAND:(i + 1) * RANDOM_HAND] for i in range(n)]
            pack = pack[n * RANDOM_HAND:]
            starter = pack.pop(0)
            self.pile = [starter]
            self.dealer = n - 1
            first = 0
            if self.observed:
                self.hidden = [HiddenHand(count=len(h)) for h in hands]
                self.stock_count = len(pack)
            else:
                self.hands = hands
                self.stock = list(reversed(pack))
        else:
            first = self._setup_deal(deal)
        self.turn = first
        self.penalty: dict | None = None   # {"total", "target", "resume"}
        self.skip: dict | None = None      # {"count", "target"}
        self.request: dict | None = None   # {"kind", "value", "by", "turns_left"}
        self.ask_window: int | None = None
        self.drawn: dict | None = None     # {"card": str | None, "got": int}
        self.lost_turns = [0] * n
        self.finished: list[int] = []
        self.over = False
        self.blocked = False
        self.empty_passes = 0
        if deal is not None:
            self._setup_standing(deal, first)
        if self.options["starter_effect"] and not (self.penalty or self.skip or self.request):
            self._starter_effect(first)

    def _setup_standing(self, deal: dict, first: int) -> None:
        """Deal keys for a position in mid-play: finished, lost_turns, penalty, skip, request."""
        n = self.players
        finished = deal.get("finished", [])
        if (not isinstance(finished, list) or len(set(finished)) != len(finished)
                or not all(isinstance(s, int) and 0 <= s < n for s in finished)):
            raise ValueError(f"deal['finished'] must list distinct seats 0..{n - 1}, in the order they went out")
        if any(self.hand_size(s) for s in finished) or first in finished:
            raise ValueError("a seat in deal['finished'] holds no cards and does not play first")
        if len(finished) >= n - 1:
            raise ValueError("deal['finished'] leaves fewer than two players in the game")
        self.finished = list(finished)
        lost = deal.get("lost_turns", [0] * n)
        if not isinstance(lost, list) or len(lost) != n or not all(isinstance(x, int) and x >= 0 for x in lost):
            raise ValueError(f"deal['lost_turns'] must be {n} counts, one per seat")
        self.lost_turns = list(lost)
        top = self.pile[-1]
        if "penalty" in deal:
            total = deal["penalty"]
            if not isinstance(total, int) or total < 2 or C.rank(top) not in PENALTY_VALUE:
                raise ValueError("deal['penalty'] is a count of 2 or more owed by the first player, "
                                 "with a 2, 3 or K as the starter")
            self.penalty = {"total": total, "target": first, "resume": self._next_active(first)}
        if "skip" in deal:
            count = deal["skip"]
            if not isinstance(count, int) or count < 1 or C.rank(top) != "4" or self.penalty:
                raise ValueError("deal['skip'] is the number of 4s the first player faces, with a 4 as the starter")
            self.skip = {"count": count, "target": first}
        if "request" in deal:
            wanted = self._parse_wanted(str(deal["request"]))
            if wanted not in REQUESTABLE_RANKS and wanted not in C.SUITS:
                raise ValueError(f"deal['request'] is a rank 5-9, T, Q or a suit, not {deal['request']!r}")
            by = deal.get("requested_by", self._prev_active(first))
            if not isinstance(by, int) or not 0 <= by < n or by == first:
                raise ValueError("deal['requested_by'] is the seat that asked (not the first player)")
            turns, seat = 0, first        # the seats still to answer before the turn is back with `by`
            while seat != by:
                turns += self._active(seat)
                seat = (seat + 1) % n
            self.request = {"kind": "suit" if wanted in C.SUITS else "rank", "value": wanted, "by": by,
                            "turns_left": turns if self.options["request_lasts"] == "round" else 1}

    def _setup_deal(self, deal: dict) -> int:
        n = self.players
        if not isinstance(deal, dict):
            raise ValueError("a macao deal is a dict (keys: hands, starter, stock, pile, dealer, first)")
        known = {"hands", "hand_sizes", "stock", "stock_size", "starter", "pile", "dealer", "first",
                 "finished", "lost_turns", "penalty", "skip", "request", "requested_by"}
        unknown = set(deal) - known
        if unknown:
            raise ValueError(f"unknown macao deal key(s): {', '.join(sorted(unknown))}; "
                             f"known: {', '.join(sorted(known))}")
        if "starter" not in deal:
            raise ValueError("a macao deal needs the 'starter' card")

        def card_list(key) -> list[str]:
            value = deal.get(key, [])
            if isinstance(value, str):
                return C.parse_cards(value)
            if not isinstance(value, (list, tuple)):
                raise ValueError(f"deal[{key!r}] must be a list of cards")
            return [self._parse_card(c) for c in value]

        starter = self._parse_card(deal["starter"])
        self.pile = card_list("pile") + [starter]
        hands = None
        if "hands" in deal:
            raw = deal["hands"]
            if (not isinstance(raw, (list, tuple)) or len(raw) != n
                    or not all(isinstance(h, (str, list, tuple)) for h in raw)):
                raise ValueError(f"deal['hands'] must hold {n} hands, one per seat, each a list of cards")
            hands = [C.parse_cards(h) if isinstance(h, str) else [self._parse_card(c) for c in h]
                     for h in raw]
        elif not self.observed:
            raise ValueError("a full-information macao deal needs 'hands' "
                             "(or create the game with observed=True and 'hand_sizes')")
        seen = list(self.pile) + [c for h in hands or [] for c in h]
        stock = card_list("stock") if "stock" in deal else None
        if stock:
            seen += stock
        dup = sorted({c for c in seen if seen.count(c) > 1})
        if dup:
            raise ValueError(f"card(s) dealt twice: {' '.join(dup)}")
        if stock is None and not self.observed:
            stock = [c for c in C.standard_pack() if c not in set(seen)]
            self.rng.shuffle(stock)
        if self.observed:
            if hands is not None:
                sizes = [len(h) for h in hands]
            else:
                sizes = deal.get("hand_sizes")
                if (not isinstance(sizes, (list, tuple)) or len(sizes) != n
                        or not all(isinstance(s, int) and s >= 0 for s in sizes)):
                    raise ValueError(f"deal['hand_sizes'] must be {n} counts, one per seat")
            self.hidden = [HiddenHand(count=s) for s in sizes]
            if stock is not None:
                self.stock_count = len(stock)
            else:
                size = deal.get("stock_size", 52 - len(self.pile) - sum(sizes))
                if not isinstance(size, int) or size < 0:
                    raise ValueError(f"deal['stock_size'] must be a count, not {size!r}; "
                                     f"check hand_sizes and pile against the 52 cards")
                self.stock_count = size
        else:
            self.hands = hands
            self.stock = list(reversed(stock))
        self.dealer = deal.get("dealer", n - 1)
        if not isinstance(self.dealer, int) or not 0 <= self.dealer < n:
            raise ValueError(f"deal['dealer'] must be a seat 0..{n - 1}, not {self.dealer!r}")
        first = deal.get("first", (self.dealer + 1) % n)
        if not isinstance(first, int) or not 0 <= first < n:
            raise ValueError(f"deal['first'] must be a seat 0..{n - 1}, not {first!r}")
        return first

    @staticmethod
    def _parse_card(text) -> str:
        card = C.parse_card(text)
        if C.is_joker(card):
            raise ValueError(f"Macao is played without jokers: {text!r}")
        return card

    def _starter_effect(self, first: int) -> None:
        """Option starter_effect: the starter acts as if put down before the first player."""
        top = self.pile[-1]
        r = C.rank(top)
        if r in PENALTY_VALUE:
            black_king = r == "K" and C.is_black(top) and self.options["black_king_target"] == "previous"
            target = self._prev_active(first) if black_king else first
            resume = self._next_active(first) if target == first else first
            self.penalty = {"total": PENALTY_VALUE[r], "target": target, "resume": resume}
            self.turn = target
        elif r == "4":
            self.skip = {"count": 1, "target": first}

    # ------------------------------------------------------------ seats
    def _active(self, seat: int) -> bool:
        return seat not in self.finished

    def _next_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            s = (seat + step) % self.players
            if self._active(s):
                return s
        return seat

    def _prev_active(self, seat: int) -> int:
        for step in range(1, self.players + 1):
            s = (seat - step) % self.players
            if self._active(s):
                return s
        return seat

    def _active_count(self) -> int:
        return self.players - len(self.finished)

    # ------------------------------------------------------------ properties
    @property
    def to_move(self) -> int:
        return self.turn

    @property
    def is_over(self) -> bool:
        return self.over

    @property
    def top(self) -> str:
        return self.pile[-1]

    def hand(self, seat: int) -> list[str] | None:
        self._seat(seat)
        if self.hands is None:
            return None
        return C.sort_cards(self.hands[seat])

    def hand_size(self, seat: int) -> int:
        self._seat(seat)
        return len(self.hands[seat]) if self.hands is not None else self.hidden[seat].count

    def stock_size(self) -> int:
        return len(self.stock) if self.hands is not None else self.stock_count

    def _drawable(self) -> int:
        return self.stock_size() + len(self.pile) - 1

    def scores(self) -> list[int]:
        """Cards left in each hand (Macao counts no points)."""
        return [self.hand_size(s) for s in range(self.players)]

    def result(self) -> dict:
        rest = sorted((s for s in range(self.players) if s not in self.finished),
                      key=lambda s: (self.hand_size(s), s))
        losers = rest if self.over else []
        return {"over": self.over, "finished": list(self.finished), "ranking": self.finished + rest,
                "losers": losers, "loser": losers[0] if len(losers) == 1 else None,
                "cards_left": self.scores(), "blocked": self.blocked}

    # ------------------------------------------------------------ parsing
    def _parse(self, text: str) -> Move:
        words = text.replace(",", " ").split()
        head = words[0].lower()
        if head in _WORDS:
            kind = _WORDS[head]
            if kind in ("draw", "pass"):
                if len(words) != 1:
                    raise ValueError(f"'{words[0]}' takes nothing after it: {text!r}")
                return Move(kind, kind)
            if kind == "take":
                if len(words) == 1:
                    return Move("take", "take")
                if len(words) == 2 and words[1].isdigit():
                    return Move(f"take {int(words[1])}", "take", data=(int(words[1]),))
                raise ValueError(f"write 'take' or 'take N': {text!r}")
            if len(words) != 2:
                raise ValueError(f"write 'ask' and a rank or a suit, e.g. 'ask 7', 'ask H': {text!r}")
            wanted = self._parse_wanted(words[1])
            return Move(f"ask {wanted}", "ask", arg=wanted)
        lowered = [w.lower() for w in words]
        wanted = None
        for word in ("ask", "cere", "request"):
            if word in lowered:
                i = lowered.index(word)
                if i != len(words) - 2:
                    raise ValueError(f"'ask' comes last, followed by one rank or suit: {text!r}")
                wanted = self._parse_wanted(words[-1])
                words = words[:i]
        played = []
        for w in words:
            try:
                card = self._parse_card(w)
            except ValueError as exc:
                raise ValueError(f"{exc}; macao moves are cards (e.g. '7H', '2H 2S', 'JH ask 7'), "
                                 f"'draw', 'take N', 'pass' or 'ask X'") from None
            if card in played:
                raise ValueError(f"the {card} is written twice in {text!r}")
            played.append(card)
        canon = " ".join(played) + (f" ask {wanted}" if wanted else "")
        return Move(canon, "play", tuple(played), wanted)

    @staticmethod
    def _parse_wanted(word: str) -> str:
        try:
            return C.parse_rank(word)
        except ValueError:
            pass
        try:
            return C.parse_suit(word)
        except ValueError:
            raise ValueError(f"not a rank or a suit to ask for: {word!r} "
                             f"(a jack asks 5-9, T, Q; an ace asks S H D C)") from None

    # ------------------------------------------------------------ the rules
    def _stack_error(self, prev: str, card: str) -> Verdict | None:
        """May ``card`` go on ``prev`` while a penalty is being stacked?"""
        r, p = C.rank(card), C.rank(prev)
        if r not in PENALTY_VALUE:
            return illegal("must_answer_penalty", seat=self.turn,
                           count=self.penalty["total"] if self.penalty else 0)
        if p == "K":
            return None
        if r == p:
            return None
        if r == "3":     # on a 2
            return None if C.suit(card) == C.suit(prev) else illegal("three_needs_same_suit", top_card=prev)
        if r == "2":     # on a 3
            mode = self.options["two_on_three"]
            if mode == "any" or (mode == "same_suit" and C.suit(card) == C.suit(prev)):
                return None
            if mode == "no":
                return illegal("two_not_on_three")
            return illegal("two_on_three_needs_same_suit", top_card=prev)
        # a king on a 2 or a 3
        if p == "2" and _colour(card) == _colour(prev):
            return None
        return illegal("red_king_needs_red_two" if C.is_red(card) else "black_king_needs_black_two")

    def _first_card_error(self, card: str) -> Verdict | None:
        """May ``card`` be the first card put down now?"""
        r = C.rank(card)
        if self.penalty:
            return self._stack_error(self.top, card)
        if self.skip:
            if r == "4" and self.options["four_on_four"]:
                return None
            return illegal("skip_turn", seat=self.turn)
        if (r == "J" and self.options["jack_on_anything"]) or (r == "A" and self.options["ace_on_anything"]):
            return None
        if self.request:
            kind, value = self.request["kind"], self.request["value"]
            if kind == "rank":
                return None if r in (value, "J") else illegal("must_play_requested_rank", rank=value)
            return None if C.suit(card) == value or r == "A" else illegal("must_play_requested_suit", suit=value)
        if r == C.rank(self.top) or C.suit(card) == C.suit(self.top):
            return None
        return illegal("wrong_suit_or_rank", card=card, top_card=self.top)

    def _play_error(self, cards: tuple[str, ...]) -> Verdict | None:
        """The rules for a set of cards put down (not who holds them)."""
        if len(cards) > 1:
            same_rank = len({C.rank(c) for c in cards}) == 1
            same_suit = len({C.suit(c) for c in cards}) == 1
            if not (same_rank or same_suit):
                return illegal("mixed_cards")
        error = self._first_card_error(cards[0])
        if error is not None:
            return error
        if self.penalty:
            for prev, card in zip(cards, cards[1:]):
                error = self._stack_error(prev, card)
                if error is not None:
                    return error
        if self.skip and any(C.rank(c) != "4" for c in cards):
            return illegal("skip_turn", seat=self.turn)
        return None

    def _resolve(self, move, seat):
        """An ``ask`` with no seat comes from the player who may ask."""
        if seat is None and self.ask_window is not None:
            try:
                parsed = self.parse_move(move)
            except ValueError:
                parsed = None
            if parsed is not None and parsed.kind == "ask" and parsed.seat is None:
                seat = self.ask_window
        return super()._resolve(move, seat)

    def check(self, move, seat: int | None = None) -> Verdict:
        """As Game.check, but the player who has just put down a J or an A may
        still ``ask`` after the turn has passed on."""
        m, verdict = self._resolve(move, seat)
        if m is None:
            return verdict
        if m.kind == "ask" and not self.over:
            return self._check(m) if m.seat == self.ask_window else illegal("no_request_window")
        return super().check(m)

    def _check(self, move: Move) -> Verdict:
        seat = move.seat
        if move.kind == "ask":
            if self.ask_window != seat:
                return illegal("no_request_window")
            error = self._ask_error(self.top, move.arg)
            return OK if error is None else error
        if move.kind == "take" or (move.kind == "draw" and self.penalty):
            if not self.penalty:
                return illegal("no_penalty")
            due = min(self.penalty["total"], self._drawable())
            if move.data and move.data[0] != due:
                return illegal("wrong_penalty_count", due=due, count=move.data[0])
            return OK
        if move.kind == "draw":
            if self.skip:
                return illegal("skip_turn", seat=seat)
            if self.drawn:
                return illegal("already_drew")
            if (not self.options["draw_when_able"] and self.hands is not None
                    and any(self._first_card_error(c) is None for c in self.hands[seat])):
                return illegal("must_play_if_able")
            return OK
        if move.kind == "pass":
            if self.drawn or self.skip:
                return OK
            if self.penalty:
                return illegal("must_answer_penalty", seat=seat, count=self.penalty["total"])
            return illegal("cannot_pass")
        # cards put down
        cards = move.cards
        if self.hands is not None:
            for c in cards:
                if c not in self.hands[seat]:
                    return illegal("not_in_hand", card=c)
        elif len(cards) > self.hidden[seat].count:
            return illegal("not_enough_cards", seat=seat, count=self.hidden[seat].count)
        if self.drawn:
            if len(cards) > 1 or self.drawn["got"] == 0 or (
                    self.drawn["card"] is not None and cards[0] != self.drawn["card"]):
                return illegal("only_drawn_card")
        error = self._play_error(cards)
        if error is not None:
            return error
        if move.arg is not None:
            error = self._ask_error(cards[-1], move.arg)
            if error is not None:
                return error
        if self.drawn and self.hands is None:
            return Verdict(True, "ok", {}, sure=False)
        return OK

    @staticmethod
    def _ask_error(card: str, wanted: str) -> Verdict | None:
        r = C.rank(card)
        if r == "J" and wanted in REQUESTABLE_RANKS:
            return None
        if r == "A" and wanted in C.SUITS:
            return None
        return illegal("bad_request")

    # ------------------------------------------------------------ playing
    def _apply(self, move: Move) -> list[Event]:
        seat = move.seat
        events: list[Event] = []
        if move.kind == "ask":
            self._set_request(seat, move.arg, events)
            self.ask_window = None
            return events
        self.ask_window = None
        if move.kind == "take" or (move.kind == "draw" and self.penalty):
            self._take_penalty(seat, events)
        elif move.kind == "draw":
            got = self._draw(seat, 1, events)
            self.drawn = {"card": got[0] if got and self.hands is not None else None, "got": len(got)}
            events.append(Event("drew", seat, {"count": len(got), **({"cards": got} if self.hands else {})}))
            if not self.options["play_drawn_card"]:
                self._end_of_draw_turn(seat, events)
        elif move.kind == "pass":
            if self.drawn:
                events.append(Event("passed", seat))
                self._end_of_draw_turn(seat, events)
            else:  # accepting a 4
                count = self.skip["count"]
                self.skip = None
                self.lost_turns[seat] += count - 1
                events.append(Event("turn_lost", seat, {"left": count - 1}))
                self._turn_done(seat, events)
                self._give_turn(self._next_active(seat), events)
        else:
            self._put_down(seat, move, events)
        return events

    def _end_of_draw_turn(self, seat: int, events: list[Event]) -> None:
        nothing = self.drawn["got"] == 0
        self.drawn = None
        self.empty_passes = self.empty_passes + 1 if nothing else 0
        if nothing and self.empty_passes >= self._active_count():
            self.blocked = True
            self._finish(events)
            return
        self._turn_done(seat, events)
        self._give_turn(self._next_active(seat), events)

    def _draw(self, seat: int, n: int, events: list[Event]) -> list[str]:
        """Take up to ``n`` cards from the stock, reshuffling the pile when it
        runs out; returns the cards (full information) or n placeholders."""
        got: list[str] = []
        for _ in range(n):
            if self.stock_size() == 0:
                if len(self.pile) < 2:
                    break
                under = self.pile[:-1]
                self.pile = self.pile[-1:]
                if self.hands is not None:
                    self.rng.shuffle(under)
                    self.stock = under
                else:
                    self.stock_count = len(under)
                events.append(Event("reshuffle", None, {"count": len(under)}))
            if self.hands is not None:
                card = self.stock.pop()
                self.hands[seat].append(card)
                got.append(card)
            else:
                self.stock_count -= 1
                self.hidden[seat].receive(1)
                got.append("?")
        return got

    def _take_penalty(self, seat: int, events: list[Event]) -> None:
        penalty = self.penalty
        self.penalty = None
        got = self._draw(seat, penalty["total"], events)
        events.append(Event("penalty_drawn", seat,
                            {"count": len(got), **({"cards": got} if self.hands else {})}))
        self.empty_passes = 0
        if self.options["play_after_penalty"]:
            return
        self._turn_done(seat, events)
        self._give_turn(penalty["resume"], events)

    def _put_down(self, seat: int, move: Move, events: list[Event]) -> None:
        cards = move.cards
        for c in cards:
            if self.hands is not None:
                self.hands[seat].remove(c)
            else:
                self.hidden[seat].give(c)
        self.pile.extend(cards)
        self.drawn = None
        self.empty_passes = 0
        events.append(Event("played", seat, {"cards": list(cards)}))
        last = cards[-1]
        if C.rank(last) in "JA" and self.request:
            self.request = None
            events.append(Event("request_over"))
        if self.penalty:
            total = self.penalty["total"] + sum(PENALTY_VALUE[C.rank(c)] for c in cards)
            self._start_penalty(seat, total, last, events)
        elif self.skip:
            self._start_skip(seat, self.skip["count"] + len(cards), events)
        else:
            chain = self._trailing_chain(cards)
            if chain:
                self._start_penalty(seat, chain, last, events)
            fours = 0
            for c in reversed(cards):
                if C.rank(c) != "4":
                    break
                fours += 1
            if fours:
                self._start_skip(seat, fours, events)
        if move.arg is not None:
            self._set_request(seat, move.arg, events)
        elif C.rank(last) in "JA":
            self.ask_window = seat
        if not self.hand_size(seat):
            self.finished.append(seat)
            events.append(Event("out", seat, {"place": len(self.finished)}))
            if self._end_reached():
                self._finish(events)
                return
        self._turn_done(seat, events)
        if self.penalty:
            self.turn = self.penalty["target"]
        elif self.skip:
            self.turn = self.skip["target"]
        else:
            self._give_turn(self._next_active(seat), events)

    def _trailing_chain(self, cards: tuple[str, ...]) -> int:
        """The penalty of the last cards put down: the trailing 2s, 3s and Ks
        that each could stack on the one before them."""
        total = 0
        for i in range(len(cards) - 1, -1, -1):
            card = cards[i]
            if C.rank(card) not in PENALTY_VALUE:
                break
            total += PENALTY_VALUE[C.rank(card)]
            if i == 0 or C.rank(cards[i - 1]) not in PENALTY_VALUE:
                break
            if self._stack_error(cards[i - 1], card) is not None:
                break
        return total

    def _start_penalty(self, seat: int, total: int, last: str, events: list[Event]) -> None:
        if C.rank(last) == "K" and C.is_black(last) and self.options["black_king_target"] == "previous":
            target = self._prev_active(seat)
        else:
            target = self._next_active(seat)
        resume = self._next_active(target) if target == self._next_active(seat) else self._next_active(seat)
        self.penalty = {"total": total, "target": target, "resume": resume}
        events.append(Event("penalty", seat, {"count": total, "target_seat": target, "player": target + 1}))

    def _start_skip(self, seat: int, count: int, events: list[Event]) -> None:
        """``seat`` has put down 4s: the next player faces ``count`` of them."""
        self.skip = {"count": count, "target": self._next_active(seat)}
        events.append(Event("skip", seat, {"count": count, "target_seat": self.skip["target"],
                                           "player": self.skip["target"] + 1}))

    def _set_request(self, seat: int, wanted: str, events: list[Event]) -> None:
        kind = "suit" if wanted in C.SUITS else "rank"
        turns = self._active_count() - 1 if self.options["request_lasts"] == "round" else 1
        self.request = {"kind": kind, "value": wanted, "by": seat, "turns_left": turns}
        events.append(Event("request", seat, {"kind": kind, "value": wanted,
                                              "wanted_rank": wanted if kind == "rank" else "",
                                              "wanted_suit": wanted if kind == "suit" else ""}))

    def _turn_done(self, seat: int, events: list[Event]) -> None:
        """A turn of ``seat`` is over: count it against a standing request."""
        if self.request and self.request["by"] != seat:
            self.request["turns_left"] -= 1
            if self.request["turns_left"] <= 0:
                self.request = None
                events.append(Event("request_over"))

    def _give_turn(self, seat: int, events: list[Event]) -> None:
        """Pass the turn to ``seat``, skipping the turns players have lost to 4s."""
        for _ in range(sum(self.lost_turns) + 1):
            if self.request and self.request["by"] == seat:
                self.request = None
                events.append(Event("request_over"))
            if self.lost_turns[seat] <= 0:
                break
            self.lost_turns[seat] -= 1
            events.append(Event("turn_lost", seat, {"left": self.lost_turns[seat]}))
            self._turn_done(seat, events)
            seat = self._next_active(seat)
        self.turn = seat

    def _end_reached(self) -> bool:
        rule = self.options["end_rule"]
        if self._active_count() <= 1:
            return True
        if rule == "first_out":
            return True
        if rule == "text" and self.players >= 5:
            return len(self.finished) >= 3
        return False

    def _finish(self, events: list[Event]) -> None:
        self.over = True
        self.penalty = self.skip = self.request = self.drawn = None
        self.ask_window = None
        res = self.result()
        events.append(Event("game_over", None, {"ranking": res["ranking"], "loser_seats": res["losers"],
                                                "losers": ", ".join(str(s + 1) for s in res["losers"]),
                                                "blocked": self.blocked}))

    # ------------------------------------------------------------ legal moves
    def _legal_moves(self) -> list[Move]:
        seat = self.turn
        moves: list[Move] = []
        if self.hands is not None:
            candidates = self.hands[seat]
        else:  # observed: any card not in sight
            in_sight = set(self.pile)
            candidates = [c for c in C.standard_pack() if c not in in_sight]
        if self.penalty:
            due = min(self.penalty["total"], self._drawable())
            moves.extend(self._chains(candidates, single=self.hands is None))
            moves.append(Move(f"take {due}", "take", data=(due,)))
            return moves
        if self.drawn:
            if self.drawn["got"]:
                pool = [self.drawn["card"]] if self.hands is not None else candidates
                for c in pool:
                    if self._first_card_error(c) is None:
                        moves.extend(self._with_requests((c,)))
            moves.append(Move("pass", "pass"))
            return moves
        if self.skip:
            if self.options["four_on_four"]:
                fours = [c for c in candidates if C.rank(c) == "4"]
                limit = len(fours) if self.hands is not None else 1
                for k in range(1, limit + 1):
                    for combo in permutations(fours, k):
                        moves.append(self._play_move(combo))
            moves.append(Move("pass", "pass"))
            return moves
        plays = self._plays(candidates, single=self.hands is None)
        moves.extend(plays)
        if self.options["draw_when_able"] or not plays or self.hands is None:
            moves.append(Move("draw", "draw"))
        return moves

    def _play_move(self, cards, wanted: str | None = None) -> Move:
        text = " ".join(cards) + (f" ask {wanted}" if wanted else "")
        return Move(text, "play", tuple(cards), wanted)

    def _with_requests(self, cards) -> list[Move]:
        moves = [self._play_move(cards)]
        last = C.rank(cards[-1])
        if last == "J":
            moves += [self._play_move(cards, w) for w in REQUESTABLE_RANKS]
        elif last == "A":
            moves += [self._play_move(cards, w) for w in C.SUITS]
        return moves

    def _plays(self, hand: list[str], single: bool) -> list[Move]:
        """Every first card that fits, alone and with others of its rank (in
        every order) or of its suit (each set once, in rank order, up to
        three more cards or all of them)."""
        moves: list[Move] = []
        seen: set[tuple] = set()
        for first in hand:
            if self._first_card_error(first) is not None:
                continue
            groups = [(first,)]
            if not single:
                same_rank = [c for c in hand if c != first and C.rank(c) == C.rank(first)]
                for k in range(1, len(same_rank) + 1):
                    groups += [(first, *p) for p in permutations(same_rank, k)]
                same_suit = C.sort_cards(c for c in hand if c != first and C.suit(c) == C.suit(first))
                sizes = set(range(1, min(3, len(same_suit)) + 1)) | ({len(same_suit)} if same_suit else set())
                for k in sorted(sizes):
                    groups += [(first, *combo) for combo in combinations(same_suit, k)]
            for g in groups:
                if g not in seen:
                    seen.add(g)
                    moves.extend(self._with_requests(g))
        return moves

    def _chains(self, hand: list[str], single: bool) -> list[Move]:
        """Every stack of 2s, 3s and Ks that answers the pending penalty."""
        moves: list[Move] = []
        penalty_cards = [c for c in hand if C.rank(c) in PENALTY_VALUE]

        def extend(chain: list[str]) -> None:
            moves.append(self._play_move(chain))
            if single:
                return
            for c in penalty_cards:
                if c in chain:
                    continue
                grown = chain + [c]
                if len({C.rank(x) for x in grown}) > 1 and len({C.suit(x) for x in grown}) > 1:
                    continue
                if self._stack_error(chain[-1], c) is None:
                    extend(chain + [c])

        for c in penalty_cards:
            if self._stack_error(self.top, c) is None:
                extend([c])
        return moves

    # ------------------------------------------------------------ display
    def state(self) -> dict:
        return {"game": self.id, "players": self.players, "to_move": self.turn,
                "top": self.top, "pile_size": len(self.pile), "stock_size": self.stock_size(),
                "pending": ({"kind": "penalty", "count": self.penalty["total"], "seat": self.penalty["target"]}
                            if self.penalty else
                            {"kind": "skip", "count": self.skip["count"], "seat": self.skip["target"]}
                            if self.skip else None),
                "request": ({"kind": self.request["kind"], "value": self.request["value"],
                             "by": self.request["by"]} if self.request else None),
                "drawn": bool(self.drawn), "lost_turns": list(self.lost_turns),
                "hand_sizes": self.scores(), "scores": self.scores(),
                "finished": list(self.finished), "is_over": self.over,
                "observed": self.hands is None}

    def render(self, lang: str = "ro") -> str:
        ro = lang == "ro"
        lines = []
        if self.over:
            losers = ", ".join(str(s + 1) for s in self.result()["losers"])
            lines.append(("Joc terminat; pierde: " if ro else "Game over; losing: ") + losers)
        else:
            lines.append((f"Macao - la mutare: jucătorul {self.turn + 1}" if ro
                          else f"Macao - to move: player {self.turn + 1}"))
        lines.append((f"Sus: {self.top} ({C.card_name(self.top, lang)}); teanc {len(self.pile)}, "
                      f"pachet {self.stock_size()}" if ro else
                      f"Top: {self.top} ({C.card_name(self.top, lang)}); pile {len(self.pile)}, "
                      f"stock {self.stock_size()}"))
        if self.penalty:
            lines.append((f"De luat: {self.penalty['total']} cărți (jucătorul {self.penalty['target'] + 1})"
                          if ro else f"To take: {self.penalty['total']} cards (player {self.penalty['target'] + 1})"))
        if self.skip:
            lines.append((f"Pierde {self.skip['count']} ture: jucătorul {self.skip['target'] + 1}" if ro
                          else f"Loses {self.skip['count']} turns: player {self.skip['target'] + 1}"))
        if self.request:
            wanted = _speakable(self.request["kind"], self.request["value"], lang)
            lines.append((f"Cerere: {wanted} (jucătorul {self.request['by'] + 1})" if ro
                          else f"Request: {wanted} (player {self.request['by'] + 1})"))
        if self.drawn:
            lines.append("A tras; pune cartea sau pas." if ro else "Has drawn: play it or pass.")
        for s in range(self.players):
            mark = ">" if s == self.turn and not self.over else " "
            size = self.hand_size(s)
            cards_text = " ".join(self.hand(s)) if self.hands is not None else ""
            status = ""
            if s in self.finished:
                status = (" ieșit #" if ro else " out #") + str(self.finished.index(s) + 1)
            elif self.lost_turns[s]:
                status = f" (-{self.lost_turns[s]})"
            label = "jucătorul" if ro else "player"
            lines.append(f"{mark} {label} {s + 1}: {size:2d} {cards_text}{status}".rstrip())
        return "\n".join(lines)


def _speakable(kind: str, value: str, lang: str = "ro") -> str:
    if kind == "suit":
        return C.SUIT_NAMES[lang if lang in C.SUIT_NAMES else "en"][value]
    return C.RANK_NAMES[lang if lang in C.RANK_NAMES else "en"][value]
