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

/* Brent's cycle detection over the states at the start of each lap (board and origin hole).
 * Stores play no part in the dynamics, and a capture lowers the seeds on the board, so two
 * equal lap-start states mean the laps repeat forever. */
typedef struct CycleCheck {
    uint16_t saved[MAX_PITS];
    int saved_origin;
    uint64_t power, lam;
} CycleCheck;

/* Feed the lap-start state; true when it repeats an earlier one (the move is endless). */
static bool cycle_step(CycleCheck *c, const Variant *v, const Position *p, int origin,
                       uint32_t laps)
{
    size_t bytes = (size_t)v->pits * sizeof p->pit[0];
    if (laps == ENDLESS_CHECK_FROM) {
        memcpy(c->saved, p->pit, bytes);
        c->saved_origin = origin;
        c->power = 1;
        c->lam = 0;
        return false;
    }
    if (origin == c->saved_origin && memcmp(c->saved, p->pit, bytes) == 0)
        return true;
    if (++c->lam == c->power) {
        memcpy(c->saved, p->pit, bytes);
        c->saved_origin = origin;
        c->power <<= 1;
        c->lam = 0;
    }
    return false;
}

MoveEvent pos_play(const Variant *v, const Position *in, int move, Position *out,
                   MoveInfo *info, MoveTrace *trace)
{
    Position p = *in;
    const unsigned cap = (unsigned)v->capture;
    const int mover = p.side;
    const int skip_origin = v->skip_origin;
    CycleCheck cycle;
    int origin = move;
    uint32_t laps = 0, sown = 0;
    unsigned mid = 0;
    bool final_capture = false;

    if (trace)
        trace->n = 0;
    for (;;) {
        /* Step 1. Pick up the origin hole (a relay lap picks up the hole it ended in). */
        laps++;
        if (laps >= ENDLESS_CHECK_FROM && cycle_step(&cycle, v, &p, origin, laps)) {
            *out = *in;
            info->laps = laps;
            info->sown = sown;
            info->mid_captures = 0;
            info->final_capture = 0;
            info->passed = 0;
            return EV_ENDLESS;
        }
        unsigned n = p.pit[origin];
        p.pit[origin] = 0;
        p.nonempty &= ~(1ULL << origin);
        sown += n;

        /* Step 2. Sow one seed into each following hole; a hole reaching `capture` before the
         * lap's last seed goes to its owner at once. */
        const int skip = skip_origin ? origin : -1;
        int h = origin;
        unsigned c = 0;
        while (n--) {
            h = v->next[h];
            if (h == skip)
                h = v->next[h];
            c = ++p.pit[h];
            p.nonempty |= 1ULL << h;
            if (c == cap && n) {
                int owner = variant_owner(v, h);
                p.pit[h] = 0;
                p.nonempty &= ~(1ULL << h);
                p.store[owner] = (uint16_t)(p.store[owner] + cap);
                p.left = (uint16_t)(p.left - cap);
                p.last_capturer = (int8_t)owner;
                mid++;
                trace_capture(trace, h, owner, 0, laps);
            }
        }

        /* Step 3. The lap's last seed decides: a final-seed capture, an empty hole, or a relay. */
        if (c == cap) {
            p.pit[h] = 0;
            p.nonempty &= ~(1ULL << h);
            p.store[mover] = (uint16_t)(p.store[mover] + cap);
            p.left = (uint16_t)(p.left - cap);
            p.last_capturer = (int8_t)mover;
            if (p.first_final == NOBODY)
                p.first_final = (int8_t)mover;
            final_capture = true;
            trace_capture(trace, h, mover, 1, laps);
            break;
        }
        if (c == 1)
            break;
        origin = h;
    }

    /* Step 4. The end of the game, else who moves next (with an automatic pass). */
    MoveEvent ev;
    info->passed = 0;
    if (pos_over(v, &p)) {
        ev = EV_OVER;
    } else {
        int next_side = mover;
        ev = EV_EXTRA;
        if (!(final_capture && v->extra_turn)) {
            next_side = !mover;
            ev = EV_NEXT;
        }
        if (!(p.nonempty & v->row[next_side])) {
            next_side = !next_side;
            info->passed = 1;
        }
        p.side = (int8_t)next_side;
    }
    info->laps = laps;
    info->sown = sown;
    info->mid_captures = (uint16_t)mid;
    info->final_capture = final_capture;
    *out = p;
    return ev;
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
