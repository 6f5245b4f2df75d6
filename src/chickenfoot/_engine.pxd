# cython: language_level=3
# The compiled engine's C-level types and functions (defined in _engine.pyx), cimported by the compiled
# search (bots/_search.pyx) so that it deals, moves and scores at C speed. The small helpers are inline
# here, so each extension compiles its own copy of them.

from libc.stdint cimport int8_t, uint8_t, uint32_t, uint64_t

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
    MAX_CODES = 6500  # above any count of plays: 19 numbers x 19 tiles carrying one x 18 line ends, and a pass
    DRAW = -1
    PASS = -2
    HUB_TARGET = 255
    NO_TARGET = -1
    DOMINO = 1
    BLOCKED = 2

# Per tile id: its higher number, its pips, whether it is a double (tiles.HIGH, PIP_SUM, IS_DOUBLE); per
# number, the tiles carrying it as a bit mask (tiles.CARRIES).
cdef int HIGH[TILE_COUNT]
cdef int PIPS[TILE_COUNT]
cdef bint DOUBLE[TILE_COUNT]
cdef uint64_t CARRIES[NUMBERS][WORDS]


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


cdef void rng_seed(Rng* rng, uint64_t seed) noexcept nogil


cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))


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


cdef inline void flip(uint64_t* mask, int tile) noexcept nogil:
    mask[tile >> 6] ^= (<uint64_t>1) << (tile & 63)


# --- the round, and its bridges to Python -------------------------------------------------------

cdef int generate(const State* s, int* codes) noexcept nogil
cdef int push(State* s, int code) noexcept nogil
cdef void points(const State* s, int* out) noexcept nogil
cdef void shuffle(uint8_t* tiles, int count, Rng* rng) noexcept nogil
cdef void to_words(mask, uint64_t* out)
cdef void set_hidden(State* s, hands, boneyard)
cdef list point_list(const State* s)


cdef class CompiledRound:
    cdef State s
    cdef Rng rng
    cdef list records  # per move: (code, seat, undo record, drawn before); for pop
    cdef readonly int ply  # moves made since this position was built
