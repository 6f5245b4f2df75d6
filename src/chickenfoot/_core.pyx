# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The playout path in C: the rules of :mod:`chickenfoot.round` and :mod:`chickenfoot.layout` on one flat struct.

A position is a C struct (hands as 3-word bit masks, the boneyard as a byte array, the line ends
per number), copied with one ``memcpy``; dealing, sampling a hidden state, legal moves, moves,
rollouts and points run on it without Python objects. Moves are the engine's codes, generated in
exactly the order of ``Round.legal_codes``. Random choices use xoshiro256** seeded from Python, so
playouts agree with the pure-Python engine in distribution, not draw for draw.

Each function mirrors the pure-Python one named in its comment; ``tests/core/test_compiled.py``
proves them equal move by move.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t
from libc.math cimport erfc, exp, log, sqrt
from libc.string cimport memcpy, memset

from time import perf_counter

from chickenfoot.errors import IllegalMoveError
from chickenfoot.tiles import tile_id

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static CYTHON_INLINE int cf_ctz64(unsigned long long x) { unsigned long i; _BitScanForward64(&i, x); return (int)i; }
    #else
    static CYTHON_INLINE int cf_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #endif
    /* Bit count by halves: portable, and faster than a library call where the CPU's own is not assumed. */
    static CYTHON_INLINE int cf_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    """
    int cf_ctz64(unsigned long long x) nogil
    int cf_popcount64(unsigned long long x) nogil

cdef enum:
    TILE_COUNT = 190  # double-18, the largest set (tiles.MAX_PIP)
    NUMBERS = 19
    WORDS = 3  # 64-bit words of a tile bit mask
    MAX_PLAYERS = 32
    MAX_NODES = 64  # quadrature points of the match reward
    MAX_CODES = 6500  # above any count of plays: 19 numbers x 19 tiles carrying one x 18 line ends, and a pass
    DRAW = -1
    PASS = -2
    HUB_TARGET = 255
    NO_TARGET = -1
    DOMINO = 1
    BLOCKED = 2
    FEATURES = 10  # chickenfoot.bots.policy.MOVE_FEATURES
    LATE_HAND = 3  # chickenfoot.bots.policy.LATE_HAND

cdef int HIGH[TILE_COUNT]
cdef int PIPS[TILE_COUNT]
cdef bint DOUBLE[TILE_COUNT]
cdef uint64_t CARRIES[NUMBERS][WORDS]

cdef int _t = 0
memset(CARRIES, 0, sizeof(CARRIES))
for _h in range(NUMBERS):
    for _l in range(_h + 1):
        HIGH[_t] = _h
        PIPS[_t] = _h + _l
        DOUBLE[_t] = _h == _l
        CARRIES[_h][_t >> 6] |= (<uint64_t>1) << (_t & 63)
        CARRIES[_l][_t >> 6] |= (<uint64_t>1) << (_t & 63)
        _t += 1


cdef struct State:
    # The rules and the table
    int players
    int max_pip
    int tile_count
    int words
    int hub_arms
    int toes
    bint drawn_must
    bint until_playable
    int blank_points
    int start_tile
    # Round (chickenfoot.round.Round)
    int to_move
    int drawn
    int end_reason
    int bone_n
    uint8_t boneyard[TILE_COUNT]  # the next draw at the end, as Round.boneyard
    uint64_t hands[MAX_PLAYERS][WORDS]
    # Layout (chickenfoot.layout.Layout)
    int hub
    int hub_number
    int arms
    int foot
    int foot_number
    int toe_count
    int gate
    uint64_t gate_mask[WORDS]
    uint32_t end_numbers
    uint8_t ends_n[NUMBERS]
    uint8_t ends[NUMBERS][NUMBERS + 1]  # a number shows on at most 18 line ends (its non-doubles)
    int8_t open_number[TILE_COUNT]


# --- random numbers: xoshiro256** (Blackman & Vigna), seeded by splitmix64 ----------------------

cdef struct Rng:
    uint64_t s[4]


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


cdef void rng_seed(Rng* rng, uint64_t seed) noexcept nogil:
    cdef int i
    cdef uint64_t z
    for i in range(4):
        seed += 0x9E3779B97F4A7C15ULL
        z = seed
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
        rng.s[i] = z ^ (z >> 31)


cdef inline uint64_t rng_next(Rng* rng) noexcept nogil:
    cdef uint64_t* s = rng.s
    cdef uint64_t result = rotl(s[1] * 5, 7) * 9
    cdef uint64_t t = s[1] << 17
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = rotl(s[3], 45)
    return result


cdef inline double rng_random(Rng* rng) noexcept nogil:
    """A float in [0, 1), as ``random.random``."""
    return (rng_next(rng) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int rng_below(Rng* rng, int n) noexcept nogil:
    """``int(random() * n)``, as the pure engine picks."""
    return <int>(rng_random(rng) * n)


# --- bit masks ----------------------------------------------------------------------------------

cdef inline bint has(const uint64_t* mask, int tile) noexcept nogil:
    return (mask[tile >> 6] >> (tile & 63)) & 1


cdef inline bint carries(const State* s, int seat, int number) noexcept nogil:
    """Whether ``seat`` holds a tile that carries ``number``."""
    cdef int w
    for w in range(s.words):
        if s.hands[seat][w] & CARRIES[number][w]:
            return True
    return False


cdef inline void flip(uint64_t* mask, int tile) noexcept nogil:
    mask[tile >> 6] ^= (<uint64_t>1) << (tile & 63)


cdef inline bint empty(const State* s, const uint64_t* mask) noexcept nogil:
    cdef int w
    for w in range(s.words):
        if mask[w]:
            return False
    return True


cdef inline void playable_mask(const State* s, uint64_t* out) noexcept nogil:
    """Layout.playable_mask"""
    cdef int w
    cdef uint32_t numbers
    if s.gate >= 0:
        for w in range(WORDS):
            out[w] = s.gate_mask[w]
        return
    for w in range(WORDS):
        out[w] = 0
    numbers = s.end_numbers
    while numbers:
        number = cf_ctz64(numbers)
        numbers &= numbers - 1
        for w in range(WORDS):
            out[w] |= CARRIES[number][w]


cdef inline bint can_play(const State* s, const uint64_t* hand, const uint64_t* playable) noexcept nogil:
    cdef int w
    for w in range(s.words):
        if hand[w] & playable[w]:
            return True
    return False


# --- the layout ---------------------------------------------------------------------------------

cdef int plays(const State* s, const uint64_t* hand, int* codes) noexcept nogil:
    """Layout.plays: every placement from ``hand``, numbers ascending, tiles ascending, targets in line order."""
    cdef int n = 0, w, tile, number, k, base
    cdef uint64_t matching
    cdef uint32_t numbers
    if s.gate >= 0:
        for w in range(s.words):
            matching = hand[w] & s.gate_mask[w]
            while matching:
                tile = (w << 6) | cf_ctz64(matching)
                matching &= matching - 1
                codes[n] = tile << 8 | s.gate
                n += 1
        return n
    numbers = s.end_numbers
    while numbers:
        number = cf_ctz64(numbers)
        numbers &= numbers - 1
        for w in range(s.words):
            matching = hand[w] & CARRIES[number][w]
            while matching:
                tile = (w << 6) | cf_ctz64(matching)
                matching &= matching - 1
                base = tile << 8
                for k in range(s.ends_n[number]):
                    codes[n] = base | s.ends[number][k]
                    n += 1
    return n


cdef inline void add_end(State* s, int tile, int number) noexcept nogil:
    s.ends[number][s.ends_n[number]] = tile
    s.ends_n[number] += 1
    s.end_numbers |= (<uint32_t>1) << number
    s.open_number[tile] = number


cdef int place(State* s, int tile, int target) noexcept nogil:
    """Layout.place; returns the undo record of a placement on a line end (else 0)."""
    cdef int number, index, k, n, record
    if target == s.gate:
        if target == s.hub:
            s.arms += 1
            if s.arms == s.hub_arms:
                s.gate = NO_TARGET
            number = PIPS[tile] - s.hub_number
        else:
            s.toe_count += 1
            if s.toe_count == s.toes:
                s.foot = NO_TARGET
                s.gate = NO_TARGET
            number = PIPS[tile] - s.foot_number
        add_end(s, tile, number)
        return 0
    if target < 0:
        s.hub = tile
        s.gate = tile
        s.hub_number = HIGH[tile]
        for k in range(WORDS):
            s.gate_mask[k] = CARRIES[s.hub_number][k]
        return 0
    number = s.open_number[target]
    s.open_number[target] = -1
    n = s.ends_n[number]
    index = 0
    while s.ends[number][index] != target:
        index += 1
    for k in range(index, n - 1):
        s.ends[number][k] = s.ends[number][k + 1]
    s.ends_n[number] = n - 1
    if n == 1:
        s.end_numbers ^= (<uint32_t>1) << number
    if DOUBLE[tile]:
        # As in Layout.place: the previous foot's toe count and number, for the undo of its toes.
        record = index << 16 | s.toe_count << 8 | (s.foot_number & 0xFF)
        s.foot = tile
        s.gate = tile
        s.foot_number = number
        for k in range(WORDS):
            s.gate_mask[k] = CARRIES[number][k]
        s.toe_count = 0
        return record
    add_end(s, tile, PIPS[tile] - number)
    return index << 16


cdef inline void drop_end(State* s, int tile) noexcept nogil:
    cdef int number = s.open_number[tile]
    s.open_number[tile] = -1
    s.ends_n[number] -= 1  # the tile being undone is the newest end of its number
    if not s.ends_n[number]:
        s.end_numbers &= ~((<uint32_t>1) << number)


cdef void unplace(State* s, int tile, int target, int record) noexcept nogil:
    """Layout.undo"""
    cdef int number, index, k, previous
    if target < 0:
        s.hub = NO_TARGET
        s.hub_number = -1
        s.gate = 0
        for k in range(WORDS):
            s.gate_mask[k] = 0
    elif target == s.hub:
        if s.arms == s.hub_arms:
            s.gate = s.hub
            for k in range(WORDS):
                s.gate_mask[k] = CARRIES[s.hub_number][k]
        s.arms -= 1
        drop_end(s, tile)
    elif DOUBLE[target]:  # a toe: a line end is never a double
        drop_end(s, tile)
        if s.toe_count == s.toes:
            s.foot = target
            s.gate = target
            for k in range(WORDS):
                s.gate_mask[k] = CARRIES[s.foot_number][k]
        s.toe_count -= 1
    else:
        if DOUBLE[tile]:
            number = s.foot_number
            s.foot = NO_TARGET
            s.gate = NO_TARGET
            s.toe_count = record >> 8 & 0xFF
            previous = record & 0xFF
            s.foot_number = -1 if previous == 0xFF else previous
        else:
            number = PIPS[tile] - s.open_number[tile]
            drop_end(s, tile)
        index = record >> 16
        k = s.ends_n[number]
        while k > index:
            s.ends[number][k] = s.ends[number][k - 1]
            k -= 1
        s.ends[number][index] = target
        s.ends_n[number] += 1
        s.end_numbers |= (<uint32_t>1) << number
        s.open_number[target] = number


# --- the round ----------------------------------------------------------------------------------

cdef int generate(const State* s, int* codes) noexcept nogil:
    """Round._generate: the legal move codes, in the pure engine's order."""
    cdef uint64_t one[WORDS]
    cdef int n, w
    if s.end_reason:
        return 0
    if s.hub < 0:
        if s.drawn == s.start_tile or has(s.hands[s.to_move], s.start_tile):
            codes[0] = s.start_tile << 8 | HUB_TARGET
        else:
            codes[0] = DRAW
        return 1
    if s.drawn >= 0:
        for w in range(WORDS):
            one[w] = 0
        flip(one, s.drawn)
        n = plays(s, one, codes)
        if not s.drawn_must:
            codes[n] = PASS
            n += 1
        return n
    n = plays(s, s.hands[s.to_move], codes)
    if n:
        return n
    codes[0] = DRAW if s.bone_n else PASS
    return 1


cdef void settle_end(State* s) noexcept nogil:
    """Round._settle_end"""
    cdef uint64_t playable[WORDS]
    cdef int seat
    if s.hub < 0:
        return
    for seat in range(s.players):
        if empty(s, s.hands[seat]):
            s.end_reason = DOMINO
            return
    if s.bone_n:
        return
    playable_mask(s, playable)
    for seat in range(s.players):
        if can_play(s, s.hands[seat], playable):
            return
    s.end_reason = BLOCKED


cdef int push(State* s, int code) noexcept nogil:
    """Round.push_code; returns the undo record: the layout's for a placement, the tile drawn for a draw."""
    cdef int seat = s.to_move, tile, target, record
    cdef uint64_t playable[WORDS]
    if code >= 0:
        s.drawn = -1
        tile = code >> 8
        flip(s.hands[seat], tile)
        target = code & 0xFF
        record = place(s, tile, NO_TARGET if target == HUB_TARGET else target)
        if empty(s, s.hands[seat]):
            s.end_reason = DOMINO
            return record
        s.to_move = (seat + 1) % s.players
        if not s.bone_n:
            settle_end(s)
        return record
    if code == PASS:
        s.drawn = -1
        s.to_move = (seat + 1) % s.players
        return 0
    s.bone_n -= 1
    tile = s.boneyard[s.bone_n]
    flip(s.hands[seat], tile)
    if s.hub < 0:
        if tile == s.start_tile:
            s.drawn = tile
        else:
            s.to_move = (seat + 1) % s.players
    else:
        playable_mask(s, playable)
        if has(playable, tile):
            s.drawn = tile
        elif not (s.bone_n and s.until_playable):
            s.to_move = (seat + 1) % s.players
    if not s.bone_n:
        settle_end(s)
    return tile


cdef void points(const State* s, int* out) noexcept nogil:
    """Round.points: pips left in each hand, the 0-0 counting the rules' value."""
    cdef int seat, w, total
    cdef uint64_t word
    for seat in range(s.players):
        total = s.blank_points if s.hands[seat][0] & 1 else 0  # tile 0 is 0-0
        for w in range(s.words):
            word = s.hands[seat][w]
            while word:
                total += PIPS[(w << 6) | cf_ctz64(word)]
                word &= word - 1
        out[seat] = total


cdef int playout(State* s, Rng* rng) noexcept nogil:
    """Round.playout: uniformly random legal moves to the end; returns the moves made."""
    cdef int codes[MAX_CODES]
    cdef int n, moves = 0
    while not s.end_reason:
        n = generate(s, codes)
        push(s, codes[rng_below(rng, n)] if n > 1 else codes[0])
        moves += 1
    return moves


cdef struct Policy:
    # chickenfoot.bots.policy.RolloutPolicy
    double tiles[TILE_COUNT]
    double features[FEATURES]
    double pass_score
    bint scored  # whether the move features count (else the tile alone decides)


cdef bint late(const State* s) noexcept nogil:
    """Whether a seat other than the mover holds at most LATE_HAND tiles (move_features' ``late_points``)."""
    cdef int seat, w, count
    for seat in range(s.players):
        if seat != s.to_move:
            count = 0
            for w in range(s.words):
                count += cf_popcount64(s.hands[seat][w])
            if count <= LATE_HAND:
                return True
    return False


cdef inline double move_score(const State* s, const Policy* p, int code, bint is_late) noexcept nogil:
    """RolloutPolicy.score, with chickenfoot.bots.policy.move_features (``is_late``: :func:`late`)"""
    cdef int tile, target, attached, opened, follow = -1, stay = -1, w, double_id  # -1: the tile carries both
    cdef int next_lacks, later_lack = s.players > 2, k
    cdef const uint64_t* hand
    if code < 0:
        return p.pass_score if code == PASS else -1e300
    tile = code >> 8
    if not p.scored:
        return p.tiles[tile]
    target = code & 0xFF
    if target == HUB_TARGET:
        attached = HIGH[tile]
    elif target == s.gate:
        attached = s.hub_number if target == s.hub else s.foot_number
    else:
        attached = s.open_number[target]
    opened = attached if DOUBLE[tile] else PIPS[tile] - attached
    hand = s.hands[s.to_move]
    for w in range(s.words):
        follow += cf_popcount64(hand[w] & CARRIES[opened][w])
        stay += cf_popcount64(hand[w] & CARRIES[attached][w])
    next_lacks = not carries(s, (s.to_move + 1) % s.players, opened)
    for k in range(2, s.players):
        if carries(s, (s.to_move + k) % s.players, opened):
            later_lack = 0
            break
    double_id = opened * (opened + 3) // 2
    return p.tiles[tile] + (
        p.features[0] * follow
        + p.features[1] * stay
        + p.features[2] * (double_id != tile and has(hand, double_id))
        + p.features[3] * opened
        + p.features[4] * (follow == 0)
        + p.features[5] * ((s.blank_points if tile == 0 else PIPS[tile]) if is_late else 0)
        + p.features[6] * next_lacks
        + p.features[7] * (next_lacks * DOUBLE[tile])
        + p.features[8] * later_lack
        + p.features[9] * (later_lack * DOUBLE[tile])
    )


cdef void rollout(State* s, Rng* rng, const Policy* policy, double epsilon) noexcept nogil:
    """chickenfoot.bots.search.rollout: mostly the move the policy scores highest, sometimes a random move."""
    cdef int codes[MAX_CODES]
    cdef int n, k, best
    cdef bint is_late
    cdef double value, best_score
    while not s.end_reason:
        n = generate(s, codes)
        if n == 1:
            push(s, codes[0])
            continue
        if rng_random(rng) < epsilon:
            push(s, codes[rng_below(rng, n)])
            continue
        is_late = policy.scored and late(s)
        best = codes[0]
        best_score = move_score(s, policy, best, is_late)
        for k in range(1, n):
            value = move_score(s, policy, codes[k], is_late)
            if value > best_score:
                best = codes[k]
                best_score = value
        push(s, best)


cdef void start(State* s) noexcept nogil:
    """Round.from_masks: the empty layout, and the first seat (Round._default_first_seat)."""
    cdef int seat
    s.drawn = -1
    s.end_reason = 0
    s.hub = NO_TARGET
    s.hub_number = -1
    s.arms = 0
    s.foot = NO_TARGET
    s.foot_number = -1
    s.toe_count = 0
    s.gate = 0
    memset(s.gate_mask, 0, sizeof(s.gate_mask))
    s.end_numbers = 0
    memset(s.ends_n, 0, sizeof(s.ends_n))
    memset(s.open_number, -1, sizeof(s.open_number))
    s.to_move = (s.max_pip - HIGH[s.start_tile]) % s.players
    for seat in range(s.players):
        if has(s.hands[seat], s.start_tile):
            s.to_move = seat
            break


cdef void shuffle(uint8_t* tiles, int count, Rng* rng) noexcept nogil:
    cdef int i, j
    cdef uint8_t swap
    for i in range(count - 1, 0, -1):
        j = rng_below(rng, i + 1)
        swap = tiles[i]
        tiles[i] = tiles[j]
        tiles[j] = swap


cdef void deal(State* s, int hand_size, Rng* rng) noexcept nogil:
    """Round.deal: seat s gets the s-th run of the shuffled set; the rest, in order, is the boneyard."""
    cdef uint8_t order[TILE_COUNT]
    cdef int i, seat, dealt = s.players * hand_size
    for i in range(s.tile_count):
        order[i] = i
    shuffle(order, s.tile_count, rng)
    memset(s.hands, 0, sizeof(s.hands))
    for seat in range(s.players):
        for i in range(hand_size):
            flip(s.hands[seat], order[seat * hand_size + i])
    s.bone_n = s.tile_count - dealt
    for i in range(s.bone_n):
        s.boneyard[s.bone_n - 1 - i] = order[dealt + i]
    start(s)


# --- the search's root loop and reward (chickenfoot.bots.search.search, chickenfoot.bots.reward) -

cdef struct Scoring:
    # chickenfoot.bots.reward.Reward
    int seat
    int players
    double scale
    double win_value
    double spread
    int totals[MAX_PLAYERS]
    int zero_rounds[MAX_PLAYERS]
    int lowest_nonzero[MAX_PLAYERS]
    int nodes
    double node_x[MAX_NODES]
    double node_w[MAX_NODES]


cdef inline int lowest_after(int lowest, int points) noexcept nogil:
    """reward._lowest: the lowest non-zero round after one of ``points`` (-1: none)."""
    if points == 0:
        return lowest
    if lowest < 0 or points < lowest:
        return points
    return lowest


cdef double score(const Scoring* sc, const int* points) noexcept nogil:
    """Reward.__call__: the margin, plus the match win's worth times its chance."""
    cdef int s, seat = sc.seat, n = sc.players, count = 0, k
    cdef double total = 0.0, margin, chance = 0.0, p
    cdef int final[MAX_PLAYERS]
    cdef int zeros[MAX_PLAYERS]
    cdef int lows[MAX_PLAYERS]
    for s in range(n):
        total += points[s]
    margin = ((total - points[seat]) / (n - 1) - points[seat]) / sc.scale
    if sc.win_value == 0:
        return margin
    for s in range(n):
        final[s] = sc.totals[s] + points[s]
    if sc.spread == 0:  # the last round: the exact order, tie-breaks included
        for s in range(n):
            zeros[s] = sc.zero_rounds[s] + (points[s] == 0)
            lows[s] = lowest_after(sc.lowest_nonzero[s], points[s])
        for s in range(n):
            if final[s] != final[seat]:
                if final[s] < final[seat]:
                    return margin
                continue
            if zeros[s] != zeros[seat]:
                if zeros[s] > zeros[seat]:
                    return margin
                continue
            if lows[s] != lows[seat]:
                if lows[s] < lows[seat]:
                    return margin
                continue
            count += 1
        return margin + sc.win_value * (1.0 / count)
    for k in range(sc.nodes):
        p = sc.node_w[k]
        for s in range(n):
            if s != seat:
                p *= 0.5 * erfc((sc.node_x[k] + (final[seat] - final[s]) / sc.spread) / sqrt(2.0))
        chance += p
    return margin + sc.win_value * chance


cdef int init_scoring(Scoring* sc, reward, int players) except -1:
    cdef int s, k
    if len(reward.quadrature) > MAX_NODES:
        raise ValueError(f"at most {MAX_NODES} quadrature points")
    sc.seat = reward.seat
    sc.players = players
    sc.scale = reward.scale
    sc.win_value = reward.win_value
    sc.spread = reward.spread
    if sc.win_value:
        for s in range(players):
            sc.totals[s] = reward.totals[s]
            sc.zero_rounds[s] = reward.zero_rounds[s]
            sc.lowest_nonzero[s] = reward.lowest_nonzero[s]
    sc.nodes = len(reward.quadrature)
    for k in range(sc.nodes):
        sc.node_x[k] = reward.quadrature[k]
        sc.node_w[k] = reward.quadrature_weights[k]
    return 0


cdef int ucb_pick(int n, const int* visits, const double* totals, int done, double exploration) noexcept nogil:
    """UCB1 over the root moves: the first unvisited one, else the best mean plus bonus (first on ties)."""
    cdef double log_n = log(done + 1.0), value, best_value = 0.0
    cdef int k, best = -1
    for k in range(n):
        if visits[k] == 0:
            return k
        value = totals[k] / visits[k] + exploration * sqrt(log_n / visits[k])
        if best < 0 or value > best_value:
            best = k
            best_value = value
    return best


cdef struct Root:
    # The search's root statistics and what every iteration needs.
    int n
    int* codes
    int* visits
    double* totals
    double exploration
    double epsilon
    const Policy* policy
    Scoring scoring


cdef void iterate(State* st, Rng* rng, Root* root, int done) noexcept nogil:
    """One iteration on a sampled state: a root move by UCB1, the rollout, the reward."""
    cdef int out[MAX_PLAYERS]
    cdef int k = ucb_pick(root.n, root.visits, root.totals, done, root.exploration)
    push(st, root.codes[k])
    rollout(st, rng, root.policy, root.epsilon)
    points(st, out)
    root.totals[k] += score(&root.scoring, out)
    root.visits[k] += 1


# --- Python-facing ------------------------------------------------------------------------------

def supports(rules, int players):
    """Whether the compiled core plays rounds of ``players`` under ``rules`` (every rule option does)."""
    return 2 <= players <= MAX_PLAYERS and rules.tile_count <= TILE_COUNT and abs(rules.double_blank_points) < 1 << 24


cdef int init_rules(State* s, rules, int players) except -1:
    if not supports(rules, players):
        raise ValueError(f"the compiled core plays 2 to {MAX_PLAYERS} players and 0-0 worth under 2**24 points")
    memset(s, 0, sizeof(State))
    s.players = players
    s.max_pip = rules.max_pip
    s.tile_count = rules.tile_count
    s.words = (s.tile_count + 63) // 64
    s.hub_arms = rules.hub_arms
    s.toes = rules.toes
    s.drawn_must = rules.drawn_tile == "must"
    s.until_playable = rules.draw_limit == "until_playable"
    s.blank_points = rules.double_blank_points
    return 0


cdef void to_words(mask, uint64_t* out):
    cdef int w
    for w in range(WORDS):
        out[w] = <uint64_t>(mask & 0xFFFFFFFFFFFFFFFF)
        mask >>= 64


cdef object from_words(const uint64_t* words):
    mask = 0
    for w in range(WORDS - 1, -1, -1):
        mask = mask << 64 | words[w]
    return mask


cdef void set_hidden(State* s, hands, boneyard):
    """Hands as Python bit masks and the boneyard as tile ids, the next draw last (as Round keeps them)."""
    cdef int seat, i
    for seat in range(s.players):
        to_words(hands[seat], s.hands[seat])
    s.bone_n = len(boneyard)
    for i in range(s.bone_n):
        s.boneyard[i] = boneyard[i]


cdef list point_list(const State* s):
    cdef int out[MAX_PLAYERS]
    points(s, out)
    return [out[seat] for seat in range(s.players)]


cdef object _policy_key = None
cdef Policy _policy


cdef const Policy* rollout_policy(policy, int tile_count) except NULL:
    """A ``chickenfoot.bots.policy.RolloutPolicy`` in C; a search passes one for all its rollouts, so it is kept."""
    global _policy_key
    if policy is not _policy_key:
        tiles, features = policy.tiles, policy.features
        if not tile_count <= len(tiles) <= TILE_COUNT:
            raise ValueError(f"a rollout policy needs a weight per tile ({tile_count})")
        if len(features) not in (0, FEATURES):
            raise ValueError(f"a rollout policy has {FEATURES} move coefficients, or none")
        for t in range(len(tiles)):
            _policy.tiles[t] = tiles[t]
        for k in range(len(features)):
            _policy.features[k] = features[k]
        _policy.scored = len(features) != 0
        _policy.pass_score = policy.pass_score
        _policy_key = policy
    return &_policy


_END_REASONS = (None, "domino", "blocked")


cdef class CompiledRound:
    """A round in C: the moves of :class:`chickenfoot.round.Round` (``legal_codes``, ``push_code``, ``pop``,
    ``points``) and its playouts, with the search's rollout policy."""

    cdef State s
    cdef Rng rng
    cdef list records  # per move: (code, seat, undo record, drawn before); for pop
    cdef readonly int ply
    """Moves made since this position was built."""

    def __init__(self):
        raise TypeError("a CompiledRound comes from CompiledRound.from_round or CompiledRound.deal")

    @staticmethod
    def from_round(round_, seed=0):
        """The position of a pure-Python round (its history is not carried: ``pop`` stops there)."""
        cdef CompiledRound c = CompiledRound.__new__(CompiledRound)
        init_rules(&c.s, round_.rules, round_.players)
        c.s.start_tile = round_.start_tile
        set_hidden(&c.s, round_.hands, round_.boneyard)
        start(&c.s)
        for tile, target in round_.layout.placed:
            place(&c.s, tile, target)
        c.s.to_move = round_.to_move
        c.s.drawn = round_.drawn
        c.s.end_reason = _END_REASONS.index(round_.end_reason)
        c.records = []
        rng_seed(&c.rng, seed)
        return c

    @staticmethod
    def deal(rules, int players, seed=0):
        """A fresh round of ``rules``' first starting double, dealt by this core's own generator."""
        cdef CompiledRound c = CompiledRound.__new__(CompiledRound)
        init_rules(&c.s, rules, players)
        c.s.start_tile = tile_id(rules.max_pip, rules.max_pip)
        rng_seed(&c.rng, seed)
        deal(&c.s, rules.hand_size_for(players), &c.rng)
        c.records = []
        return c

    def copy(self):
        """An independent copy (its own random stream, drawn from this one's)."""
        cdef CompiledRound c = CompiledRound.__new__(CompiledRound)
        memcpy(&c.s, &self.s, sizeof(State))
        rng_seed(&c.rng, rng_next(&self.rng))
        c.records = list(self.records)
        c.ply = self.ply
        return c

    def seed(self, seed):
        rng_seed(&self.rng, seed)

    @property
    def players(self):
        return self.s.players

    @property
    def to_move(self):
        return self.s.to_move

    @property
    def drawn(self):
        return self.s.drawn

    @property
    def end_reason(self):
        return _END_REASONS[self.s.end_reason]

    @property
    def hands(self):
        return [from_words(self.s.hands[seat]) for seat in range(self.s.players)]

    @property
    def boneyard(self):
        return [self.s.boneyard[i] for i in range(self.s.bone_n)]

    def is_over(self):
        return self.s.end_reason != 0

    def layout_state(self):
        """The layout's bookkeeping, in the terms of :class:`chickenfoot.layout.Layout` (for the tests)."""
        return (
            self.s.hub,
            self.s.hub_number,
            self.s.arms,
            self.s.foot,
            self.s.foot_number,
            self.s.toe_count,
            self.s.gate,
            from_words(self.s.gate_mask) if self.s.gate >= 0 else 0,  # outside the gate's phases: unused
            self.s.end_numbers,
            [[self.s.ends[n][k] for k in range(self.s.ends_n[n])] for n in range(self.s.max_pip + 1)],
            [self.s.open_number[t] for t in range(self.s.tile_count)],
        )

    def legal_codes(self):
        cdef int codes[MAX_CODES]
        cdef int n = generate(&self.s, codes)
        return [codes[k] for k in range(n)]

    def push_code(self, int code):
        """Make a legal move; raises :class:`IllegalMoveError` (and changes nothing) for any other code."""
        cdef int codes[MAX_CODES]
        cdef int n = generate(&self.s, codes), k
        for k in range(n):
            if codes[k] == code:
                break
        else:
            raise IllegalMoveError(f"illegal move code {code}")
        seat, drawn = self.s.to_move, self.s.drawn
        self.records.append((code, seat, push(&self.s, code), drawn))
        self.ply += 1

    def pop(self):
        """Take back the last move pushed through :meth:`push_code`; returns its code."""
        code, seat, record, drawn = self.records.pop()
        self.s.to_move = seat
        self.s.drawn = drawn
        self.s.end_reason = 0
        if code == DRAW:
            flip(self.s.hands[seat], record)
            self.s.boneyard[self.s.bone_n] = record
            self.s.bone_n += 1
        elif code != PASS:
            unplace(&self.s, code >> 8, NO_TARGET if code & 0xFF == HUB_TARGET else code & 0xFF, record)
            flip(self.s.hands[seat], code >> 8)
        self.ply -= 1
        return code

    def points(self):
        return point_list(&self.s)

    def playout(self):
        """Uniformly random legal moves to the end of the round (as ``Round.playout``); returns the points.

        The moves are not kept for ``pop``."""
        cdef int moves
        self.records = []
        with nogil:
            moves = playout(&self.s, &self.rng)
        self.ply += moves
        return point_list(&self.s)

    def rollout(self, policy, double epsilon):
        """The search's rollout (``chickenfoot.bots.search.rollout``) by ``policy`` to the end; returns the points."""
        cdef const Policy* table = rollout_policy(policy, self.s.tile_count)
        self.records = []
        with nogil:
            rollout(&self.s, &self.rng, table, epsilon)
        return point_list(&self.s)


def playouts(rules, int players, long games, seed=0):
    """Deal and play ``games`` uniformly random rounds, all in C.

    Returns the moves made, and per seat the sum of points and the sum of squared points.
    """
    cdef State s
    cdef Rng rng
    cdef int out[MAX_PLAYERS]
    cdef double sums[MAX_PLAYERS]
    cdef double squares[MAX_PLAYERS]
    cdef long long moves = 0
    cdef long game
    cdef int seat, hand_size = rules.hand_size_for(players)
    init_rules(&s, rules, players)
    s.start_tile = tile_id(rules.max_pip, rules.max_pip)
    rng_seed(&rng, seed)
    memset(sums, 0, sizeof(sums))
    memset(squares, 0, sizeof(squares))
    with nogil:
        for game in range(games):
            deal(&s, hand_size, &rng)
            moves += playout(&s, &rng)
            points(&s, out)
            for seat in range(players):
                sums[seat] += out[seat]
                squares[seat] += <double>out[seat] * out[seat]
    return moves, [sums[k] for k in range(players)], [squares[k] for k in range(players)]


cdef class Sampler:
    """Hidden states that agree with a seat's view, drawn in C: the compiled twin of ``Knowledge.round``.

    Built from a :class:`~chickenfoot.knowledge.Knowledge`'s slots (``order``: owner and candidate tiles
    of each hidden tile, most constrained first), it fills them with random distinct candidates, restarting
    ``tries`` times as ``knowledge._fill`` does; when every try fails it takes the pure sampler's answer
    (which falls back to a matching). Given a belief (:meth:`believe`), it draws instead one of a pool of
    such fillings by its weight. The boneyard is the rest of the unseen tiles, shuffled.
    """

    cdef State template
    cdef Rng rng
    cdef bint ready
    cdef object make_round, sample
    cdef int seat, slots, tries, unseen_n, pool_n
    cdef int* owner
    cdef uint64_t* candidates  # per slot, a tile bit mask of WORDS words
    cdef uint8_t* pool  # pool_n fillings of every slot, one after another
    cdef double* cumulative  # running sums of the pool's weights
    cdef uint8_t unseen[TILE_COUNT]
    cdef uint64_t own[WORDS]

    def __cinit__(self, make_round, sample, int seat, own, order, unseen, int tries):
        if not (
            0 <= seat < MAX_PLAYERS
            and len(order) <= TILE_COUNT
            and len(unseen) <= TILE_COUNT
            and all(0 <= owner < MAX_PLAYERS for owner, _ in order)
            and all(0 <= tile < TILE_COUNT for tile in unseen)
        ):
            raise ValueError("seats or tiles out of range for the compiled core")
        self.make_round = make_round
        self.sample = sample
        self.seat = seat
        self.tries = tries
        to_words(own, self.own)
        self.unseen_n = len(unseen)
        for k in range(self.unseen_n):
            self.unseen[k] = unseen[k]
        self.slots = len(order)
        self.owner = <int*>PyMem_Malloc(max(self.slots, 1) * sizeof(int))
        self.candidates = <uint64_t*>PyMem_Malloc(max(self.slots, 1) * WORDS * sizeof(uint64_t))
        if not (self.owner and self.candidates):
            raise MemoryError()
        for k, (owner, candidates) in enumerate(order):
            self.owner[k] = owner
            to_words(sum(1 << tile for tile in candidates), &self.candidates[k * WORDS])

    def __dealloc__(self):
        PyMem_Free(self.owner)
        PyMem_Free(self.candidates)
        PyMem_Free(self.pool)
        PyMem_Free(self.cumulative)

    def believe(self, rng, int size, scale, choices, fallback):
        """From now on draw every sample's hidden hands from a pool of ``size`` fillings of ``order``, each
        by its weight under a ``chickenfoot.belief.Belief`` (``scale``, ``choices``; as ``Belief.pool``
        and ``Pool.pick``). The fillings are drawn as ``Knowledge.picks`` draws them, ``fallback(rng)``
        (the pure one) where every try fails; ``rng`` seeds this sampler, once."""
        cdef uint64_t taken[WORDS]
        cdef double table[TILE_COUNT]
        cdef int n = len(choices), k, c, slot, tile, positions_n = 0
        cdef double top = 0.0, total = 0.0, z, log_weight
        cdef double* known
        cdef double* logs
        cdef uint64_t* playable
        cdef int* ends
        cdef int* positions
        cdef uint8_t* picks
        if size < 1:
            raise ValueError("a pool needs at least one filling")
        if len(scale) > TILE_COUNT or not all(x > 0 for x in scale):
            raise ValueError("a belief's scale has one positive number per tile")
        for tile in range(len(scale)):
            table[tile] = scale[tile]
        for choice in choices:
            if not (choice.known > 0 and all(0 <= k < self.slots for k in choice.positions)):
                raise ValueError("a belief's choices do not fit this sampler's slots")
            positions_n += len(choice.positions)
        self.prepare(rng)
        known = <double*>PyMem_Malloc(max(n, 1) * sizeof(double))
        playable = <uint64_t*>PyMem_Malloc(max(n, 1) * WORDS * sizeof(uint64_t))
        ends = <int*>PyMem_Malloc(max(n, 1) * sizeof(int))
        positions = <int*>PyMem_Malloc(max(positions_n, 1) * sizeof(int))
        logs = <double*>PyMem_Malloc(size * sizeof(double))
        try:
            if not (known and playable and ends and positions and logs):
                raise MemoryError()
            positions_n = 0
            for c, choice in enumerate(choices):
                known[c] = choice.known
                to_words(choice.playable, &playable[c * WORDS])
                for k in choice.positions:
                    positions[positions_n] = k
                    positions_n += 1
                ends[c] = positions_n
            PyMem_Free(self.pool)
            PyMem_Free(self.cumulative)
            self.pool_n = 0
            self.pool = <uint8_t*>PyMem_Malloc(max(size * self.slots, 1) * sizeof(uint8_t))
            self.cumulative = <double*>PyMem_Malloc(size * sizeof(double))
            if not (self.pool and self.cumulative):
                raise MemoryError()
            for k in range(size):
                picks = &self.pool[k * self.slots]
                if not self.draw(picks, taken):
                    for slot, tile in enumerate(fallback(rng)):
                        picks[slot] = tile
                # Belief.log_weight
                log_weight = 0.0
                slot = 0
                for c in range(n):
                    z = known[c]
                    while slot < ends[c]:
                        tile = picks[positions[slot]]
                        if has(&playable[c * WORDS], tile):
                            z += table[tile]
                        slot += 1
                    log_weight -= log(z)
                logs[k] = log_weight
                if k == 0 or log_weight > top:
                    top = log_weight
            for k in range(size):
                total += exp(logs[k] - top)
                self.cumulative[k] = total
            self.pool_n = size
        finally:
            PyMem_Free(known)
            PyMem_Free(playable)
            PyMem_Free(ends)
            PyMem_Free(positions)
            PyMem_Free(logs)

    cdef int pooled(self) noexcept nogil:
        """A pool entry drawn by weight: the first whose running sum exceeds a uniform draw."""
        cdef double u = rng_random(&self.rng) * self.cumulative[self.pool_n - 1]
        cdef int low = 0, high = self.pool_n - 1, middle
        while low < high:
            middle = (low + high) // 2
            if self.cumulative[middle] > u:
                high = middle
            else:
                low = middle + 1
        return low

    cdef bint draw(self, uint8_t* picks, uint64_t* taken) noexcept nogil:
        """Knowledge.picks in C: a random free candidate per slot, in ``picks`` (``taken`` their mask);
        False if every try failed."""
        cdef uint64_t free[WORDS]
        cdef int attempt, slot, k, n, tile, index
        for attempt in range(self.tries):
            memset(taken, 0, WORDS * sizeof(uint64_t))
            for slot in range(self.slots):
                n = 0
                for k in range(self.template.words):
                    free[k] = self.candidates[slot * WORDS + k] & ~taken[k]
                    n += cf_popcount64(free[k])
                if not n:
                    break
                index = rng_below(&self.rng, n)  # a uniform pick among the free candidates
                k = 0
                while index >= cf_popcount64(free[k]):
                    index -= cf_popcount64(free[k])
                    k += 1
                while index:
                    free[k] &= free[k] - 1
                    index -= 1
                tile = (k << 6) | cf_ctz64(free[k])
                flip(taken, tile)
                picks[slot] = tile
            else:
                return True
        return False

    cdef bint fill(self, State* s) noexcept nogil:
        """Knowledge.sample in C, or a pool entry by weight; False if every try of random picks failed."""
        cdef uint64_t taken[WORDS]
        cdef uint8_t drawn[TILE_COUNT]
        cdef const uint8_t* picks = drawn
        cdef int slot
        if self.pool_n:
            picks = &self.pool[self.pooled() * self.slots]
            memset(taken, 0, sizeof(taken))
            for slot in range(self.slots):
                flip(taken, picks[slot])
        elif not self.draw(drawn, taken):
            return False
        return self.assemble(s, picks, taken)

    cdef bint assemble(self, State* s, const uint8_t* picks, const uint64_t* taken) noexcept nogil:
        """The hands of ``picks`` (one tile per slot, ``taken`` their mask) and the rest, shuffled, as the boneyard."""
        cdef int k, n, slot
        memset(s.hands, 0, sizeof(s.hands))
        for k in range(WORDS):
            s.hands[self.seat][k] = self.own[k]
        for slot in range(self.slots):
            flip(s.hands[self.owner[slot]], picks[slot])
        n = 0
        for k in range(self.unseen_n):
            if not has(taken, self.unseen[k]):
                s.boneyard[n] = self.unseen[k]
                n += 1
        s.bone_n = n
        shuffle(s.boneyard, n, &self.rng)
        return True

    cdef int prepare(self, rng) except -1:
        """The view's state as the template of every sample; ``rng`` seeds this sampler, once."""
        if not self.ready:
            first = CompiledRound.from_round(self.make_round(rng))
            memcpy(&self.template, &(<CompiledRound>first).s, sizeof(State))
            rng_seed(&self.rng, rng.getrandbits(64))
            self.ready = True
        return 0

    cdef int sample_into(self, State* s, rng) except -1:
        """A sampled hidden state in ``s``: in C, or the pure sampler's when every try failed."""
        memcpy(s, &self.template, sizeof(State))
        if not self.fill(s):
            hands, boneyard = self.sample(rng)
            set_hidden(s, hands, boneyard[::-1])  # the engine draws from the end
        return 0

    cdef int run(self, State* st, Root* root, int done, int count) noexcept nogil:
        """Up to ``count`` iterations from ``done``; stops early (returning how many it made) when a
        sample needs the pure sampler."""
        cdef int k
        for k in range(count):
            memcpy(st, &self.template, sizeof(State))
            if not self.fill(st):
                return k
            iterate(st, &self.rng, root, done + k)
        return count

    def __call__(self, rng):
        """A sampled round in the view's state, as ``Knowledge.round(rng)``; ``rng`` seeds this sampler once."""
        cdef CompiledRound c = CompiledRound.__new__(CompiledRound)
        self.prepare(rng)
        self.sample_into(&c.s, rng)
        rng_seed(&c.rng, rng_next(&self.rng))
        c.records = []
        return c

    def search(self, rng, codes, policy, double epsilon, double exploration, iterations, deadline, reward,
               int check_every):
        """``chickenfoot.bots.search.search`` in C: per root move code, (visits, total reward) after
        ``iterations`` (``None``: no limit) or once ``time.perf_counter()`` passes ``deadline`` (checked
        every ``check_every`` iterations), rewards by ``reward`` (a :class:`chickenfoot.bots.reward.Reward`).

        The same UCB1 choice, rollouts by ``policy`` and reward as the pure loop; the samples and rollouts draw
        from this core's generator, so the statistics agree in distribution, not draw for draw."""
        cdef State st
        cdef Root root
        cdef int k, made, done = 0, batch
        cdef long limit = -1 if iterations is None else iterations
        root.n = len(codes)
        if not 0 < root.n <= MAX_CODES:
            raise ValueError("the search needs 1 to MAX_CODES root moves")
        self.prepare(rng)
        init_scoring(&root.scoring, reward, self.template.players)
        root.policy = rollout_policy(policy, self.template.tile_count)
        root.epsilon = epsilon
        root.exploration = exploration
        root.codes = <int*>PyMem_Malloc(root.n * sizeof(int))
        root.visits = <int*>PyMem_Malloc(root.n * sizeof(int))
        root.totals = <double*>PyMem_Malloc(root.n * sizeof(double))
        try:
            if not (root.codes and root.visits and root.totals):
                raise MemoryError()
            for k in range(root.n):
                root.codes[k] = codes[k]
                root.visits[k] = 0
                root.totals[k] = 0.0
            while limit < 0 or done < limit:
                if deadline is not None and done and perf_counter() >= deadline:
                    break
                batch = check_every if limit < 0 else min(check_every, limit - done)
                with nogil:
                    made = self.run(&st, &root, done, batch)
                done += made
                if made < batch:  # every try of the C sampler failed: one iteration on the pure one's deal
                    self.sample_into(&st, rng)
                    iterate(&st, &self.rng, &root, done)
                    done += 1
            return {root.codes[k]: (root.visits[k], root.totals[k]) for k in range(root.n)}
        finally:
            PyMem_Free(root.codes)
            PyMem_Free(root.visits)
            PyMem_Free(root.totals)
