/* game_api.c: the C API of anywoli_game.h, a thin layer over the rules of variants/. Every
 * rule is the engine's own (pos_play, pos_legal_moves, pos_award, apn_parse, the variant
 * text): this file only keeps a game's state between calls and turns its answers into ints. */
#include "anywoli_game.h"

#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "variant_text.h"

_Static_assert(AW_MAX_PITS == MAX_PITS, "AW_MAX_PITS follows MAX_PITS");
_Static_assert(AW_APN_MAX == APN_MAX, "AW_APN_MAX follows APN_MAX");
_Static_assert(AW_EV_NEXT == (int)EV_NEXT && AW_EV_EXTRA == (int)EV_EXTRA
               && AW_EV_OVER == (int)EV_OVER && AW_EV_ENDLESS == (int)EV_ENDLESS,
               "the API's events are MoveEvent's");

struct AwGame {
    Variant v;
    Position p;
    int64_t plies;      /* moves made since the state's start */
    int status;         /* AW_PLAYING .. AW_UNFINISHED */
    uint64_t seed;      /* of the lottery coin's stream */
};

/* Each thread's last message, so that two threads stepping their own games do not mix them. */
static _Thread_local Error last_error;

int aw_api_version(void)
{
    return AW_API_VERSION;
}

const char *aw_last_error(void)
{
    return last_error.msg;
}

/* The variant text of a preset and n named parameters; -1 with a message on an unknown or
 * repeated name (a repeat would silently drop one of the two values). */
static int read_variant_text(const char *preset, int n, const char *const *names,
                             const char *const *values, VariantText *t)
{
    memset(t, 0, sizeof *t);
    t->preset = preset;
    if (n < 0 || (n > 0 && (!names || !values)))
        return error_set(&last_error, "variant: %d parameters without their names and values", n);
    for (int i = 0; i < n; i++) {
        if (!names[i] || !values[i])
            return error_set(&last_error, "variant: parameter %d has no name or no value", i);
        VariantParam p = variant_param_lookup(names[i]);
        if (p == VP_NB) {
            Variant scratch;
            variant_default(&scratch);   /* variant_set's message names the known parameters */
            variant_set(&scratch, names[i], values[i], &last_error);
            return -1;
        }
        if (t->value[p])
            return error_set(&last_error, "%s: given twice", variant_param_name(p));
        t->value[p] = values[i];
    }
    return 0;
}

/* The variant and the start of a new game, as `anywoli move [--position APN]` makes them. */
static int start_game(const VariantText *t, const char *apn, AwGame *g)
{
    VariantFault f;
    if (!apn) {
        if (variant_from_text(t, &g->v, &f) != 0)
            return error_set(&last_error, "%s", f.e.msg);
        pos_start(&g->v, &g->p);
        return 0;
    }
    if (variant_apply_text(t, &g->v, &f) != 0)
        return error_set(&last_error, "%s", f.e.msg);
    bool holes_given = t->preset || t->value[VP_HOLES];
    bool seeds_given = t->preset || t->value[VP_SEEDS];
    return apn_parse(apn, &g->v, holes_given, seeds_given, &g->p, &last_error);
}

AwGame *aw_new(const char *preset, int n, const char *const *names, const char *const *values,
               const char *apn)
{
    VariantText t;
    if (read_variant_text(preset, n, names, values, &t) != 0)
        return NULL;
    AwGame *g = calloc(1, sizeof *g);
    if (!g) {
        error_set(&last_error, "out of memory");
        return NULL;
    }
    if (start_game(&t, apn, g) != 0) {
        free(g);
        return NULL;
    }
    /* An APN may be of a finished game: it has stopped before any move. */
    g->status = pos_over(&g->v, &g->p) ? AW_OVER : AW_PLAYING;
    g->seed = 1;
    return g;
}

void aw_free(AwGame *g)
{
    free(g);
}

AwGame *aw_clone(const AwGame *g)
{
    AwGame *c = malloc(sizeof *c);
    if (!c) {
        error_set(&last_error, "out of memory");
        return NULL;
    }
    *c = *g;
    return c;
}

void aw_set_seed(AwGame *g, uint64_t seed)
{
    g->seed = seed;
}

int aw_legal_moves(const AwGame *g, int *moves, int cap)
{
    uint8_t m[MAX_PITS];
    int n = g->status == AW_PLAYING ? pos_legal_moves(&g->v, &g->p, m) : 0;
    if (n > cap)
        return error_set(&last_error, "%d legal moves do not fit a buffer of %d", n, cap);
    for (int i = 0; i < n; i++)
        moves[i] = m[i];
    return n;
}

/* The status after a move that reported ev, plies counted. */
static int status_after(const AwGame *g, MoveEvent ev)
{
    if (ev == EV_OVER)
        return AW_OVER;
    if (ev == EV_ENDLESS)
        return AW_ENDLESS;
    return g->plies >= g->v.max_plies ? AW_UNFINISHED : AW_PLAYING;
}

/* Why no move can be played in a stopped game. */
static int stopped_error(const AwGame *g)
{
    static const char *const why[] = { "", "the game is over",
                                       "the game stopped on an endless move",
                                       "the game stopped unfinished at max_plies" };
    return error_set(&last_error, "%s", why[g->status]);
}

int aw_play(AwGame *g, int move, int *info)
{
    if (g->status != AW_PLAYING)
        return stopped_error(g);
    if (!pos_move_ok(&g->v, &g->p, move, &last_error))
        return -1;
    int mover = g->p.side;
    uint16_t before[2] = { g->p.store[SOUTH], g->p.store[NORTH] };
    MoveInfo mi = { 0 };
    MoveEvent ev = pos_play(&g->v, &g->p, move, &g->p, &mi, NULL);
    g->plies++;   /* an endless move is a ply, as in the game loop (its position unchanged) */
    g->status = status_after(g, ev);
    if (info) {
        info[AW_INFO_EVENT] = ev;
        info[AW_INFO_MOVER] = mover;
        info[AW_INFO_MID_CAPTURES] = (int)mi.mid_captures;
        info[AW_INFO_FINAL_CAPTURE] = (int)mi.final_capture;
        info[AW_INFO_PASSED] = (int)mi.passed;
        info[AW_INFO_GAIN_SOUTH] = g->p.store[SOUTH] - before[SOUTH];
        info[AW_INFO_GAIN_NORTH] = g->p.store[NORTH] - before[NORTH];
        info[AW_INFO_LAPS] = mi.laps > INT32_MAX ? INT32_MAX : (int)mi.laps;
        info[AW_INFO_STATUS] = g->status;
        info[AW_INFO_N_MOVES] = 0;
    }
    return ev;
}

int aw_play_moves(AwGame *g, int move, int *info, int *moves)
{
    int ev = aw_play(g, move, info);
    if (ev >= 0)
        info[AW_INFO_N_MOVES] = aw_legal_moves(g, moves, MAX_PITS);
    return ev;
}

int aw_random_playout(AwGame *g, uint64_t seed, int64_t *plies)
{
    if (g->status != AW_PLAYING)
        return stopped_error(g);
    Rng game, stream[2];
    rng_seed(&game, seed, 0, 0);
    stream[SOUTH] = rng_substream(&game, RNG_SUB_AGENT_SOUTH);
    stream[NORTH] = rng_substream(&game, RNG_SUB_AGENT_NORTH);
    Playout so_far = { .plies = (uint64_t)g->plies, .hash = PLAYOUT_HASH_START };
    MoveEvent ev = pos_random_playout_from(&g->v, &g->p, stream, g->v.max_plies, &so_far);
    if (plies)
        *plies = (int64_t)so_far.plies - g->plies;
    g->plies = (int64_t)so_far.plies;
    /* The playout stops unfinished (EV_NEXT) only at the cap. */
    g->status = ev == EV_NEXT ? AW_UNFINISHED : status_after(g, ev);
    return g->status;
}

int aw_to_apn(const AwGame *g, char *buf, int len)
{
    char apn[APN_MAX];
    int n = apn_format(&g->v, &g->p, apn);
    if (n >= len)
        return error_set(&last_error, "an APN of %d characters does not fit a buffer of %d", n,
                         len);
    memcpy(buf, apn, (size_t)n + 1);
    return n;
}

int aw_board(const AwGame *g, int *out, int cap)
{
    int n = g->v.pits + 2;
    if (n > cap)
        return error_set(&last_error, "a board of %d numbers does not fit a buffer of %d", n, cap);
    for (int i = 0; i < g->v.pits; i++)
        out[i] = g->p.pit[i];
    out[g->v.pits] = g->p.store[SOUTH];
    out[g->v.pits + 1] = g->p.store[NORTH];
    return n;
}

int aw_holes(const AwGame *g)
{
    return g->v.holes;
}

int aw_variant(const AwGame *g, char *buf, int len)
{
    char text[320];
    variant_describe(&g->v, text, (int)sizeof text);
    int n = (int)strlen(text);
    if (n >= len)
        return error_set(&last_error, "a variant of %d characters does not fit a buffer of %d",
                         n, len);
    memcpy(buf, text, (size_t)n + 1);
    return n;
}

int aw_side_to_move(const AwGame *g)
{
    return g->p.side;
}

int aw_store(const AwGame *g, int side)
{
    if (side != SOUTH && side != NORTH)
        return error_set(&last_error, "side %d is neither 0 (South) nor 1 (North)", side);
    return g->p.store[side];
}

int64_t aw_plies(const AwGame *g)
{
    return g->plies;
}

int aw_status(const AwGame *g)
{
    return g->status;
}

int aw_is_over(const AwGame *g)
{
    return g->status != AW_PLAYING;
}

int aw_result(const AwGame *g, const char *convention, int *scores)
{
    if (g->status == AW_PLAYING)
        return error_set(&last_error, "the game is not over: no result yet");
    Variant v = g->v;
    if (convention && variant_set(&v, "final_four", convention, &last_error) != 0)
        return -1;
    if (g->status != AW_OVER) {   /* no award: the stores as they stood (game_record_end) */
        scores[SOUTH] = g->p.store[SOUTH];
        scores[NORTH] = g->p.store[NORTH];
        return g->status == AW_ENDLESS ? AW_OUT_ENDLESS : AW_OUT_UNFINISHED;
    }
    Rng coin;
    rng_seed(&coin, g->seed, 0, 0);
    Award a;
    pos_award(&v, &g->p, &coin, &a);
    scores[SOUTH] = a.score[SOUTH];
    scores[NORTH] = a.score[NORTH];
    return a.score[SOUTH] > a.score[NORTH]   ? AW_SOUTH_WON
           : a.score[NORTH] > a.score[SOUTH] ? AW_NORTH_WON
                                             : AW_DRAW;
}
