/* position.c: relay sowing, captures, passes, the end of the game and the final award. */
#include "position.h"

#include <string.h>

void pos_start(const Variant *v, Position *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < v->pits; i++)
        p->pit[i] = (uint16_t)v->seeds;
    p->nonempty = v->row[SOUTH] | v->row[NORTH];
    p->left = (uint16_t)v->total;
    p->side = SOUTH;
    p->last_capturer = NOBODY;
    p->first_final = NOBODY;
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
        return error_set(e, "move %d: no such hole (0 to %d)", move, v->pits - 1), false;
    if (variant_owner(v, move) != p->side)
        return error_set(e, "move %d: hole %d is %s's, and %s is to move", move, move,
                         variant_owner(v, move) == SOUTH ? "South" : "North",
                         p->side == SOUTH ? "South" : "North"), false;
    if (p->pit[move] == 0)
        return error_set(e, "move %d: hole %d is empty", move, move), false;
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

/* Long moves. A move of fewer than ENDLESS_CHECK_FROM laps is never checked for a cycle, so
 * the common case pays nothing. The first laps are logged (origin and seeds picked up) so that,
 * when a move reaches ENDLESS_CHECK_FROM laps, the board it started from can be rebuilt by
 * sowing those laps backwards; if the move then proves endless, that board is put back. */
typedef struct LapLog {
    uint8_t origin[ENDLESS_CHECK_FROM];    /* hole picked up in lap k (from 0) */
    uint16_t seeds[ENDLESS_CHECK_FROM];    /* seeds it held */
} LapLog;

/* Brent's cycle detection over the states at the start of each lap (board and origin hole).
 * Stores play no part in the dynamics, and a capture lowers the seeds on the board, so two
 * equal lap-start states mean the laps repeat forever. */
typedef struct CycleCheck {
    uint16_t start[MAX_PITS];   /* the board before the move, rebuilt from the log */
    uint16_t saved[MAX_PITS];   /* Brent's saved state */
    int saved_origin;
    uint64_t power, lam;
} CycleCheck;

/* Undo the logged laps on board b (the state at the start of lap ENDLESS_CHECK_FROM, whose
 * origin is `origin`). Walking each lap's seeds backwards, a hole holding 0 had just been
 * captured (a dropped seed always leaves at least 1), so it held capture - 1 before the seed. */
static void unsow_logged_laps(const Variant *v, uint16_t *b, const LapLog *log, int origin)
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

/* Feed the state at the start of lap `laps` (>= ENDLESS_CHECK_FROM); true when it repeats an
 * earlier one, so the move is endless. */
static bool cycle_step(CycleCheck *c, const Variant *v, const uint16_t *pit, const LapLog *log,
                       int origin, uint32_t laps)
{
    size_t bytes = (size_t)v->pits * sizeof pit[0];
    if (laps == ENDLESS_CHECK_FROM) {
        memcpy(c->start, pit, bytes);
        unsow_logged_laps(v, c->start, log, origin);
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

/* Step 4 of a move: the end of the game, else who moves next (with an automatic pass). */
static MoveEvent finish_move(const Variant *v, Position *p, bool final_capture, MoveInfo *info)
{
    info->passed = 0;
    if (pos_over(v, p))
        return EV_OVER;
    int mover = p->side, next_side = mover;
    MoveEvent ev = EV_EXTRA;
    if (!(final_capture && v->extra_turn)) {
        next_side = !mover;
        ev = EV_NEXT;
    }
    if (!(p->nonempty & v->row[next_side])) {
        next_side = !next_side;
        info->passed = 1;
    }
    p->side = (int8_t)next_side;
    return ev;
}

/* A mid-sow capture: the hole's owner takes its seeds (kept out of the sowing loop: rare). */
static void capture_mid(const Variant *v, Position *p, int h, uint32_t lap, MoveTrace *trace)
{
    int owner = variant_owner(v, h);
    p->pit[h] = 0;
    p->nonempty &= ~(1ULL << h);
    p->store[owner] = (uint16_t)(p->store[owner] + v->capture);
    p->left = (uint16_t)(p->left - v->capture);
    p->last_capturer = (int8_t)owner;
    trace_capture(trace, h, owner, 0, lap);
}

/* The final-seed capture that ends a move: the mover takes the hole, whoever owns it. */
static void capture_final(const Variant *v, Position *p, int h, uint32_t lap, MoveTrace *trace)
{
    int mover = p->side;
    p->pit[h] = 0;
    p->nonempty &= ~(1ULL << h);
    p->store[mover] = (uint16_t)(p->store[mover] + v->capture);
    p->left = (uint16_t)(p->left - v->capture);
    p->last_capturer = (int8_t)mover;
    if (p->first_final == NOBODY)
        p->first_final = (int8_t)mover;
    trace_capture(trace, h, mover, 1, lap);
}

/* Put back the position as it stood before an endless move. */
static void restore_before(const Variant *v, Position *p, const CycleCheck *c,
                           const Position *head)
{
    memcpy(p->pit, c->start, (size_t)v->pits * sizeof p->pit[0]);
    p->nonempty = head->nonempty;
    p->store[SOUTH] = head->store[SOUTH];
    p->store[NORTH] = head->store[NORTH];
    p->left = head->left;
    p->last_capturer = head->last_capturer;
    p->first_final = head->first_final;
}

MoveEvent pos_play(const Variant *v, const Position *in, int move, Position *p, MoveInfo *info,
                   MoveTrace *trace)
{
    if (in != p)
        *p = *in;
    const unsigned cap = (unsigned)v->capture;
    const int skip_origin = v->skip_origin;
    uint16_t *pit = p->pit;
    int origin = move;
    uint32_t laps = 0;
    unsigned mid = 0;
    bool final_capture = false;
    Position head;   /* the small fields before the move (the board is rebuilt if needed) */
    LapLog log;
    CycleCheck cycle;

    head.nonempty = p->nonempty;
    head.store[SOUTH] = p->store[SOUTH];
    head.store[NORTH] = p->store[NORTH];
    head.left = p->left;
    head.last_capturer = p->last_capturer;
    head.first_final = p->first_final;
    if (trace)
        trace->n = 0;
    for (;;) {
        /* Step 1. Pick up the origin hole (a relay lap picks up the hole it ended in). */
        unsigned n = pit[origin];
        if (__builtin_expect(laps + 1 >= ENDLESS_CHECK_FROM, 0)) {
            if (cycle_step(&cycle, v, pit, &log, origin, laps + 1)) {
                restore_before(v, p, &cycle, &head);
                info->laps = laps + 1;
                info->mid_captures = 0;
                info->final_capture = 0;
                info->passed = 0;
                return EV_ENDLESS;
            }
        } else {
            log.origin[laps] = (uint8_t)origin;
            log.seeds[laps] = (uint16_t)n;
        }
        laps++;
        pit[origin] = 0;
        p->nonempty &= ~(1ULL << origin);

        /* Step 2. Sow one seed into each following hole; a hole reaching `capture` before the
         * lap's last seed goes to its owner at once. */
        const int skip = skip_origin ? origin : -1;
        int h = origin;
        unsigned c = 0;
        while (n--) {
            h = v->next[h];
            if (h == skip)
                h = v->next[h];
            c = ++pit[h];
            p->nonempty |= 1ULL << h;
            if (__builtin_expect(c == cap && n, 0)) {
                capture_mid(v, p, h, laps, trace);
                mid++;
            }
        }

        /* Step 3. The lap's last seed decides: a final-seed capture, an empty hole, or a relay. */
        if (c == cap) {
            capture_final(v, p, h, laps, trace);
            final_capture = true;
            break;
        }
        if (c == 1)
            break;
        origin = h;
    }
    info->laps = laps;
    info->mid_captures = (uint16_t)mid;
    info->final_capture = final_capture;
    return finish_move(v, p, final_capture, info);
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
