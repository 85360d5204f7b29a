/* test_learned.c: the learned evaluation against its definitions: each feature on hand-built
 * positions (every move's result checked with `anywoli move`), the layout of other boards,
 * the phase's knots, the value unchanged when the board is turned round with the side to
 * move, and negated when only the side to move changes under weights that are antisymmetric,
 * the fixed point against the weights in doubles, weights files written and read back (and
 * their faults), the compiled-in set, alpha-beta with weights=learned, and the ridge fit
 * recovering known weights from synthetic rows. */
#include "test_util.h"

#define TEST_TMP_NAME "learned"
#include "test_tmp.h"

#include <inttypes.h>
#include <math.h>

#include "agent.h"
#include "eval.h"
#include "learned.h"
#include "ridge.h"

/* A feature's expected value on a position. */
typedef struct Want {
    const char *name;
    int value;
} Want;

/* The features of p (on v) must be exactly want[0..n): every other feature 0. */
static void expect_features(const Variant *v, const Position *p, const Want *want, int n)
{
    FeatureLayout l;
    features_layout(v, &l);
    FeatureList f;
    features_of(&l, v, p, &f);
    char name[64], apn[APN_MAX];
    apn_format(v, p, apn);
    for (int i = 0; i < f.n; i++) {
        features_name(&l, f.index[i], name, sizeof name);
        assert_true(f.value[i] != 0);
        if (i > 0)
            assert_true(f.index[i] > f.index[i - 1]);   /* ascending, each once */
        bool found = false;
        for (int j = 0; j < n; j++) {
            if (strcmp(want[j].name, name) == 0) {
                found = true;
                if (want[j].value != f.value[i])
                    fail_msg("%s: %s is %d, expected %d", apn, name, f.value[i],
                             want[j].value);
            }
        }
        if (!found)
            fail_msg("%s: %s is %d, expected 0", apn, name, f.value[i]);
    }
    for (int j = 0; j < n; j++) {
        bool found = false;
        for (int i = 0; i < f.n; i++) {
            features_name(&l, f.index[i], name, sizeof name);
            found |= strcmp(want[j].name, name) == 0;
        }
        if (!found)
            fail_msg("%s: %s is 0, expected %d", apn, want[j].name, want[j].value);
    }
}

#define EXPECT(opts, apn, ...)                                                           \
    do {                                                                                 \
        Variant v_;                                                                      \
        Position p_;                                                                     \
        tu_position(opts, apn, &v_, &p_);                                                \
        const Want w_[] = { __VA_ARGS__ };                                               \
        expect_features(&v_, &p_, w_, (int)(sizeof w_ / sizeof w_[0]));                  \
    } while (0)

/* The start: every hole in band 4 (capture), 48 seeds a row; no move of either side gains
 * or loses anything (checked with `anywoli move`: each relays until it ends in an empty
 * hole), and every first lap ends on a hole of four, which relays. */
static void test_features_start(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("", "start", &v, &p);
    Want want[2 * 12 + 5];
    static char names[24][16];
    int n = 0;
    want[n++] = (Want){ "bias", 1 };
    for (int side = 0; side < 2; side++) {
        for (int h = 0; h < 12; h++) {
            snprintf(names[side * 12 + h], sizeof names[0], "%s.h%d.b4", side ? "op" : "me", h);
            want[n++] = (Want){ names[side * 12 + h], 1 };
        }
    }
    want[n++] = (Want){ "me.seeds", 48 };
    want[n++] = (Want){ "op.seeds", 48 };
    want[n++] = (Want){ "me.lap.relay", 12 };   /* every first lap ends on four seeds */
    want[n++] = (Want){ "op.lap.relay", 12 };
    expect_features(&v, &p, want, n);
}

/* Hand-built positions of the standard board, each move's result as `anywoli move` gives
 * it. */
static void test_features_hand_built(void **state)
{
    (void)state;
    /* South's only move (11, one seed) ends on North's three: a final-seed capture, +4 and
     * an extra move. North's moves (as if it moved): 12 ends in an empty hole, 21, 22 and 23
     * too, none capturing. Each of these is its first lap. */
    EXPECT("", "0,0,0,0,0,0,0,0,0,0,0,1/3,0,0,0,0,0,0,0,0,5,5,2 38/42 S - -",
           { "bias", 1 }, { "me.h11.b1", 1 }, { "op.h0.b3", 1 }, { "op.h9.b5-7", 1 },
           { "op.h10.b5-7", 1 }, { "op.h11.b2", 1 }, { "me.seeds", 1 }, { "op.seeds", 15 },
           { "me.gain", 4 }, { "me.gain.pos", 1 }, { "me.captures", 1 }, { "me.extra", 1 },
           { "me.lap.final", 1 }, { "me.lap.gain", 4 }, { "op.lap.stop", 4 });
    /* South: 0 gains nothing, 10 and 11 capture 4 with an extra move. North: 12 makes a
     * mid-sow capture of its own hole 13 (+4), 13 nothing, 23 a mid-sow capture of South's
     * hole 0 for South (-4). Every move is one lap, ending in an empty hole but South's 10
     * and 11. */
    EXPECT("", "3,0,0,0,0,0,0,0,0,0,2,1/3,3,0,0,0,0,0,0,0,0,0,2 40/42 S - -",
           { "bias", 1 }, { "me.h0.b3", 1 }, { "me.h10.b2", 1 }, { "me.h11.b1", 1 },
           { "op.h0.b3", 1 }, { "op.h1.b3", 1 }, { "op.h11.b2", 1 }, { "me.seeds", 6 },
           { "op.seeds", 8 }, { "me.gain", 4 }, { "me.gain.pos", 1 }, { "me.captures", 2 },
           { "me.extra", 2 }, { "op.gain", 4 }, { "op.gain.pos", 1 }, { "op.captures", 1 },
           { "op.losses", 1 }, { "me.lap.final", 2 }, { "me.lap.stop", 1 }, { "me.lap.gain", 4 },
           { "op.lap.stop", 3 }, { "op.lap.gain", 4 }, { "op.lap.loss", 1 });
    /* The same board with North to move: the sides' features trade places, holes counted
     * from North's own left. */
    EXPECT("", "3,0,0,0,0,0,0,0,0,0,2,1/3,3,0,0,0,0,0,0,0,0,0,2 40/42 N - -",
           { "bias", 1 }, { "op.h0.b3", 1 }, { "op.h10.b2", 1 }, { "op.h11.b1", 1 },
           { "me.h0.b3", 1 }, { "me.h1.b3", 1 }, { "me.h11.b2", 1 }, { "op.seeds", 6 },
           { "me.seeds", 8 }, { "op.gain", 4 }, { "op.gain.pos", 1 }, { "op.captures", 2 },
           { "op.extra", 2 }, { "me.gain", 4 }, { "me.gain.pos", 1 }, { "me.captures", 1 },
           { "me.losses", 1 }, { "op.lap.final", 2 }, { "op.lap.stop", 1 }, { "op.lap.gain", 4 },
           { "me.lap.stop", 3 }, { "me.lap.gain", 4 }, { "me.lap.loss", 1 });
    /* South: 8 captures 12 (two mid-sow captures of its own threes and a final one: the
     * game ends), 9 captures 8, 10 captures 4, 11 nothing; North's move 12 ends in an empty
     * hole. North made the last capture: under penultimate it would receive the seeds
     * left (-1 for South). The first laps: 8 ends on a three, passing two of South's, 9
     * passes two and relays from North's single seed, 10 passes one and stops, 11 stops. */
    EXPECT("", "0,0,0,0,0,0,0,0,3,3,3,3/1,0,0,0,0,0,0,0,0,0,0,0 41/42 S N N",
           { "bias", 1 }, { "me.h8.b3", 1 }, { "me.h9.b3", 1 }, { "me.h10.b3", 1 },
           { "me.h11.b3", 1 }, { "op.h0.b1", 1 }, { "me.seeds", 12 }, { "op.seeds", 1 },
           { "me.gain", 12 }, { "me.gain.pos", 1 }, { "me.gain.big", 1 }, { "me.captures", 3 },
           { "pen.final", -1 }, { "me.lap.final", 1 }, { "me.lap.stop", 2 }, { "me.lap.relay", 1 },
           { "me.lap.gain", 12 }, { "op.lap.stop", 1 });
    /* Under first-final, North made the first final-seed capture: -1, and it is settled. */
    EXPECT("final_four=first-final", "0,0,0,0,0,0,0,0,3,3,3,3/1,0,0,0,0,0,0,0,0,0,0,0 41/42 S N N",
           { "bias", 1 }, { "me.h8.b3", 1 }, { "me.h9.b3", 1 }, { "me.h10.b3", 1 },
           { "me.h11.b3", 1 }, { "op.h0.b1", 1 }, { "me.seeds", 12 }, { "op.seeds", 1 },
           { "me.gain", 12 }, { "me.gain.pos", 1 }, { "me.gain.big", 1 }, { "me.captures", 3 },
           { "ff.final", -1 }, { "me.lap.final", 1 }, { "me.lap.stop", 2 }, { "me.lap.relay", 1 },
           { "me.lap.gain", 12 }, { "op.lap.stop", 1 });
    /* No final-seed capture yet: the last capturer (South, to move) stands to receive them,
     * and the first final-seed capture is still open; under the lottery nobody does. */
    EXPECT("final_four=first-final", "0,0,0,0,0,0,0,0,3,3,3,3/1,0,0,0,0,0,0,0,0,0,0,0 41/42 S S -",
           { "bias", 1 }, { "me.h8.b3", 1 }, { "me.h9.b3", 1 }, { "me.h10.b3", 1 },
           { "me.h11.b3", 1 }, { "op.h0.b1", 1 }, { "me.seeds", 12 }, { "op.seeds", 1 },
           { "me.gain", 12 }, { "me.gain.pos", 1 }, { "me.gain.big", 1 }, { "me.captures", 3 },
           { "ff.final", 1 }, { "ff.open", 1 }, { "me.lap.final", 1 }, { "me.lap.stop", 2 }, { "me.lap.relay", 1 },
           { "me.lap.gain", 12 }, { "op.lap.stop", 1 });
    EXPECT("final_four=lottery", "0,0,0,0,0,0,0,0,3,3,3,3/1,0,0,0,0,0,0,0,0,0,0,0 41/42 S S -",
           { "bias", 1 }, { "me.h8.b3", 1 }, { "me.h9.b3", 1 }, { "me.h10.b3", 1 },
           { "me.h11.b3", 1 }, { "op.h0.b1", 1 }, { "me.seeds", 12 }, { "op.seeds", 1 },
           { "me.gain", 12 }, { "me.gain.pos", 1 }, { "me.gain.big", 1 }, { "me.captures", 3 },
           { "me.lap.final", 1 }, { "me.lap.stop", 2 }, { "me.lap.relay", 1 },
           { "me.lap.gain", 12 }, { "op.lap.stop", 1 });
}

/* The bands of other captures and the layout of other boards. */
static void test_layout(void **state)
{
    (void)state;
    Variant v;
    tu_variant("holes=7 capture=3", &v);
    FeatureLayout l;
    features_layout(&v, &l);
    assert_int_equal(l.bands, 6);
    assert_int_equal(l.n, 1 + 2 * 7 * 6 + 2 + 2 * FM_NB + 2 * FL_NB + FC_NB);
    static const char *const band[] = { "", "1", "2", "3", "4-5", "4-5", "6-8", "6-8", "6-8",
                                        "9+" };
    for (int c = 1; c <= 9; c++) {
        char want[32], name[64];
        snprintf(want, sizeof want, "me.h2.b%s", band[c]);
        features_name(&l, l.first[FG_HOLES_ME] + 2 * l.bands + l.band[c] - 1, name,
                      sizeof name);
        assert_string_equal(name, want);
    }
    /* Every name is found again, and nothing else. */
    for (int f = 0; f < l.n; f++) {
        char name[64];
        features_name(&l, f, name, sizeof name);
        assert_int_equal(features_lookup(&l, name), f);
    }
    assert_int_equal(features_lookup(&l, "me.h7.b1"), -1);
    assert_int_equal(features_lookup(&l, "me.h0.b4"), -1);
    /* A count far past 3 capture: the last band (13 seeds on the standard board). */
    EXPECT("holes=7 capture=3", "13,0,0,0,0,0,0/1,0,0,0,0,0,0 0/0 S - -",
           { "bias", 1 }, { "me.h0.b9+", 1 }, { "op.h0.b1", 1 }, { "me.seeds", 13 },
           { "op.seeds", 1 }, { "me.lap.stop", 1 }, { "op.lap.stop", 1 });
}

/* The knots at 1/12, 1/4, 1/2 and 1 of the seeds, linear between them. */
static void test_phase(void **state)
{
    (void)state;
    Variant v;
    tu_variant("", &v);
    FeatureLayout l;
    features_layout(&v, &l);
    static const struct {
        int left;
        double at[FEATURE_KNOTS];   /* each knot's share of a feature's weight */
    } cases[] = {
        { 4, { 1, 0, 0, 0 } },   { 8, { 1, 0, 0, 0 } },      { 16, { 0.5, 0.5, 0, 0 } },
        { 24, { 0, 1, 0, 0 } },  { 36, { 0, 0.5, 0.5, 0 } }, { 48, { 0, 0, 1, 0 } },
        { 60, { 0, 0, 0.75, 0.25 } }, { 96, { 0, 0, 0, 1 } },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int k;
        int32_t a, b;
        features_phase(&l, cases[i].left, &k, &a, &b);
        assert_true(k >= 0 && k < FEATURE_KNOTS - 1 && a >= 0 && b >= 0 && a + b > 0);
        double at[FEATURE_KNOTS] = { 0 };
        at[k] = (double)a / (a + b);
        at[k + 1] = (double)b / (a + b);
        for (int j = 0; j < FEATURE_KNOTS; j++)
            if (fabs(at[j] - cases[i].at[j]) > 1e-12)
                fail_msg("%d seeds: knot %d weighs %g, expected %g", cases[i].left, j, at[j],
                         cases[i].at[j]);
    }
}

/* A position of v after k random plies of game g (k fewer when the game would end). */
static void random_position(const Variant *v, int g, int k, Position *p)
{
    Rng r;
    rng_seed(&r, 91, 0, (uint64_t)g);
    pos_start(v, p);
    for (int i = 0; i < k; i++) {
        Position next;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, pos_random_move(p, &r), &next, &info, NULL);
        if (ev >= EV_OVER)
            return;
        *p = next;
    }
}

/* p turned round: each side's row, store and fields the other's. */
static void mirror(const Variant *v, const Position *p, Position *q)
{
    *q = *p;
    for (int i = 0; i < v->pits; i++)
        q->pit[i] = p->pit[(i + v->holes) % v->pits];
    q->store[SOUTH] = p->store[NORTH];
    q->store[NORTH] = p->store[SOUTH];
    q->side = (int8_t)!p->side;
    q->last_capturer = p->last_capturer == NOBODY ? NOBODY : (int8_t)!p->last_capturer;
    q->first_final = p->first_final == NOBODY ? NOBODY : (int8_t)!p->first_final;
    pos_set_masks(v, q);
    assert_true(pos_ok(v, q));
}

/* Weights at random in [-1, 1] seeds, or antisymmetric ones: each op.* feature the negated
 * weights of its me.* twin, the convention's signs at random and the bias and ff.open 0, so
 * that a position's value with the other side to move is its negation. */
static double *random_weights(const FeatureLayout *l, bool antisymmetric, uint64_t seed)
{
    double *w = calloc((size_t)l->n * FEATURE_KNOTS, sizeof *w);
    assert_non_null(w);
    Rng r;
    rng_seed(&r, seed, 1, 2);
    for (int f = 0; f < l->n * FEATURE_KNOTS; f++)
        w[f] = 2 * rng_unit(&r) - 1;
    if (!antisymmetric)
        return w;
    const int holes = l->first[FG_HOLES_OP] - l->first[FG_HOLES_ME];
    for (int k = 0; k < FEATURE_KNOTS; k++) {
        w[FG_BIAS * FEATURE_KNOTS + k] = 0;
        for (int i = 0; i < holes; i++)
            w[(l->first[FG_HOLES_OP] + i) * FEATURE_KNOTS + k] =
                -w[(l->first[FG_HOLES_ME] + i) * FEATURE_KNOTS + k];
        w[(l->first[FG_SEEDS] + 1) * FEATURE_KNOTS + k] = -w[l->first[FG_SEEDS] * FEATURE_KNOTS + k];
        for (int i = 0; i < FM_NB; i++)
            w[(l->first[FG_MOVES_OP] + i) * FEATURE_KNOTS + k] =
                -w[(l->first[FG_MOVES_ME] + i) * FEATURE_KNOTS + k];
        for (int i = 0; i < FL_NB; i++)
            w[(l->first[FG_LAPS_OP] + i) * FEATURE_KNOTS + k] =
                -w[(l->first[FG_LAPS_ME] + i) * FEATURE_KNOTS + k];
        w[(l->first[FG_CONVENTION] + FC_FF_OPEN) * FEATURE_KNOTS + k] = 0;
    }
    return w;
}

/* Turned round, a position is worth the same to its side to move; with antisymmetric
 * weights, the same board with the other side to move is worth its negation. */
static void test_symmetry(void **state)
{
    (void)state;
    static const char *const boards[] = { "", "final_four=first-final", "final_four=lottery",
                                          "holes=7 capture=3 seeds=3" };
    for (size_t b = 0; b < sizeof boards / sizeof boards[0]; b++) {
        Variant v;
        tu_variant(boards[b], &v);
        FeatureLayout l;
        features_layout(&v, &l);
        for (int anti = 0; anti < 2; anti++) {
            double *w = random_weights(&l, anti, 5 + b);
            LearnedSet *set = learned_set_make("test", &l, w, "random");
            Learned *L;
            Error e;
            assert_non_null(set);
            if (learned_prepare(set, &v, &L, &e) != 0)
                fail_msg("%s", e.msg);
            int flips = 0;
            for (int g = 0; g < 300; g++) {
                Position p, q;
                random_position(&v, g, g % 90, &p);
                if (pos_over(&v, &p))
                    continue;
                mirror(&v, &p, &q);
                assert_int_equal(learned_eval(L, &v, &q), learned_eval(L, &v, &p));
                Position o = p;
                o.side = (int8_t)!p.side;
                pos_set_masks(&v, &o);
                if (!anti || !o.legal)
                    continue;
                assert_int_equal(learned_eval(L, &v, &o), -learned_eval(L, &v, &p));
                flips++;
            }
            assert_true(!anti || flips > 100);
            learned_free(L);
            learned_set_free(set);
            free(w);
        }
    }
}

/* The fixed point as near the weights in doubles, interpolated between the knots as the
 * fit's columns are, as its rounding allows. */
static void test_fixed_point(void **state)
{
    (void)state;
    Variant v;
    tu_variant("", &v);
    FeatureLayout l;
    features_layout(&v, &l);
    double *w = random_weights(&l, false, 9);
    LearnedSet *set = learned_set_make("test", &l, w, "random");
    Learned *L;
    Error e;
    assert_int_equal(learned_prepare(set, &v, &L, &e), 0);
    for (int g = 0; g < 200; g++) {
        Position p;
        random_position(&v, g, g % 120, &p);
        if (pos_over(&v, &p))
            continue;
        FeatureList f;
        features_of(&l, &v, &p, &f);
        int k;
        int32_t a, b;
        features_phase(&l, p.left, &k, &a, &b);
        double x = 0, size = 0;
        for (int i = 0; i < f.n; i++) {
            x += f.value[i] * (w[f.index[i] * FEATURE_KNOTS + k] * a +
                               w[f.index[i] * FEATURE_KNOTS + k + 1] * b) / (a + b);
            size += abs(f.value[i]);
        }
        /* Each weight is rounded to 1/10000 of a seed, the sum truncated to 1/100. */
        double got = learned_positional(L, &v, &p) / (double)EVAL_SCALE;
        if (fabs(got - x) > 0.01 + 0.00005 * size + 1e-9)
            fail_msg("position %d: fixed point %.4f, doubles %.4f", g, got, x);
        int s = p.side;
        assert_int_equal(learned_eval(L, &v, &p),
                         (p.store[s] - p.store[!s]) * EVAL_SCALE + learned_positional(L, &v, &p));
    }
    learned_free(L);
    learned_set_free(set);
    free(w);
}

/* Write a text file in the temporary folder. */
static const char *write_file(const char *name, const char *text)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* The text of the file at path (at most len - 1 bytes), its length returned. */
static size_t read_text(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, len - 1, f);
    fclose(f);
    buf[n] = '\0';
    return n;
}

/* A weights file (written at path) cut short anywhere, its end line missing, or edited, is
 * refused with one line naming it; the digest is its end line's checksum. */
static void test_weights_file_end(const char *written)
{
    static char text[1 << 20], cut[1 << 20], path[4096];
    snprintf(path, sizeof path, "%s", written);   /* tmp_path's buffer is used again */
    size_t n = read_text(path, text, sizeof text);
    Error e;
    LearnedSet *s = NULL;
    uint64_t digest;
    assert_int_equal(learned_file_digest(path, &digest, &e), 0);
    const char *end = strstr(text, "\nend ");
    assert_non_null(end);
    assert_true(digest == strtoull(end + 5, NULL, 16));
    assert_true(digest == learned_text_checksum(text, (size_t)(end + 1 - text)));
    for (size_t keep = 0; keep < n; keep += 1 + keep / 3) {
        memcpy(cut, text, keep);
        cut[keep] = '\0';
        const char *p = write_file("cut.txt", cut);
        assert_int_equal(learned_set_load(p, &s, &e), -1);
        if (!strstr(e.msg, "cut.txt: no end line"))
            fail_msg("cut at %zu: '%s'", keep, e.msg);
        assert_null(strchr(e.msg, '\n'));
        assert_int_equal(learned_file_digest(p, &digest, &e), -1);
    }
    /* A digit of a weight changed, the end line kept. */
    memcpy(cut, text, n + 1);
    char *digit = strpbrk(strstr(cut, "\nw "), "123456789");
    *digit = *digit == '9' ? '8' : (char)(*digit + 1);
    const char *p = write_file("edited.txt", cut);
    assert_int_equal(learned_set_load(p, &s, &e), -1);
    if (!strstr(e.msg, "edited.txt: the end line's checksum"))
        fail_msg("edited: '%s'", e.msg);
    assert_int_equal(learned_file_digest(p, &digest, &e), -1);
    assert_null(s);
}

/* A set written as a weights file reads back the same; every fault is one line naming the
 * file and line. */
static void test_weights_file(void **state)
{
    (void)state;
    Variant v;
    tu_variant("", &v);
    FeatureLayout l;
    features_layout(&v, &l);
    double *w = random_weights(&l, false, 3);
    for (int f = 10; f < 20; f++)   /* some features absent from the file */
        for (int k = 0; k < FEATURE_KNOTS; k++)
            w[f * FEATURE_KNOTS + k] = 0;
    LearnedSet *set = learned_set_make("roundtrip", &l, w, "a test");
    assert_int_equal(set->n, l.n - 10);
    Error e;
    const char *path = tmp_path("w.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(learned_set_write(set, f, &e), 0);
    fclose(f);
    LearnedSet *back;
    if (learned_set_load(path, &back, &e) != 0)
        fail_msg("%s", e.msg);
    assert_string_equal(back->name, "roundtrip");
    assert_string_equal(back->about, "a test");
    assert_null(back->variant);
    assert_int_equal(back->n, set->n);
    Learned *a, *b;
    assert_int_equal(learned_prepare(set, &v, &a, &e), 0);
    assert_int_equal(learned_prepare(back, &v, &b, &e), 0);
    for (int g = 0; g < 100; g++) {
        Position p;
        random_position(&v, g, g % 100, &p);
        if (!pos_over(&v, &p))
            assert_int_equal(learned_eval(a, &v, &p), learned_eval(b, &v, &p));
    }
    learned_free(a);
    learned_free(b);
    learned_set_free(back);
    learned_set_free(set);
    free(w);

    static const struct {
        const char *text, *message;
    } bad[] = {
        { "", "w1.txt: empty file" },
        { "weights\n", "w2.txt:1: not a weights file" },
        { "anywoli-learned 1\nname x\nw bias 1 2 3 4\n", "w3.txt:3: a weight before the board" },
        { "anywoli-learned 1\nname x\nholes 12\ncapture 4\nw bias 1 2 3\n",
          "w4.txt:5: too few weights" },
        { "anywoli-learned 1\nname x\nholes 12\ncapture 4\nw bias 1 2 3 4 5\n",
          "w5.txt:5: too many weights" },
        { "anywoli-learned 1\nname x\nholes 12\ncapture 4\nw bias 1 2 x 4\n",
          "w6.txt:5: a weight is not a number" },
        { "anywoli-learned 1\nname x\nholes 12\ncapture 4\nw me.h12.b1 1 2 3 4\n",
          "w7.txt:5: no such feature on this board" },
        { "anywoli-learned 1\nname x\nholes 12\ncapture 4\nw bias 1 2 3 4\nw bias 1 2 3 4\n",
          "w8.txt:6: this feature's weights are given twice" },
        { "anywoli-learned 1\nname x\nholes 99\n", "w9.txt:3: holes: expected" },
        { "anywoli-learned 1\nname x\nholes 12\n", "w10.txt: holes and capture are not given" },
        { "anywoli-learned 1\nholes 12\ncapture 4\n", "w11.txt: no name is given" },
        { "anywoli-learned 1\nname x\nwhat 3\n", "w12.txt:3: expected name, about" },
        { "anywoli-learned 1\nname x\nholes 12\ncapture 4\nw bias 1 2 3 1e9\n",
          "w13.txt:5: a weight is not a number within" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char name[32], text[512];
        snprintf(name, sizeof name, "w%zu.txt", i + 1);
        /* Each with a right end line, so that the fault found is the one in the lines. */
        snprintf(text, sizeof text, "%send %016" PRIx64 "\n", bad[i].text,
                 learned_text_checksum(bad[i].text, strlen(bad[i].text)));
        const char *p = write_file(name, text);
        LearnedSet *s = NULL;
        assert_int_equal(learned_set_load(p, &s, &e), -1);
        assert_null(s);
        if (!strstr(e.msg, bad[i].message))
            fail_msg("%s: '%s' does not say '%s'", name, e.msg, bad[i].message);
        assert_null(strchr(e.msg, '\n'));
    }
    assert_int_equal(learned_set_load(tmp_path("no-such-file"), &back, &e), -1);
    test_weights_file_end(tmp_path("w.txt"));
}

/* A set's variant line (the rules a set fitted on first use was fitted for) is written and
 * read back; the compiled-in set has none, and serves the boards of its holes and capture. */
static void test_variant_line(void **state)
{
    (void)state;
    Variant v, small;
    tu_variant("", &v);
    tu_variant("holes=5 seeds=2", &small);
    FeatureLayout l;
    features_layout(&small, &l);
    double *w = random_weights(&l, false, 5);
    LearnedSet *set = learned_set_make("auto", &l, w, "fitted");
    assert_int_equal(learned_set_note_variant(set, "holes=5 seeds=2 capture=4"), 0);
    Error e;
    const char *path = tmp_path("variant.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(learned_set_write(set, f, &e), 0);
    fclose(f);
    LearnedSet *back;
    if (learned_set_load(path, &back, &e) != 0)
        fail_msg("%s", e.msg);
    assert_non_null(back->variant);
    assert_string_equal(back->variant, "holes=5 seeds=2 capture=4");
    learned_set_free(back);
    learned_set_free(set);
    free(w);
    assert_null(learned_builtin("learned")->variant);
    assert_true(learned_builtin_fits(&v));
    tu_variant("seeds=3", &v);
    assert_true(learned_builtin_fits(&v));
    assert_false(learned_builtin_fits(&small));
    /* This program installs no fit: a board the compiled-in set is not for is refused. */
    const LearnedSet *out;
    assert_int_equal(learned_choose(NULL, false, "a", &small, &out, &e), -1);
    assert_non_null(strstr(e.msg, "cannot fit"));
    assert_int_equal(learned_choose(NULL, false, "a", &v, &out, &e), 0);
    assert_ptr_equal(out, learned_builtin("learned"));
}

/* The compiled-in set loads for the standard board (any seeds), refuses another, and
 * alpha-beta plays it (weights=learned), or a weights file (learned=FILE), and says when a
 * board is not the set's (in a program without learned=auto's fit, as this one). */
static void test_builtin_and_agent(void **state)
{
    (void)state;
    const LearnedSet *s = learned_builtin("learned");
    assert_non_null(s);
    assert_null(learned_builtin("no-such-set"));
    assert_int_equal(s->holes, 12);
    assert_int_equal(s->capture, 4);
    Variant v, small;
    tu_variant("", &v);
    tu_variant("holes=7", &small);
    Learned *L;
    Error e;
    if (learned_prepare(s, &v, &L, &e) != 0)
        fail_msg("the compiled-in set: %s", e.msg);
    assert_ptr_equal(learned_set_of(L), s);
    assert_true(learned_fits(L, &v));
    Position p;
    pos_start(&v, &p);
    int32_t x = learned_eval(L, &v, &p);
    assert_true(x > -10 * EVAL_SCALE && x < 10 * EVAL_SCALE);   /* the start is near even */
    learned_free(L);
    assert_int_equal(learned_prepare(s, &small, &L, &e), -1);
    assert_non_null(strstr(e.msg, "for holes=12 capture=4"));

    Agent a;
    if (agent_create(&a, "alphabeta:depth=3,weights=learned", &e) != 0)
        fail_msg("%s", e.msg);
    assert_int_equal(agent_check_variant(&a, &v, &e), 0);
    assert_int_equal(agent_check_variant(&a, &small, &e), -1);
    assert_non_null(strstr(e.msg, "weights=learned"));
    Rng r;
    rng_seed(&r, 1, 2, 3);
    AgentStats st = { 0, 0, 0, 0 };
    int move = a.choose(&a, &v, &p, &r, &st);
    assert_true(move >= 0 && move < 12);
    assert_int_equal(st.depth, 3);
    agent_free(&a);

    /* A file of the compiled-in weights plays the same moves. */
    FILE *f = fopen(tmp_path("builtin.txt"), "w");
    assert_non_null(f);
    assert_int_equal(learned_set_write(s, f, &e), 0);
    fclose(f);
    char spec[512];
    snprintf(spec, sizeof spec, "alphabeta:depth=4,ties=first,weights=learned,learned=%s",
             tmp_path("builtin.txt"));
    Agent b, c;
    if (agent_create(&b, spec, &e) != 0)
        fail_msg("%s", e.msg);
    assert_int_equal(agent_create(&c, "alphabeta:depth=4,ties=first,weights=learned", &e), 0);
    for (int g = 0; g < 20; g++) {
        random_position(&v, g, 10 + g, &p);
        if (pos_over(&v, &p))
            continue;
        AgentStats sb = { 0, 0, 0, 0 }, sc = { 0, 0, 0, 0 };
        assert_int_equal(b.choose(&b, &v, &p, &r, &sb), c.choose(&c, &v, &p, &r, &sc));
        assert_true(sb.value == sc.value);
        assert_true(sb.nodes == sc.nodes);
    }
    agent_free(&b);
    agent_free(&c);
    assert_int_equal(agent_create(&b, "alphabeta:learned=x.txt", &e), -1);
    assert_non_null(strstr(e.msg, "needs weights=learned"));
    assert_int_equal(agent_create(&b, "alphabeta:weights=learned,learned=/no/such", &e), -1);
    assert_non_null(strstr(e.msg, "learned=/no/such"));
    /* The default spec does not name the option. */
    char full[AGENT_FULL_SPEC_MAX];
    assert_int_equal(agent_full_spec("alphabeta", full, sizeof full, &e), 0);
    assert_null(strstr(full, "learned"));
}

/* Rows of a known linear model: the ridge fit finds its weights, its squared error on the
 * normal equations is the direct one, and a large lambda shrinks the weights towards 0. */
static void test_ridge_recovers(void **state)
{
    (void)state;
    enum { K = 24, ROWS = 4000 };
    double truth[K], x[K], w[K];
    uint32_t col[K];
    Rng r;
    rng_seed(&r, 12, 0, 0);
    for (int j = 0; j < K; j++)
        truth[j] = j == 7 ? 0 : 4 * rng_unit(&r) - 2;   /* column 7 is never non-zero */
    RidgeSums fit, test;
    assert_int_equal(ridge_sums_init(&fit, K), 0);
    assert_int_equal(ridge_sums_init(&test, K), 0);
    double direct = 0;
    for (int i = 0; i < 2 * ROWS; i++) {
        int n = 0;
        double y = 0;
        for (int j = 0; j < K; j++) {
            if (j == 7 || rng_unit(&r) < 0.6)
                continue;
            col[n] = (uint32_t)j;
            /* columns of very different scales: counts up to 40 and indicators */
            x[n] = j % 3 == 0 ? (double)rng_below(&r, 41) : 1;
            y += truth[j] * x[n++];
        }
        y += 0.01 * (rng_unit(&r) - 0.5);
        ridge_sums_add(i < ROWS ? &fit : &test, col, x, n, y);
        if (i >= ROWS) {
            double d = y;
            for (int a = 0; a < n; a++)
                d -= 0.5 * x[a];
            direct += d * d;
        }
    }
    for (int j = 0; j < K; j++)
        w[j] = 0.5;
    w[7] = 0;
    assert_true(fabs(ridge_mse(&test, w) - direct / ROWS) < 1e-9 * (1 + direct / ROWS));
    RidgeFit *f;
    Error e;
    assert_int_equal(ridge_prepare(&fit, &f, &e), 0);
    assert_int_equal(ridge_columns(f), K - 1);
    assert_int_equal(ridge_solve(f, 1e-6, w, &e), 0);
    for (int j = 0; j < K; j++)
        if (fabs(w[j] - truth[j]) > 1e-3)
            fail_msg("weight %d: %g, expected %g", j, w[j], truth[j]);
    assert_true(ridge_mse(&test, w) < 1e-4);
    double lambda[10];
    ridge_lambdas(f, 10, lambda);
    for (int i = 1; i < 10; i++)
        assert_true(lambda[i] < lambda[i - 1]);
    assert_int_equal(ridge_solve(f, 1e6, w, &e), 0);
    for (int j = 0; j < K; j++)
        assert_true(fabs(w[j]) < 0.01);
    ridge_free(f);
    ridge_sums_free(&fit);
    ridge_sums_free(&test);
    RidgeSums empty;
    assert_int_equal(ridge_sums_init(&empty, 3), 0);
    assert_int_equal(ridge_prepare(&empty, &f, &e), -1);
    ridge_sums_free(&empty);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_features_start),
        cmocka_unit_test(test_features_hand_built),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_phase),
        cmocka_unit_test(test_symmetry),
        cmocka_unit_test(test_fixed_point),
        cmocka_unit_test(test_weights_file),
        cmocka_unit_test(test_variant_line),
        cmocka_unit_test(test_builtin_and_agent),
        cmocka_unit_test(test_ridge_recovers),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
