/* position.c: relay sowing, captures, passes, the end of the game and the final award. */
#include "position.h"

#include <string.h>

#include "check.h"

#ifdef __BMI2__
#include <immintrin.h>
#endif

/* A position as APN, by value, for a failed check's message: the array lives until the end of
 * the full expression that made it (C11 6.2.4p8), which is the check's call. */
typedef struct ApnText {
    char s[APN_MAX];
} ApnText;

static inline ApnText apn_text(const Variant *v, const Position *p)
{
    ApnText t;
    apn_format(v, p, t.s);
    return t;
}

/* In the checking build, the position each move leaves (an endless move's too, put back as it
 * was) must be consistent (pos_ok: the seeds add up, the masks and fields agree), or the
 * program stops naming the move and the position. Every move goes through pos_play_bounded or
 * the random playout loop, which check at their ends; the fast path and the general one in
 * between are not entry points. */
#define CHECK_MOVED(v, p, move) \
    CHECK(pos_ok(v, p), "after move %d: %s", (move), apn_text(v, p).s)

void pos_start(const Variant *v, Position *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < v->pits; i++)
        p->pit[i] = (uint16_t)v->seeds;
    p->nonempty = v->row[SOUTH] | v->row[NORTH];
    p->legal = v->row[SOUTH];
    p->left = (uint16_t)v->total;
    p->side = SOUTH;
    p->last_capturer = NOBODY;
    p->first_final = NOBODY;
    CHECK(pos_ok(v, p), "the start: %s", apn_text(v, p).s);
}

int pos_legal_moves(const Variant *v, const Position *p, uint8_t moves[MAX_PITS])
{
    int n = 0;
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1)
        moves[n++] = (uint8_t)__builtin_ctzll(m);
    return n;
}

bool pos_move_ok(const Variant *v, const Position *p, int move, Error *e)
{
    if (pos_over(v, p))
        return error_set(e, "move %d: the game is over", move), false;
    if (move < 0 || move >= v->pits)
        return error_set(e, "move %d: no such hole (0 to %d, S1 to S%d and N1 to N%d)", move,
                         v->pits - 1, v->holes, v->holes), false;
    char name[HOLE_NAME_MAX];
    hole_name(v, move, name);
    if (variant_owner(v, move) != p->side)
        return error_set(e, "move %d: hole %s is %s's, and %s is to move", move, name,
                         variant_owner(v, move) == SOUTH ? "South" : "North",
                         p->side == SOUTH ? "South" : "North"), false;
    if (p->pit[move] == 0)
        return error_set(e, "move %d: hole %s is empty", move, name), false;
    return true;
}

const char *move_event_name(MoveEvent ev)
{
    static const char *const names[] = { "next", "extra", "over", "endless" };
    return (ev >= EV_NEXT && ev <= EV_ENDLESS) ? names[ev] : "?";
}

/* Record a capture for display, if a trace was asked for. */
static void trace_capture(MoveTrace *t, int hole, int by, int final, uint32_t lap)
{
    if (t && t->n < (int)(sizeof t->cap / sizeof t->cap[0])) {
        Capture *c = &t->cap[t->n++];
        c->hole = (uint8_t)hole;
        c->by = (uint8_t)by;
        c->final = (uint8_t)final;
        c->lap = (uint8_t)(lap > 255 ? 255 : lap);
    }
}

/* Record a lap for display, if a trace was asked for: the holes its `n` seeds go into from
 * `origin` (as step 2 of sow_general walks them, at most one round: after that every hole the
 * lap reaches is marked) and, past the first lap, its origin as a relay. Once a lap, outside
 * the sowing loop, which stays as it is. */
static void trace_lap(const Variant *v, MoveTrace *t, int origin, unsigned n, uint32_t lap)
{
    if (!t)
        return;
    if (lap > 1)
        t->relayed |= 1ULL << origin;
    int h = origin;
    for (unsigned i = 0; i < n && i <= (unsigned)v->pits; i++) {
        h = v->next[h];
        if (v->skip_origin && h == origin)
            h = v->next[h];
        t->sown |= 1ULL << h;
    }
}

/* Long moves. A move of fewer than ENDLESS_CHECK_FROM laps is never checked for a cycle, so
 * the common case pays nothing. Its first laps are logged (origin and seeds picked up) so that,
 * when a move reaches ENDLESS_CHECK_FROM laps, the board it started from can be rebuilt by
 * sowing those laps backwards; if the move then proves endless, the position is put back.
 *
 * Brent's cycle detection runs over the states at the start of each lap (board and origin).
 * Stores play no part in the dynamics, and a capture lowers the seeds on the board, so two
 * equal lap-start states mean the laps repeat forever. A cycle can be far longer than we
 * could wait for (with capture 64 the check can pass 2^32 laps unanswered), so the seeds sown
 * bound the check's cost: a move that sows more than the bound is endless too. Every cycle
 * passes the bound, so Brent's check only finds the same verdict sooner. */
typedef struct MoveLog {
    uint16_t origin[ENDLESS_CHECK_FROM];   /* hole picked up in lap k (from 0); not a char
                                            * type, which the compiler must assume aliases all */
    uint16_t seeds[ENDLESS_CHECK_FROM];    /* seeds it held */
    uint16_t gained[2];                    /* seeds each store gained during the move */
    int8_t last_capturer;                  /* as it was before the move */
    /* Brent's state, from lap ENDLESS_CHECK_FROM on. */
    uint16_t start[MAX_PITS];              /* the board before the move, rebuilt from the log */
    uint16_t saved[MAX_PITS];              /* the saved lap-start state */
    int saved_origin;
    uint64_t power, lam;
    /* The bound, from lap ENDLESS_CHECK_FROM on. */
    uint32_t seed_bound;                   /* a move sowing more seeds is endless */
    uint64_t sown;                         /* seeds sown by the laps so far, this one's too */
} MoveLog;

/* The laps before the check cannot pass the bound (a lap sows at most the seeds on the board,
 * at most 64 a hole), so the bound applies to every move exactly as docs/rules.md states it. */
_Static_assert((ENDLESS_CHECK_FROM - 1) * MAX_PITS * 64 <= MOVE_SEED_BOUND,
               "MOVE_SEED_BOUND must not be below what the laps before the check can sow");

/* Undo the logged laps on board b (the state at the start of lap ENDLESS_CHECK_FROM, whose
 * origin is `origin`). Walking each lap's seeds backwards, a hole holding 0 had just been
 * captured (a dropped seed always leaves at least 1), so it held capture - 1 before the seed. */
static void unsow_logged_laps(const Variant *v, uint16_t *b, const MoveLog *log, int origin)
{
    for (int k = ENDLESS_CHECK_FROM - 2; k >= 0; k--) {
        int o = log->origin[k], skip = v->skip_origin ? o : -1, h = origin;
        for (unsigned i = log->seeds[k]; i > 0; i--) {
            b[h] = b[h] ? (uint16_t)(b[h] - 1) : (uint16_t)(v->capture - 1);
            if (i > 1) {
                h = (h + v->pits - 1) % v->pits;
                if (h == skip)
                    h = (h + v->pits - 1) % v->pits;
            }
        }
        b[o] = log->seeds[k];
        origin = o;
    }
}

/* Feed the state at the start of lap `lap` (>= ENDLESS_CHECK_FROM); true when it repeats an
 * earlier one, so the move is endless. */
static bool cycle_step(MoveLog *c, const Variant *v, const uint16_t *pit, int origin,
                       uint32_t lap)
{
    size_t bytes = (size_t)v->pits * sizeof pit[0];
    if (lap == ENDLESS_CHECK_FROM) {
        memcpy(c->start, pit, bytes);
        unsow_logged_laps(v, c->start, c, origin);
        memcpy(c->saved, pit, bytes);
        c->saved_origin = origin;
        c->power = 1;
        c->lam = 0;
        return false;
    }
    if (origin == c->saved_origin && memcmp(c->saved, pit, bytes) == 0)
        return true;
    if (++c->lam == c->power) {
        memcpy(c->saved, pit, bytes);
        c->saved_origin = origin;
        c->power <<= 1;
        c->lam = 0;
    }
    return false;
}

/* Count the seeds of lap `lap` (>= ENDLESS_CHECK_FROM), which starts with `seeds` in hand; true
 * when they take the move past the bound, so it is endless. A lap sows all its seeds before it
 * can end the move, so deciding at its start is deciding at the seed that passes the bound. */
static bool seed_bound_passed(MoveLog *c, unsigned seeds, uint32_t lap)
{
    if (lap == ENDLESS_CHECK_FROM) {
        c->sown = 0;
        for (int k = 0; k < ENDLESS_CHECK_FROM - 1; k++)
            c->sown += c->seeds[k];
    }
    c->sown += seeds;
    return c->sown > c->seed_bound;
}

/* The rare end of a long move: feed the cycle check and the bound; when the move is endless,
 * put the position back as it stood before the move and return true. Out of line, so the
 * common path carries none of it. */
static __attribute__((noinline)) bool endless_check(const Variant *v, Position *p, MoveLog *log,
                                                     int origin, uint32_t lap)
{
    /* Both run on every lap: the cycle check's first step rebuilds the board put back here. */
    bool cycle = cycle_step(log, v, p->pit, origin, lap);
    bool bound = seed_bound_passed(log, p->pit[origin], lap);
    if (!cycle && !bound)
        return false;
    /* An endless move makes no final-seed capture (that would end it), so first_final stands. */
    memcpy(p->pit, log->start, (size_t)v->pits * sizeof p->pit[0]);
    p->store[SOUTH] = (uint16_t)(p->store[SOUTH] - log->gained[SOUTH]);
    p->store[NORTH] = (uint16_t)(p->store[NORTH] - log->gained[NORTH]);
    p->left = (uint16_t)(p->left + log->gained[SOUTH] + log->gained[NORTH]);
    p->last_capturer = log->last_capturer;
    pos_set_masks(v, p);
    return true;
}

/* A capture of hole h into `by`'s store (a mid-sow capture goes to the hole's owner, a
 * final-seed capture to the mover). Kept out of the sowing loop: captures are rare. */
static void capture(const Variant *v, Position *p, int h, int by, int final, uint32_t lap,
                    MoveLog *log, MoveInfo *info, MoveTrace *trace)
{
    log->gained[by] = (uint16_t)(log->gained[by] + v->capture);
    info->mid_captures += !final;
    info->final_capture += (uint32_t)final;
    p->pit[h] = 0;
    p->store[by] = (uint16_t)(p->store[by] + v->capture);
    p->left = (uint16_t)(p->left - v->capture);
    p->last_capturer = (int8_t)by;
    if (final && p->first_final == NOBODY)
        p->first_final = (int8_t)by;
    trace_capture(trace, h, by, final, lap);
}

/* Step 4 of a move: the counts, the end of the game, else who moves next (with an automatic
 * pass). */
static inline MoveEvent finish_move(const Variant *restrict v, Position *restrict p,
                                    uint64_t nonempty, bool final_capture, uint32_t laps,
                                    MoveInfo *restrict info)
{
    p->nonempty = nonempty;
    info->laps += laps;
    if (pos_over(v, p)) {
        p->legal = 0;
        return EV_OVER;
    }
    int mover = p->side, next_side = mover;
    MoveEvent ev = EV_EXTRA;
    if (!(final_capture && v->extra_turn)) {
        next_side = !mover;
        ev = EV_NEXT;
    }
    uint64_t legal = nonempty & v->row[next_side];
    if (!legal) {
        next_side = !next_side;
        legal = nonempty & v->row[next_side];
        info->passed++;
    }
    p->side = (int8_t)next_side;
    p->legal = legal;
    return ev;
}

/* Step 4 for a move without captures: no seed left the board, so the game goes on, and the
 * turn passes (to the opponent, or back if the opponent has no seeds). */
static inline MoveEvent finish_quiet_move(const Variant *restrict v, Position *restrict p,
                                          uint64_t nonempty, uint32_t laps,
                                          MoveInfo *restrict info)
{
    int next_side = !p->side;
    uint64_t legal = nonempty & v->row[next_side];
    p->nonempty = nonempty;
    info->laps += laps;
    if (__builtin_expect(!legal, 0)) {
        next_side = !next_side;
        legal = nonempty & v->row[next_side];
        info->passed++;
    }
    p->side = (int8_t)next_side;
    p->legal = legal;
    return EV_NEXT;
}

/* Where a move stands: the lap it is in, that lap's origin, the last hole sown and the seeds
 * still in hand. `picked` is false at the start of a lap, before its origin is picked up. */
typedef struct Sowing {
    int origin, h;
    unsigned n;
    uint32_t lap;
    bool picked;
    uint64_t nonempty;
} Sowing;

/* Every move, in general: captures, long moves and their cycle check, skip_origin and traces.
 * Takes a move over from wherever it stands (from its start, or from the fast path below). */
static __attribute__((noinline)) MoveEvent sow_general(const Variant *v, Position *p, Sowing s,
                                                      MoveLog *log, uint32_t seed_bound,
                                                      MoveInfo *info, MoveTrace *trace)
{
    const unsigned cap = (unsigned)v->capture;
    uint16_t *pit = p->pit;

    /* The fast path never captures, so the stores have gained nothing before now. */
    const uint32_t mid_before = info->mid_captures;
    log->gained[SOUTH] = log->gained[NORTH] = 0;
    log->last_capturer = p->last_capturer;
    log->seed_bound = seed_bound;
    for (;; s.lap++, s.picked = false) {
        /* Step 1. Pick up the origin hole (a relay lap picks up the hole it ended in). */
        if (!s.picked) {
            s.n = pit[s.origin];
            if (s.lap < ENDLESS_CHECK_FROM) {
                log->origin[s.lap - 1] = (uint16_t)s.origin;
                log->seeds[s.lap - 1] = (uint16_t)s.n;
            } else if (endless_check(v, p, log, s.origin, s.lap)) {
                info->mid_captures = mid_before;   /* the move never happened */
                if (trace) {
                    trace->n = 0;                  /* nor did its captures */
                    trace->sown = trace->relayed = 0;
                }
                info->laps += s.lap;
                return EV_ENDLESS;
            }
            pit[s.origin] = 0;
            s.nonempty &= ~(1ULL << s.origin);
            s.h = s.origin;
            trace_lap(v, trace, s.origin, s.n, s.lap);
        }

        /* Step 2. Sow one seed into each following hole; a hole reaching `capture` before the
         * lap's last seed goes to its owner at once. */
        unsigned c = 0;
        while (s.n--) {
            s.h = v->next[s.h];
            if (v->skip_origin && s.h == s.origin)
                s.h = v->next[s.h];
            c = ++pit[s.h];
            s.nonempty |= 1ULL << s.h;
            if (c == cap && s.n) {
                capture(v, p, s.h, variant_owner(v, s.h), 0, s.lap, log, info, trace);
                s.nonempty &= ~(1ULL << s.h);
            }
        }

        /* Step 3. The lap's last seed decides: a final-seed capture, an empty hole, or a relay. */
        if (c == cap) {
            capture(v, p, s.h, p->side, 1, s.lap, log, info, trace);
            return finish_move(v, p, s.nonempty & ~(1ULL << s.h), true, s.lap, info);
        }
        if (c == 1)
            return finish_move(v, p, s.nonempty, false, s.lap, info);
        s.origin = s.h;
    }
}

/* Play a move by the general path from its start. */
static MoveEvent sow_from_start(const Variant *v, Position *p, int move, uint32_t seed_bound,
                                MoveInfo *info, MoveTrace *trace)
{
    MoveLog log;
    Sowing s = { move, move, 0, 1, false, p->nonempty };
    if (trace) {
        trace->n = 0;
        trace->sown = trace->relayed = 0;
    }
    return sow_general(v, p, s, &log, seed_bound, info, trace);
}

/* The fast path, for the moves that are most of every game: no capture, fewer than
 * ENDLESS_CHECK_FROM laps, no skip_origin, no trace. Before each seed it looks whether the seed
 * would make a capture; if so, or at the first lap that needs the cycle check, it hands the move
 * over to sow_general exactly where it stands. It calls nothing else, so it keeps all its
 * state in registers. */
static inline __attribute__((always_inline)) MoveEvent
sow_fast(const Variant *restrict v, Position *restrict p, int origin, uint32_t seed_bound,
         MoveInfo *restrict info)
{
    const unsigned ready = (unsigned)v->capture - 1;   /* a hole that one more seed captures */
    uint16_t *pit = p->pit;
    uint64_t nonempty = p->nonempty;
    size_t o = (size_t)origin;   /* indices as size_t: no sign extension in the loop */
    const size_t pits = (size_t)v->pits;
    MoveLog log;

    for (uint32_t lap = 1;; lap++) {
        if (lap >= ENDLESS_CHECK_FROM) {
            Sowing s = { (int)o, (int)o, 0, lap, false, nonempty };
            return sow_general(v, p, s, &log, seed_bound, info, NULL);
        }
        unsigned n = pit[o];
        log.origin[lap - 1] = (uint16_t)o;
        log.seeds[lap - 1] = (uint16_t)n;
        pit[o] = 0;
        nonempty &= ~(1ULL << o);
        size_t h = o;
        unsigned c;
        do {
            size_t next = h + 1 == pits ? 0 : h + 1;
            c = pit[next];
            if (__builtin_expect(c == ready, 0)) {
                Sowing s = { (int)o, (int)h, n, lap, true, nonempty };
                return sow_general(v, p, s, &log, seed_bound, info, NULL);
            }
            h = next;
            pit[h] = (uint16_t)++c;
            nonempty |= 1ULL << h;
        } while (--n);
        if (c == 1)
            return finish_quiet_move(v, p, nonempty, lap, info);
        o = h;
    }
}

MoveEvent pos_play_bounded(const Variant *v, const Position *in, int move, Position *p,
                           MoveInfo *info, MoveTrace *trace, uint32_t seed_bound)
{
    if (in != p)
        *p = *in;
    memset(info, 0, sizeof *info);   /* the sowing adds each count to info */
    /* Each path checked on its own, so that the default build keeps its two tail returns. */
    if (trace || v->skip_origin) {
        MoveEvent ev = sow_from_start(v, p, move, seed_bound, info, trace);
        CHECK_MOVED(v, p, move);
        return ev;
    }
    MoveEvent ev = sow_fast(v, p, move, seed_bound, info);
    CHECK_MOVED(v, p, move);
    return ev;
}

MoveEvent pos_play(const Variant *v, const Position *in, int move, Position *p, MoveInfo *info,
                   MoveTrace *trace)
{
    return pos_play_bounded(v, in, move, p, info, trace, MOVE_SEED_BOUND);
}

/* The k-th set bit of m (k from 0): the k-th legal move in ascending order. */
static inline int nth_set_bit(uint64_t m, uint32_t k)
{
#ifdef __BMI2__
    return __builtin_ctzll(_pdep_u64(1ULL << k, m));   /* deposit bit k onto m's set bits */
#else
    while (k--)
        m &= m - 1;
    return __builtin_ctzll(m);
#endif
}

int pos_random_move(const Position *p, Rng *rng)
{
    return nth_set_bit(p->legal, rng_below(rng, (uint32_t)__builtin_popcountll(p->legal)));
}

/* rng_below(r, n) for a draw x already taken from r, with *ahead holding r's next output:
 * the same result and the same draws as rng_below, on the rare rejection too. */
static inline uint32_t below_drawn(uint64_t x, uint32_t n, Rng *r, uint64_t *ahead)
{
    uint64_t m = (uint64_t)(uint32_t)x * n;
    if (__builtin_expect((uint32_t)m < n, 0)) {
        uint32_t threshold = (uint32_t)(-n) % n;
        while ((uint32_t)m < threshold) {
            m = (uint64_t)(uint32_t)*ahead * n;
            *ahead = rng_next(r);
        }
    }
    return (uint32_t)(m >> 32);
}

/* The playout loop, one copy for the fast path and one for skip_origin variants. */
static inline __attribute__((always_inline)) MoveEvent
random_playout(const Variant *restrict v, Position *restrict p, Rng stream[2],
               const uint64_t max_plies, Playout *out, const bool fast)
{
    MoveEvent ev = EV_OVER;
    /* every move adds its counts to those of the moves before the playout */
    MoveInfo sum = { 0, out->mid_captures, out->final_captures, out->passes };
    uint64_t plies = out->plies, hash = out->hash;
    uint64_t drawn[2] = { out->drawn[SOUTH], out->drawn[NORTH] };
    /* Each side's next random number is drawn one move ahead, so that computing it is off the
     * path from one move to the next (a counter-based stream gives it back at the end). */
    uint64_t ahead[2] = { rng_next(&stream[SOUTH]), rng_next(&stream[NORTH]) };

    /* The same draws, in the same order, as two uniform random agents would make. */
    while (p->legal) {
        if (plies >= max_plies) {
            ev = EV_NEXT;   /* stopped: the game is unfinished */
            break;
        }
        const int side = p->side;
        uint64_t x = ahead[side];
        ahead[side] = rng_next(&stream[side]);
        uint64_t legal = p->legal;
        int move = nth_set_bit(legal, below_drawn(x, (uint32_t)__builtin_popcountll(legal),
                                                  &stream[side], &ahead[side]));
        ev = fast ? sow_fast(v, p, move, MOVE_SEED_BOUND, &sum)
                  : sow_from_start(v, p, move, MOVE_SEED_BOUND, &sum, NULL);
        CHECK_MOVED(v, p, move);
        plies++;
        drawn[side]++;
        hash = (hash ^ (uint64_t)move) * PLAYOUT_HASH_MULT;
        if (ev == EV_ENDLESS)
            break;
    }
    stream[SOUTH].ctr--;
    stream[NORTH].ctr--;
    out->plies = plies;
    out->passes = sum.passed;
    out->mid_captures = sum.mid_captures;
    out->final_captures = sum.final_capture;
    out->hash = hash;
    out->drawn[SOUTH] = drawn[SOUTH];
    out->drawn[NORTH] = drawn[NORTH];
    return ev;
}

MoveEvent pos_random_playout_from(const Variant *restrict v, Position *restrict p, Rng stream[2],
                                  int64_t max_plies, Playout *so_far)
{
    const uint64_t cap = max_plies > 0 ? (uint64_t)max_plies : 0;
    return v->skip_origin ? random_playout(v, p, stream, cap, so_far, false)
                          : random_playout(v, p, stream, cap, so_far, true);
}

MoveEvent pos_random_playout(const Variant *restrict v, Position *restrict p, Rng stream[2],
                             Playout *out)
{
    *out = (Playout){ .hash = PLAYOUT_HASH_START };
    return pos_random_playout_from(v, p, stream, v->max_plies, out);
}

void pos_set_masks(const Variant *v, Position *p)
{
    p->nonempty = 0;
    for (int i = 0; i < v->pits; i++)
        p->nonempty |= (uint64_t)(p->pit[i] != 0) << i;
    p->legal = pos_over(v, p) ? 0 : (p->nonempty & v->row[p->side]);
}

bool pos_ok(const Variant *v, const Position *p)
{
    unsigned sum = p->store[SOUTH] + p->store[NORTH];
    unsigned on_board = 0;
    uint64_t mask = 0;
    for (int i = 0; i < v->pits; i++) {
        on_board += p->pit[i];
        if (p->pit[i])
            mask |= 1ULL << i;
    }
    for (int i = v->pits; i < MAX_PITS; i++)
        if (p->pit[i])
            return false;
    if (on_board != p->left || sum + on_board != (unsigned)v->total || mask != p->nonempty)
        return false;
    if (p->legal != (pos_over(v, p) ? 0 : (mask & v->row[p->side])))
        return false;
    if (p->side != SOUTH && p->side != NORTH)
        return false;
    if (p->last_capturer < NOBODY || p->last_capturer > NORTH)
        return false;
    if (p->first_final < NOBODY || p->first_final > NORTH)
        return false;
    /* A game still going has its side to move holding seeds: passes are applied at once. */
    return pos_over(v, p) || (p->nonempty & v->row[p->side]) != 0;
}

int award_recipient(FinalFour f, int penultimate, int first_final, int lottery)
{
    switch (f) {
    case FF_FIRST_FINAL:
        return first_final != NOBODY ? first_final : penultimate;
    case FF_LOTTERY:
        return lottery;
    default:
        return penultimate;
    }
}

void pos_award(const Variant *v, const Position *p, const Rng *coin_stream, Award *a)
{
    Rng coin = rng_substream(coin_stream, RNG_SUB_LOTTERY);
    a->penultimate = p->last_capturer;
    a->first_final = p->first_final;
    a->lottery = (int8_t)(rng_next(&coin) >> 63);
    a->recipient = (int8_t)award_recipient(v->final_four, a->penultimate, a->first_final,
                                           a->lottery);
    a->left = p->left;
    a->score[SOUTH] = p->store[SOUTH];
    a->score[NORTH] = p->store[NORTH];
    if (a->recipient != NOBODY)
        a->score[a->recipient] = (uint16_t)(a->score[a->recipient] + p->left);
}
