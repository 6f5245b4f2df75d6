# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The search's inner loop in C: samples, rollouts, rewards and the root's UCB1 on the compiled engine.

Its pure twins, to diff against: :mod:`chickenfoot.bots.policy` (the rollout policy's scores),
:mod:`chickenfoot.bots.reward` (the reward), :mod:`chickenfoot.knowledge` (sampled hidden states) and
:mod:`chickenfoot.bots.search` (``rollout`` and the UCB1 loop of ``search``). It plays on the compiled
engine's struct (``chickenfoot._engine``, cimported through ``_engine.pxd``), so every move is a C call.
Random choices draw from the engine's generator, so the statistics agree with the pure search in
distribution, not draw for draw.

Each function mirrors the pure-Python one named in its comment; ``tests/core/test_compiled.py``
proves them equal.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.math cimport erfc, exp, log, sqrt
from libc.stdint cimport uint8_t, uint64_t
from libc.string cimport memcpy, memset

from chickenfoot._engine cimport (
    CARRIES,
    DOUBLE,
    HIGH,
    HUB_TARGET,
    MAX_CODES,
    MAX_PLAYERS,
    PASS,
    PIPS,
    TILE_COUNT,
    WORDS,
    CompiledRound,
    Rng,
    State,
    cf_ctz64,
    cf_popcount64,
    flip,
    generate,
    has,
    point_list,
    points,
    push,
    rng_below,
    rng_next,
    rng_random,
    rng_seed,
    set_hidden,
    shuffle,
    to_words,
)

from time import perf_counter

cdef enum:
    MAX_NODES = 64  # quadrature points of the match reward
    FEATURES = 10  # chickenfoot.bots.policy.MOVE_FEATURES
    LATE_HAND = 3  # chickenfoot.bots.policy.LATE_HAND


# --- the rollout (chickenfoot.bots.policy, chickenfoot.bots.search.rollout) ----------------------

cdef inline bint carries(const State* s, int seat, int number) noexcept nogil:
    """Whether ``seat`` holds a tile that carries ``number``."""
    cdef int w
    for w in range(s.words):
        if s.hands[seat][w] & CARRIES[number][w]:
            return True
    return False


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


def rollout_round(CompiledRound round_ not None, policy, double epsilon):
    """The search's rollout (``chickenfoot.bots.search.rollout``) of ``round_`` by ``policy`` to the end, drawing
    from the round's own generator; returns the points. The moves are not kept for ``pop``."""
    cdef const Policy* table = rollout_policy(policy, round_.s.tile_count)
    round_.records = []
    with nogil:
        rollout(&round_.s, &round_.rng, table, epsilon)
    return point_list(&round_.s)


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
