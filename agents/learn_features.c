/* learn_features.c: the features of a position for its side to move (learn_features.h says
 * what each is), their names and the phase. */
#include "learn_features.h"

#include <stdio.h>
#include <string.h>

const int feature_knot_twelfths[FEATURE_KNOTS] = { 1, 3, 6, 12 };

static const char *const move_names[FM_NB] = { "gain", "gain.pos", "gain.big", "captures",
                                               "losses", "extra" };
static const char *const lap_names[FL_NB] = { "lap.final", "lap.stop", "lap.relay", "lap.gain",
                                             "lap.loss" };
static const char *const convention_names[FC_NB] = { "pen.final", "ff.final", "ff.open" };
static const char *const group_names[FG_NB] = { "bias", "holes (me)", "holes (op)", "seeds",
                                                "moves (me)", "moves (op)", "laps (me)",
                                                "laps (op)", "convention" };
static const char *const group_keys[FG_NB] = { "bias", "holes.me", "holes.op", "seeds",
                                               "moves.me", "moves.op", "laps.me", "laps.op",
                                               "convention" };

void features_layout(const Variant *v, FeatureLayout *l)
{
    memset(l, 0, sizeof *l);
    l->holes = v->holes;
    l->capture = v->capture;
    l->total = v->total;
    l->bands = v->capture + 3;
    const int c = v->capture;
    for (int n = 1; n <= 3 * c; n++)
        l->band[n] = (uint8_t)(n <= c ? n : n < 2 * c ? c + 1 : n < 3 * c ? c + 2 : c + 3);
    const int size[FG_NB] = { 1, v->holes * l->bands, v->holes * l->bands, 2, FM_NB, FM_NB,
                              FL_NB, FL_NB, FC_NB };
    for (int g = 0; g < FG_NB; g++)
        l->first[g + 1] = l->first[g] + size[g];
    l->n = l->first[FG_NB];
    l->groups = FEATURE_ALL_GROUPS;
    for (int k = 0; k < FEATURE_KNOTS; k++)
        l->knot[k] = v->total * feature_knot_twelfths[k];
}

/* A band's label: its count, or its range ("5-7", "12+"). */
static void band_label(const FeatureLayout *l, int b, char *buf, size_t len)
{
    const int c = l->capture;
    if (b <= c)
        snprintf(buf, len, "%d", b);
    else if (b == c + 1)
        snprintf(buf, len, "%d-%d", c + 1, 2 * c - 1);
    else if (b == c + 2)
        snprintf(buf, len, "%d-%d", 2 * c, 3 * c - 1);
    else
        snprintf(buf, len, "%d+", 3 * c);
}

FeatureGroup features_group(const FeatureLayout *l, int f)
{
    int g = 0;
    while (g + 1 < FG_NB && f >= l->first[g + 1])
        g++;
    return (FeatureGroup)g;
}

const char *features_group_name(FeatureGroup g)
{
    return g < FG_NB ? group_names[g] : "?";
}

int features_group_lookup(const char *key)
{
    for (int g = 0; g < FG_NB; g++)
        if (strcmp(key, group_keys[g]) == 0)
            return g;
    return -1;
}

void features_name(const FeatureLayout *l, int f, char *buf, size_t len)
{
    FeatureGroup g = features_group(l, f);
    int i = f - l->first[g];
    char band[40];
    switch (g) {
    case FG_BIAS:
        snprintf(buf, len, "bias");
        break;
    case FG_HOLES_ME:
    case FG_HOLES_OP:
        band_label(l, i % l->bands + 1, band, sizeof band);
        snprintf(buf, len, "%s.h%d.b%s", g == FG_HOLES_ME ? "me" : "op", i / l->bands, band);
        break;
    case FG_SEEDS:
        snprintf(buf, len, "%s.seeds", i == 0 ? "me" : "op");
        break;
    case FG_MOVES_ME:
    case FG_MOVES_OP:
        snprintf(buf, len, "%s.%s", g == FG_MOVES_ME ? "me" : "op", move_names[i]);
        break;
    case FG_LAPS_ME:
    case FG_LAPS_OP:
        snprintf(buf, len, "%s.%s", g == FG_LAPS_ME ? "me" : "op", lap_names[i]);
        break;
    default:
        snprintf(buf, len, "%s", convention_names[i]);
        break;
    }
}

int features_lookup(const FeatureLayout *l, const char *name)
{
    char buf[64];
    for (int f = 0; f < l->n; f++) {
        features_name(l, f, buf, sizeof buf);
        if (strcmp(buf, name) == 0)
            return f;
    }
    return -1;
}

/* Append feature f with value x (x != 0). */
static inline void put(FeatureList *out, int f, int x)
{
    out->index[out->n] = (uint16_t)f;
    out->value[out->n++] = (int16_t)x;
}

/* The moves of q's side to move (its legal mask set, the game not over), each played out:
 * the features of FG_MOVES_ME or FG_MOVES_OP from `first`. */
static void moves_features(const FeatureLayout *l, const Variant *v, const Position *q,
                           int first, FeatureList *out)
{
    const int s = q->side, o = !s, c = l->capture;
    int best = -3 * c, captures = 0, losses = 0, extra = 0;
    for (uint64_t m = q->legal; m; m &= m - 1) {
        Position r;
        MoveInfo info;
        /* A move still sowing after ENDLESS_CHECK_FROM laps counts as endless (nothing
         * gained): a long cycle can take the exact check a millisecond to prove, and the
         * evaluation may meet the same one at every leaf below it. */
        MoveEvent ev = pos_play_bounded(v, q, __builtin_ctzll(m), &r, &info, NULL, 1);
        int gain = (r.store[s] - q->store[s]) - (r.store[o] - q->store[o]);
        best = gain > best ? gain : best;
        captures += gain > 0;
        losses += gain < 0;
        extra += ev == EV_EXTRA;
    }
    best = best > 3 * c ? 3 * c : best;
    if (best)
        put(out, first + FM_GAIN, best);
    if (best > 0)
        put(out, first + FM_GAIN_POS, 1);
    if (best >= 2 * c)
        put(out, first + FM_GAIN_BIG, 1);
    if (captures)
        put(out, first + FM_CAPTURES, captures);
    if (losses)
        put(out, first + FM_LOSSES, losses);
    if (extra)
        put(out, first + FM_EXTRA, extra);
}

/* The pits' bits rotated right by k (0 <= k < n) within n bits (the mask `all`). */
static inline uint64_t rotate_right(uint64_t x, int k, int n, uint64_t all)
{
    return k == 0 ? x : ((x >> k) | (x << (n - k))) & all;
}

/* Where the first lap of each of side s's moves ends, from the counts alone: the features
 * of FG_LAPS_ME or FG_LAPS_OP from `first`. `threes` holds the holes of capture - 1 seeds. */
static void laps_features(const FeatureLayout *l, const Variant *v, const Position *p, int s,
                          uint64_t threes, int first, FeatureList *out)
{
    const int n = v->pits, c = l->capture;
    const uint64_t all = n == 64 ? ~0ULL : (1ULL << n) - 1, mine = v->row[s];
    int final = 0, stop = 0, relay = 0, loss = 0, best = -3 * c;
    for (uint64_t m = p->nonempty & mine; m; m &= m - 1) {
        int i = __builtin_ctzll(m), seeds = p->pit[i];
        if (seeds >= n) {   /* the lap passes its start: more than one seed in a hole */
            relay++;
            continue;
        }
        int end = (i + seeds) % n;
        /* The holes sown before the last seed, i + 1 .. i + seeds - 1, as the low bits of
         * the board turned to start at i + 1. */
        const int k = (i + 1) % n;
        uint64_t path = rotate_right(threes, k, n, all) & ((1ULL << (seeds - 1)) - 1);
        uint64_t row = rotate_right(mine, k, n, all);
        int own = __builtin_popcountll(path & row), other = __builtin_popcountll(path & ~row);
        int gain = own - other;
        if (p->pit[end] == c - 1) {
            final++;
            gain++;
        } else if (p->pit[end] == 0) {
            stop++;
        } else {
            relay++;
        }
        loss += other > 0;
        best = gain * c > best ? gain * c : best;
    }
    best = best > 3 * c ? 3 * c : best;
    if (final)
        put(out, first + FL_FINAL, final);
    if (stop)
        put(out, first + FL_STOP, stop);
    if (relay)
        put(out, first + FL_RELAY, relay);
    if (best != -3 * c && best)
        put(out, first + FL_GAIN, best);
    if (loss)
        put(out, first + FL_LOSS, loss);
}

/* The sign of who receives the seeds left, from the side to move s: +1, -1 or 0. */
static inline int recipient_sign(int r, int s)
{
    return r == NOBODY ? 0 : r == s ? 1 : -1;
}

void features_of(const FeatureLayout *l, const Variant *v, const Position *p, FeatureList *out)
{
    const int s = p->side, o = !s, h = l->holes, c = l->capture;
    const unsigned g = l->groups;
    out->n = 0;
    if (g & 1u << FG_BIAS)
        put(out, FG_BIAS, 1);
    /* Step 1. Each non-empty hole of each row in its band, from that row owner's left. */
    int seeds[2] = { 0, 0 };
    for (int side = 0; side < 2; side++) {
        const int who = side == 0 ? s : o, group = side == 0 ? FG_HOLES_ME : FG_HOLES_OP;
        const int base = l->first[group];
        const bool put_holes = g & 1u << group;
        const uint16_t *row = p->pit + who * h;
        for (uint64_t m = (p->nonempty >> (who * h)) & ((1ULL << h) - 1); m; m &= m - 1) {
            int i = __builtin_ctzll(m), n = row[i];
            seeds[side] += n;
            if (put_holes)
                put(out, base + i * l->bands + (n > 3 * c ? l->bands : l->band[n]) - 1, 1);
        }
    }
    /* Step 2. The seeds of each row. */
    if (seeds[0] && (g & 1u << FG_SEEDS))
        put(out, l->first[FG_SEEDS], seeds[0]);
    if (seeds[1] && (g & 1u << FG_SEEDS))
        put(out, l->first[FG_SEEDS] + 1, seeds[1]);
    /* Step 3. Every move of each side played out: mine as the position stands, the
     * opponent's as if it were to move now (it has seeds, and the game goes on). */
    if (!pos_over(v, p)) {
        if (g & 1u << FG_MOVES_ME)
            moves_features(l, v, p, l->first[FG_MOVES_ME], out);
        Position q = *p;
        q.side = (int8_t)o;
        q.legal = p->nonempty & v->row[o];
        if (q.legal && (g & 1u << FG_MOVES_OP))
            moves_features(l, v, &q, l->first[FG_MOVES_OP], out);
    }
    /* Step 4. Where each side's first laps end. */
    if (g & (1u << FG_LAPS_ME | 1u << FG_LAPS_OP)) {
        uint64_t threes = 0;
        for (uint64_t m = p->nonempty; m; m &= m - 1)
            threes |= (uint64_t)(p->pit[__builtin_ctzll(m)] == c - 1) << __builtin_ctzll(m);
        if (g & 1u << FG_LAPS_ME)
            laps_features(l, v, p, s, threes, l->first[FG_LAPS_ME], out);
        if (g & 1u << FG_LAPS_OP)
            laps_features(l, v, p, o, threes, l->first[FG_LAPS_OP], out);
    }
    if (!(g & 1u << FG_CONVENTION))
        return;
    /* Step 5. Who stands to receive the seeds left, under the variant's convention. */
    const int conv = l->first[FG_CONVENTION];
    if (v->final_four == FF_PENULTIMATE) {
        int x = recipient_sign(p->last_capturer, s);
        if (x)
            put(out, conv + FC_PEN_FINAL, x);
    } else if (v->final_four == FF_FIRST_FINAL) {
        int r = p->first_final != NOBODY ? p->first_final : p->last_capturer;
        int x = recipient_sign(r, s);
        if (x)
            put(out, conv + FC_FF_FINAL, x);
        if (p->first_final == NOBODY)
            put(out, conv + FC_FF_OPEN, 1);
    }
}

void features_phase(const FeatureLayout *l, int left, int *k, int32_t *wk, int32_t *wk1)
{
    const int32_t x = 12 * left;
    if (x <= l->knot[0]) {
        *k = 0;
        *wk = 1;
        *wk1 = 0;
        return;
    }
    int j = 0;
    while (j < FEATURE_KNOTS - 2 && x > l->knot[j + 1])
        j++;
    *k = j;
    *wk = l->knot[j + 1] - x < 0 ? 0 : l->knot[j + 1] - x;
    *wk1 = x - l->knot[j];
}
