"""The double-dummy search kernel, compiled by numba.

Imported only by ``search.solver`` when something is solved, so commands that never
solve never pay for numba or the compile (cached on disk after the first run).

The whole position lives in one flat int64 array ``st`` (offsets below). Cards are kept
per seat and per *internal suit*: suits 0..3 as the hand's order sees them (jokers that are
trumps sit in the trump suit) and suit 4 for cards of no suit (no-trump jokers). Within a
suit, bit b stands for the card of rank key b + 2 in the ``CardOrder``, so a higher bit
is a better card whatever the order (high, low, jokers on top); the ace is always bit 12.

The search answers one question at a time, "do the maximizing seats get at least
``target`` counted tricks?" (a zero-window search, as in DDS), and ``solve`` moves the
target from a guess until the value is pinned. On the way it uses what DDS uses:

- a transposition table at trick boundaries, keyed on *relative* ranks (who holds the
  highest remaining card of each suit, the next, ...), holding a lower and an upper bound
  of the tricks still to come, so positions that differ only in cards already played
  share an entry;
- equivalent cards as one move (cards of one hand with nothing between them left in play);
- quick tricks: the leader's sure winners from the top, a lower bound for its side;
- move ordering: winning cheaply, giving the trick to a partner, ducking and discarding
  low, and leading from suits the side controls.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# --- offsets in the state array -------------------------------------------------------------
MAX_SEATS = 6
SUITS = 5
HANDS = 0  # hands[seat * 5 + suit]: a 15-bit rank mask
NEXT = HANDS + MAX_SEATS * SUITS  # next seat to play after each seat
N_TRICK = NEXT + MAX_SEATS  # cards in the trick so far
LED = N_TRICK + 1  # the led suit (0..3), or -1 before the first card with a suit
BROKEN = LED + 1  # trumps broken (the engine's flag)
TO_ACT = BROKEN + 1
N_SEATS = TO_ACT + 1
TRICK_SIZE = N_SEATS + 1
TRUMP = TRICK_SIZE + 1  # internal trump suit, -1 for none
MAXIMIZERS = TRUMP + 1  # seat mask of the side that plays for more counted tricks
COUNTED = MAXIMIZERS + 1  # seat mask whose tricks are counted
TRICKS_LEFT = COUNTED + 1  # tricks not yet complete, the current one included
RULES = TRICKS_LEFT + 1  # five rule masks per internal suit, see below
R_LEAD_UNTIL_BROKEN = 0
R_LEAD_BLOCKED = 1
R_MUST_THROW = 2
R_NOT_AFTER_SUITLESS = 3
R_ACE_LOW = 4
NODES = RULES + 5 * SUITS  # nodes visited (statistics)
GENERATION = NODES + 1  # transposition entries of other generations are empty
# The cards of each trick, kept apart per trick (by tricks left) so that a deeper trick
# never overwrites the one a search is in the middle of: four fields per card.
MAX_TRICKS = 18
PROBES = GENERATION + 1  # transposition table look-ups (statistics)
HITS = PROBES + 1  # ... that ended the search of the position
TRICK_CARDS = HITS + 1
T_SUIT, T_BIT, T_LOW, T_SEAT = 0, 1, 2, 3  # internal suit, rank bit, ace called low, seat
STATE_SIZE = TRICK_CARDS + (MAX_TRICKS + 1) * MAX_SEATS * 4


@njit(cache=True)
def trick_card(st: np.ndarray, i: int) -> int:
    """Where the i-th card of the trick in progress is kept."""
    return TRICK_CARDS + (int(st[TRICKS_LEFT]) * MAX_SEATS + i) * 4

# --- the transposition table ------------------------------------------------------------
TT_BITS = 20
TT_ENTRY = 11  # 6 key words, lower, upper, generation, best move (relative) + 1, tricks left
ACE_BIT = 12
HSCALE = 4
HCAP = 400
MAX_MOVES = 40  # a hand never has more distinct moves than cards plus low aces
MAX_DEPTH = 18 * 6 + 1
# per depth of the search: moves, their scores, the playable sets and a table key
STRIDE = MAX_MOVES * 2 + SUITS + 6


def new_table(bits: int = TT_BITS) -> np.ndarray:
    """A transposition table of 2**bits entries (the hash picks an entry modulo that)."""
    return np.zeros((1 << bits) * TT_ENTRY, dtype=np.int64)


HISTORY = MAX_DEPTH * STRIDE  # per seat, place in the trick, suit and rank: cut-offs made
HISTORY_SIZE = MAX_SEATS * MAX_SEATS * SUITS * 16


def new_move_buffer() -> np.ndarray:
    return np.zeros(HISTORY + HISTORY_SIZE, dtype=np.int64)


@njit(cache=True)
def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _top_bit(x: int) -> int:
    b = -1
    while x:
        x >>= 1
        b += 1
    return b


@njit(cache=True)
def _card_power(suit: int, bit: int, low: int, led: int, trump: int) -> int:
    """The engine's trick power: 0 cannot win, a low ace 1, else higher is better."""
    if suit == 4:
        return 0
    p = 1 if low else bit + 2
    if suit == trump:
        return 100 + p
    if suit == led:
        return p
    return 0


@njit(cache=True)
def _allowed(st: np.ndarray, seat: int, out: np.ndarray, o: int) -> None:
    """The playable cards of ``seat`` per internal suit, into out[o..o+4]."""
    base = HANDS + seat * SUITS
    n = st[N_TRICK]
    any_left = 0
    if n == 0:
        broken = st[BROKEN]
        for s in range(SUITS):
            blocked = st[RULES + R_LEAD_BLOCKED * SUITS + s]
            if not broken:
                blocked |= st[RULES + R_LEAD_UNTIL_BROKEN * SUITS + s]
            out[o + s] = st[base + s] & ~blocked
            any_left |= out[o + s]
    else:
        led = st[LED]
        if led < 0:
            for s in range(SUITS):
                out[o + s] = st[base + s] & ~st[RULES + R_NOT_AFTER_SUITLESS * SUITS + s]
                any_left |= out[o + s]
        else:
            if st[base + led]:
                for s in range(SUITS):
                    out[o + s] = 0
                out[o + led] = st[base + led]
                return
            for s in range(SUITS):
                out[o + s] = st[base + s] & st[RULES + R_MUST_THROW * SUITS + s]
                any_left |= out[o + s]
    if not any_left:
        for s in range(SUITS):
            out[o + s] = st[base + s]


@njit(cache=True)
def _trick_winner(st: np.ndarray) -> int:
    """Index in the trick of the winning card (the engine's rule: first highest power)."""
    led = st[LED]
    trump = st[TRUMP]
    best = -1
    best_i = 0
    for i in range(st[N_TRICK]):
        c = trick_card(st, i)
        p = _card_power(st[c + T_SUIT], st[c + T_BIT], st[c + T_LOW], led, trump)
        if p > best:
            best = p
            best_i = i
    return best_i


@njit(cache=True)
def _suit_in_play(st: np.ndarray, suit: int) -> int:
    """Every card of a suit still in a hand or in the trick in progress."""
    m = 0
    for seat in range(st[N_SEATS]):
        m |= st[HANDS + seat * SUITS + suit]
    for i in range(st[N_TRICK]):
        c = trick_card(st, i)
        if st[c + T_SUIT] == suit:
            m |= 1 << st[c + T_BIT]
    return m


@njit(cache=True)
def _gen_moves(
    st: np.ndarray, seat: int, mv: np.ndarray, at: int, pref_suit: int, pref_bit: int,
    pref_low: int,
) -> int:
    """Write the moves of ``seat`` at mv[at:] (encoded suit * 64 + bit * 2 + low), best
    first by a heuristic score kept at mv[at + MAX_MOVES:]; returns how many."""
    al = at + 2 * MAX_MOVES
    _allowed(st, seat, mv, al)
    n = st[N_TRICK]
    trump = st[TRUMP]
    led = st[LED]
    maxi = st[MAXIMIZERS]
    my_side = (maxi >> seat) & 1
    # the card winning the trick so far, and whether my side holds it
    win_power = -1
    partner_winning = False
    if n > 0:
        wi = _trick_winner(st)
        c = trick_card(st, wi)
        win_seat = st[c + T_SEAT]
        win_power = _card_power(st[c + T_SUIT], st[c + T_BIT], st[c + T_LOW], led, trump)
        partner_winning = ((maxi >> win_seat) & 1) == my_side
    last_to_play = n == st[TRICK_SIZE] - 1
    count = 0
    score_at = at + MAX_MOVES
    for s in range(SUITS):
        mine = mv[al + s]
        if not mine:
            continue
        in_play = _suit_in_play(st, s)
        others = in_play & ~st[HANDS + seat * SUITS + s]
        # my side's and the opponents' cards of the suit in the hands
        side_cards = 0
        opp_cards = 0
        for o in range(st[N_SEATS]):
            if o == seat:
                continue
            if ((maxi >> o) & 1) == my_side:
                side_cards |= st[HANDS + o * SUITS + s]
            else:
                opp_cards |= st[HANDS + o * SUITS + s]
        length = _popcount(st[HANDS + seat * SUITS + s])
        # a partner void in the suit and holding trumps may ruff it
        partner_ruffs = False
        if n == 0 and trump >= 0 and s != trump:
            for o in range(st[N_SEATS]):
                partner = o != seat and ((maxi >> o) & 1) == my_side
                if partner and not st[HANDS + o * SUITS + s] and st[HANDS + o * SUITS + trump]:
                    partner_ruffs = True
        m = mine
        while m:
            # the lowest card of a run stands for the run: my cards with no card of
            # another hand, or of the trick, between them play alike now and later
            b = _top_bit(m & -m)
            run_top = b
            nb = b + 1
            while nb < 15 and not (others >> nb) & 1:
                if (mine >> nb) & 1:
                    run_top = nb
                nb += 1
            m &= ~((1 << nb) - 1)
            for variant in range(2):
                if variant == 1:
                    # an ace in the run may also be called low: a second move
                    if not (b <= ACE_BIT <= run_top and (mine >> ACE_BIT) & 1):
                        break
                    if not (st[RULES + R_ACE_LOW * SUITS + s] >> ACE_BIT) & 1:
                        break
                    bit = ACE_BIT
                    low = 1
                else:
                    bit = b
                    low = 0
                # the heuristic score
                if n == 0:
                    sc = 0
                    top_other = _top_bit(others)
                    if run_top > top_other:
                        sc = 60 + run_top  # a winner: cash it
                    elif _top_bit(side_cards) > _top_bit(opp_cards):
                        sc = 40 - bit  # towards a partner's winner
                    elif partner_ruffs:
                        sc = 35 - bit
                    else:
                        sc = 20 - length - bit
                    if s == trump:
                        sc -= 5
                    if s == 4:
                        sc -= 30
                else:
                    p = _card_power(s, bit, low, led if led >= 0 else s, trump)
                    if partner_winning:
                        sc = 50 - bit - (20 if s == trump else 0)
                        if p > win_power and not last_to_play:
                            sc -= 10
                    elif p > win_power and n == 1 and not (run_top > _top_bit(others) and s == led):
                        # second hand low, unless it holds the master card
                        sc = 40 - bit
                    elif p > win_power:
                        # win as cheaply as possible: the lowest card of the run does
                        sc = 80 - bit - (10 if s == trump and s != led else 0)
                    else:
                        sc = 30 - bit - (25 if s == trump else 0) + length
                if s == pref_suit and b <= pref_bit <= run_top and low == pref_low:
                    sc += 100000  # the best move here last time (transposition table)
                mv[at + count] = s * 64 + bit * 2 + low
                h = mv[HISTORY + ((seat * MAX_SEATS + n) * SUITS + s) * 16 + bit]
                mv[score_at + count] = sc * HSCALE + min(h, HCAP)
                count += 1
    # insertion sort by score, best first
    for i in range(1, count):
        kv = mv[at + i]
        ks = mv[score_at + i]
        j = i - 1
        while j >= 0 and mv[score_at + j] < ks:
            mv[at + j + 1] = mv[at + j]
            mv[score_at + j + 1] = mv[score_at + j]
            j -= 1
        mv[at + j + 1] = kv
        mv[score_at + j + 1] = ks
    return count


@njit(cache=True)
def _holder_of_top(st: np.ndarray, suit: int) -> int:
    """The seat holding the highest card of a suit still in the hands, or -1."""
    best = -1
    holder = -1
    for seat in range(st[N_SEATS]):
        b = _top_bit(st[HANDS + seat * SUITS + suit])
        if b > best:
            best = b
            holder = seat
    return holder


@njit(cache=True)
def _find(tt: np.ndarray, mv: np.ndarray, k: int, generation: int, bucket: int) -> int:
    """The entry of the bucket holding the key at mv[k..k+5], or -1."""
    for slot in (bucket, bucket + TT_ENTRY):
        if tt[slot + 8] != generation:
            continue
        same = True
        for i in range(6):
            if tt[slot + i] != mv[k + i]:
                same = False
                break
        if same:
            return slot
    return -1


@njit(cache=True)
def _top_run(st: np.ndarray, seat: int, suit: int) -> int:
    """How many of the highest cards of a suit in the hands ``seat`` holds in a row."""
    mine = st[HANDS + seat * SUITS + suit]
    union = 0
    for o in range(st[N_SEATS]):
        union |= st[HANDS + o * SUITS + suit]
    run = 0
    b = 14
    while b >= 0:
        if (union >> b) & 1:
            if not (mine >> b) & 1:
                break
            run += 1
        b -= 1
    return run


@njit(cache=True)
def _bit_of_rank(st: np.ndarray, suit: int, rel: int) -> int:
    """The rank bit of the card with ``rel`` cards of its suit above it in play."""
    union = _suit_in_play(st, suit)
    b = 14
    while b >= 0:
        if (union >> b) & 1:
            if rel == 0:
                return b
            rel -= 1
        b -= 1
    return -1


@njit(cache=True)
def _key(st: np.ndarray, key: np.ndarray, k: int) -> int:
    """The relative-rank key of a trick boundary into key[k..k+5]; returns its slot."""
    nseats = st[N_SEATS]
    h = np.uint64(0x9E3779B97F4A7C15)
    for s in range(SUITS):
        word = 0
        union = 0
        for seat in range(nseats):
            union |= st[HANDS + seat * SUITS + s]
        b = 14
        while union and b >= 0:
            if (union >> b) & 1:
                owner = 0
                for seat in range(nseats):
                    if (st[HANDS + seat * SUITS + s] >> b) & 1:
                        owner = seat
                        break
                word = (word << 3) | (owner + 1)
                union &= ~(1 << b)
            b -= 1
        key[k + s] = word
        h = (h ^ np.uint64(word)) * np.uint64(0x100000001B3)
        h ^= h >> np.uint64(29)
    misc = st[TO_ACT] | (st[BROKEN] << 3)
    for s in range(4):
        if (st[RULES + R_ACE_LOW * SUITS + s] >> ACE_BIT) & 1:
            for seat in range(nseats):
                if (st[HANDS + seat * SUITS + s] >> ACE_BIT) & 1:
                    misc |= 1 << (4 + s)
    key[k + 5] = misc
    h = (h ^ np.uint64(misc)) * np.uint64(0x100000001B3)
    h ^= h >> np.uint64(31)
    return int(h & np.uint64((1 << 40) - 1))


@njit(cache=True)
def _ruff_cap(st: np.ndarray, seat: int, s: int) -> int:
    """Rounds of suit ``s`` that ``seat``'s side can lead before an opponent holding a
    trump may be void in it (99: no opponent can ruff it)."""
    maxi = st[MAXIMIZERS]
    side = (maxi >> seat) & 1
    trump = st[TRUMP]
    cap = 99
    if s == trump or trump < 0:
        return cap
    for o in range(st[N_SEATS]):
        if ((maxi >> o) & 1) != side and st[HANDS + o * SUITS + trump]:
            cap = min(cap, _popcount(st[HANDS + o * SUITS + s]))
    return cap


@njit(cache=True)
def _may_lead_suit(st: np.ndarray, s: int) -> bool:
    if s == st[TRUMP] and not st[BROKEN] and st[RULES + R_LEAD_UNTIL_BROKEN * SUITS + s]:
        return False
    return bool(st[RULES + R_LEAD_BLOCKED * SUITS + s] == 0)


@njit(cache=True)
def _cashable(st: np.ndarray, seat: int) -> int:
    """Tricks ``seat`` can cash from the top when on lead: in each suit its run of highest
    cards in play, stopped short where an opponent may ruff (void and holding a trump)."""
    total = 0
    for s in range(4):
        mine = st[HANDS + seat * SUITS + s]
        if not mine or not _may_lead_suit(st, s):
            continue
        others = 0
        for o in range(st[N_SEATS]):
            if o != seat:
                others |= st[HANDS + o * SUITS + s]
        run = 0
        b = 14
        while b >= 0:
            if (mine >> b) & 1:
                run += 1
            elif (others >> b) & 1:
                break
            b -= 1
        total += min(run, _ruff_cap(st, seat, s))
    return total


@njit(cache=True)
def _quick_tricks(st: np.ndarray) -> int:
    """A lower bound of the tricks of the leader's side: what the leader can cash from the
    top, or what a partner can cash once reached by leading a suit whose highest card he
    holds (the partner then keeps the lead)."""
    leader = st[TO_ACT]
    maxi = st[MAXIMIZERS]
    side = (maxi >> leader) & 1
    best = _cashable(st, leader)
    for p in range(st[N_SEATS]):
        if p == leader or ((maxi >> p) & 1) != side:
            continue
        for s in range(4):
            if not st[HANDS + leader * SUITS + s] or not _may_lead_suit(st, s):
                continue
            if _holder_of_top(st, s) != p or _ruff_cap(st, leader, s) < 1:
                continue
            best = max(best, _cashable(st, p))
            break
    return best


@njit("boolean(int64[:], int64[:], int64[:], int64, int64)", cache=True)
def _search(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, depth: int, target: int) -> bool:
    """Do the maximizers get at least ``target`` counted tricks of those left?"""
    st[NODES] += 1
    if target <= 0:
        return True
    left = st[TRICKS_LEFT]
    if target > left:
        return False
    n = st[N_TRICK]
    bucket = -1
    pref_suit = -1
    pref_bit = -1
    pref_low = 0
    at = depth * STRIDE
    k = at + 2 * MAX_MOVES + SUITS  # this depth's table key
    if n == 0:
        if st[MAXIMIZERS] == st[COUNTED]:
            qt = _quick_tricks(st)
            if qt > 0:
                if (st[MAXIMIZERS] >> st[TO_ACT]) & 1:
                    if qt >= target:
                        return True
                elif left - qt < target:
                    return False
            # each of the highest trumps held in one hand takes a trick when it is played
            trump = st[TRUMP]
            if trump >= 0:
                holder = _holder_of_top(st, trump)
                if holder >= 0:
                    run = _top_run(st, holder, trump)
                    if (st[MAXIMIZERS] >> holder) & 1:
                        if target <= run:
                            return True
                    elif target > left - run:
                        return False
        # two entries per bucket: a position may sit in either
        bucket = (_key(st, mv, k) & (len(tt) // (2 * TT_ENTRY) - 1)) * 2 * TT_ENTRY
        st[PROBES] += 1
        slot = _find(tt, mv, k, st[GENERATION], bucket)
        if slot >= 0:
            if tt[slot + 6] >= target:
                st[HITS] += 1
                return True
            if tt[slot + 7] < target:
                st[HITS] += 1
                return False
            if tt[slot + 9] > 0:
                pref = tt[slot + 9] - 1
                pref_suit = pref >> 6
                pref_low = pref & 1
                pref_bit = _bit_of_rank(st, pref_suit, (pref >> 1) & 31)
    seat = st[TO_ACT]
    maximizing = (st[MAXIMIZERS] >> seat) & 1
    count = _gen_moves(st, seat, mv, at, pref_suit, pref_bit, pref_low)
    best = -1
    result = not maximizing
    base = HANDS + seat * SUITS
    old_led = st[LED]
    old_broken = st[BROKEN]
    trump = st[TRUMP]
    tsize = st[TRICK_SIZE]
    for i in range(count):
        code = mv[at + i]
        s = code >> 6
        bit = (code >> 1) & 31
        low = code & 1
        st[base + s] &= ~(1 << bit)
        if n > 0:
            if old_led < 0:
                st[LED] = s if s < 4 else -1
            elif s != old_led and s == trump:
                st[BROKEN] = 1
        else:
            st[LED] = s if s < 4 else -1
        c = trick_card(st, n)
        st[c + T_SUIT] = s
        st[c + T_BIT] = bit
        st[c + T_LOW] = low
        st[c + T_SEAT] = seat
        st[N_TRICK] = n + 1
        if n + 1 == tsize:
            winner = st[trick_card(st, _trick_winner(st)) + T_SEAT]
            gained = (st[COUNTED] >> winner) & 1
            saved_led = st[LED]
            st[N_TRICK] = 0
            st[LED] = -1
            st[TO_ACT] = winner
            st[TRICKS_LEFT] = left - 1
            r = _search(st, tt, mv, depth + 1, target - gained)
            st[TRICKS_LEFT] = left
            st[LED] = saved_led
        else:
            st[TO_ACT] = st[NEXT + seat]
            r = _search(st, tt, mv, depth + 1, target)
        st[N_TRICK] = n
        st[TO_ACT] = seat
        st[LED] = old_led
        st[BROKEN] = old_broken
        st[base + s] |= 1 << bit
        if maximizing and r:
            result = True
            best = code
            mv[HISTORY + ((seat * MAX_SEATS + n) * SUITS + s) * 16 + bit] += left
            break
        if not maximizing and not r:
            result = False
            best = code
            mv[HISTORY + ((seat * MAX_SEATS + n) * SUITS + s) * 16 + bit] += left
            break
    if bucket >= 0:
        # the entry may have been replaced meanwhile: find it again or take a victim,
        # an empty entry or else the one with fewer tricks left (cheaper to search again)
        slot = _find(tt, mv, k, st[GENERATION], bucket)
        same = slot >= 0
        if not same:
            slot = bucket
            other = bucket + TT_ENTRY
            if tt[slot + 8] == st[GENERATION] and (
                tt[other + 8] != st[GENERATION] or tt[other + 10] < tt[slot + 10]
            ):
                slot = other
            for i in range(6):
                tt[slot + i] = mv[k + i]
            tt[slot + 6] = 0
            tt[slot + 7] = left
            tt[slot + 8] = st[GENERATION]
            tt[slot + 10] = left
        if result:
            if target > tt[slot + 6]:
                tt[slot + 6] = target
        elif target - 1 < tt[slot + 7]:
            tt[slot + 7] = target - 1
        if best >= 0:
            s = best >> 6
            rel = _popcount(_suit_in_play(st, s) >> (((best >> 1) & 31) + 1))
            tt[slot + 9] = (s * 32 + rel) * 2 + (best & 1) + 1
        elif not same:
            tt[slot + 9] = 0
    return result


@njit(cache=True)
def solve(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, guess: int) -> int:
    """The counted tricks of those left, found by zero-window searches from a guess."""
    lo = 0
    hi = st[TRICKS_LEFT]
    t = min(max(guess, lo + 1), hi)
    while lo < hi:
        if _search(st, tt, mv, 0, t):
            lo = t
            t = t + 1
        else:
            hi = t - 1
            t = t - 1
        t = min(max(t, lo + 1), hi)
    return lo


@njit(cache=True)
def test_target(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, target: int) -> bool:
    """One zero-window search: do the maximizers get at least ``target``?"""
    return _search(st, tt, mv, 0, target)
