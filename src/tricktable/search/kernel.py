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
- quick tricks: the rounds of each suit the leader surely wins leading his highest card
  (an opponent keeping his best, a partner playing low; long cards once the other hands
  are out of the suit), with a partner's reached after them (DDS's finesse included), a
  lower bound for its side; and second to play, the trick the side surely takes with the
  winners its taker cashes after it;
- later tricks: what one side's trumps surely win when the other has none, and, with
  no trumps left, that a side on lead cannot win every trick outside the suits it
  holds the top of;
- move ordering by the size of the tree under a move as well as its strength (a proof
  takes one move of the side that succeeds and every move of the other): leads marked
  down by the opponents' choices in the suit, a card counted as winning only when no
  opponent still to play can beat it, winning cheaply, giving the trick to a partner,
  ducking and discarding low; with four seats in two partnerships, DDS's own weights
  for the lead and the second hand; for a nil, weights of its own (``_nil_score``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import numba.cpython.slicing as numba_slicing
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core.compiler_lock import global_compiler_lock
from numba.core.typing.templates import Signature
from numba.extending import intrinsic

# Every kernel function is compiled without numba's reference counting of arrays (its
# "NRT"): none of them makes an array, and counting the arrays passed at every call (an
# atomic increment and decrement each) took 12% of a 13-card search's time (perf).
# The move generator and the table look-up are compiled into the search itself (``inline``:
# 9% less time on 13-card searches for 4 s more of a cold compile; inlining the small
# helpers too cost 15 s more, the quick tricks 35 s, for at most 4% more), and the rounds
# a hand cashes (``_cash_rounds``, ``_ruff_cap``, ``_split_tops``, ``_reaches``) into the
# quick tricks: 7% less time at 13 cards a hand for 5 s more (``_runs_of``,
# ``_partner_cashes``, ``_trick_taker`` and ``_store`` too: 21 s more, no faster).
# Everything is compiled (or loaded from numba's cache) when this module is imported, for
# the types given, with negative indices left alone (``_indices_as_given``): the search,
# which calls itself, as it is defined, and then what Python calls (``ENTRY_TYPES``).
SEARCH_TYPES = "boolean(int64[::1], int64[::1], int64[::1], int64, int64)"
if TYPE_CHECKING:  # (``_nrt``, numba's option for it, is left out of numba's type hints)
    compiled = njit(cache=True)
    inline = njit(cache=True, forceinline=True)
    search_jit = njit(SEARCH_TYPES, cache=True)
    entry = njit(cache=True, nogil=True)
else:
    compiled = njit(cache=True, _nrt=False)
    inline = njit(cache=True, _nrt=False, forceinline=True)
    search_jit = njit(SEARCH_TYPES, cache=True, _nrt=False)
    # what Python calls lets go of Python's lock while it searches: a search bot thinking
    # in a thread (the web server's bots do) holds up no other Python code meanwhile
    entry = njit(cache=True, _nrt=False, nogil=True)


@contextmanager
def _indices_as_given() -> Iterator[None]:
    """numba compiles ``a[i]`` for a signed ``i`` as ``a[i + len(a)]`` when ``i < 0``
    (Python's indexing from the end): a compare and a select at every access of every
    array, and the kernel's indices are offsets into its flat arrays, never negative (nor
    does it slice an array: slices' bounds go through the same function). While this
    holds, numba uses an index as it is: a search takes 11% less time. (A
    test compiles the kernel with numba's bounds checks on, which then refuse a negative
    index, and solves positions of every game.) numba's lock is held throughout, so no
    other code is compiled meanwhile. (A numba without this function compiles the kernel
    with its wrap: slower, as right.)"""
    with global_compiler_lock:
        wrap = getattr(numba_slicing, "fix_index", None)
        if wrap is None:
            yield
            return
        numba_slicing.fix_index = _index_as_given
        try:
            yield
        finally:
            numba_slicing.fix_index = wrap


def _index_as_given(builder: ir.IRBuilder, index: ir.Value, size: ir.Value) -> ir.Value:
    return index


def compiled_search(function: Callable[..., bool]) -> Callable[..., bool]:
    """The search, compiled as it is defined (it calls itself)."""
    with _indices_as_given():
        return search_jit(function)


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
# Per internal suit, the lowest rank bit whose holder a stored result always depends on:
# 15 (none) unless a rule treats cards of the suit differently by rank (an ace that may
# be called low: its holder has a move the others lack). Set by the solver per search.
FORCED = HITS + 1
# Suits (a bit each) whose cards a rule tells apart by rank: a stored result holds only
# for the very same cards of them, so the table's key holds those cards themselves.
PARTIAL = FORCED + SUITS
# Per internal suit, every card of it still in a hand (kept up to date by the search).
IN_HANDS = PARTIAL + 1
# Per internal suit and rank bit (16 a suit), the seat the card was dealt to: a card
# only ever leaves that hand, so this never changes during a search.
HOLDER = IN_HANDS + SUITS
# 1 when a rule makes some card be thrown when void (set at the start of every search
# from the rule masks, which do not change during it; read by many bounds)
THROW_RULE = HOLDER + SUITS * 16
# The table key's counts of cards per seat and suit (3 words, as ``_shape`` packs them)
# and per suit the holders of its cards in play from the top (3 bits each, holder + 1):
# worked out before a search and kept up to date by it, card by card.
COUNT_WORDS = THROW_RULE + 1
OWNER_WORDS = COUNT_WORDS + 3
# The seats (a bit each) that sit in four seats of two partnerships facing each other
# (``_partners``), whose leads and second-hand cards take DDS's weights; set before a search.
PARTNER_SEATS = OWNER_WORDS + SUITS
# The seat whose tricks are counted against its side's will (a nil: the lone counted seat,
# not a maximizer), whose search takes the nil weights (``_nil_score``), else -1; set
# before a search.
NIL_SEAT = PARTNER_SEATS + 1
# The most top holders of every suit a table entry is chained on (CHAIN_TOP_SIDES or
# CHAIN_TOP), set before a search.
TOP_CHAIN = NIL_SEAT + 1
BASE_CHAIN = TOP_CHAIN + 1  # the least of them (ALWAYS_TOP_SIDES or ALWAYS_TOP)
TRICK_CARDS = BASE_CHAIN + 1
T_SUIT, T_BIT, T_LOW, T_SEAT = 0, 1, 2, 3  # internal suit, rank bit, ace called low, seat
T_WIN = 4  # the place in the trick of the card winning it once this one is played (kept
# card by card rather than looked for at every node: with _bit_of_rank's counting from
# the nearer end, 5% less time at 13 cards a hand)
CARD_WORDS = 5
STATE_SIZE = TRICK_CARDS + (MAX_TRICKS + 1) * MAX_SEATS * CARD_WORDS


@compiled
def trick_card(st: np.ndarray, i: int) -> int:
    """Where the i-th card of the trick in progress is kept."""
    return TRICK_CARDS + (int(st[TRICKS_LEFT]) * MAX_SEATS + i) * CARD_WORDS

# --- the transposition table ------------------------------------------------------------
# An entry holds bounds on the tricks still to come for every position that has (a) the
# same *shape*: each seat's number of cards in each suit, the seat on lead, trumps broken
# or not, which aces that may be called low are still out; and (b) the same holders of
# the top k_s cards of each suit s still in play, the rest being "small cards" whose exact
# ranks did not matter to the result. k_s comes from the ranks that decided tricks in the
# search below the position (DDS's "winning ranks"): a trick won by a card that beat
# another card of its suit makes that card's rank matter. So one entry serves every
# position that differs only in small cards, not just the one searched.
#
# The table is a pool of entries in chains by hash (a position must find every entry of
# its shape whose pattern it fits, from the shape and the holders of its top cards alone:
# see ALWAYS_TOP and CHAIN_TOP): a header, then the chain heads, then the pool. When the
# pool is full, the half of it for the positions with the most tricks left is kept
# (``_make_room``).
TT_BITS = 20  # the pool holds 2**TT_BITS entries; there are a quarter as many chains
TT_ENTRY = 16
ALWAYS_TOP = 1  # every entry keeps the holders of at least this many top cards per suit,
# to key the chains on (keeping 2 made 3-18% more nodes at 11 cards a hand). They are not
# part of its pattern: a suit none of whose ranks the result rests on pins nothing (as in
# DDS), so a hit says so to the searches above it, whose entries are the more general for
# it (E_K_REL). Pinning the top holder too made 27% more nodes at 13 cards a hand and 2.3
# times the nodes in 3B's 17-card positions.
ALWAYS_TOP_SIDES = 0  # the same in four seats of two partnerships: none, so an entry is
# found from any position its pattern fits, whatever the top holders of the suits it
# does not rest on (11-15% fewer nodes in bridge's searches, 3-12% less time). For one
# seat alone the chains of a shape alone grew so long that a 3B review took 4 times as
# long.
CHAIN_TOP = 3  # an entry is chained on the holders of the top t cards of every suit (or
# all of a suit's) for the largest t up to this that it keeps, so a look-up walks one
# chain per t, the position's holders picking each. (One chain of every pattern of a
# shape and top holder grew to 20 entries a look-up in 3B's 17-card searches, 4 in
# bridge's, each a random access into the table: a third of the time and more.)
CHAIN_TOP_SIDES = 0  # the same in four seats of two partnerships (``PARTNER_SEATS``),
# whose chains are short: one chain per shape, since there entries keep no top holder
# they do not rest on (ALWAYS_TOP_SIDES). 4-5% less time at 13 cards a hand than two
# (three was 5% slower than two when every entry kept its top holders).
E_K_TOP = 30  # from this bit of an entry's E_K: the t it is chained on (5 bits)
E_K_REL = 35  # from this bit: the entry's pattern, the k_s the result rests on, 5 bits
# each (the k_s below them count up to BASE_CHAIN, to key the chains on)
CHAIN_WALK = 256  # entries looked at per chain: a chain of one shape and top holders
# grows to thousands of entries in a 3B review's table (an entry that answers moves to
# the front of its chain, see _probe); the cap saved a sixth of the 17-card review's
# time. (A cap of 64 cost 44% more nodes in 3B's 17-card positions; one of 16
# multiplied bridge's nodes by 20.)
TT_MIN_LEFT = 3  # positions with fewer tricks left are searched again rather than looked up
# (looking up two-trick positions too: 2-3% fewer nodes, and 2-3% less time at 13 cards a
# hand but none at 10 or 8 or in 3B's positions.
# While entries pinned every suit's top holder, positions where two sides share every
# trick were searched again at three tricks left too, for less time; now looking them up
# is 12-13% faster at 13 cards a hand and in 3B's four-seat positions.)
TT_EARLY = 5  # from this many tricks left the table is looked up before the bounds
SHAPE_WORDS = 5
# An entry is two cache lines of 8 words (the pool starts on a line: H_POOL). A walk
# reads the first of every entry and the second only of one with the position's shape.
E_NEXT = 0  # the next entry of the chain, -1 at its end
E_SHAPE = 1  # the counts of cards per seat and suit (3 words), the seat on lead, trumps
# broken and aces out (1), the very cards in play of suits a rule tells apart by rank (1)
E_K = 6  # the top cards per suit whose holders it keeps, 5 bits each; then E_K_TOP, E_K_REL
E_LOWER = 7
E_OWNERS = 8  # per suit, the holders of its top k_s cards in play, 3 bits each (+1)
E_UPPER = 13
E_BEST = 14  # best move (suit, relative rank, low) + 1, or 0
E_LEFT = 15  # tricks left at the position
LINE_WORDS = 8  # int64 words in a 64-byte cache line
H_USED = 0  # header: entries of the pool in use
H_EPOCH = 1  # chain heads of other epochs are empty
H_GENERATION = 2  # the solver's generation (search setting) the entries belong to
H_FULL = 3  # times the pool was found full (statistics)
H_POOL = 4  # where the pool starts: the first word after the chain heads on a cache line
H_BY_LEFT = 5  # (scratch for ``_make_room``) entries of the pool per tricks left
HEADS = H_BY_LEFT + MAX_TRICKS + 2  # chain heads: (first entry, epoch) per shape hash
ACE_BIT = 12
NO_RANK = 15  # a rank threshold above every card: no rank matters
RUN_BITS = 9  # a suit's part of a hand's runs: rounds (5 bits), the rank they rest on (4)
# Lead bonuses by the places of a suit's top cards (DDS's weights; ``_lead_position``):
W_FINESSE = 27  # an opponent's top card with a partner's second best played after it
W_NEXT_ROUND = 13  # the side's second and third best (20 when both are the partner's)
W_RETURN_RUFF = 19  # a singleton led towards a partner's winner, to be ruffed on the return
RUFFED = MAX_SEATS  # _trick_taker: the side ruffs
CASH_AFTER_MAX = 3  # tricks after this one looked for (more never cut a search measured)
W_KILLER = 40  # a lead that made the last cut-off at this depth (DDS: 55)
W_COVER = 60  # following, a card that beats the trick so far but an opponent after can beat
W_TENACE = 12  # (a penalty) the top or second best of the opponent who plays last
LEAD_CHOICE_WEIGHT = 16  # a lead's score loses this times the cards the opponents may
# choose from in its suit (a void one: any card), over the number of opponents
RUN = 512  # in a move's code: the card stands for a run of several
RUN_TOP = 10  # ... whose top card's rank bit is kept from this bit of the code up
MAX_MOVES = 40  # a hand never has more distinct moves than cards plus low aces
MAX_DEPTH = 18 * 6 + 1
# per depth of the search: moves, their scores, the playable sets, then the position's
# shape (4 words), per suit the holders of its cards in play from the top (5) and their
# number (5)
KEY_WORDS = SHAPE_WORDS + 2 * SUITS
OWNERS = SHAPE_WORDS  # in a key: the holders per suit, then their numbers
COUNTS = SHAPE_WORDS + SUITS
STRIDE = MAX_MOVES * 2 + SUITS + KEY_WORDS


def new_table(bits: int = TT_BITS) -> np.ndarray:
    """A transposition table: a pool of 2**bits entries, 2**(bits-2) chains."""
    heads_end = HEADS + 2 * (1 << (bits - 2))
    tt = np.zeros(heads_end + LINE_WORDS + (1 << bits) * TT_ENTRY, dtype=np.int64)
    misaligned = (tt.ctypes.data // 8 + heads_end) % LINE_WORDS
    tt[H_POOL] = heads_end + (LINE_WORDS - misaligned) % LINE_WORDS
    return tt


@compiled
def _chains(tt: np.ndarray) -> int:
    return 1 << (_top_bit((len(tt) - HEADS) // (2 + 4 * TT_ENTRY)))


@compiled
def _pool(tt: np.ndarray) -> int:
    return int(tt[H_POOL])


@compiled
def _empty_table(tt: np.ndarray, generation: int) -> None:
    tt[H_USED] = 0
    tt[H_EPOCH] += 1
    tt[H_GENERATION] = generation


@compiled
def _make_room(tt: np.ndarray) -> None:
    """The pool is full: keep the entries of the positions with the most tricks left (the
    dearest to search again), at most half of the pool, and drop the rest. The kept ones
    are moved to the front and linked into their chains again (a new epoch empties every
    chain first). DDS empties the whole table instead; at 13 cards a hand that meant
    searching the top of the tree again and again."""
    tt[H_FULL] += 1
    pool = _pool(tt)
    used = tt[H_USED]
    for left in range(MAX_TRICKS + 2):
        tt[H_BY_LEFT + left] = 0
    for i in range(used):
        tt[H_BY_LEFT + min(tt[pool + i * TT_ENTRY + E_LEFT], MAX_TRICKS + 1)] += 1
    keep_from = MAX_TRICKS + 2
    kept = 0
    while keep_from > 0 and kept + tt[H_BY_LEFT + keep_from - 1] <= used // 2:
        keep_from -= 1
        kept += tt[H_BY_LEFT + keep_from]
    tt[H_EPOCH] += 1
    chains = _chains(tt)
    write = 0
    for i in range(used):
        src = pool + i * TT_ENTRY
        if tt[src + E_LEFT] < keep_from:
            continue
        dst = pool + write * TT_ENTRY
        if dst != src:
            for w in range(TT_ENTRY):
                tt[dst + w] = tt[src + w]
        _push_front(tt, _entry_hash(tt, dst) & (chains - 1), dst)
        write += 1
    tt[H_USED] = write


@compiled
def _first(tt: np.ndarray, chain: int) -> int:
    """The first entry (its offset) of a chain, or -1."""
    head = HEADS + 2 * chain
    if tt[head + 1] != tt[H_EPOCH]:
        return -1
    return int(tt[head])


@inline
def _push_front(tt: np.ndarray, chain: int, slot: int) -> None:
    """Link the entry at ``slot``, in no chain, in front of a chain."""
    tt[slot + E_NEXT] = _first(tt, chain)
    head = HEADS + 2 * chain
    tt[head] = slot
    tt[head + 1] = tt[H_EPOCH]


# Per depth, per suit: the lowest rank bit the result just found depends on (NO_RANK:
# none). Each search writes its own at its depth before returning; its caller merges.
# (A history of the moves that made cut-offs, once added to the move scores, ordered
# worse than the scores alone once these weighed the opponents' choices: removed.)
RELEVANT = MAX_DEPTH * STRIDE
# Statistics of move ordering: cut-offs by the first move, by a later one, and nodes
# where every move had to be searched (with how many moves they had).
STATS = RELEVANT + (MAX_DEPTH + 1) * SUITS
S_FIRST_CUT, S_LATE_CUT, S_ALL_NODES, S_ALL_MOVES = 0, 1, 2, 3
S_WALKED = 4  # table entries looked at in look-ups
S_STORED_CARDS = 5  # cards in play at the positions stored in the table ...
S_PATTERN_CARDS = 6  # ... and those whose holders their entries keep
S_SKIPPED = 7  # moves not searched: below the ranks a refutation of the suit rested on
S_TRICK_STARTS = 8  # positions searched at the start of a trick (DDS's "trick nodes")


# Per depth, the last lead that made a cut-off there (suit * 64 + bit * 2 + low, + 1; 0:
# none): tried early at the next lead of that depth (DDS's best move of a depth).
KILLERS = STATS + 9


def new_move_buffer() -> np.ndarray:
    return np.zeros(KILLERS + MAX_DEPTH + 1, dtype=np.int64)


# Bits are counted by LLVM's own instructions, written as numba intrinsics (3-6% faster
# than tables of the 15-bit masks of one suit).
@intrinsic
def _bits_set(typingctx: object, x: types.Integer) -> tuple[Signature, Callable[..., object]]:
    """The number of bits set in an int64 (LLVM's ``ctpop``: one instruction on most
    machines)."""
    def codegen(context: object, builder: ir.IRBuilder, sig: Signature, args: list[ir.Value]
                ) -> ir.Value:
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@intrinsic
def _leading_zeros(typingctx: object, x: types.Integer
                   ) -> tuple[Signature, Callable[..., object]]:
    """The number of zero bits above the highest bit set of an int64, 64 for 0 (LLVM's
    ``ctlz``)."""
    def codegen(context: object, builder: ir.IRBuilder, sig: Signature, args: list[ir.Value]
                ) -> ir.Value:
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
    return types.int64(types.int64), codegen


@intrinsic
def _prefetch(typingctx: object, array: types.Array, index: types.Integer
              ) -> tuple[Signature, Callable[..., object]]:
    """Start loading the cache line of ``array[index]`` (LLVM's ``prefetch``, for a read,
    kept in every cache level), so that it arrives while other work goes on."""
    def codegen(context: Any, builder: ir.IRBuilder, sig: Signature, args: list[ir.Value]
                ) -> ir.Value:
        data = context.make_array(sig.args[0])(context, builder, args[0]).data
        address = builder.gep(data, [args[1]])
        i32 = ir.IntType(32)
        prefetch = builder.module.declare_intrinsic(
            "llvm.prefetch", [address.type],
            ir.FunctionType(ir.VoidType(), [address.type, i32, i32, i32]))
        builder.call(prefetch, [address, ir.Constant(i32, 0), ir.Constant(i32, 3),
                                ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return types.void(array, types.int64), codegen


# (numba passes an intrinsic its typing context: called with x alone)
@compiled
def _popcount(x: int) -> int:
    return int(_bits_set(x))  # type: ignore[call-arg]


@compiled
def _load_soon(array: np.ndarray, index: int) -> None:
    _prefetch(array, index)  # type: ignore[call-arg, arg-type]


@compiled
def _top_bit(x: int) -> int:
    """The highest bit set of x >= 0, -1 for 0."""
    return 63 - int(_leading_zeros(x))  # type: ignore[call-arg]


@compiled
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


@compiled
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


@compiled
def _ace_low_held(st: np.ndarray, s: int) -> int:
    """The aces of suit ``s`` that may be called low and are still in a hand: a rule for
    a card no longer held changes nothing to come (the bounds that leave ace calls out
    hold again once those aces are played)."""
    return int(st[RULES + R_ACE_LOW * SUITS + s] & st[IN_HANDS + s])


@compiled
def _best_power(st: np.ndarray, seat: int, led: int, trump: int) -> int:
    """The highest trick power ``seat`` can give a card on a trick led in ``led``: its
    top card of the suit, else its top trump (a rough bound: rules are not applied)."""
    if led >= 0 and st[HANDS + seat * SUITS + led]:
        return _card_power(led, _top_bit(st[HANDS + seat * SUITS + led]), 0, led, trump)
    if trump >= 0 and st[HANDS + seat * SUITS + trump]:
        return _card_power(trump, _top_bit(st[HANDS + seat * SUITS + trump]), 0, led, trump)
    return 0


@compiled
def _trick_winner(st: np.ndarray) -> int:
    """Index in the trick of the winning card (the engine's rule: first highest power),
    as the search keeps it card by card (``T_WIN``)."""
    n = st[N_TRICK]
    return int(st[trick_card(st, n - 1) + T_WIN]) if n else 0


@compiled
def _note_winner(st: np.ndarray, i: int) -> None:
    """The card winning the trick once its i-th card is played, into that card's T_WIN."""
    c = trick_card(st, i)
    if i == 0:
        st[c + T_WIN] = 0
        return
    led = st[LED]
    trump = st[TRUMP]
    w = st[trick_card(st, i - 1) + T_WIN]
    wc = trick_card(st, w)
    if (_card_power(st[c + T_SUIT], st[c + T_BIT], st[c + T_LOW], led, trump)
            > _card_power(st[wc + T_SUIT], st[wc + T_BIT], st[wc + T_LOW], led, trump)):
        st[c + T_WIN] = i
    else:
        st[c + T_WIN] = w


@compiled
def _suit_in_play(st: np.ndarray, suit: int) -> int:
    """Every card of a suit still in a hand or in the trick in progress."""
    return int(_in_trick(st, suit) | st[IN_HANDS + suit])


@compiled
def _in_trick(st: np.ndarray, suit: int) -> int:
    """The cards of a suit in the trick in progress."""
    m = 0
    for i in range(st[N_TRICK]):
        c = trick_card(st, i)
        if st[c + T_SUIT] == suit:
            m |= 1 << st[c + T_BIT]
    return m


@inline
def _gen_moves(
    st: np.ndarray, seat: int, mv: np.ndarray, at: int, pref_suit: int, pref_bit: int,
    pref_low: int, killer: int,
) -> int:
    """Write the moves of ``seat`` at mv[at:] (encoded suit * 64 + bit * 2 + low, plus
    RUN when the card stands for a run of several), best
    first by a heuristic score kept at mv[at + MAX_MOVES:]; returns how many."""
    al = at + 2 * MAX_MOVES
    _allowed(st, seat, mv, al)
    n = st[N_TRICK]
    trump = st[TRUMP]
    led = st[LED]
    maxi = st[MAXIMIZERS]
    my_side = (maxi >> seat) & 1
    # the card winning the trick so far, and whether my side holds it
    win_seat = -1
    win_power = -1
    partner_winning = False
    if n > 0:
        wi = _trick_winner(st)
        c = trick_card(st, wi)
        win_seat = st[c + T_SEAT]
        win_power = _card_power(st[c + T_SUIT], st[c + T_BIT], st[c + T_LOW], led, trump)
        partner_winning = ((maxi >> win_seat) & 1) == my_side
    last_to_play = n == st[TRICK_SIZE] - 1
    # the best card the opponents still to play to this trick can put on it
    opp_after = -1
    if n > 0:
        o = st[NEXT + seat]
        for _ in range(st[TRICK_SIZE] - n - 1):
            if ((maxi >> o) & 1) != my_side:
                opp_after = max(opp_after, _best_power(st, o, led, trump))
            o = st[NEXT + o]
    count = 0
    score_at = at + MAX_MOVES
    # four seats in two partnerships: DDS's lead and second-hand weights
    partners = (n == 0 or n == 1) and (st[PARTNER_SEATS] >> seat) & 1
    nil = st[NIL_SEAT]
    for s in range(SUITS):
        mine = mv[al + s]
        if not mine:
            continue
        # one pass over the other hands: my side's and the opponents' cards of the
        # suit; for a lead, the opponents' cards to choose from when the suit is led (a
        # void one may play any card: the fewer, the smaller the tree under the lead,
        # after DDS), whether an opponent or a partner is void and holds a trump
        side_cards = 0
        opp_cards = 0
        opp_choices = 0
        n_opp = 0
        opp_ruffs = False
        partner_ruffs = False
        if n == 0 and not partners:  # a lead is scored by the other hands' holdings
            may_ruff = trump >= 0 and s != trump
            for o in range(st[N_SEATS]):
                if o == seat:
                    continue
                held = st[HANDS + o * SUITS + s]
                void_with_trump = may_ruff and not held and st[HANDS + o * SUITS + trump] != 0
                if ((maxi >> o) & 1) == my_side:
                    side_cards |= held
                    partner_ruffs = partner_ruffs or void_with_trump
                else:
                    opp_cards |= held
                    opp_ruffs = opp_ruffs or void_with_trump
                    opp_choices += _popcount(held) if held else st[TRICKS_LEFT] + 1
                    n_opp += 1
        others = (st[IN_HANDS + s] & ~st[HANDS + seat * SUITS + s]) | _in_trick(st, s)
        length = _popcount(st[HANDS + seat * SUITS + s])
        suit_bonus = _lead_position(st, seat, s) if n == 0 and not partners else 0
        # (a lead) the partner holds the suit's top card and no opponent can ruff it
        to_partner = _top_bit(side_cards) > _top_bit(opp_cards) and not opp_ruffs
        # an ace that may be called low plays unlike its neighbours: a run of its own
        ace_apart = (st[RULES + R_ACE_LOW * SUITS + s] >> ACE_BIT) & 1
        m = mine
        while m:
            # the lowest card of a run stands for the run: my cards with no card of
            # another hand, or of the trick, between them play alike now and later
            b = _top_bit(m & -m)
            above = (others >> (b + 1)) << (b + 1)  # the other hands' cards above it
            nb = _top_bit(above & -above) if above else 15  # the first of them
            if ace_apart and b <= ACE_BIT:
                nb = min(nb, ACE_BIT if b < ACE_BIT else ACE_BIT + 1)
            run_top = _top_bit(m & ((1 << nb) - 1))
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
                if nil >= 0:
                    sc = _nil_score(st, seat, nil, s, bit, low, run_top, win_seat, win_power)
                elif partners and n == 0 and s < 4:
                    sc = _partnership_lead(
                        st, seat, s, run_top, run_top > b,
                        killer > 0 and (killer - 1) >> 6 == s and low == (killer - 1) & 1
                        and b <= ((killer - 1) >> 1) & 31 <= run_top,
                        s == pref_suit and b <= pref_bit <= run_top and low == pref_low)
                elif n == 0:
                    sc = 0
                    top_other = _top_bit(others)
                    if run_top > top_other and not opp_ruffs:
                        sc = 60 + run_top  # a winner: cash it
                    elif to_partner:
                        sc = 40 - bit  # towards a partner's winner
                    elif partner_ruffs:
                        sc = 35 - bit
                    else:
                        sc = 20 - length - bit
                    if s == trump:
                        sc -= 5
                    if s == 4:
                        sc -= 30
                    if (to_partner and length == 1 and trump >= 0 and s != trump
                            and st[HANDS + seat * SUITS + trump]):
                        sc += W_RETURN_RUFF
                    if n_opp:
                        sc -= (LEAD_CHOICE_WEIGHT * opp_choices) // n_opp
                    sc += suit_bonus
                elif partners and s == led and not low and s < 4:
                    sc = _partnership_second_hand(st, s, run_top, run_top > b)
                else:
                    p = _card_power(s, bit, low, led if led >= 0 else s, trump)
                    if partner_winning and win_power > opp_after:
                        # the trick is my side's already: play low
                        sc = 50 - bit - (20 if s == trump else 0)
                        if p > win_power and not last_to_play:
                            sc -= 10
                    elif p > win_power and p > opp_after:
                        # win it for sure, as cheaply as possible (the run's lowest card)
                        sc = 80 - bit - (10 if s == trump and s != led else 0)
                    elif partner_winning:
                        sc = 45 - bit - (20 if s == trump else 0)
                    elif p > win_power:
                        # a card an opponent after me can still beat
                        sc = W_COVER - bit - (10 if s == trump and s != led else 0)
                    else:
                        sc = 30 - bit - (25 if s == trump else 0) + length
                if not partners:
                    if s == pref_suit and b <= pref_bit <= run_top and low == pref_low:
                        sc += 100000  # the best move here last time (transposition table)
                    if (killer > 0 and (killer - 1) >> 6 == s and low == (killer - 1) & 1
                            and b <= ((killer - 1) >> 1) & 31 <= run_top):
                        sc += W_KILLER
                mv[at + count] = (s * 64 + bit * 2 + low + (RUN if run_top > b else 0)
                                  + (run_top << RUN_TOP))
                mv[score_at + count] = sc
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



# Move weights for four seats in two partnerships. The lead and second-hand numbers are
# DDS's (its Moves.cpp, tuned on bridge deals); with them the nodes searched fell by an
# eighth to a third against our own weights, which stay for the third and fourth hands
# (DDS's made more nodes there) and for other games. "lho", "partner" and "rho" are seen
# from the leader.


@compiled
def _partners(st: np.ndarray, seat: int) -> bool:
    """Does ``seat`` sit in a four-seat game of two partnerships facing each other?"""
    if st[N_SEATS] != 4 or st[TRICK_SIZE] != 4 or st[MAXIMIZERS] != st[COUNTED]:
        return False
    maxi = st[MAXIMIZERS]
    lho = st[NEXT + seat]
    partner = st[NEXT + lho]
    rho = st[NEXT + partner]
    side = (maxi >> seat) & 1
    return bool(((maxi >> partner) & 1) == side and ((maxi >> lho) & 1) != side
                and ((maxi >> rho) & 1) != side)


@compiled
def _trump_in_play(st: np.ndarray) -> int:
    """The trump suit while a trump is left in the hands, else -1 (weighed as no trump)."""
    trump = st[TRUMP]
    return trump if trump >= 0 and st[IN_HANDS + trump] else -1


@compiled
def _lead_wins(st: np.ndarray, s: int, trump: int, is_top: bool, lho: int, partner: int,
               rho: int) -> bool:
    """With trumps: does a lead of suit ``s`` (its top card when ``is_top``) win the
    trick for the leader's side, by rank or by the partner's ruff?"""
    cards_l = st[HANDS + lho * SUITS + s]
    cards_p = st[HANDS + partner * SUITS + s]
    cards_r = st[HANDS + rho * SUITS + s]
    if s == trump:
        return bool(is_top or cards_p > (cards_l | cards_r))
    ruffs_l = st[HANDS + lho * SUITS + trump]
    ruffs_p = st[HANDS + partner * SUITS + trump]
    ruffs_r = st[HANDS + rho * SUITS + trump]
    safe_l = cards_l != 0 or not ruffs_l  # lho follows or cannot ruff
    safe_r = cards_r != 0 or not ruffs_r
    if is_top:
        if cards_p or not ruffs_p:
            return bool(safe_l and safe_r)
        return bool((cards_l != 0 or ruffs_p > ruffs_l) and (cards_r != 0 or ruffs_p > ruffs_r))
    if cards_p > (cards_l | cards_r):
        return bool(safe_l and safe_r)
    if cards_p or not ruffs_p:
        return False
    # the partner ruffs, over any opponent's ruff
    return bool((safe_l or ruffs_p > ruffs_l) and (safe_r or ruffs_p > ruffs_r))


@compiled
def _partnership_lead(st: np.ndarray, lead: int, s: int, run_top: int, is_run: bool,
                      killer: bool, table_best: bool) -> int:
    """The weight of leading suit ``s`` from the run topped by ``run_top`` (``killer``:
    the lead made the last cut-off at this depth; ``table_best``: the table's best move)."""
    lho = st[NEXT + lead]
    partner = st[NEXT + lho]
    rho = st[NEXT + partner]
    trump = _trump_in_play(st)
    union = st[IN_HANDS + s]
    top = _top_bit(union)
    top_hand = st[HOLDER + s * 16 + top]
    sb = _second_bit(union)
    second_hand = st[HOLDER + s * 16 + sb] if sb >= 0 else -1
    tb = _third_bit(union)
    third_hand = st[HOLDER + s * 16 + tb] if tb >= 0 else -1
    cards_p = st[HANDS + partner * SUITS + s]
    cards_l = st[HANDS + lho * SUITS + s]
    cards_r = st[HANDS + rho * SUITS + s]
    n_p = _popcount(cards_p)
    n_l = _popcount(cards_l)
    n_r = _popcount(cards_r)
    rel = _popcount(union >> run_top)  # 1 for the suit's top card: low leads weigh more
    is_top = run_top == top
    # the opponents' choices under the lead (a void one may play any card)
    left = st[TRICKS_LEFT]
    choices = ((left if n_l == 0 else n_l) + (left if n_r == 0 else n_r)) * 128
    bare_top = (n_l == 1 and top_hand == lho) or (n_r == 1 and top_hand == rho)
    # the side's second and third best: the suit's next round is the side's too
    next_round = 0
    if second_hand == partner and third_hand == partner:
        next_round = 2
    elif n_p > 1 and ((second_hand == lead and third_hand == partner)
                      or (second_hand == partner and third_hand == lead)):
        next_round = 1
    if trump < 0:
        w = -(choices // 19) - (9 if n_p == 0 else 0)
        if is_top or cards_p > (cards_l | cards_r):  # the side wins the trick
            if second_hand == rho:
                w -= 1 if n_r != 1 else 0
            elif second_hand == lho:
                w += 22 if n_l != 1 else 16
            guarded = (second_hand == lho and n_l > 1) or (second_hand == rho and n_r > 1)
            w += (18 if guarded else 45) + rel
            return w + (126 if killer else (32 if table_best else 0))
        if second_hand == rho or top_hand == rho:
            w -= 10 if n_r != 1 else 0
        elif top_hand == lho and second_hand == partner and n_p != 1:
            w += 31  # through the opponent's top card to the partner's second
        w += (0, 25, 35)[next_round]
        if bare_top:
            w += 28 + rel
        elif top_hand == lead:
            w += -17 + rel
        elif not is_run:
            w += 12 + rel
        elif run_top == sb:
            w += 48
        else:
            w += 29 - rel
        return w + (47 if killer else (19 if table_best else 0))
    w = -(choices // 13)
    if s != trump:
        if (n_l == 0 and st[HANDS + lho * SUITS + trump]) or (
                n_r == 0 and st[HANDS + rho * SUITS + trump]):
            w -= 12  # an opponent ruffs
        if n_p == 0 and st[HANDS + partner * SUITS + trump] and n_r > 0:
            w += 17  # the partner ruffs
        if (_popcount(st[HANDS + lead * SUITS + s]) == 1 and st[HANDS + lead * SUITS + trump]
                and n_p > 1 and top_hand == partner):
            w += 19  # a singleton to the partner's winner, to be ruffed on the return
    if top_hand == rho or second_hand == rho:
        w -= 12 if n_r != 1 else 0
    elif top_hand == lho and second_hand == partner and n_p != 1:
        w += 27
    if _lead_wins(st, s, trump, is_top, lho, partner, rho):
        if bare_top:
            w += 35 + rel
        elif top_hand == lead:
            w += 48 + rel if second_hand == partner else (31 if is_top else -3 + rel)
        elif top_hand == partner:
            w += (42 if second_hand == lead else 28) + rel
        elif is_run and run_top == sb:
            w += 40
        else:
            w += (22 if is_run else 11) + rel
        return w + (55 if killer else (18 if table_best else 0))
    w += (0, 13, 20)[next_round]
    if bare_top:
        w += 2 + rel
    elif top_hand == lead:
        w += 33 + rel if second_hand == partner else (38 if is_top else -14 + rel)
    elif top_hand == partner:
        w += 34 + rel
    elif is_run and run_top == sb:
        w += 35
    else:
        w += 15 - run_top
    return w + (18 if killer else 0)


@compiled
def _partnership_second_hand(st: np.ndarray, s: int, run_top: int, is_run: bool) -> int:
    """The weight of following suit ``s`` second to play with the run topped by
    ``run_top``: low when the partner (last to play) beats the lead and the third hand,
    else the cheapest card sure to win, else low."""
    c0 = trick_card(st, 0)
    leader = st[c0 + T_SEAT]
    led_bit = st[c0 + T_BIT]
    third = st[NEXT + st[NEXT + leader]]
    fourth = st[NEXT + third]
    trump = _trump_in_play(st)
    cards_3 = st[HANDS + third * SUITS + s]
    cards_4 = st[HANDS + fourth * SUITS + s]
    max3 = _top_bit(cards_3) if cards_3 else -1
    max4 = _top_bit(cards_4) if cards_4 else -1
    min3 = _top_bit(cards_3 & -cards_3) if cards_3 else -1
    min4 = _top_bit(cards_4 & -cards_4) if cards_4 else -1
    rank = run_top + 2
    rel = _popcount(st[IN_HANDS + s] >> run_top)
    if trump < 0:
        if max4 > led_bit and max4 > max3:
            return -rank
        if run_top > led_bit and run_top > max3:
            return 81 - rank
        if min3 > run_top or min4 > run_top:
            return -3 + rel
        if run_top < led_bit:
            return -11 + rel
        return 10 + rel if is_run else 13 - rank
    ruffs_3 = st[HANDS + third * SUITS + trump]
    ruffs_4 = st[HANDS + fourth * SUITS + trump]
    over_all = run_top > led_bit and run_top > max3
    partner_over = max4 > led_bit and max4 > max3
    if s == trump:
        wins = partner_over or over_all
    elif over_all:
        wins = max3 >= 0 or not ruffs_3 or (max4 < 0 and ruffs_4 > ruffs_3)
    elif partner_over:
        wins = max3 >= 0 or not ruffs_3
    elif led_bit > max4 and led_bit > max3 and led_bit > run_top:
        wins = max4 < 0 and ruffs_4 != 0 and (max3 >= 0 or not ruffs_3 or ruffs_4 > ruffs_3)
    else:
        wins = max4 < 0 and ruffs_4 != 0  # the partner ruffs
    if wins:
        if min3 > run_top:
            return 40 + rel
        if max4 > led_bit and st[HANDS + st[NEXT + leader] * SUITS + s] > cards_4:
            return 41 + rel
        if run_top > led_bit:
            if run_top < max4:
                return 78 - rank
            if run_top > max3:
                return 73 - rank
            return 62 - rank if is_run else 49 - rank
        return 47 - rank if max4 >= 0 else 40 - rank
    if run_top < min3 or run_top < min4:
        return -9 + rel
    if run_top < led_bit:
        return -16 + rel
    return 22 - rank if is_run else 10 - rank


@compiled
def _covers(st: np.ndarray, nil: int, s: int, card: int) -> bool:
    """Whether a partner of the nil seat can beat ``card`` of suit ``s`` (a higher card
    of the suit, or a trump when void in it), so that the nil seat's card stays under."""
    maxi = st[MAXIMIZERS]
    trump = st[TRUMP]
    for q in range(st[N_SEATS]):
        if q == nil or (maxi >> q) & 1:
            continue
        held = st[HANDS + q * SUITS + s]
        if held:
            if _top_bit(held) > card:
                return True
        elif trump >= 0 and s != trump and st[HANDS + q * SUITS + trump]:
            return True
    return False


@compiled
def _nil_score(st: np.ndarray, seat: int, nil: int, s: int, bit: int, low: int,
               run_top: int, win_seat: int, win_power: int) -> int:
    """The weight of a move where one seat's tricks are counted against its side (a
    nil): the breakers want it to win a trick, its side wants it to lose every one. The
    nil seat plays the highest card that still loses (or one its partner can beat), its
    partner overtakes it, plays high before it, or else takes the lead; the breakers
    play under it when nobody after can overtake it, else take the lead to lead through
    it again, and lead low into its suits where it cannot play under and its partner
    cannot cover. (The weights of a side playing for its own tricks had the nil seat win
    tricks and the breakers overtake it first: 8 to 90 times the nodes.) ``win_seat`` and
    ``win_power``: the card winning the trick so far, as the move generator found it."""
    n = st[N_TRICK]
    trump = st[TRUMP]
    maxi = st[MAXIMIZERS]
    breaker = (maxi >> seat) & 1
    nil_cards = st[HANDS + nil * SUITS + s]
    if n == 0:
        if s == 4:  # a card of no suit
            return -50 if breaker else 0
        if breaker:
            if not nil_cards:
                return 10 - bit
            nil_low = _top_bit(nil_cards & -nil_cards)
            if bit > nil_low:
                return 30 - bit  # the nil seat can play under it
            return (90 if not _covers(st, nil, s, nil_low) else 60) - bit
        if seat == nil:
            others = st[IN_HANDS + s] & ~st[HANDS + seat * SUITS + s]
            if _covers(st, nil, s, run_top):
                return 70 + bit  # the partner beats it: shed a high card
            for o in range(st[N_SEATS]):
                held = st[HANDS + o * SUITS + s]
                if (maxi >> o) & 1 and held and (held & -held) > (1 << run_top):
                    return 60 + bit  # a breaker must beat it
            return (30 - bit) if others >> (run_top + 1) else -bit
        # the nil seat's partner: a suit the nil seat is void in, or high over its cards
        if not nil_cards:
            return 60 + bit
        return (50 + bit) if bit > _top_bit(nil_cards) else 30 - bit
    led = st[LED]
    p = _card_power(s, bit, low, led if led >= 0 else s, trump)
    ruff = s == trump and s != led
    # is the nil seat still to play to this trick, and the best cards the breakers and
    # the nil side (the nil seat apart) still to play can put on it
    nil_after = False
    breakers_after = -1
    partners_after = -1
    follow = led if led >= 0 else s
    o = st[NEXT + seat]
    for _ in range(st[TRICK_SIZE] - n - 1):
        if o == nil:
            nil_after = True
        elif (maxi >> o) & 1:
            breakers_after = max(breakers_after, _best_power(st, o, follow, trump))
        else:
            partners_after = max(partners_after, _best_power(st, o, follow, trump))
        o = st[NEXT + o]
    if seat == nil:
        if p < win_power:
            return 100 + bit + (20 if ruff else 0)  # stays under: the highest such card
        if p < partners_after:
            return 60 - bit  # a partner can still beat it
        return bit - 50
    if not breaker:
        if not nil_after:
            if win_seat == nil:
                return (100 - bit) if p > win_power else -bit  # overtake it, cheaply
            if p > win_power and p > breakers_after:
                return 70 - bit  # take the lead, cheaply
            return 50 - bit - (20 if ruff else 0)
        return (60 + bit) if p > win_power else 30 - bit  # high, for the nil seat to duck
    if not nil_after:
        if win_seat == nil and partners_after < win_power:
            return (100 + bit) if p < win_power else -bit  # under it: the nil seat wins
        if p > win_power and p > partners_after:
            return 70 - bit  # take the lead, to lead through the nil seat again
        return 50 - bit - (20 if ruff else 0)
    return 50 - bit - (30 if ruff else 0)  # low, for the nil seat to beat


@compiled
def _lead_position(st: np.ndarray, leader: int, s: int) -> int:
    """What the places of the suit's top cards say about leading it (after DDS): an
    opponent's top card with a partner's second best played after it (a finesse) is
    good, and so are the side's second and third best (the suit's next round is the
    side's); the top or second best of the opponent who plays last in the trick (the
    lead runs into it) is bad."""
    union = st[IN_HANDS + s]
    if not union:
        return 0
    maxi = st[MAXIMIZERS]
    side = (maxi >> leader) & 1
    holders = 0  # the holders of the top three cards, 4 bits each (15: none)
    places = 0  # the places in the trick of those holders, 4 bits each
    m = union
    for i in range(3):
        if m:
            b = _top_bit(m)
            m &= ~(1 << b)
            h = st[HOLDER + s * 16 + b]
        else:
            h = 15
        holders |= h << (4 * i)
    seat = leader
    for place in range(st[TRICK_SIZE]):
        for i in range(3):
            if (holders >> (4 * i)) & 15 == seat:
                places |= place << (4 * i)
        seat = st[NEXT + seat]
    top, second, third = holders & 15, (holders >> 4) & 15, (holders >> 8) & 15
    bonus = 0
    last = st[TRICK_SIZE] - 1
    if second < 15 and ((maxi >> second) & 1) == side and second != leader:
        if (((maxi >> top) & 1) != side and (places >> 4) & 15 > places & 15
                and _popcount(st[HANDS + second * SUITS + s]) > 1):
            bonus += W_FINESSE  # through the opponent's top card to the partner's second
        if third == second:
            bonus += W_NEXT_ROUND * 20 // 13  # (DDS: 20 against 13)
        elif third == leader and _popcount(st[HANDS + second * SUITS + s]) > 1:
            bonus += W_NEXT_ROUND
    elif (second == leader and third < 15 and third != leader
          and ((maxi >> third) & 1) == side
          and _popcount(st[HANDS + third * SUITS + s]) > 1):
        bonus += W_NEXT_ROUND
    for i in range(2):
        h = (holders >> (4 * i)) & 15
        if (h < 15 and ((maxi >> h) & 1) != side and (places >> (4 * i)) & 15 == last
                and _popcount(st[HANDS + h * SUITS + s]) > 1):
            bonus -= W_TENACE  # into the last opponent's high card
            break
    return bonus


@compiled
def _holder_of_top(st: np.ndarray, suit: int) -> int:
    """The seat holding the highest card of a suit still in the hands, or -1."""
    union = st[IN_HANDS + suit]
    return int(st[HOLDER + suit * 16 + _top_bit(union)]) if union else -1


@compiled
def _top_trump_tricks(st: np.ndarray, holder: int, trump: int) -> tuple[int, int]:
    """Tricks the side of ``holder``, who holds the highest trump, takes with its top
    trumps whatever anyone does, and the lowest rank bit that rests on: each of a run of
    them in one hand wins a trick of its own; or, the second highest with a partner,
    each wins one as long as one of the two holds another trump (it plays that rather
    than let the two fall together). Ace calls and throwing rules are left out."""
    run = _top_run(st, holder, trump)
    if run == 1 and not _ace_low_held(st, trump) and not _any_must_throw(st):
        second = _second_bit(_suit_in_play(st, trump))
        maxi = st[MAXIMIZERS]
        for p in range(st[N_SEATS]):
            held = st[HANDS + p * SUITS + trump]
            if (p != holder and (held >> second) & 1
                    and ((maxi >> p) & 1) == ((maxi >> holder) & 1)
                    and (_popcount(held) > 1
                         or _popcount(st[HANDS + holder * SUITS + trump]) > 1)):
                return 2, second
    return run, _stopper(st, holder, trump)


@compiled
def _second_trump_over(st: np.ndarray, holder: int, trump: int) -> int:
    """The rank bit of the second best trump when it takes a trick for the side not
    holding the best, whatever anyone does; else -1. So it does when its holder plays
    right after ``holder`` in every trick, is not on lead and holds another trump: until
    his side wins a trick, the lead stays with the other side, so ``holder`` plays before
    him each time; the first time he plays a trump he plays the second best if the best
    is not out in that trick (it wins), else a lower one (and the second best is the
    best from then on). Ace calls and throwing rules are left out."""
    hh = st[NEXT + holder]
    if (hh == st[TO_ACT] or st[TRICK_SIZE] != st[N_SEATS]
            or _ace_low_held(st, trump) or _any_must_throw(st)):
        return -1
    maxi = st[MAXIMIZERS]
    held = st[HANDS + hh * SUITS + trump]
    second = _second_bit(st[IN_HANDS + trump])
    if (second >= 0 and (held >> second) & 1 and _popcount(held) > 1
            and ((maxi >> hh) & 1) != ((maxi >> holder) & 1)):
        return second
    return -1


@compiled
def _second_and_third_trumps(st: np.ndarray, holder: int, trump: int) -> int:
    """The rank bit of the third best trump when the side not holding the best
    (``holder``'s) holds the second and third best, the second in a hand with another
    trump: that side takes a trick with one of them whatever anyone does (the best
    falls on one of them at most, and the second's holder keeps it back while it
    could), else -1 (DDS's later tricks). Ace calls and throwing rules are left out."""
    if _ace_low_held(st, trump) or _any_must_throw(st):
        return -1
    union = st[IN_HANDS + trump]
    third = _third_bit(union)
    if third < 0:
        return -1
    second = _second_bit(union)
    maxi = st[MAXIMIZERS]
    side = (maxi >> holder) & 1
    h2 = st[HOLDER + trump * 16 + second]
    h3 = st[HOLDER + trump * 16 + third]
    if (((maxi >> h2) & 1) != side and ((maxi >> h3) & 1) != side
            and _popcount(st[HANDS + h2 * SUITS + trump]) > 1):
        return third
    return -1


@compiled
def _top_run(st: np.ndarray, seat: int, suit: int) -> int:
    """How many of the highest cards of a suit in the hands ``seat`` holds in a row."""
    mine = st[HANDS + seat * SUITS + suit]
    others = st[IN_HANDS + suit] & ~mine
    return _popcount(mine >> (_top_bit(others) + 1)) if others else _popcount(mine)


@compiled
def _second_bit(cards: int) -> int:
    """The rank bit of the second highest of ``cards`` (-1 if fewer than two)."""
    return _top_bit(cards & ~(1 << _top_bit(cards))) if cards else -1


@compiled
def _third_bit(cards: int) -> int:
    """The rank bit of the third highest of ``cards`` (-1 if fewer than three)."""
    return _second_bit(cards & ~(1 << _top_bit(cards))) if cards else -1


@compiled
def _longest_other(st: np.ndarray, seat: int, s: int) -> int:
    """The most cards of suit ``s`` any seat but ``seat`` holds."""
    longest = 0
    for o in range(st[N_SEATS]):
        if o != seat:
            longest = max(longest, _popcount(st[HANDS + o * SUITS + s]))
    return longest


@compiled
def _bit_of_rank(st: np.ndarray, suit: int, rel: int) -> int:
    """The rank bit of the card with ``rel`` cards of its suit above it in play."""
    union = _suit_in_play(st, suit)
    below = _popcount(union) - 1 - rel  # the cards under it
    if below < 0:
        return -1
    if rel <= below:
        for _ in range(rel):
            union ^= 1 << _top_bit(union)
        return _top_bit(union)
    for _ in range(below):
        union &= union - 1
    return _top_bit(union & -union)


@compiled
def _shape(st: np.ndarray, key: np.ndarray, k: int) -> int:
    """The position's shape into key[k:k + SHAPE_WORDS], the holders of each suit's cards
    in play from the top into key[k + OWNERS:] and their numbers into key[k + COUNTS:];
    returns the shape's hash."""
    nseats = st[N_SEATS]
    for w in range(3):
        key[k + w] = st[COUNT_WORDS + w]
    misc = st[TO_ACT] | (st[BROKEN] << 3)
    for s in range(4):
        if (st[RULES + R_ACE_LOW * SUITS + s] >> ACE_BIT) & 1:
            for seat in range(nseats):
                if (st[HANDS + seat * SUITS + s] >> ACE_BIT) & 1:
                    misc |= 1 << (4 + s)
    key[k + 3] = misc
    exact = 0
    for s in range(SUITS):
        if (st[PARTIAL] >> s) & 1:
            exact = (exact << 15) | st[IN_HANDS + s]
    key[k + 4] = exact
    for s in range(SUITS):
        key[k + OWNERS + s] = st[OWNER_WORDS + s]
        key[k + COUNTS + s] = _popcount(st[IN_HANDS + s])
    return _chain_hash(key, k, st[BASE_CHAIN])


@compiled
def _chain_hash(key: np.ndarray, k: int, top: int) -> int:
    """The hash of a position's chain of entries chained on the holders of its ``top``
    top cards of each suit (see CHAIN_TOP), or all of a suit's: its shape and those
    holders, so that a chain holds few patterns."""
    h = _mix(np.uint64(0x9E3779B97F4A7C15), top, 29)
    for w in range(SHAPE_WORDS):
        h = _mix(h, key[k + w], 29)
    for s in range(SUITS):
        count = key[k + COUNTS + s]
        h = _mix(h, key[k + OWNERS + s] >> (3 * (count - min(top, count))), 31)
    return int(h & np.uint64((1 << 40) - 1))


@compiled
def _mix(h: np.uint64, value: int, shift: int) -> np.uint64:
    h = (h ^ np.uint64(value)) * np.uint64(0x100000001B3)
    return h ^ (h >> np.uint64(shift))


@compiled
def _entry_hash(tt: np.ndarray, slot: int) -> int:
    """The hash of the chain an entry was stored in (``_chain_hash`` of its position):
    its shape and the first ``top`` of the holders it keeps, ``top`` the t it is chained
    on. (A suit's top min(top, kept) holders are its position's top min(top, count): an
    entry chained on t keeps the holders of at least t top cards, or all there are.)"""
    top = (tt[slot + E_K] >> E_K_TOP) & 31
    h = _mix(np.uint64(0x9E3779B97F4A7C15), top, 29)
    for w in range(SHAPE_WORDS):
        h = _mix(h, tt[slot + E_SHAPE + w], 29)
    for s in range(SUITS):
        kept = (tt[slot + E_K] >> (5 * s)) & 31
        h = _mix(h, tt[slot + E_OWNERS + s] >> (3 * (kept - min(top, kept))), 31)
    return int(h & np.uint64((1 << 40) - 1))


@compiled
def _same_shape(tt: np.ndarray, slot: int, key: np.ndarray, k: int) -> bool:
    for w in range(SHAPE_WORDS):  # noqa: SIM110 (a loop numba compiles; no generators)
        if tt[slot + E_SHAPE + w] != key[k + w]:
            return False
    return True


@compiled
def _holders_match(tt: np.ndarray, slot: int, key: np.ndarray, k: int) -> bool:
    """Do the top k_s cards of each suit have the entry's holders? (the k_s of its
    pattern, ``E_K_REL``: of the holders it keeps, those it rests on)"""
    ks = tt[slot + E_K]
    for s in range(SUITS):
        top = (ks >> (E_K_REL + 5 * s)) & 31
        if top and (key[k + OWNERS + s] >> (3 * (key[k + COUNTS + s] - top))
                    ) != tt[slot + E_OWNERS + s] >> (3 * (((ks >> (5 * s)) & 31) - top)):
            return False
    return True


@compiled
def _pattern(st: np.ndarray, mv: np.ndarray, rel: int, key: np.ndarray, k: int,
             ks_out: np.ndarray, o: int) -> int:
    """The k_s of a result depending on the ranks at mv[rel..rel+4] (thresholds), packed;
    the holders of those top cards into ks_out[o..o+4]."""
    packed = 0
    for s in range(SUITS):
        union = st[IN_HANDS + s]
        t = min(mv[rel + s], st[FORCED + s])
        top = _popcount(union >> t) if t < NO_RANK else 0
        packed |= top << (E_K_REL + 5 * s)
        top = max(top, min(st[BASE_CHAIN], key[k + COUNTS + s]))
        packed |= top << (5 * s)
        ks_out[o + s] = key[k + OWNERS + s] >> (3 * (key[k + COUNTS + s] - top)) if top else 0
    return packed


@compiled
def _set_relevant_from_entry(st: np.ndarray, tt: np.ndarray, slot: int, mv: np.ndarray,
                             rel: int) -> None:
    """The ranks a table entry's result depends on, as thresholds of this position."""
    ks = tt[slot + E_K]
    for s in range(SUITS):
        top = (ks >> (E_K_REL + 5 * s)) & 31
        mv[rel + s] = _bit_of_rank(st, s, top - 1) if top else NO_RANK


@compiled
def _stopper(st: np.ndarray, seat: int, s: int) -> int:
    """The highest card of suit ``s`` not held by ``seat`` (its rank bit), NO_RANK if the
    others hold none: ``seat``'s run from the top depends on the ranks down to it."""
    others = st[IN_HANDS + s] & ~st[HANDS + seat * SUITS + s]
    return _top_bit(others) if others else NO_RANK


@inline
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


@compiled
def _may_lead_suit(st: np.ndarray, s: int) -> bool:
    if s == st[TRUMP] and not st[BROKEN] and st[RULES + R_LEAD_UNTIL_BROKEN * SUITS + s]:
        return False
    return bool(st[RULES + R_LEAD_BLOCKED * SUITS + s] == 0)


@inline
def _cash_rounds(st: np.ndarray, seat: int, s: int) -> int:
    """Rounds of suit ``s`` that ``seat``, on lead, surely wins one after another by
    leading its highest card each time: an opponent keeps his highest card for as long
    as he holds the suit, a partner plays his lowest (he must not overtake), and the
    rounds stop short where an opponent may ruff (void and holding a trump). Once every
    other hand is out of the suit the rest are long cards. Packed with the lowest rank
    bit the count rests on: count | bit << 5 (NO_RANK: none). The count is exact for any
    position with the same shape and the same holders of the cards down to that bit:
    the cards compared in the rounds won, and the card that stopped the next."""
    mine = st[HANDS + seat * SUITS + s]
    if not mine or not _may_lead_suit(st, s):
        return NO_RANK << 5
    if _any_must_throw(st):
        # a void partner made to throw a card could take the lead: the top run only
        return min(_top_run(st, seat, s), _ruff_cap(st, seat, s)) | _stopper(st, seat, s) << 5
    maxi = st[MAXIMIZERS]
    side = (maxi >> seat) & 1
    longest = _longest_other(st, seat, s)
    rounds = min(_popcount(mine), _ruff_cap(st, seat, s))
    run = _top_run(st, seat, s)  # rounds won by cards above every other hand's
    rest = mine
    lowest = NO_RANK
    for i in range(rounds):
        card = _top_bit(rest)
        if i >= run:
            beaten_by = -1
            for o in range(st[N_SEATS]):
                held = st[HANDS + o * SUITS + s]
                if o == seat or _popcount(held) <= i:
                    continue
                if ((maxi >> o) & 1) == side:
                    for _ in range(i):  # the partner's lowest card left after i rounds
                        held &= held - 1
                    c = _top_bit(held & -held)
                else:
                    c = _top_bit(held)
                beaten_by = max(beaten_by, c)
            if beaten_by > card:
                return i | min(lowest, beaten_by) << 5
        if i >= longest:
            break  # every other hand is out of the suit: the rest are long cards
        lowest = card
        rest &= ~(1 << card)
    return rounds | lowest << 5


@compiled
def _any_must_throw(st: np.ndarray) -> bool:
    """Whether a rule makes some card be thrown when void (a partner could then be
    made to take the lead from the hand cashing its long cards)."""
    return bool(st[THROW_RULE] != 0)


@compiled
def _note_shape(st: np.ndarray) -> None:
    """Work out ``COUNT_WORDS`` and ``OWNER_WORDS`` from the hands, before a search."""
    for w in range(3):
        st[COUNT_WORDS + w] = 0
    for seat in range(st[N_SEATS]):
        for s in range(SUITS):
            n = _popcount(st[HANDS + seat * SUITS + s])
            st[COUNT_WORDS + seat // 2] += n << ((seat % 2) * 25 + s * 5)
    for s in range(SUITS):
        word = 0
        union = st[IN_HANDS + s]
        while union:
            b = _top_bit(union)
            union &= ~(1 << b)
            word = (word << 3) | (st[HOLDER + s * 16 + b] + 1)
        st[OWNER_WORDS + s] = word


@compiled
def _note_throw_rule(st: np.ndarray) -> None:
    """Work out ``THROW_RULE`` from the rule masks, before a search."""
    masks = 0
    for u in range(SUITS):
        masks |= st[RULES + R_MUST_THROW * SUITS + u]
    st[THROW_RULE] = 1 if masks else 0


@compiled
def _trick_taker(st: np.ndarray, mv: np.ndarray, rel: int) -> int:
    """The seat of the side to play that surely takes the trick in progress (DDS's
    QuickTricksSecondHand, for any number of seats): that side (this seat or a partner
    still to play) has a card that beats the card winning it now and every card an
    opponent still to play could put on it. RUFFED when the side takes it by a ruff, -1
    when it may not take it. Told for a trick led in a suit and not yet ruffed, with no
    rule making a void hand throw some card. The answer rests on the ranks of the led
    suit down to the side's card when it follows suit, on none when it ruffs (any trump
    wins then: no opponent still to play can ruff)."""
    led = st[LED]
    n = st[N_TRICK]
    trump = st[TRUMP]
    if led < 0 or _any_must_throw(st):
        return -1
    c = trick_card(st, _trick_winner(st))
    win_power = _card_power(st[c + T_SUIT], st[c + T_BIT], st[c + T_LOW], led, trump)
    if win_power >= 100 and led != trump:
        return -1  # ruffed already: whether a trump beats it is a question of ranks
    maxi = st[MAXIMIZERS]
    seat = st[TO_ACT]
    side = (maxi >> seat) & 1
    opp_best = 0
    follow = 0  # the side's cards of the led suit (this seat's and later partners')
    ruffs = False  # the side has a seat, void in the led suit, holding a trump
    o = seat
    for _ in range(st[TRICK_SIZE] - n):
        held = st[HANDS + o * SUITS + led]
        if ((maxi >> o) & 1) == side:
            follow |= held
            if not held and trump >= 0 and st[HANDS + o * SUITS + trump]:
                ruffs = True
        else:
            opp_best = max(opp_best, _best_power(st, o, led, trump))
        o = st[NEXT + o]
    if follow:
        top = _top_bit(follow)
        power = _card_power(led, top, 0, led, trump)
        if power > win_power and power > opp_best:
            mv[rel + led] = min(mv[rel + led], top)
            return int(st[HOLDER + led * 16 + top])
    return RUFFED if ruffs and led != trump and opp_best < 100 else -1


@compiled
def _cashes_after(st: np.ndarray, mv: np.ndarray, rel: int, taker: int, needed: int) -> bool:
    """With no trump left: do ``needed`` tricks more surely follow for the side of
    ``taker``, who takes the trick in progress with his highest card of the led suit and
    leads next (DDS's QuickTricksSecondHand)? His next card of the led suit when it is
    the highest left after, the highest card of each other suit he holds, and every card
    of a suit nobody else holds; the answer rests on those cards' ranks."""
    led = st[LED]
    union = st[IN_HANDS + led]
    mine = st[HANDS + taker * SUITS + led]
    count = 0
    sb = _second_bit(union)
    if sb >= 0 and (mine >> sb) & 1 and (mine >> _top_bit(union)) & 1:
        count += 1  # he holds the two highest left
        mv[rel + led] = min(mv[rel + led], sb)
    for s in range(4):
        held = st[HANDS + taker * SUITS + s]
        if s == led or not held or not _may_lead_suit(st, s) or count >= needed:
            continue
        if held == st[IN_HANDS + s]:  # nobody else holds the suit
            count += _popcount(held)
        elif _holder_of_top(st, s) == taker:
            count += 1
            mv[rel + s] = min(mv[rel + s], _top_bit(held))
    return count >= needed


@compiled
def _last_trick(st: np.ndarray, mv: np.ndarray, rel: int) -> int:
    """With one trick left every seat still to play holds one card and must play it:
    1 when the trick goes to a counted seat, else 0; -1 when it is not so simple (an ace
    that may be called low gives its holder a choice). As when a trick is searched, the
    winning card's rank matters if it beat another card of its suit."""
    for s in range(SUITS):
        if _ace_low_held(st, s):
            return -1
    n = st[N_TRICK]
    size = st[TRICK_SIZE]
    led = st[LED]
    seat = st[TO_ACT]
    for _ in range(size - n):  # the led suit, if the first card with a suit is to come
        card = _only_card(st, seat)
        if card < 0:
            return -1
        if led < 0 and card >> 4 < 4:
            led = card >> 4
        seat = st[NEXT + seat]
    trump = st[TRUMP]
    best = -1
    win_suit = win_bit = win_seat = -1
    seen = twice = 0  # suits (a bit each) with a card in the trick, with two or more
    seat = st[TO_ACT]
    for i in range(size):
        if i < n:
            c = trick_card(st, i)
            suit, bit, low, who = st[c + T_SUIT], st[c + T_BIT], st[c + T_LOW], st[c + T_SEAT]
        else:
            card = _only_card(st, seat)
            suit, bit, low, who = card >> 4, card & 15, 0, seat
            seat = st[NEXT + seat]
        twice |= seen & (1 << suit)
        seen |= 1 << suit
        p = _card_power(suit, bit, low, led, trump)
        if p > best:
            best, win_suit, win_bit, win_seat = p, suit, bit, who
    if (twice >> win_suit) & 1:  # the winner beat another card of its suit
        mv[rel + win_suit] = min(mv[rel + win_suit], win_bit)
    return int((st[COUNTED] >> win_seat) & 1)


@compiled
def _only_card(st: np.ndarray, seat: int) -> int:
    """The one card ``seat`` holds (suit * 16 + rank bit), -1 if it holds more or none."""
    card = -1
    for s in range(SUITS):
        m = st[HANDS + seat * SUITS + s]
        if m:
            if card >= 0 or m & (m - 1):
                return -1
            card = s * 16 + _top_bit(m)
    return card


@compiled
def _runs_of(st: np.ndarray, seat: int) -> int:
    """``seat``'s rounds cashed from the top of each suit when on lead
    (``_cash_rounds``), RUN_BITS a suit."""
    runs = 0
    for s in range(4):
        runs |= _cash_rounds(st, seat, s) << (RUN_BITS * s)
    return runs


@compiled
def _run_in(runs: int, s: int) -> int:
    """The rounds of suit ``s`` in a hand's runs (``_runs_of``)."""
    return _run_part(runs, s) & 31


@compiled
def _run_part(runs: int, s: int) -> int:
    """Suit ``s``'s part of a hand's runs, packed as ``_cash_rounds`` packs it."""
    return (runs >> (RUN_BITS * s)) & ((1 << RUN_BITS) - 1)


@compiled
def _run_rank(runs: int, s: int) -> int:
    """The lowest rank bit the rounds of suit ``s`` in a hand's runs rest on."""
    return _run_part(runs, s) >> 5


@compiled
def _run_total(runs: int) -> int:
    """The tricks a hand's runs (``_runs_of``) cash, suit after suit."""
    return _run_in(runs, 0) + _run_in(runs, 1) + _run_in(runs, 2) + _run_in(runs, 3)


@compiled
def _cards_held(st: np.ndarray, seat: int) -> int:
    n = 0
    for s in range(SUITS):
        n += _popcount(st[HANDS + seat * SUITS + s])
    return n


@compiled
def _discards_free(st: np.ndarray, seat: int) -> bool:
    """Whether ``seat`` may discard what it likes (no rule makes it throw a card when
    void). (An opponent holding a trump never discards while the leader cashes his
    winners: his runs stop where one could be void.)"""
    for u in range(SUITS):
        if st[RULES + R_MUST_THROW * SUITS + u] & st[HANDS + seat * SUITS + u]:
            return False
    return True


@compiled
def _quick_tricks(st: np.ndarray, mv: np.ndarray, rel: int, needed: int) -> bool:
    """Whether the leader's side surely takes ``needed`` tricks by cashing winners, and
    if so the ranks that rests on into mv[rel:]. Tried in turn, the first that is enough
    deciding (a position with more winners elsewhere cashes as many, so each rests only
    on the suits it cashes, down to the ranks its rounds compared):

    - the leader's rounds of each suit (``_cash_rounds``);
    - with a partner's help: two rounds of a suit whose two top cards they share (the
      lead comes back to the leader) besides the leader's runs;
    - one trick, ruffed by a partner;
    - a partner's runs, reached by leading a suit whose top card he holds (he keeps the
      lead; ``_entry_rounds``); or those after the leader's own in the other suits, when
      that is safe (``_partner_cashes``): the
      partner, following or discarding meanwhile, has cards enough to spare outside his
      winners and no trump he might have to spend on them (this rests on every suit).
    """
    leader = st[TO_ACT]
    maxi = st[MAXIMIZERS]
    side = (maxi >> leader) & 1
    runs = _runs_of(st, leader)
    own = _run_total(runs)
    if own >= needed:
        _cashed_runs_matter(st, mv, rel, leader, runs)
        return True
    for p in range(st[N_SEATS]):
        if p == leader or ((maxi >> p) & 1) != side:
            continue
        extra = 0
        splits = 0  # the suits where the shared top cards do better than the run
        for s in range(4):
            gain = _split_tops(st, leader, p, s) - _run_in(runs, s)
            if gain > 0:
                extra += gain
                splits |= 1 << s
        if extra and own + extra >= needed:
            _cashed_runs_matter(st, mv, rel, leader, runs)
            for s in range(4):
                if (splits >> s) & 1:  # the holders of the two top cards
                    mv[rel + s] = min(mv[rel + s], _second_bit(_suit_in_play(st, s)))
            return True
    if needed == 1:
        ruff = _partner_ruff(st)
        if ruff >= 0:
            trump = st[TRUMP]
            mv[rel + trump] = min(mv[rel + trump], ruff)
            return True
    for p in range(st[N_SEATS]):
        if p == leader or ((maxi >> p) & 1) != side:
            continue
        partner_runs = -1
        for s in range(4):
            if not _reaches(st, leader, p, s):
                continue
            if partner_runs < 0:
                partner_runs = _runs_of(st, p)
            if _partner_cashes(st, mv, rel, leader, p, s, runs, own, partner_runs, needed):
                return True
    return False


@compiled
def _partner_cashes(st: np.ndarray, mv: np.ndarray, rel: int, leader: int, p: int, s: int,
                    runs: int, own: int, partner_runs: int, needed: int) -> bool:
    """Whether the leader's side surely takes ``needed`` tricks by reaching partner ``p``
    in suit ``s`` (``_reaches``) for the partner's runs (``_entry_rounds`` in ``s``), or
    after the leader's own in the other suits when that is safe: the partner, following
    or discarding meanwhile, has cards enough to spare outside his winners and no trump
    he might have to spend on them (this rests on every suit). If so, the ranks that
    rests on go to mv[rel:]."""
    entry = _entry_rounds(st, leader, p, s, partner_runs)
    others = _run_total(partner_runs) - _run_in(partner_runs, s)
    if others + (entry & 31) >= needed:
        _cashed_runs_matter(st, mv, rel, p, partner_runs)
        mv[rel + s] = min(mv[rel + s], entry >> 5)
        return True
    if not _discards_free(st, p):
        return False
    first = own - _run_in(runs, s)
    # the partner's rounds after them, in the suits the leader left alone (the others'
    # holdings there are no longer what his rounds were counted on)
    then = entry & 31
    for t in range(4):
        if t != s and not _run_in(runs, t):
            then += _run_in(partner_runs, t)
    # the leader cashes only as many of his rounds as the partner has cards to spare for
    first = min(first, _cards_held(st, p) - then)
    if first <= 0 or first + then < needed:
        return False
    discards = 0
    for t in range(4):
        if t != s:
            discards += max(0, _run_in(runs, t) - _popcount(st[HANDS + p * SUITS + t]))
    # Every card the partner plays meanwhile must be a loser, and a discarded trump
    # would win the trick and strand the lead with him.
    trump = st[TRUMP]
    spare_trumps = trump >= 0 and _popcount(
        st[HANDS + p * SUITS + trump]
    ) > _cash_rounds(st, p, trump) & 31
    if discards and spare_trumps:
        return False
    maxi = st[MAXIMIZERS]
    for q in range(st[N_SEATS]):
        if ((maxi >> q) & 1) == ((maxi >> leader) & 1):
            _runs_matter(st, mv, rel, q)
    mv[rel + s] = min(mv[rel + s], entry >> 5)
    return True


@compiled
def _partner_ruff(st: np.ndarray) -> int:
    """A trick the leader's side surely takes by ruffing: the leader can lead a suit in
    which a partner is void and holds a trump higher than every trump of an opponent
    also void in it (the others follow suit, or hold no trump). Returns the lowest rank
    bit of trumps that rests on (NO_RANK: none, no opponent can ruff), -1 if there is
    no such trick. Throwing rules are left out."""
    trump = st[TRUMP]
    if trump < 0 or _any_must_throw(st):
        return -1
    leader = st[TO_ACT]
    maxi = st[MAXIMIZERS]
    side = (maxi >> leader) & 1
    for s in range(4):
        if s == trump or not st[HANDS + leader * SUITS + s] or not _may_lead_suit(st, s):
            continue
        opp_top = -1  # the highest trump of an opponent void in the suit
        for o in range(st[N_SEATS]):
            if ((maxi >> o) & 1) != side and not st[HANDS + o * SUITS + s]:
                opp_top = max(opp_top, _top_bit(st[HANDS + o * SUITS + trump]))
        for p in range(st[N_SEATS]):
            trumps = st[HANDS + p * SUITS + trump]
            if (p != leader and ((maxi >> p) & 1) == side and trumps
                    and not st[HANDS + p * SUITS + s] and _top_bit(trumps) > opp_top):
                return _top_bit(trumps) if opp_top >= 0 else NO_RANK
    return -1


@inline
def _split_tops(st: np.ndarray, leader: int, p: int, s: int) -> int:
    """2 when the two highest cards of suit ``s`` are one the leader's and one partner
    ``p``'s, each holding another card of the suit, and nobody can ruff two rounds: the
    leader leads low to the partner's top card and the partner leads back to the
    leader's, who is on lead again. Else 0."""
    if (_popcount(st[HANDS + leader * SUITS + s]) < 2
            or _popcount(st[HANDS + p * SUITS + s]) < 2
            or not _may_lead_suit(st, s) or _any_must_throw(st)):
        return 0
    union = _suit_in_play(st, s)
    pair = (1 << _top_bit(union)) | (1 << _second_bit(union))
    mine = st[HANDS + leader * SUITS + s] & pair
    theirs = st[HANDS + p * SUITS + s] & pair
    if mine == 0 or theirs == 0 or mine | theirs != pair:
        return 0
    return 2 if _ruff_cap(st, leader, s) >= 2 else 0


@inline
def _reaches(st: np.ndarray, leader: int, p: int, s: int) -> bool:
    """Whether ``leader`` can reach partner ``p`` in suit ``s``: it holds and may lead
    the suit, ``p`` holds its highest card, and no opponent can ruff the first round."""
    return bool(st[HANDS + leader * SUITS + s] and _may_lead_suit(st, s)
                and _holder_of_top(st, s) == p and _ruff_cap(st, leader, s) >= 1)


@compiled
def _entry_rounds(st: np.ndarray, leader: int, p: int, s: int, partner_runs: int) -> int:
    """The rounds of suit ``s`` partner ``p`` surely wins when the leader leads it to him
    (``_reaches``), packed as ``_cash_rounds`` packs them: his own rounds from the top,
    or, when he also holds the third best card and the second sits with an opponent who
    plays between the two (DDS's finesse), two rounds: that opponent's card falls to his
    best or his third best wins; and then the rest of his cards too when no other hand
    holds more than two of the suit. (Not told with aces called low or throwing rules.)"""
    own = _run_part(partner_runs, s)
    if (own & 31) >= 2 or _ace_low_held(st, s) or _any_must_throw(st):
        return own
    union = st[IN_HANDS + s]
    third = _third_bit(union)
    if third < 0 or st[HOLDER + s * 16 + third] != p:
        return own
    second = _second_bit(union)
    maxi = st[MAXIMIZERS]
    o = st[NEXT + leader]
    between = False
    while o != p:
        if o == st[HOLDER + s * 16 + second] and ((maxi >> o) & 1) != ((maxi >> p) & 1):
            between = True
        o = st[NEXT + o]
    cap = _ruff_cap(st, leader, s)
    if not between or cap < 2:
        return own
    rounds = 2
    held = _popcount(st[HANDS + p * SUITS + s])
    if _longest_other(st, p, s) <= 2 and cap >= held:
        rounds = held
    return rounds | min(third, own >> 5) << 5


@compiled
def _cashed_runs_matter(st: np.ndarray, mv: np.ndarray, rel: int, seat: int,
                        runs: int) -> None:
    """The ranks of ``seat``'s runs (``_runs_of``), in the suits it cashes."""
    for s in range(4):
        if _run_in(runs, s):
            mv[rel + s] = min(mv[rel + s], _run_rank(runs, s))


@compiled
def _longest(st: np.ndarray, side: int, s: int) -> int:
    """The most cards of suit ``s`` any seat of ``side`` (1: the maximizers) holds."""
    maxi = st[MAXIMIZERS]
    most = 0
    for p in range(st[N_SEATS]):
        if ((maxi >> p) & 1) == side:
            most = max(most, _popcount(st[HANDS + p * SUITS + s]))
    return most


@compiled
def _later_tricks(st: np.ndarray, mv: np.ndarray, rel: int, target: int, left: int) -> int:
    """DDS's later-tricks bounds at the start of a trick (two sides, every trick counted
    for its winner's side): 1 when the maximizers surely get ``target``, 0 when they
    surely do not, -1 when these bounds cannot tell. The ranks the answer rests on go to
    mv[rel:] (nothing is left there to rest on but the shape, unless said).

    - Every trump left is one side's: each trump of that side's longest holding wins a
      trick of its own (nothing else can beat a trump), whatever the other cards.
    - No trumps left, no card without a suit: the side on lead can win every trick only
      by leading each one, and a trick led in a suit is its only when it holds that
      suit's highest card; so it wins, at most, as many tricks of each suit it holds the
      top of as its longest holding there, none of the others. When that is fewer than
      the tricks left, it cannot take them all (the others' top cards matter). Not told
      when the side on lead can pass the lead with an ace called low
      (``_side_passes_the_lead``): once an opponent has thrown one of his top cards, it
      picks the hand that leads the suit he gave up (issue 45: a seat holding the tops of
      hearts and clubs, void in the diamond led, keeps one and loses it). Aces the others
      hold change nothing: they give the others more choices, the side none."""
    maxi = st[MAXIMIZERS]
    trump = st[TRUMP]
    if trump >= 0:
        mine = _longest(st, 1, trump)
        theirs = _longest(st, 0, trump)
        if mine and not theirs:
            return 1 if target <= mine + _ruff_besides(st, mine) else -1
        if theirs and not mine:
            return 0 if target > left - theirs - _ruff_besides(st, theirs) else -1
        if mine:
            return -1
    leader = st[TO_ACT]
    side = (maxi >> leader) & 1
    if target != (left if side else 1):
        return -1  # the side on lead does not need every trick
    for p in range(st[N_SEATS]):
        if st[HANDS + p * SUITS + 4]:
            return -1
    if _side_passes_the_lead(st, side):
        return -1
    most = 0
    for s in range(4):
        holder = _holder_of_top(st, s)
        if holder >= 0 and ((maxi >> holder) & 1) == side:
            most += _longest(st, side, s)
    if most >= left:
        return -1
    for s in range(4):
        holder = _holder_of_top(st, s)
        if holder >= 0 and ((maxi >> holder) & 1) != side and _longest(st, side, s):
            mv[rel + s] = _top_bit(st[HANDS + holder * SUITS + s])
    return 0 if side else 1


@compiled
def _side_passes_the_lead(st: np.ndarray, side: int) -> bool:
    """Whether a hand of ``side`` (1: the maximizers) holds an ace that may be called low
    while another hand of the side holds cards: called high or low after the others have
    played, it picks which of the side's hands wins the trick, and so leads next, with no
    length in the suit. (A seat alone gains nothing by it when it must win every trick:
    it leads each one, and an ace it leads low wins only where a high one would.)"""
    maxi = st[MAXIMIZERS]
    hands = 0
    for p in range(st[N_SEATS]):
        if ((maxi >> p) & 1) == side and _cards_held(st, p):
            hands += 1
    if hands < 2:
        return False
    for s in range(4):
        if _ace_low_held(st, s) and ((maxi >> st[HOLDER + s * 16 + ACE_BIT]) & 1) == side:
            return True
    return False


@compiled
def _ruff_besides(st: np.ndarray, longest: int) -> int:
    """1 when the side on lead holds every trump, the leader holds ``longest`` of them
    (the side's longest holding) and can lead a suit a partner holding a trump is void
    in: that ruff is a trick besides the one each of the leader's trumps wins. Else 0."""
    leader = st[TO_ACT]
    trump = st[TRUMP]
    if _popcount(st[HANDS + leader * SUITS + trump]) != longest or _any_must_throw(st):
        return 0
    maxi = st[MAXIMIZERS]
    for p in range(st[N_SEATS]):
        if (p == leader or ((maxi >> p) & 1) != ((maxi >> leader) & 1)
                or not st[HANDS + p * SUITS + trump]):
            continue
        for s in range(4):
            if (s != trump and st[HANDS + leader * SUITS + s]
                    and not st[HANDS + p * SUITS + s] and _may_lead_suit(st, s)):
                return 1
    return 0


@compiled
def _lone_seat(mask: int) -> int:
    """The seat of a seat mask with exactly one seat in it, else -1."""
    if mask > 0 and (mask & (mask - 1)) == 0:
        return _top_bit(mask)
    return -1


@compiled
def _sure_trump_tricks(st: np.ndarray, seat: int, left: int) -> int:
    """Tricks ``seat`` takes whatever anyone does: each of its trumps above every other
    trump in play wins the trick it goes to (two of them never share a trick), and it
    plays them all when it plays to every trick left. 0 when an ace may be called low
    in trumps (it would not win)."""
    trump = st[TRUMP]
    if (trump < 0 or st[TRICK_SIZE] != st[N_SEATS] or _cards_held(st, seat) != left
            or _ace_low_held(st, trump)):
        return 0
    if _holder_of_top(st, trump) != seat:
        return 0
    return _top_run(st, seat, trump)


@compiled
def _ducks_every_trick(st: np.ndarray, mv: np.ndarray, rel: int, seat: int) -> bool:
    """Whether ``seat``, not on lead, can keep from taking any more tricks whatever the
    others do (a nil, safe from here): it holds no trump, and in each suit its cards are
    the lowest in play, so any card led in that suit beats all of them and a card it
    throws on another suit cannot win; never winning, it never leads. Not told when an
    ace may be called low (below every card) or a card without a suit is in play. The
    answer rests on the ranks down to its highest card of each suit."""
    trump = st[TRUMP]
    if trump >= 0 and st[HANDS + seat * SUITS + trump]:
        return False
    for s in range(SUITS):
        if _ace_low_held(st, s):
            return False
    for p in range(st[N_SEATS]):
        if st[HANDS + p * SUITS + 4]:
            return False
    for s in range(4):
        mine = st[HANDS + seat * SUITS + s]
        if mine:
            others = 0
            for o in range(st[N_SEATS]):
                if o != seat:
                    others |= st[HANDS + o * SUITS + s]
            if others & ((2 << _top_bit(mine)) - 1):
                return False
    for s in range(4):
        mine = st[HANDS + seat * SUITS + s]
        if mine:
            mv[rel + s] = _top_bit(mine)
    return True


@compiled
def _store(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, k: int, chain: int, rel: int,
           result: bool, target: int, best: int, left: int) -> None:
    """Keep a bound found at a trick boundary, for every position with its pattern."""
    o = k + KEY_WORDS  # scratch: the next depth's table key is free now (none deeper runs)
    packed = _pattern(st, mv, rel, mv, k, mv, o)
    top = st[TOP_CHAIN]  # the chain: the most top holders of every suit the entry keeps
    for x in range(SUITS):
        kept = (packed >> (5 * x)) & 31
        mv[STATS + S_STORED_CARDS] += mv[k + COUNTS + x]
        mv[STATS + S_PATTERN_CARDS] += (packed >> (E_K_REL + 5 * x)) & 31
        while top > st[BASE_CHAIN] and kept < min(top, mv[k + COUNTS + x]):
            top -= 1
    packed |= top << E_K_TOP
    if top != st[BASE_CHAIN]:
        chain = _chain_hash(mv, k, top) & (_chains(tt) - 1)
    slot = _first(tt, chain)
    walked = 0
    found = False
    while slot >= 0 and walked < CHAIN_WALK:
        walked += 1
        following = tt[slot + E_NEXT]
        if following >= 0:
            _load_soon(tt, following)
        if _same_shape(tt, slot, mv, k) and tt[slot + E_K] == packed:
            found = True
            for x in range(SUITS):
                if tt[slot + E_OWNERS + x] != mv[o + x]:
                    found = False
                    break
            if found:
                break
        slot = tt[slot + E_NEXT]
    if not found:
        pool = _pool(tt)
        if pool + (tt[H_USED] + 1) * TT_ENTRY > len(tt):
            _make_room(tt)
        slot = pool + tt[H_USED] * TT_ENTRY
        tt[H_USED] += 1
        _push_front(tt, chain, slot)
        for w in range(SHAPE_WORDS):
            tt[slot + E_SHAPE + w] = mv[k + w]
        tt[slot + E_K] = packed
        for x in range(SUITS):
            tt[slot + E_OWNERS + x] = mv[o + x]
        tt[slot + E_LOWER] = 0
        tt[slot + E_UPPER] = left
        tt[slot + E_LEFT] = left
        tt[slot + E_BEST] = 0
    if result:
        if target > tt[slot + E_LOWER]:
            tt[slot + E_LOWER] = target
    elif target - 1 < tt[slot + E_UPPER]:
        tt[slot + E_UPPER] = target - 1
    if best >= 0:
        s = (best >> 6) & 7
        rel_rank = _popcount(_suit_in_play(st, s) >> (((best >> 1) & 31) + 1))
        tt[slot + E_BEST] = (s * 32 + rel_rank) * 2 + (best & 1) + 1


@compiled
def _no_ranks(mv: np.ndarray, rel: int) -> None:
    for s in range(SUITS):
        mv[rel + s] = NO_RANK


@compiled
def _runs_matter(st: np.ndarray, mv: np.ndarray, rel: int, seat: int) -> None:
    """The result rests on ``seat``'s runs (``_runs_of``) in the four suits."""
    runs = _runs_of(st, seat)
    for s in range(4):
        mv[rel + s] = min(mv[rel + s], _run_rank(runs, s))


@compiled
def _ranks_interchangeable(st: np.ndarray, s: int) -> bool:
    """Whether the rules treat the cards of suit ``s`` alike whatever their rank (no
    ace that may be called low still held, no rule for some of its cards only), so that
    two of them differ only in which beats which."""
    if (st[PARTIAL] >> s) & 1:
        return False
    return st[FORCED + s] == NO_RANK or not _ace_low_held(st, s)


@compiled
def _whole_runs(mv: np.ndarray, at: int, count: int, rel: int) -> None:
    """After every move of a position was searched: a card that stood for a run of
    cards must stand for the whole run in any position the result is stored for. If the
    ranks that matter reach into the run, they take in all of it, so that the run is a
    run there too (a card of it above the ranks that matter and one below would be
    different moves there, and only one was searched here). A run wholly below the ranks
    that matter is small cards anywhere, and one wholly above is the very same cards."""
    changed = True
    while changed:
        changed = False
        for i in range(count):
            code = mv[at + i]
            if not code & RUN:
                continue
            s = (code >> 6) & 7
            low_bit = (code >> 1) & 31
            top_bit = code >> RUN_TOP
            if low_bit < mv[rel + s] <= top_bit:
                mv[rel + s] = low_bit
                changed = True


@inline
def _probe(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, k: int, rel: int,
           target: int) -> tuple[int, int, int]:
    """Look the position (at a trick start) up in the table: (1 or 0 when an entry
    answers whether the maximizers get ``target``, -1 when none does; the position's
    chain; the best move an entry holds, -1 if none)."""
    chains = _chains(tt)
    chain = _shape(st, mv, k) & (chains - 1)
    st[PROBES] += 1
    pref = -1
    walked = 0
    # the chains of the entries that keep the most top holders first; ``chain`` (of
    # those that keep BASE_CHAIN) is the caller's ``_store``'s to start from
    base = st[BASE_CHAIN]
    for top in range(st[TOP_CHAIN], base - 1, -1):
        walk = chain if top == base else _chain_hash(mv, k, top) & (chains - 1)
        slot = _first(tt, walk)
        before = -1
        while slot >= 0 and walked < CHAIN_WALK:
            walked += 1
            mv[STATS + S_WALKED] += 1
            # the walk waits on memory: the entry's second line (its holders) and the
            # next entry are loaded while the first line is compared (4% less time at
            # 13 cards a hand, with the same in _store's walk)
            _load_soon(tt, slot + LINE_WORDS)
            following = tt[slot + E_NEXT]
            if following >= 0:
                _load_soon(tt, following)
            if _same_shape(tt, slot, mv, k) and _holders_match(tt, slot, mv, k):
                answer = -1
                if tt[slot + E_LOWER] >= target:
                    answer = 1
                elif tt[slot + E_UPPER] < target:
                    answer = 0
                if answer >= 0:
                    st[HITS] += 1
                    _set_relevant_from_entry(st, tt, slot, mv, rel)
                    if before >= 0:
                        # to the front of its chain: an entry that answered once is
                        # likely to answer again soon (its neighbours in the tree)
                        tt[before + E_NEXT] = tt[slot + E_NEXT]
                        _push_front(tt, walk, slot)
                    return answer, chain, pref
                if tt[slot + E_BEST] > 0 and pref < 0:
                    pref = tt[slot + E_BEST] - 1
            before = slot
            slot = tt[slot + E_NEXT]
    return -1, chain, pref


@compiled_search
def _search(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, depth: int, target: int) -> bool:
    """Do the maximizers get at least ``target`` counted tricks of those left? Also
    writes, at mv[RELEVANT + depth * SUITS:], the ranks the answer depends on."""
    st[NODES] += 1
    if st[N_TRICK] == 0:
        mv[STATS + S_TRICK_STARTS] += 1
    rel = RELEVANT + depth * SUITS
    _no_ranks(mv, rel)
    if target <= 0:
        return True
    left = st[TRICKS_LEFT]
    if target > left:
        return False
    n = st[N_TRICK]
    if left == 1:
        last = _last_trick(st, mv, rel)
        if last >= 0:
            return last >= target
    chain = -1
    pref_suit = -1
    pref_bit = -1
    pref_low = 0
    at = depth * STRIDE
    k = at + 2 * MAX_MOVES + SUITS  # this depth's table key
    pref = -1
    if n == 0 and left >= TT_EARLY:
        # far from the end a look-up is cheaper than the bounds below, and hits often
        outcome, chain, pref = _probe(st, tt, mv, k, rel, target)
        if outcome >= 0:
            return outcome == 1
    if n > 0 and st[MAXIMIZERS] == st[COUNTED]:
        # the side to play surely takes this trick, and (second to play, no trump
        # left) its taker cashes more after it: as many as the side needs?
        mover = (st[MAXIMIZERS] >> st[TO_ACT]) & 1
        needed = target if mover else left - target + 1
        if needed == 1 or (n == 1 and needed <= 1 + CASH_AFTER_MAX and _trump_in_play(st) < 0):
            taker = _trick_taker(st, mv, rel)
            if taker >= 0 and (needed == 1 or (taker != RUFFED
                                               and _cashes_after(st, mv, rel, taker, needed - 1))):
                return bool(mover)
            _no_ranks(mv, rel)  # (what the tries wrote)
    if n == 0 and st[MAXIMIZERS] == st[COUNTED]:
        side = (st[MAXIMIZERS] >> st[TO_ACT]) & 1
        if _quick_tricks(st, mv, rel, target if side else left - target + 1):
            return bool(side)
        # each of the highest trumps held in one hand takes a trick when it is played
        trump = st[TRUMP]
        if trump >= 0:
            holder = _holder_of_top(st, trump)
            if holder >= 0:
                run, lowest = _top_trump_tricks(st, holder, trump)
                if (st[MAXIMIZERS] >> holder) & 1:
                    if target <= run:
                        mv[rel + trump] = lowest
                        return True
                elif target > left - run:
                    mv[rel + trump] = lowest
                    return False
                # the second best trump behind the best, or the second (guarded) and the
                # third best together, take a trick for the other side
                second = _second_trump_over(st, holder, trump)
                if second < 0:
                    second = _second_and_third_trumps(st, holder, trump)
                if second >= 0:
                    if (st[MAXIMIZERS] >> holder) & 1:
                        if target == left:
                            mv[rel + trump] = second
                            return False
                    elif target == 1:
                        mv[rel + trump] = second
                        return True
        later = _later_tricks(st, mv, rel, target, left)
        if later >= 0:
            return bool(later)
    elif n == 0:
        # one seat's tricks counted, against its will or not (a nil, one seat against
        # the rest): the tricks it cannot help taking, and a nil safe from here
        lone = _lone_seat(st[COUNTED])
        if lone >= 0:
            sure = _sure_trump_tricks(st, lone, left)
            if target <= sure:
                mv[rel + st[TRUMP]] = _stopper(st, lone, st[TRUMP])
                return True
            if (not (st[MAXIMIZERS] >> lone) & 1 and st[TO_ACT] != lone
                    and _ducks_every_trick(st, mv, rel, lone)):
                return False
    if n == 0 and TT_MIN_LEFT <= left < TT_EARLY:
        outcome, chain, pref = _probe(st, tt, mv, k, rel, target)
        if outcome >= 0:
            return outcome == 1
    if pref >= 0:
        pref_suit = pref >> 6
        pref_low = pref & 1
        pref_bit = _bit_of_rank(st, pref_suit, (pref >> 1) & 31)
    seat = st[TO_ACT]
    maximizing = (st[MAXIMIZERS] >> seat) & 1
    count = _gen_moves(st, seat, mv, at, pref_suit, pref_bit, pref_low,
                       mv[KILLERS + depth] if n == 0 else 0)
    best = -1
    result = not maximizing
    base = HANDS + seat * SUITS
    count_word = seat // 2
    count_shift = (seat % 2) * 25
    old_led = st[LED]
    old_broken = st[BROKEN]
    trump = st[TRUMP]
    tsize = st[TRICK_SIZE]
    child = rel + SUITS
    # Per suit, the rank below which this seat's cards need no search: a card refuted
    # by a line that never compared it with anything answers for every card of the suit
    # below the ranks that line rested on (swap the two cards' names: every trick of the
    # line has the same winner). DDS's "lowest win". 0: none yet. (The playable sets
    # kept here by the move generator are no longer needed.)
    lowest_win = at + 2 * MAX_MOVES
    for x in range(SUITS):
        mv[lowest_win + x] = 0
    for i in range(count):
        code = mv[at + i]
        s = (code >> 6) & 7
        bit = (code >> 1) & 31
        if (code >> RUN_TOP) < mv[lowest_win + s]:
            mv[STATS + S_SKIPPED] += 1
            continue
        low = code & 1
        # the card leaves its hand, the table key's count and its holders' word
        owners = st[OWNER_WORDS + s]
        below = 3 * _popcount(st[IN_HANDS + s] & ((1 << bit) - 1))
        st[OWNER_WORDS + s] = ((owners >> (below + 3)) << below) | (owners & ((1 << below) - 1))
        st[COUNT_WORDS + count_word] -= 1 << (count_shift + s * 5)
        st[base + s] &= ~(1 << bit)
        st[IN_HANDS + s] &= ~(1 << bit)
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
        _note_winner(st, n)
        st[N_TRICK] = n + 1
        if n + 1 == tsize:
            wi = _trick_winner(st)
            wc = trick_card(st, wi)
            winner = st[wc + T_SEAT]
            gained = (st[COUNTED] >> winner) & 1
            saved_led = st[LED]
            st[N_TRICK] = 0
            st[LED] = -1
            st[TO_ACT] = winner
            st[TRICKS_LEFT] = left - 1
            r = _search(st, tt, mv, depth + 1, target - gained)
            st[TRICKS_LEFT] = left
            st[LED] = saved_led
            st[N_TRICK] = n + 1
            # the winning card's rank mattered if it beat another card of its suit
            ws = st[wc + T_SUIT]
            for j in range(tsize):
                oc = trick_card(st, j)
                if j != wi and st[oc + T_SUIT] == ws:
                    mv[child + ws] = min(mv[child + ws], st[wc + T_BIT])
                    break
        else:
            st[TO_ACT] = st[NEXT + seat]
            r = _search(st, tt, mv, depth + 1, target)
        st[N_TRICK] = n
        st[TO_ACT] = seat
        st[LED] = old_led
        st[BROKEN] = old_broken
        st[base + s] |= 1 << bit
        st[IN_HANDS + s] |= 1 << bit
        st[OWNER_WORDS + s] = owners
        st[COUNT_WORDS + count_word] += 1 << (count_shift + s * 5)
        if (maximizing and r) or (not maximizing and not r):
            # a cut-off: this move alone decides, so only its ranks matter
            result = bool(r)
            best = code
            if n == 0:
                mv[KILLERS + depth] = (code & (RUN - 1)) + 1
            mv[STATS + (S_FIRST_CUT if i == 0 else S_LATE_CUT)] += 1
            for x in range(SUITS):
                mv[rel + x] = mv[child + x]
            break
        # every move fails the same way: the answer rests on the ranks of each
        for x in range(SUITS):
            mv[rel + x] = min(mv[rel + x], mv[child + x])
        if (mv[lowest_win + s] == 0 and not low and (code >> RUN_TOP) < mv[rel + s]
                and _ranks_interchangeable(st, s)):
            mv[lowest_win + s] = mv[rel + s]
    if best < 0:
        mv[STATS + S_ALL_NODES] += 1
        mv[STATS + S_ALL_MOVES] += count
        _whole_runs(mv, at, count, rel)
    if chain >= 0:
        _store(st, tt, mv, k, chain, rel, result, target, best, left)
    return result


@compiled
def _before_search(st: np.ndarray, tt: np.ndarray) -> None:
    """The table emptied for a new generation, and what a search reads from the state
    without working it out at every node (``THROW_RULE``, the table key's words,
    ``PARTNER_SEATS``, ``TOP_CHAIN``)."""
    if tt[H_GENERATION] != st[GENERATION]:
        _empty_table(tt, st[GENERATION])
    _note_throw_rule(st)
    _note_shape(st)
    for i in range(st[N_TRICK]):
        _note_winner(st, i)
    seats = 0
    for seat in range(st[N_SEATS]):
        if _partners(st, seat):
            seats |= 1 << seat
    st[PARTNER_SEATS] = seats
    st[TOP_CHAIN] = CHAIN_TOP_SIDES if seats else CHAIN_TOP
    st[BASE_CHAIN] = ALWAYS_TOP_SIDES if seats else ALWAYS_TOP
    lone = _lone_seat(st[COUNTED])
    st[NIL_SEAT] = lone if lone >= 0 and not (st[MAXIMIZERS] >> lone) & 1 else -1


@entry
def solve(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, guess: int) -> int:
    """The counted tricks of those left, found by zero-window searches from a guess."""
    _before_search(st, tt)
    lo = 0
    hi = st[TRICKS_LEFT]
    t = min(max(guess, lo + 1), hi)
    while lo < hi:
        _no_killers(mv)
        if _search(st, tt, mv, 0, t):
            lo = t
            t = t + 1
        else:
            hi = t - 1
            t = t - 1
        t = min(max(t, lo + 1), hi)
    return lo


@entry
def test_target(st: np.ndarray, tt: np.ndarray, mv: np.ndarray, target: int) -> bool:
    """One zero-window search: do the maximizers get at least ``target``?"""
    _before_search(st, tt)
    _no_killers(mv)
    return _search(st, tt, mv, 0, target)


@compiled
def _no_killers(mv: np.ndarray) -> None:
    """Forget the leads that made cut-offs (each search starts without them, as DDS's)."""
    for d in range(MAX_DEPTH + 1):
        mv[KILLERS + d] = 0


# --- compiling -------------------------------------------------------------------------------
ENTRY_TYPES = (
    (solve, "int64(int64[::1], int64[::1], int64[::1], int64)"),
    (test_target, "boolean(int64[::1], int64[::1], int64[::1], int64)"),
)


def _compile() -> None:
    """Compile (or load from numba's cache) the functions called from Python, and
    everything they call, for the types the solver passes; another type is an error,
    not a slower compile of its own."""
    with _indices_as_given():
        for function, signature in ENTRY_TYPES:
            function.compile(signature)
    for function, _ in ENTRY_TYPES:
        function.disable_compile()


_compile()
