"""The double-dummy solver against the plain-minimax reference, on small positions of
every game (every card order the games use, jokers, low aces, leading restrictions, 3, 4
and 5 seats), and its legal moves against the engine's."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tricktable.engine.cards import JOKERS, NO_SUIT, card, cards_of, parse_card, parse_set
from tricktable.engine.order import CardOrder
from tricktable.search.position import Move, PlayRules, Position, play, position_of
from tricktable.search.random_positions import (
    GAME_SETTINGS,
    random_bridge_position,
    random_play_state,
)
from tricktable.search.reference import reference_move_values, reference_tricks
from tricktable.search.solver import Solver, shared_solver, side_of

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
IDS = [f"{name}{''.join(f'-{k}={v}' for k, v in opts.items())}" for name, opts in GAME_SETTINGS]


def questions(state_seat: int, side: int, num_seats: int) -> list[tuple[int, int]]:
    """(counted, maximizers): the side; the seat alone (paranoid); a nil of the seat."""
    everyone = (1 << num_seats) - 1
    return [(side, side), (1 << state_seat, 1 << state_seat), (1 << state_seat, everyone & ~side)]


@pytest.mark.parametrize(("name", "options"), GAME_SETTINGS, ids=IDS)
@settings(max_examples=80, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_solver_equals_reference(name: str, options: dict[str, object], seed: int) -> None:
    rng = random.Random(seed)
    state = random_play_state(name, options, rng, rng.choice((1, 2, 3)))
    pos = position_of(state)
    seat = state.to_act
    solver = shared_solver()
    for counted, maximizers in questions(seat, side_of(state, seat), pos.num_seats):
        expected = reference_tricks(pos, counted, maximizers)
        assert solver.tricks(pos, counted, maximizers) == expected, (counted, maximizers, pos)


@pytest.mark.parametrize(("name", "options"), GAME_SETTINGS, ids=IDS)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_legal_moves_are_the_engines(name: str, options: dict[str, object], seed: int) -> None:
    """Deep in the hand or early, the solver's playable cards are the engine's hooks'."""
    rng = random.Random(seed)
    state = random_play_state(name, options, rng, rng.randint(1, 13))
    game = state.game
    pos = position_of(state)
    hand = state.hands[state.to_act]
    engine = game.follow_mask(state, hand) if state.trick_cards else game.lead_mask(state, hand)
    assert pos.legal_cards() == engine
    if not options.get("honour"):
        assert pos.legal_cards() == game.legal_plays(state)
    low = {a.card for a in game.legal_actions(state) if getattr(a, "ace_low", False)}
    assert {m.card for m in pos.legal_moves() if m.low} == low


@pytest.mark.parametrize(("name", "options"), GAME_SETTINGS, ids=IDS)
@settings(max_examples=8, deadline=None, derandomize=True)
@given(seed=SEEDS)
def test_value_is_the_best_child(name: str, options: dict[str, object], seed: int) -> None:
    """A position's value is the best of its children's for the seat to play, on bigger
    positions than the reference can afford."""
    rng = random.Random(seed)
    state = random_play_state(name, options, rng, rng.choice((4, 5, 6)))
    pos = position_of(state)
    side = side_of(state, state.to_act)
    solver = shared_solver()
    value = solver.tricks(pos, side)
    children = [v for _, v in solver.move_values(pos, side)]
    assert value == max(children)
    # and from a defender's chair the same position is the rest of the tricks
    other = ((1 << pos.num_seats) - 1) & ~side
    assert solver.tricks(pos, other) == pos.tricks_left - value


def test_move_values_match_the_reference() -> None:
    rng = random.Random(5)
    solver = Solver()
    for name, options in GAME_SETTINGS:
        state = random_play_state(name, options, rng, 2)
        pos = position_of(state)
        side = side_of(state, state.to_act)
        assert solver.move_values(pos, side) == reference_move_values(pos, side, side)


# --- hand-made positions ------------------------------------------------------------------


def four_hands(*texts: str) -> tuple[int, ...]:
    return tuple(parse_set(t) for t in texts)


NO_RULES = PlayRules()


def simple(hands: tuple[int, ...], order: CardOrder, rules: PlayRules = NO_RULES,
           to_act: int = 0, broken: bool = False) -> Position:
    n = len(hands)
    return Position(
        hands, tuple((s + 1) % n for s in range(n)), to_act, (), 0, -1, n, order, broken,
        rules, (0,) * n,
    )



def known_at_first_node(pos: Position, side: int, target: int) -> bool:
    """The solver's answer to "does ``side`` take ``target`` tricks?", which a bound must
    give at the first node, with no search."""
    solver = Solver(table_bits=10)
    answer = solver.at_least(pos, side, side, target)
    assert solver.nodes == 1
    return answer

def test_a_squeeze_counted_by_hand() -> None:
    """No trump, North to lead, North-South take all three tricks by a simple squeeze:
    South cashes... here the count is checked against the reference and by hand: the
    ace of spades, then the long heart, and the diamond both make."""
    hands = four_hands("AS 2H 2D", "KS KH 3D", "3S 4H AD", "4S 5H 4D")
    pos = simple(hands, CardOrder())
    assert shared_solver().tricks(pos, 0b0101) == reference_tricks(pos, 0b0101, 0b0101)


def test_spades_not_broken_changes_the_lead() -> None:
    """Seat 0 holds the ace of spades and a small heart: with spades unbroken only the
    heart may lead (and the opponents make their king of hearts and then their long
    diamond); with them broken the ace leads too."""
    hands = four_hands("AS 2H 2C", "KH 3D 4D", "3C 4C 5C", "3H 5D 6D")
    spade_mask = parse_set(" ".join(f"{r}S" for r in "23456789TJQKA"))
    rules = PlayRules(lead_blocked_until_broken=spade_mask)
    order = CardOrder(trump=0)
    unbroken = simple(hands, order, rules)
    assert unbroken.legal_moves() == [Move(card(0, 1)), Move(card(0, 3))]
    broken = simple(hands, order, rules, broken=True)
    assert Move(card(12, 0)) in broken.legal_moves()
    for pos in (unbroken, broken):
        assert shared_solver().tricks(pos, 0b0101) == reference_tricks(pos, 0b0101, 0b0101)


def test_a_low_ace_ducks_a_nil() -> None:
    """3B with ace calls: the nil seat holds only the ace of hearts and must follow a heart
    lead; called low it loses to the two."""
    hands = four_hands("2H 3C", "AH 4C", "5C 6C", "7C 8C")
    order = CardOrder(trump=0)
    ace_of_hearts = card(12, 1)
    rules = PlayRules(ace_low=1 << ace_of_hearts)
    pos = simple(hands, order, rules)
    nil_seat = 1
    everyone_else = 0b1101
    assert shared_solver().nil_makeable(pos, nil_seat, 1 << nil_seat)
    assert not shared_solver().nil_makeable(simple(hands, order), nil_seat, 1 << nil_seat)
    assert reference_tricks(pos, 1 << nil_seat, everyone_else) == 0


def test_a_nil_holding_the_lowest_cards_of_its_suits_and_no_trump_is_safe_at_once() -> None:
    """Seat 1 bid nil and holds only the lowest hearts, clubs and diamonds in play, no
    spade: whatever is led beats its cards or finds it void, so it can never be made to
    win a trick. The solver knows it at the first node, without searching."""
    hands = four_hands("3S 5H 6C 7D", "2H 3H 2C 2D", "4S 6H 3C 3D", "5S 4H 4C 4D")
    pos = simple(hands, CardOrder(trump=0))
    nil_seat, nil_side = 1, 0b1010
    assert reference_tricks(pos, 1 << nil_seat, 0b0101) == 0
    solver = Solver(table_bits=10)
    assert solver.nil_makeable(pos, nil_seat, nil_side)
    assert solver.nodes == 1
    # one card above another seat's (the 4H over the 3H), and the bound no longer holds
    higher = four_hands("3S 5H 6C 7D", "2H 4H 2C 2D", "4S 6H 3C 3D", "5S 3H 4C 4D")
    pos = simple(higher, CardOrder(trump=0))
    solver = Solver(table_bits=10)
    assert solver.nil_makeable(pos, nil_seat, nil_side) == (
        reference_tricks(pos, 1 << nil_seat, 0b0101) == 0)
    assert solver.nodes > 1


def test_a_nil_search_orders_moves_for_the_nil() -> None:
    """The first deal of dummy-hand-spades-11-001.json: seat 1 bid nil holding AH KH AD
    KD; seat 2 plays after it, then 0, then 3. It cannot be made, and the proof takes few
    nodes when the breakers lead low into its suits, take the lead back when its partner
    covers and play under it, and its side ducks and overtakes it (the nil weights). The
    weights of a side playing for its own tricks (win the trick) took 8.5 million nodes
    here, the nil weights about 0.23 million."""
    hands = four_hands(
        "JS 7S 4S TH 9H 6H 2H JD 7D 5D AC 8C 3C", "AH KH JH 5H 3H AD KD QD 4D 2D JC TC 6C",
        "AS QS 8S 6S 5S 3S 8D KC QC 9C 7C 5C 2C", "KS TS 9S 2S QH 8H 7H 4H TD 9D 6D 3D 4C")
    spades = parse_set(" ".join(f"{r}S" for r in "23456789TJQKA"))
    pos = Position(hands, (3, 2, 0, 1), 1, (), 0, -1, 4, CardOrder(trump=0), False,
                   PlayRules(lead_blocked_until_broken=spades), (0, 0, 0, 0))
    solver = Solver()
    assert not solver.nil_makeable(pos, 1, 0b0011)
    assert solver.nodes < 1_000_000


def test_each_top_trump_of_a_lone_seat_takes_a_trick_whatever_it_does() -> None:
    """Seat 1 holds the ace and king of spades, the highest trumps: each wins the trick it
    is played to, even with seat 1 playing to lose (a nil) - two tricks at least, known
    at the first node."""
    hands = four_hands("3S 5H 6C 7D", "AS KS 2H 2C", "4S 6H 3C 3D", "5S 4H 4C 4D")
    pos = simple(hands, CardOrder(trump=0))
    counted, breakers = 0b0010, 0b0101
    solver = Solver(table_bits=10)
    assert solver.at_least(pos, counted, breakers, 2)
    assert solver.nodes == 1
    assert solver.tricks(pos, counted, breakers) == reference_tricks(pos, counted, breakers)


def test_a_long_suit_whose_ace_drops_an_honour_is_cashed_at_once() -> None:
    """No trump, North to lead the ace, ten and four of clubs: West's king falls under
    the ace, East's eight under the ten, and the four is then the only club left: three
    tricks, known at the first node (the top run alone is the ace: one)."""
    hands = four_hands("AC TC 4C", "8C 5C 2D", "2S 3S 4S", "KC 3D 4D")
    pos = simple(hands, CardOrder())
    assert reference_tricks(pos, 0b0101, 0b0101) == 3
    assert known_at_first_node(pos, 0b0101, 3)


def test_a_finesse_through_the_second_hand_is_two_quick_tricks() -> None:
    """No trump, South to lead a small club towards North's ace-queen, with West (who
    plays between them) holding the king: if West plays it the ace takes it, if not the
    queen wins; either way North-South take two club tricks, known at the first node."""
    hands = four_hands("AC QC 2S", "3D 4D 5D", "6C 7C 2D", "KC JC 4S")
    pos = simple(hands, CardOrder(), to_act=2)
    assert reference_tricks(pos, 0b0101, 0b0101) == 2
    assert known_at_first_node(pos, 0b0101, 2)


def test_the_second_and_third_trumps_of_one_side_take_a_trick() -> None:
    """Spades trump, North holds the ace; West the king with another trump and East the
    queen: the ace can fall on one of them only, so East-West take a trump trick and
    North-South cannot take all three, known at the first node (they take one)."""
    hands = four_hands("AS 2H 3H", "QS 2D 3D", "4H 5H 6H", "KS 4S 4D")
    pos = simple(hands, CardOrder(trump=0))
    assert reference_tricks(pos, 0b0101, 0b0101) == 1
    assert not known_at_first_node(pos, 0b0101, 3)


def test_second_hand_takes_the_trick_and_cashes_its_other_aces() -> None:
    """No trump, West leads a spade: North's ace takes the trick whatever East and South
    play, and North then cashes the aces of hearts and diamonds: North-South take all
    three, known at North's node, second to play (DDS's quick tricks of the second hand)."""
    hands = four_hands("AS AH AD", "KS KH KD", "QS QH QD", "2S JH JD")
    pos, _ = play(simple(hands, CardOrder(), to_act=3), Move(parse_card("2S")))
    assert reference_tricks(pos, 0b0101, 0b0101) == 3
    assert known_at_first_node(pos, 0b0101, 3)


def test_second_hand_cashes_the_led_suit_only_when_it_holds_its_two_highest() -> None:
    """No trump, West leads the two of spades from the ace: North's king takes the trick,
    but his queen is not a winner after it (the ace is still out). North-South take two
    tricks (the king and the ace of hearts), not three."""
    hands = four_hands("KS QS AH", "4S 5S 6H", "7H 8H 9H", "AS 2S 3H")
    pos, _ = play(simple(hands, CardOrder(), to_act=3), Move(parse_card("2S")))
    assert reference_tricks(pos, 0b0101, 0b0101) == 2
    assert Solver(table_bits=10).tricks(pos, 0b0101) == 2


def test_the_leader_cashes_only_the_rounds_his_partner_can_spare_cards_for() -> None:
    """No trump, East to lead: his ace and king of clubs and West's ace and king of hearts
    (reached by the two of hearts) are four winners, but West has one card to spare while
    East cashes; East cashes one club and leads the heart: East-West take all three
    tricks, known at the first node (counting both clubs, the route had failed)."""
    hands = four_hands("QC JC 3H", "AC KC 2H", "TC 4H 4D", "AH KH 3D")
    pos = simple(hands, CardOrder(), to_act=1)
    assert reference_tricks(pos, 0b1010, 0b1010) == 3
    assert known_at_first_node(pos, 0b1010, 3)


def test_a_suit_cashed_by_the_leader_is_not_counted_again_for_his_partner() -> None:
    """Hearts trump, North to lead: his jack of diamonds wins a round over South's six,
    and South's ace of spades and king of diamonds are winners too; but once the diamonds
    have gone round East (with the king of trumps) is void and ruffs the king. North-South
    take two tricks, not three (a deal where DDS caught the double count)."""
    hands = four_hands("QS JD 7D", "5S KH 8D", "AS KD 6D", "4D TC 7C")
    pos = simple(hands, CardOrder(trump=1))
    assert reference_tricks(pos, 0b0101, 0b0101) == 2
    assert Solver(table_bits=10).tricks(pos, 0b0101) == 2


def test_an_ace_that_may_be_called_low_is_not_the_joker_above_it() -> None:
    """3B, five players: the ace of spades and the joker above it are no run to play as
    one card, since only the ace may later be called low (a search that merged them kept
    the joker and missed the line that forces the nil seat to take a trick)."""
    hands = (
        0, parse_set("JD 7D 3C"), parse_set("BJ AS TH"), parse_set("JS 5D 4C"),
        parse_set("5S 2D JC"),
    )
    aces = sum(1 << card(12, s) for s in range(4))
    pos = Position(
        hands, (1, 2, 3, 4, 1), 4, (), 0, -1, 4, CardOrder(trump=0), True,
        PlayRules(ace_low=aces), (0, 2, 3, 0, 5),
    )
    nil_seat, others = 1 << 4, 0b01111
    assert reference_tricks(pos, nil_seat, others) == 1
    assert Solver().tricks(pos, nil_seat, others) == 1


def test_no_trump_jokers_never_win_and_lead_last() -> None:
    """Whist no-trump: a joker is of no suit and never wins; it may lead only alone."""
    order = CardOrder(trump=-1, jokers_trump=False)
    hands = (parse_set("BJ 2S"), parse_set("3S 4D"), parse_set("5D 6D"), parse_set("7D 8D"))
    rules = PlayRules(lead_blocked=JOKERS, not_after_suitless_lead=JOKERS)
    pos = simple(hands, order, rules)
    assert pos.legal_moves() == [Move(card(0, 0))]
    assert shared_solver().tricks(pos, 0b0001, 0b0001) == reference_tricks(pos, 1, 1)
    after, winner = play(pos, Move(card(0, 0)))
    assert winner == -1 and after.to_act == 1
    assert [c for c in cards_of(after.hands[0])] == [53]


def test_a_full_table_keeps_its_deepest_entries_and_stays_right() -> None:
    """A table far too small for the positions: it fills again and again, each time
    keeping the entries with the most tricks left, and every answer stays the one a
    table that never fills gives."""
    small = Solver(table_bits=6)
    rng = random.Random(14)
    for i in range(30):
        pos = random_bridge_position(rng, 9, (0, 1, 2, 3, NO_SUIT)[i % 5])
        side = 0b0101 if pos.to_act % 2 == 0 else 0b1010
        assert small.tricks(pos, side) == shared_solver().tricks(pos, side)
    assert small._table[small._k.H_FULL] > 30, "the small table filled up many times"


def test_making_room_keeps_the_half_of_the_table_with_the_most_tricks_left() -> None:
    """``_make_room`` counts the entries per tricks left (in the table's header, as the
    kernel makes no arrays) and keeps those from the fewest tricks left at which at most
    half of the pool stays; asked twice, the second count starts from zero again."""
    solver = Solver(table_bits=8)
    k, tt = solver._k, solver._table
    rng = random.Random(3)
    while tt[k.H_USED] < 200:
        pos = random_bridge_position(rng, 8, NO_SUIT)
        solver.tricks(pos, 0b0101 if pos.to_act % 2 == 0 else 0b1010)
    for _ in range(2):
        pool, used = k._pool(tt), int(tt[k.H_USED])
        lefts = sorted(int(tt[pool + i * k.TT_ENTRY + k.E_LEFT]) for i in range(used))
        keep_from = min(t for t in range(k.MAX_TRICKS + 2)
                        if sum(x >= t for x in lefts) <= used // 2)
        k._make_room(tt)
        kept = sorted(int(tt[pool + i * k.TT_ENTRY + k.E_LEFT]) for i in range(tt[k.H_USED]))
        assert kept == [x for x in lefts if x >= keep_from]
    chained_entries(solver)  # and every kept entry is linked in its chain


def chained_entries(solver: Solver) -> list[int]:
    """The t (see kernel.CHAIN_TOP) of every entry of a solver's table, walking each chain
    and checking that every entry sits in the chain its hash names (``_make_room``
    links the entries it keeps by ``_entry_hash``: it must name the chain ``_store``
    chose, or the kept entries are never found again) and that every one is linked."""
    k, tt = solver._k, solver._table
    chains = k._chains(tt)
    out = []
    for chain in range(chains):
        slot = k._first(tt, chain)
        while slot >= 0:
            assert k._entry_hash(tt, slot) & (chains - 1) == chain
            out.append(int(tt[slot + k.E_K] >> k.E_K_TOP) & 31)
            slot = tt[slot + k.E_NEXT]
    assert len(out) == tt[k.H_USED], "every entry in use is in one chain"
    return out


def test_every_table_entry_sits_in_the_chain_its_hash_names() -> None:
    """An entry is chained on the holders of the top t cards of every suit that it keeps,
    t up to CHAIN_TOP (CHAIN_TOP_SIDES for two partnerships); a look-up walks one chain
    for each t. Checked with tables that fill many times and tables that do not."""
    k = Solver(table_bits=6)._k
    rng = random.Random(3)
    alone_on: set[int] = set()  # the t of the entries of one seat alone (3B), ...
    sides_on: set[int] = set()  # ... and of two partnerships (bridge)
    for bits in (6, 14):  # a table that fills many times, and one that does not
        alone = Solver(table_bits=bits)
        sides = Solver(table_bits=bits)
        for i in range(6):
            # (at 10 cards some entries keep three top cards of every suit)
            state = random_play_state("3b-spades", {"players": 3}, rng, 10, mid_trick=False)
            alone.tricks(position_of(state), 1 << state.to_act)
            pos = random_bridge_position(rng, 9, (0, 1, 2, 3, NO_SUIT)[i % 5])
            sides.tricks(pos, 0b0101)
        alone_on.update(chained_entries(alone))
        sides_on.update(chained_entries(sides))
        assert bits == 14 or alone._table[k.H_FULL] > 0 < sides._table[k.H_FULL]
    assert alone_on == set(range(k.ALWAYS_TOP, k.CHAIN_TOP + 1))
    assert sides_on == set(range(k.ALWAYS_TOP_SIDES, k.CHAIN_TOP_SIDES + 1))


@pytest.mark.parametrize("bits", [6, 10, 14])
def test_the_table_pool_starts_on_a_cache_line_and_holds_its_entries(bits: int) -> None:
    """A walk reads an entry's first cache line; an entry starting mid-line would need
    three lines. The pool holds its 2**bits entries after the heads of its chains."""
    k = Solver(table_bits=bits)._k
    tt = k.new_table(bits)
    pool = k._pool(tt)
    assert (tt.ctypes.data + 8 * pool) % 64 == 0
    assert k._chains(tt) == 1 << (bits - 2)
    assert k.HEADS + 2 * k._chains(tt) <= pool
    assert pool + (1 << bits) * k.TT_ENTRY <= len(tt)


@given(st.integers(min_value=0, max_value=(1 << 62) - 1))
@settings(max_examples=300, deadline=None)
def test_the_kernels_bit_counts_are_pythons(x: int) -> None:
    """The kernel counts bits with LLVM's ``ctpop`` and ``ctlz``: they agree with
    Python's ``bit_count`` and ``bit_length`` on every mask, 0 and the top bits included."""
    k = shared_solver()._k
    for value in (x, x & 0x7FFF, 0, 1, 1 << 14, 1 << 15, 1 << 61):
        assert k._popcount(value) == value.bit_count()
        assert k._top_bit(value) == value.bit_length() - 1


def test_the_solver_lets_go_of_pythons_lock() -> None:
    # the web server's bots think in threads: a search must not hold up the event loop
    from tricktable.search import kernel

    for function, _ in kernel.ENTRY_TYPES:
        assert function.targetoptions.get("nogil") is True


def test_each_thread_has_its_own_shared_solver() -> None:
    # the kernel searches without Python's lock: two threads must not share a table
    import threading

    mine = shared_solver()
    theirs: list[Solver] = []
    thread = threading.Thread(target=lambda: theirs.append(shared_solver()))
    thread.start()
    thread.join()
    assert shared_solver() is mine and theirs and theirs[0] is not mine


def test_a_rule_for_aces_no_longer_held_changes_nothing() -> None:
    # once the aces that may be called low are played, the bounds that leave ace calls
    # out hold again: the same search (nodes and all) as with no such rule
    rng = random.Random(38)
    checked = 0
    while checked < 12:
        state = random_play_state("3b-spades", {"players": 4}, rng, rng.randint(3, 6), False)
        pos = position_of(state)
        held = 0
        for hand in pos.hands:
            held |= hand
        if not pos.rules.ace_low or held & pos.rules.ace_low:
            continue
        plain = replace(pos, rules=replace(pos.rules, ace_low=0))
        side = 1 << pos.to_act
        with_rule, without = Solver(table_bits=12), Solver(table_bits=12)
        assert with_rule.tricks(pos, side) == without.tricks(plain, side)
        assert with_rule.nodes == without.nodes
        checked += 1
