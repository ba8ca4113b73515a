"""A claim shown at the table, where the server has no solver to prove it: the claimer's
cards lie face up for everyone, the play waits, and each person on the other side
agrees or says "play on". A bot (or a stand-in for a person away) agrees only to a
claim that is sure (``search.agreed_claims``). Once all have agreed the hand is played
out along a line giving the tricks agreed; one "play on", or the claimer taking it back,
and the cards go back into the hand and the play goes on.

The offer and each answer are events of the table's log (kind "claim"), so a claim
survives a restart: ``apply`` reads them back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class ShownClaim:
    """A claim waiting for its answers."""

    seat: int
    """The claimer."""
    tricks: int
    """The tricks claimed, of ``left``."""
    left: int
    cards: list[str]
    """The claimer's cards, shown to everyone while the claim stands."""
    asked: list[int]
    """The seats on the other side that answer it (people's, bots', the dummy's owner's)."""
    agreed: set[int] = field(default_factory=set)

    @property
    def waiting(self) -> list[int]:
        """The seats still to answer."""
        return [s for s in self.asked if s not in self.agreed]

    def fact(self) -> dict[str, Any]:
        """The offer as the log keeps it."""
        return {"offer": {"seat": self.seat, "tricks": self.tricks, "left": self.left,
                          "cards": self.cards, "asked": self.asked,
                          "agreed": sorted(self.agreed)}}

    def view_json(self, name: Callable[[int], str], reader: int | None) -> dict[str, Any]:
        """The claim as a reader's view shows it: who claims what, the cards shown, who is
        still to answer, whether this reader answers (or may take it back), and the
        sentence that says it."""
        claimer = name(self.seat)
        waiting = [name(s) for s in self.waiting]
        text = f"{claimer} claims {self.tricks} of the {self.left} tricks left, cards face up. "
        if reader == self.seat:
            text += f"Waiting for {and_list(waiting)} to agree."
        elif reader in self.waiting:
            text += "Do you agree, or play on?"
        else:
            text += f"Waiting for {and_list(waiting)} to agree, or play on."
        return {
            "seat": self.seat, "name": claimer, "tricks": self.tricks, "left": self.left,
            "cards": self.cards, "waiting": waiting, "text": text,
            "you_answer": reader in self.waiting, "yours": reader == self.seat,
        }


def apply(claim: ShownClaim | None, fact: dict[str, Any]) -> ShownClaim | None:
    """The claim after a logged ``fact``: an offer, an answer ({"answer": seat, "agree":
    bool}) or its taking back ({"withdrawn": seat})."""
    if "offer" in fact:
        offer = fact["offer"]
        return ShownClaim(int(offer["seat"]), int(offer["tricks"]), int(offer["left"]),
                          [str(c) for c in offer["cards"]], [int(s) for s in offer["asked"]],
                          {int(s) for s in offer.get("agreed", [])})
    if claim is None or "withdrawn" in fact or not fact.get("agree"):
        return None
    claim.agreed.add(int(fact["answer"]))
    return claim


def and_list(names: list[str]) -> str:
    """"Bob", "Bob and Cleo", "Bob, Cleo and Dan"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"
