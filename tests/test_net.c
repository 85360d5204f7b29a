/* test_net.c: the network evaluation (agents/net.c) against its definitions: the inputs of
 * hand-built positions, the first layer's sums updated move by move equal to their
 * recomputation after every move of random games (three conventions, two boards), the
 * integers within a stated bound of the float network, network files written and read back
 * and every kind of file that is not a network refused with one line naming file and line,
 * the compiled-in network, and (with the argument `bench`) the cost of an evaluation. */
#include "test_util.h"

#define TEST_TMP_NAME "net"
#include "test_tmp.h"

#include <inttypes.h>
#include <math.h>
#include <time.h>

#include "eval.h"
#include "learned.h"
#include "net.h"

/* The most the integers' output (net_positional, EVAL_SCALE units) may differ from the
 * float network's (net_positional_float times EVAL_SCALE) over the positions of random
 * games, in seeds (net.h): on the compiled-in (trained) network, and on pseudo-random
 * networks of small weights, 4 and 8 times those of a first untrained network (the error
 * grows with the weights: the first layer's rounding to 1/NET_QA, carried through the second
 * layer and the output). Measured worst: 1.32 (1.02 on the third generation, 1.36 on the
 * first network trained, without a base), 0.64 and 2.39 seeds (test_quantised_bound prints
 * them), and 0.50 with 27 dense inputs (test_dense, held to NET_BOUND_4X). */
#define NET_BOUND_BUILTIN 1.5
#define NET_BOUND_4X 1.0
#define NET_BOUND_8X 3.0

/* ---- helpers ---- */

static const char *write_file(const char *name, const char *text, size_t n)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fwrite(text, 1, n, f);
    fclose(f);
    return path;
}

/* The standard board under convention ff (or another layout from `options`). */
static void board(Variant *v, const char *options, FinalFour ff)
{
    variant_default(v);
    char buf[256];
    snprintf(buf, sizeof buf, "%s", options);
    Error e;
    for (char *save = NULL, *kv = strtok_r(buf, " ", &save); kv; kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        assert_non_null(eq);
        *eq = '\0';
        if (variant_set(v, kv, eq + 1, &e) != 0)
            fail_msg("%s", e.msg);
    }
    v->final_four = ff;
    if (variant_finish(v, &e) != 0)
        fail_msg("%s", e.msg);
}

/* A network of that shape with pseudo-random weights: w1, b1 in [-s1, s1] (b1 shifted up),
 * w2 in [-s2, s2], w3 in [-s3, s3]. */
static NetFile *random_net(int holes, int capture, int buckets, int h1, int h2, double s1,
                           double s2, double s3, uint64_t seed)
{
    NetFile *f = net_file_new(holes, capture, buckets, h1, h2, 0);
    assert_non_null(f);
    snprintf(f->name, sizeof f->name, "test%d", holes);
    snprintf(f->about, sizeof f->about, "test_net.c's random network, seed %" PRIu64, seed);
    Rng r;
    rng_seed(&r, seed, 0, 0);
    for (int i = 0; i < f->inputs * h1; i++)
        f->w1[i] = (float)((2 * rng_unit(&r) - 1) * s1);
    for (int k = 0; k < h1; k++)
        f->b1[k] = (float)(rng_unit(&r) * s1 * 2);
    for (int i = 0; i < h2 * 2 * h1; i++)
        f->w2[i] = (float)((2 * rng_unit(&r) - 1) * s2);
    for (int j = 0; j < h2; j++) {
        f->b2[j] = (float)((2 * rng_unit(&r) - 1) * s2);
        f->w3[j] = (float)((2 * rng_unit(&r) - 1) * s3);
    }
    f->b3 = (float)(s3 / 3);
    return f;
}

/* The dense inputs of the dense tests: the learned set's features that are not one-hot
 * holes (seeds, both sides' moves and first laps, the convention's). */
static const char *const dense_names[] = {
    "me.seeds", "op.seeds", "me.gain", "me.gain.pos", "me.gain.big", "me.captures",
    "me.losses", "me.extra", "op.gain", "op.gain.pos", "op.gain.big", "op.captures",
    "op.losses", "op.extra", "me.lap.final", "me.lap.stop", "me.lap.relay", "me.lap.gain",
    "me.lap.loss", "op.lap.final", "op.lap.stop", "op.lap.relay", "op.lap.gain",
    "op.lap.loss", "pen.final", "ff.final", "ff.open",
};
#define N_DENSE ((int)(sizeof dense_names / sizeof dense_names[0]))

/* random_net's network with dense inputs too (version 3): the first `dense` of dense_names,
 * their weights in [-s1, s1] divided by `unit` (a feature's typical size, so that each moves
 * a sum about as much as a hole's weight), b1d in [-s1, s1]. */
static NetFile *random_dense_net(int holes, int capture, int buckets, int h1, int h2,
                                 double s1, double s2, double s3, uint64_t seed, int dense,
                                 double unit)
{
    NetFile *plain = random_net(holes, capture, buckets, h1, h2, s1, s2, s3, seed);
    NetFile *f = net_file_new(holes, capture, buckets, h1, h2, dense);
    assert_non_null(f);
    memcpy(f->name, plain->name, sizeof f->name);
    snprintf(f->about, sizeof f->about, "test_net.c's random dense network, seed %" PRIu64,
             seed);
    size_t weights = (size_t)f->inputs * h1 + h1 + (size_t)h2 * 2 * h1 + h2 + h2;
    memcpy(f->w1, plain->w1, weights * sizeof *f->w1);
    f->b3 = plain->b3;
    net_file_free(plain);
    Rng r;
    rng_seed(&r, seed, 5, 0);
    for (int d = 0; d < dense; d++) {
        snprintf(f->dense_name[d], sizeof f->dense_name[d], "%s", dense_names[d]);
        for (int k = 0; k < h1; k++)
            f->w1d[(size_t)d * h1 + k] = (float)((2 * rng_unit(&r) - 1) * s1 / unit);
    }
    for (int k = 0; k < h1; k++)
        f->b1d[k] = (float)((2 * rng_unit(&r) - 1) * s1);
    return f;
}

/* f written to a file and read back: the network as the engine reads files. */
static NetFile *through_file(const NetFile *f, const char *name)
{
    const char *path = tmp_path(name);
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    Error e;
    assert_int_equal(net_file_write(f, out, &e), 0);
    fclose(out);
    NetFile *g;
    if (net_file_load(path, &g, &e) != 0)
        fail_msg("%s", e.msg);
    return g;
}

/* The sums of both perspectives agree on the network's units. */
static void expect_same_sums(const Net *n, const NetAcc *a, const NetAcc *b, const char *what,
                             int game, int ply)
{
    int h1 = net_file_of(n)->h1;
    for (int q = 0; q < 2; q++)
        for (int k = 0; k < h1; k++)
            if (a->a[q][k] != b->a[q][k])
                fail_msg("%s: game %d ply %d: perspective %d unit %d: %d updated, %d"
                         " recomputed", what, game, ply, q, k, a->a[q][k], b->a[q][k]);
}

/* ---- the inputs ---- */

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

/* The inputs of p for q must be exactly want[0..n) (in any order). */
static void expect_inputs(const NetFile *f, const Variant *v, const Position *p, int q,
                          const int *want, int n)
{
    int got[2 * MAX_HOLES + NET_EXTRA], w[2 * MAX_HOLES + NET_EXTRA];
    int k = net_inputs(f, v, p, q, got);
    memcpy(w, want, (size_t)n * sizeof *w);
    qsort(got, (size_t)k, sizeof *got, cmp_int);
    qsort(w, (size_t)n, sizeof *w, cmp_int);
    if (k != n)
        fail_msg("perspective %d: %d inputs, expected %d", q, k, n);
    for (int i = 0; i < n; i++)
        if (got[i] != w[i])
            fail_msg("perspective %d: input %d is %d, expected %d", q, i, got[i], w[i]);
}

/* A hand-built position of 4 holes a row, 3 buckets: each perspective's holes, mirrored,
 * the bucket capped, and the extra inputs under each convention. */
static void test_inputs_hand_built(void **state)
{
    (void)state;
    NetFile *f = net_file_new(4, 4, 3, 16, 4, 0);
    assert_non_null(f);
    for (FinalFour ff = 0; ff < FF_NB; ff++) {
        Variant v;
        board(&v, "holes=4 seeds=4 capture=4", ff);
        /* South's holes S1..S4 hold 0 1 2 5, North's N1..N4 hold 3 0 7 1. */
        Position p;
        pos_start(&v, &p);
        const int pits[8] = { 0, 1, 2, 5, 3, 0, 7, 1 };
        int left = 0;
        for (int i = 0; i < 8; i++)
            left += p.pit[i] = (uint16_t)pits[i];
        p.store[SOUTH] = 8;
        p.store[NORTH] = (uint16_t)(v.total - left - 8);
        p.left = (uint16_t)left;
        p.side = NORTH;
        p.last_capturer = SOUTH;
        p.first_final = NOBODY;
        pos_set_masks(&v, &p);
        assert_true(pos_ok(&v, &p));
        const int base = 2 * 4 * 3, conv = base + (int)ff;
        /* South: its own holes r = 0..3, then North's r = 4..7; input r * 3 + min(c, 3) - 1. */
        const int south_holes[] = { 1 * 3 + 0, 2 * 3 + 1, 3 * 3 + 2,
                                    4 * 3 + 2, 6 * 3 + 2, 7 * 3 + 0 };
        /* North: its own holes first. */
        const int north_holes[] = { 0 * 3 + 2, 2 * 3 + 2, 3 * 3 + 0,
                                    5 * 3 + 0, 6 * 3 + 1, 7 * 3 + 2 };
        int want_s[12], want_n[12], ns = 0, nn = 0;
        for (int i = 0; i < 6; i++) {
            want_s[ns++] = south_holes[i];
            want_n[nn++] = north_holes[i];
        }
        want_s[ns++] = conv;
        want_n[nn++] = conv;
        /* South, the last capturer, stands to receive the seeds left, but under the
         * lottery nobody does; under first-final nobody has made a final capture yet. */
        if (ff != FF_LOTTERY) {
            want_s[ns++] = base + 3;
            want_n[nn++] = base + 4;
        }
        if (ff == FF_FIRST_FINAL) {
            want_s[ns++] = base + 5;
            want_n[nn++] = base + 5;
        }
        expect_inputs(f, &v, &p, SOUTH, want_s, ns);
        expect_inputs(f, &v, &p, NORTH, want_n, nn);
        /* North made the first final capture: under first-final it receives, and the open
         * flag is gone; under penultimate the last capturer still does. */
        p.first_final = NORTH;
        ns = nn = 6;
        want_s[ns++] = conv;
        want_n[nn++] = conv;
        if (ff == FF_FIRST_FINAL) {
            want_s[ns++] = base + 4;
            want_n[nn++] = base + 3;
        } else if (ff == FF_PENULTIMATE) {
            want_s[ns++] = base + 3;
            want_n[nn++] = base + 4;
        }
        expect_inputs(f, &v, &p, SOUTH, want_s, ns);
        expect_inputs(f, &v, &p, NORTH, want_n, nn);
        /* No capture yet: nobody receives (first-final's flag is open again). */
        p.first_final = NOBODY;
        p.last_capturer = NOBODY;
        ns = nn = 6;
        want_s[ns++] = conv;
        want_n[nn++] = conv;
        if (ff == FF_FIRST_FINAL) {
            want_s[ns++] = base + 5;
            want_n[nn++] = base + 5;
        }
        expect_inputs(f, &v, &p, SOUTH, want_s, ns);
        expect_inputs(f, &v, &p, NORTH, want_n, nn);
    }
    net_file_free(f);
}

/* ---- the sums, move by move ---- */

/* Random games of v: after every move, the sums updated from the position before it (and
 * from the game's start, and from a position two moves back) equal the recomputed ones, and
 * the value is the same from either. */
static void check_updates(const NetFile *f, const Variant *v, int games, uint64_t seed)
{
    Net *n;
    Error e;
    if (net_prepare(f, v, &n, &e) != 0)
        fail_msg("%s", e.msg);
    long moves = 0, recomputed = 0;   /* updates net_acc_update made afresh (its return) */
    for (int g = 0; g < games; g++) {
        Rng r;
        rng_seed(&r, seed, 1, (uint64_t)g);
        Position start, prev, back2, p;
        pos_start(v, &start);
        p = prev = back2 = start;
        NetAcc a_start, a, a_prev, a_back2, full, from_start, from_back2;
        net_acc_full(n, v, &start, &a_start);
        a = a_prev = a_back2 = a_start;
        for (int ply = 0; ply < 400 && !pos_over(v, &p); ply++) {
            Position c;
            MoveInfo info;
            MoveEvent ev = pos_play(v, &p, pos_random_move(&p, &r), &c, &info, NULL);
            if (ev == EV_ENDLESS)
                break;
            NetAcc upd;
            recomputed += net_acc_update(n, v, &p, &a, &c, &upd);
            net_acc_full(n, v, &c, &full);
            expect_same_sums(n, &upd, &full, "from the last position", g, ply);
            net_acc_update(n, v, &start, &a_start, &c, &from_start);
            expect_same_sums(n, &from_start, &full, "from the start", g, ply);
            net_acc_update(n, v, &back2, &a_back2, &c, &from_back2);
            expect_same_sums(n, &from_back2, &full, "from two moves back", g, ply);
            if (!pos_over(v, &c))
                assert_int_equal(net_eval(n, v, &c, &upd), net_eval(n, v, &c, &full));
            moves++;
            back2 = prev;
            a_back2 = a_prev;
            prev = p;
            a_prev = a;
            p = c;
            a = upd;
        }
    }
    print_message("%s holes=%d %s: %ld moves checked (%ld of them recomputed)\n", f->name,
                  v->holes, final_four_name(v->final_four), moves, recomputed);
    assert_true(moves > games * 10);
    /* Both ways are taken: updates by rows, and recomputations where a move changed most of
     * the board. */
    assert_true(recomputed > 0 && recomputed < moves / 2);
    net_free(n);
}

static void test_updates_standard(void **state)
{
    (void)state;
    for (FinalFour ff = 0; ff < FF_NB; ff++) {
        Variant v;
        board(&v, "", ff);
        check_updates(net_builtin(), &v, 150, 7 + (uint64_t)ff);
    }
}

/* Another layout, with its own small network (few buckets, so that many holes share the
 * last one, and a first layer not a multiple of the padding). */
static void test_updates_other_board(void **state)
{
    (void)state;
    NetFile *made = random_net(7, 3, 3, 21, 5, 0.2, 0.3, 1.0, 5);
    NetFile *f = through_file(made, "seven.net");
    net_file_free(made);
    for (FinalFour ff = 0; ff < FF_NB; ff++) {
        Variant v;
        board(&v, "holes=7 seeds=3 capture=3", ff);
        check_updates(f, &v, 300, 11 + (uint64_t)ff);
    }
    net_file_free(f);
}

/* Sums at the edge of 16 bits: each unit's weights +-q / NET_QA (random signs), so that its
 * bound (its bias and, per hole, the largest bucket weight and every extra weight, in
 * absolute value) is 21 q on 7 holes: at q = 1560 (32,760) the network is taken and a move's
 * update, whose added rows come before the removed ones and may pass beyond int16 on the
 * way, still equals the recomputed sums; one unit's bias raised to reach 32,767 is taken,
 * to 32,768 refused with one line. */
static void test_sums_16_bits(void **state)
{
    (void)state;
    const int q = 1560;
    NetFile *f = random_net(7, 3, 3, 21, 5, 0.2, 0.3, 1.0, 23);
    Rng r;
    rng_seed(&r, 23, 1, 0);
    for (int i = 0; i < f->inputs * f->h1; i++)
        f->w1[i] = (float)((rng_unit(&r) < 0.5 ? -q : q) / (double)NET_QA);
    for (int k = 0; k < f->h1; k++)
        f->b1[k] = (float)((rng_unit(&r) < 0.5 ? -q : q) / (double)NET_QA);
    for (FinalFour ff = 0; ff < FF_NB; ff++) {
        Variant v;
        board(&v, "holes=7 seeds=3 capture=3", ff);
        check_updates(f, &v, 60, 31 + (uint64_t)ff);
    }
    Variant v;
    board(&v, "holes=7 seeds=3 capture=3", FF_PENULTIMATE);
    Net *n;
    Error e;
    f->b1[4] = (float)((q + 7) / (double)NET_QA);
    assert_int_equal(net_prepare(f, &v, &n, &e), 0);
    net_free(n);
    f->b1[4] = (float)(-(q + 8) / (double)NET_QA);
    assert_int_equal(net_prepare(f, &v, &n, &e), -1);
    assert_null(n);
    assert_non_null(strstr(e.msg, "a weight of l1 (a position's sums could leave 16 bits)"));
    assert_null(strchr(e.msg, '\n'));
    net_file_free(f);
}

/* ---- the integers against the floats ---- */

/* The worst |net_positional - net_positional_float x EVAL_SCALE| over positions of random
 * games of v, in EVAL_SCALE units; each also checked against the bound. */
static double worst_error(const NetFile *f, const Variant *v, int games, double bound,
                          double *spread)
{
    Net *n;
    Error e;
    if (net_prepare(f, v, &n, &e) != 0)
        fail_msg("%s", e.msg);
    double worst = 0, lo = 1e9, hi = -1e9;
    for (int g = 0; g < games; g++) {
        Rng r;
        rng_seed(&r, 23, 2, (uint64_t)g);
        Position p;
        pos_start(v, &p);
        for (int ply = 0; ply < 400 && !pos_over(v, &p); ply++) {
            NetAcc a;
            net_acc_full(n, v, &p, &a);
            /* The network's own output: a base's part is exact integers in both. */
            double y = net_positional_float(f, v, &p) * EVAL_SCALE;
            int32_t x = net_positional(n, v, &p, &a) - net_base_value(n, v, &p);
            double err = fabs(x - y);
            if (err > bound * EVAL_SCALE)
                fail_msg("%s: game %d ply %d: integers %" PRId32 ", floats %.2f: beyond %.2f "
                         "seeds", f->name, g, ply, x, y, bound);
            worst = err > worst ? err : worst;
            lo = y < lo ? y : lo;
            hi = y > hi ? y : hi;
            assert_int_equal(net_eval(n, v, &p, &a), (p.store[p.side] - p.store[!p.side]) *
                             EVAL_SCALE + x + net_base_value(n, v, &p));
            Position c;
            MoveInfo info;
            if (pos_play(v, &p, pos_random_move(&p, &r), &c, &info, NULL) == EV_ENDLESS)
                break;
            p = c;
        }
    }
    net_free(n);
    *spread = hi - lo;
    return worst;
}

static void test_quantised_bound(void **state)
{
    (void)state;
    Variant v;
    board(&v, "", FF_PENULTIMATE);
    double spread, w = worst_error(net_builtin(), &v, 200, NET_BOUND_BUILTIN, &spread);
    print_message("compiled-in network: worst error %.2f seeds, bound %.2f (outputs spread "
                  "over %.2f seeds)\n", w / EVAL_SCALE, NET_BOUND_BUILTIN,
                  spread / EVAL_SCALE);
    assert_true(w > 0);   /* the integers are not the floats: the check sees a difference */
    /* Weights 4 and 8 times a first untrained network's (the first layer's up to 1.2, near a
     * sixth of the integers' range, |w1| <= 258): outputs over tens of seeds, as a trained
     * network's. */
    static const struct { double scale, bound; } larger[] = { { 4, NET_BOUND_4X },
                                                              { 8, NET_BOUND_8X } };
    for (int i = 0; i < 2; i++) {
        double k = larger[i].scale;
        NetFile *big = random_net(12, 4, 16, 64, 16, 0.15 * k, 0.2 * k, 1.0 * k, 3);
        w = worst_error(big, &v, 200, larger[i].bound, &spread);
        print_message("%g x the weights: worst error %.2f seeds, bound %.2f (outputs spread "
                      "over %.2f seeds)\n", k, w / EVAL_SCALE, larger[i].bound,
                      spread / EVAL_SCALE);
        assert_true(spread > 4 * larger[i].bound * EVAL_SCALE);
        net_file_free(big);
    }
    /* The other layout's small network under the lottery. */
    NetFile *seven = random_net(7, 3, 3, 21, 5, 0.3, 0.4, 2.0, 9);
    board(&v, "holes=7 seeds=3 capture=3", FF_LOTTERY);
    w = worst_error(seven, &v, 200, NET_BOUND_4X, &spread);
    print_message("7 holes: worst error %.2f seeds (outputs spread over %.2f seeds)\n",
                  w / EVAL_SCALE, spread / EVAL_SCALE);
    net_file_free(seven);
}

/* ---- files ---- */

/* A network written and read back: every weight exact (%.9g carries a float), the digest its
 * end line's checksum; written again, the same bytes. */
static void test_write_read(void **state)
{
    (void)state;
    NetFile *f = random_net(5, 4, 4, 9, 3, 0.3, 0.4, 2.0, 17);
    NetFile *g = through_file(f, "five.net");
    assert_string_equal(g->name, f->name);
    assert_string_equal(g->about, f->about);
    assert_int_equal(g->holes, 5);
    assert_int_equal(g->capture, 4);
    assert_int_equal(g->buckets, 4);
    assert_int_equal(g->h1, 9);
    assert_int_equal(g->h2, 3);
    assert_int_equal(g->inputs, 2 * 5 * 4 + NET_EXTRA);
    assert_memory_equal(g->w1, f->w1, (size_t)f->inputs * f->h1 * sizeof(float));
    assert_memory_equal(g->b1, f->b1, (size_t)f->h1 * sizeof(float));
    assert_memory_equal(g->w2, f->w2, (size_t)f->h2 * 2 * f->h1 * sizeof(float));
    assert_memory_equal(g->b2, f->b2, (size_t)f->h2 * sizeof(float));
    assert_memory_equal(g->w3, f->w3, (size_t)f->h2 * sizeof(float));
    assert_true(g->b3 == f->b3);
    uint64_t digest;
    Error e;
    assert_int_equal(net_file_digest(tmp_path("five.net"), &digest, &e), 0);
    assert_true(digest == g->digest);
    NetFile *h = through_file(g, "five2.net");
    static char t1[1 << 16], t2[1 << 16];
    FILE *f1 = fopen(tmp_path("five.net"), "rb"), *f2 = fopen(tmp_path("five2.net"), "rb");
    assert_non_null(f1);
    assert_non_null(f2);
    size_t n1 = fread(t1, 1, sizeof t1 - 1, f1), n2 = fread(t2, 1, sizeof t2 - 1, f2);
    fclose(f1);
    fclose(f2);
    assert_int_equal(n1, n2);
    assert_memory_equal(t1, t2, n1);
    assert_true(h->digest == digest);
    assert_true(digest == learned_text_checksum(t1, (size_t)(strstr(t1, "\nend ") + 1 - t1)));
    net_file_free(h);
    net_file_free(f);
    net_file_free(g);
}

/* The compiled-in network: the standard board's, parsed once, its digest its end line's. */
static void test_builtin(void **state)
{
    (void)state;
    const NetFile *f = net_builtin();
    assert_non_null(f);
    assert_ptr_equal(f, net_builtin());
    assert_int_equal(f->holes, 12);
    assert_int_equal(f->capture, 4);
    assert_true(f->digest != 0);
    Variant v;
    board(&v, "", FF_PENULTIMATE);
    Net *n;
    Error e;
    assert_int_equal(net_prepare(f, &v, &n, &e), 0);
    assert_ptr_equal(net_file_of(n), f);
    net_free(n);
    /* Another layout refused, naming the network and both boards. */
    board(&v, "holes=7 seeds=3 capture=3", FF_PENULTIMATE);
    assert_int_equal(net_prepare(f, &v, &n, &e), -1);
    assert_null(n);
    assert_non_null(strstr(e.msg, "holes=12 capture=4, not holes=7 capture=3"));
    board(&v, "capture=3", FF_PENULTIMATE);
    assert_int_equal(net_prepare(f, &v, &n, &e), -1);
    assert_non_null(strstr(e.msg, "not holes=12 capture=3"));
}

/* A network over the compiled-in learned set (version 2's base line): written and read
 * back with its base, its value exactly the set's positional value plus the same network's
 * without a base, the set's digest that of its weights file, and a network trained over
 * another set refused with one line. */
static void test_base(void **state)
{
    (void)state;
    const LearnedSet *set = learned_builtin("learned");
    assert_non_null(set);
    /* learned_set_digest is the end line learned_set_write gives the set. */
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    Error e;
    assert_int_equal(learned_set_write(set, m, &e), 0);
    fclose(m);
    char want[32];
    snprintf(want, sizeof want, "end %016" PRIx64 "\n", learned_set_digest(set));
    assert_true(len > strlen(want));
    assert_string_equal(text + len - strlen(want), want);
    free(text);

    NetFile *plain = random_net(12, 4, 16, 32, 8, 0.05, 0.3, 4.0, 41);
    NetFile *based = random_net(12, 4, 16, 32, 8, 0.05, 0.3, 4.0, 41);
    based->base_learned = true;
    based->base_digest = learned_set_digest(set);
    NetFile *g = through_file(based, "based.net");
    assert_true(g->base_learned);
    assert_true(g->base_digest == based->base_digest);
    Variant v;
    Net *nb, *np;
    Learned *L;
    for (int ff = 0; ff < FF_NB; ff++) {
        board(&v, "", (FinalFour)ff);
        assert_int_equal(net_prepare(g, &v, &nb, &e), 0);
        assert_int_equal(net_prepare(plain, &v, &np, &e), 0);
        assert_int_equal(learned_prepare(set, &v, &L, &e), 0);
        int checked = 0;
        for (int game = 0; game < 20; game++) {
            Rng r;
            rng_seed(&r, 43, 2, (uint64_t)game);
            Position p;
            pos_start(&v, &p);
            for (int ply = 0; ply < 300 && !pos_over(&v, &p); ply++) {
                NetAcc ab, ap;
                net_acc_full(nb, &v, &p, &ab);
                net_acc_full(np, &v, &p, &ap);
                int32_t base = learned_positional(L, &v, &p);
                assert_int_equal(net_base_value(nb, &v, &p), base);
                assert_int_equal(net_base_value(np, &v, &p), 0);
                assert_int_equal(net_positional(nb, &v, &p, &ab),
                                 net_positional(np, &v, &p, &ap) + base);
                assert_int_equal(net_eval(nb, &v, &p, &ab), net_eval(np, &v, &p, &ap) + base);
                checked++;
                Position c;
                MoveInfo info;
                if (pos_play(&v, &p, pos_random_move(&p, &r), &c, &info, NULL) == EV_ENDLESS)
                    break;
                p = c;
            }
        }
        assert_true(checked > 500);
        learned_free(L);
        net_free(nb);
        net_free(np);
    }
    /* Trained over another set: refused, naming the network and both digests. */
    g->base_digest ^= 1;
    board(&v, "", FF_PENULTIMATE);
    assert_int_equal(net_prepare(g, &v, &nb, &e), -1);
    assert_null(nb);
    assert_non_null(strstr(e.msg, "is trained over the learned set"));
    assert_non_null(strstr(e.msg, "not this program's compiled-in set"));
    net_file_free(g);
    net_file_free(based);
    net_file_free(plain);
}

/* The text of a small network, every line (malloc'd), its length into *n. */
static char *small_text(size_t *n)
{
    NetFile *f = random_net(3, 4, 2, 2, 2, 0.3, 0.4, 2.0, 29);
    const char *path = tmp_path("small.net");
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    Error e;
    assert_int_equal(net_file_write(f, out, &e), 0);
    fclose(out);
    net_file_free(f);
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    char *t = calloc(1, 1 << 16);
    assert_non_null(t);
    *n = fread(t, 1, (1 << 16) - 1, in);
    fclose(in);
    return t;
}

/* text's content (all before its end line) edited by `edit`, with a correct end line. */
static const char *with_end(const char *name, const char *content)
{
    static char buf[1 << 16];
    size_t n = strlen(content);
    assert_true(n + 32 < sizeof buf);
    memcpy(buf, content, n);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "end %016" PRIx64 "\n",
                          learned_text_checksum(content, n));
    return write_file(name, buf, n);
}

/* The file at path refused by net_file_load and net_file_digest with one line that starts
 * "PATH:LINE: " and holds `why`. */
static void expect_refused(const char *path, int line, const char *why)
{
    NetFile *f = (NetFile *)1;
    Error e;
    int rc = net_file_load(path, &f, &e);
    if (rc != -1)
        fail_msg("%s was read as a network", path);
    assert_null(f);
    char want[600];
    snprintf(want, sizeof want, "%s:%d: ", path, line);
    if (strncmp(e.msg, want, strlen(want)) != 0 || !strstr(e.msg, why))
        fail_msg("expected '%s...%s', got '%s'", want, why, e.msg);
    assert_null(strchr(e.msg, '\n'));
    uint64_t digest;
    assert_int_equal(net_file_digest(path, &digest, &e), -1);
}

/* The content of a network's text (the lines before its end line, if it has one), with line
 * `k` (1-based) replaced by `repl` (NULL: removed). */
static char *edit_line(const char *text, int k, const char *repl)
{
    static char out[1 << 16];
    const char *end = strstr(text, "\nend ");
    end = end ? end + 1 : text + strlen(text);
    size_t o = 0;
    int line = 1;
    for (const char *at = text; at < end; line++) {
        const char *nl = strchr(at, '\n') + 1;
        if (line != k) {
            memcpy(out + o, at, (size_t)(nl - at));
            o += (size_t)(nl - at);
        } else if (repl) {
            o += (size_t)sprintf(out + o, "%s\n", repl);
        }
        at = nl;
    }
    out[o] = '\0';
    return out;
}

static void test_refused(void **state)
{
    (void)state;
    size_t n;
    char *text = small_text(&n);
    /* The small network: lines 1-7 the header, l1 0 .. l1 17 lines 8-25 (2 x 3 x 2 + 6
     * inputs), l1.bias 26, l2 0-1 lines 27-28, l2.bias 29, out 30, out.bias 31, end 32. */
    NetFile *f;
    Error e;
    const char *ok = write_file("ok.net", text, n);
    if (net_file_load(ok, &f, &e) != 0)
        fail_msg("%s", e.msg);
    net_file_free(f);
    assert_non_null(strstr(text, "\nl1.bias "));

    /* A weights file of the linear evaluation (its own end line is right). */
    {
        const char *p = tmp_path("linear.txt");
        FILE *m = fopen(p, "w");
        assert_non_null(m);
        assert_int_equal(learned_set_write(learned_builtin("learned"), m, &e), 0);
        fclose(m);
        expect_refused(p, 1, "not a network file");
    }
    /* Empty. */
    expect_refused(write_file("empty.net", "", 0), 1, "empty file");
    /* Cut short anywhere: no end line (the line named is the one cut). */
    for (size_t keep = 1; keep < n - 1; keep += 1 + keep / 5) {
        const char *p = write_file("cut.net", text, keep);
        int lines = 1;
        for (size_t i = 0; i + 1 < keep; i++)
            lines += text[i] == '\n';
        expect_refused(p, lines, "expected the end line");
    }
    /* A weight's digit changed, the end line kept. */
    {
        char *c = strdup(text);
        char *digit = strpbrk(strstr(c, "\nl1 4 "), "123456789");
        *digit = *digit == '9' ? '8' : (char)(*digit + 1);
        expect_refused(write_file("edited.net", c, n), 32, "checksum");
        free(c);
    }
    /* Lines in another order: l1 5 where l1 4 belongs. */
    {
        char l12[4096], l13[4096];
        const char *a = strstr(text, "\nl1 4 ") + 1, *b = strstr(text, "\nl1 5 ") + 1;
        snprintf(l12, sizeof l12, "%.*s", (int)(strchr(a, '\n') - a), a);
        snprintf(l13, sizeof l13, "%.*s", (int)(strchr(b, '\n') - b), b);
        char *c = strdup(edit_line(text, 12, l13));
        expect_refused(with_end("order.net", edit_line(c, 13, l12)), 12, "expected 'l1 4'");
        free(c);
        /* The name where the about line belongs. */
        expect_refused(with_end("header.net", edit_line(text, 3, "name x")), 3,
                       "expected the 'about' line");
        /* An l1 line left out: l1.bias comes too early. */
        expect_refused(with_end("missing.net", edit_line(text, 25, NULL)), 25,
                       "expected the 'l1' line");
        /* A line after out.bias. */
        static char extra[1 << 17];
        strcpy(extra, edit_line(text, 99, NULL));
        strcat(extra, "out.bias 1\n");
        expect_refused(with_end("extra.net", extra), 32, "expected the end line here");
    }
    /* A count wrong: a number missing, one too many, a word for a number. */
    expect_refused(with_end("short.net", edit_line(text, 26, "l1.bias 0.1")), 26,
                   "expected 2 numbers, found 1");
    expect_refused(with_end("long.net", edit_line(text, 30, "out 1 2 3")), 30,
                   "expected 2 numbers, found more");
    expect_refused(with_end("nan.net", edit_line(text, 31, "out.bias nan")), 31,
                   "not a finite number");
    expect_refused(with_end("word.net", edit_line(text, 31, "out.bias x")), 31,
                   "expected 1 numbers, found 0");
    expect_refused(with_end("hidden.net", edit_line(text, 7, "hidden 2")), 7, "hidden:");
    /* The layout out of range. */
    expect_refused(with_end("holes.net", edit_line(text, 4, "holes 33")), 4,
                   "holes: expected a whole number from 2 to 32");
    expect_refused(with_end("holes1.net", edit_line(text, 4, "holes 1")), 4, "holes:");
    expect_refused(with_end("buckets.net", edit_line(text, 6, "buckets 65")), 6, "buckets:");
    expect_refused(with_end("h1.net", edit_line(text, 7, "hidden 257 2")), 7, "hidden:");
    expect_refused(with_end("version.net", edit_line(text, 1, "anywoli-net 4")), 1,
                   "not a network file");
    /* Version 2 without its base line, and with one of another form. */
    expect_refused(with_end("nobase.net", edit_line(text, 1, "anywoli-net 2")), 8,
                   "expected the 'base' line");
    {
        char *c = strdup(edit_line(text, 1, "anywoli-net 2"));
        char *v2 = malloc(n + 64);
        assert_non_null(v2);
        const char *l8 = strstr(c, "\nl1 0 ") + 1;
        static const char *const bad_bases[] = { "base learned 12", "base linear",
                                                 "base learned 00000000000000zz", "base" };
        for (size_t i = 0; i < sizeof bad_bases / sizeof bad_bases[0]; i++) {
            snprintf(v2, n + 64, "%.*s%s\n%s", (int)(l8 - c), c, bad_bases[i], l8);
            expect_refused(with_end("badbase.net", v2), 8, "base");
        }
        snprintf(v2, n + 64, "%.*sbase none\n%s", (int)(l8 - c), c, l8);
        if (net_file_load(with_end("basenone.net", v2), &f, &e) != 0)
            fail_msg("%s", e.msg);
        assert_false(f->base_learned);
        net_file_free(f);
        free(v2);
        free(c);
    }
    /* A weight beyond int16 once quantised: 258 x 127 fits, 259 x 127 does not. */
    expect_refused(with_end("w1.net", edit_line(text, 9, "l1 1 259 0")), 9,
                   "too large for the integers");
    expect_refused(with_end("w2.net", edit_line(text, 28, "l2 1 0 0 -512.5 0")), 28,
                   "too large for the integers");
    {
        const char *p = with_end("fits.net", edit_line(text, 9, "l1 1 258 -258"));
        if (net_file_load(p, &f, &e) != 0)
            fail_msg("%s", e.msg);
        net_file_free(f);
    }
    free(text);
}

/* ---- dense inputs (version 3) ---- */

/* One dense input by hand: a network whose only path is me.seeds into the mover's first
 * unit (weight 1/96, no hole weights) and on to the output, so that its value is the seeds
 * in the mover's row over 96; the other side's seeds (op.seeds) go nowhere. The integers
 * agree to the rounding, and a dense input reaches only the mover's half. */
static void test_dense_by_hand(void **state)
{
    (void)state;
    NetFile *f = net_file_new(12, 4, 16, 2, 1, 2);
    assert_non_null(f);
    strcpy(f->name, "hand");
    strcpy(f->dense_name[0], "me.seeds");
    strcpy(f->dense_name[1], "op.seeds");
    f->w1d[0] = (float)(1.0 / 96);   /* me.seeds into unit 0 */
    f->w1d[2 + 1] = 1;               /* op.seeds into unit 1, which the output ignores */
    f->w2[0] = 1;                    /* h2 = the mover's unit 0 */
    f->w2[2] = 1;                    /* ... plus the other side's unit 0: 0 (no weights) */
    f->w3[0] = 1;
    Variant v;
    board(&v, "", FF_PENULTIMATE);
    Net *n;
    Error e;
    if (net_prepare(f, &v, &n, &e) != 0)
        fail_msg("%s", e.msg);
    Position p;
    pos_start(&v, &p);
    Rng r;
    rng_seed(&r, 3, 0, 0);
    for (int ply = 0; ply < 40 && !pos_over(&v, &p); ply++) {
        int mine = 0;
        for (int i = 0; i < 12; i++)
            mine += p.pit[p.side * 12 + i];
        int x[2];
        net_dense_values(f, &v, &p, x);
        assert_int_equal(x[0], mine);
        assert_true(fabs(net_positional_float(f, &v, &p) - mine / 96.0) < 1e-6);
        NetAcc a;
        net_acc_full(n, &v, &p, &a);
        /* 1/96 in NET_QA x NET_QD units is 84.67, rounded to 85: mine x 85 / 8128 seeds, to
         * EVAL_SCALE units, truncated. */
        int32_t want = (int32_t)(((mine * 85 + NET_QD / 2) >> NET_QD_SHIFT) * NET_QB *
                                 NET_QO * (int64_t)EVAL_SCALE / ((int64_t)NET_QA * NET_QB *
                                                                 NET_QO));
        assert_int_equal(net_positional(n, &v, &p, &a), want);
        Position c;
        MoveInfo info;
        if (pos_play(&v, &p, pos_random_move(&p, &r), &c, &info, NULL) == EV_ENDLESS)
            break;
        p = c;
    }
    net_free(n);
    net_file_free(f);
}

/* A network with all 27 dense inputs: written and read back exactly (the same bytes when
 * written again); the sums updated move by move equal their recomputation and give the same
 * value; the integers within the stated bound of the floats; and with its dense weights all
 * 0, the value of the same network without them. */
static void test_dense(void **state)
{
    (void)state;
    NetFile *made = random_dense_net(12, 4, 16, 64, 16, 0.6, 0.8, 4.0, 41, N_DENSE, 4.0);
    NetFile *f = through_file(made, "dense.net");
    assert_int_equal(f->dense, N_DENSE);
    for (int d = 0; d < N_DENSE; d++)
        assert_string_equal(f->dense_name[d], dense_names[d]);
    assert_memory_equal(f->w1d, made->w1d, (size_t)N_DENSE * f->h1 * sizeof(float));
    assert_memory_equal(f->b1d, made->b1d, (size_t)f->h1 * sizeof(float));
    NetFile *again = through_file(f, "dense2.net");
    assert_true(again->digest == f->digest);
    net_file_free(again);
    net_file_free(made);
    for (FinalFour ff = 0; ff < FF_NB; ff++) {
        Variant v;
        board(&v, "", ff);
        check_updates(f, &v, 40, 51 + (uint64_t)ff);
        double spread, w = worst_error(f, &v, 60, NET_BOUND_4X, &spread);
        print_message("dense network, %s: worst error %.2f seeds, bound %.2f (outputs spread "
                      "over %.2f seeds)\n", final_four_name(ff), w / EVAL_SCALE, NET_BOUND_4X,
                      spread / EVAL_SCALE);
        assert_true(spread > 4 * NET_BOUND_4X * EVAL_SCALE);
    }
    /* Dense weights 0: the plain network's values, to the unit. */
    NetFile *zero = random_dense_net(12, 4, 16, 64, 16, 0.6, 0.8, 4.0, 41, N_DENSE, 4.0);
    memset(zero->w1d, 0, (size_t)N_DENSE * zero->h1 * sizeof(float));
    memset(zero->b1d, 0, (size_t)zero->h1 * sizeof(float));
    NetFile *plain = random_net(12, 4, 16, 64, 16, 0.6, 0.8, 4.0, 41);
    Variant v;
    board(&v, "", FF_FIRST_FINAL);
    Net *nz, *np;
    Error e;
    assert_int_equal(net_prepare(zero, &v, &nz, &e), 0);
    assert_int_equal(net_prepare(plain, &v, &np, &e), 0);
    Position p;
    pos_start(&v, &p);
    Rng r;
    rng_seed(&r, 5, 0, 0);
    int checked = 0;
    for (int ply = 0; ply < 300 && !pos_over(&v, &p); ply++, checked++) {
        NetAcc az, ap;
        net_acc_full(nz, &v, &p, &az);
        net_acc_full(np, &v, &p, &ap);
        assert_int_equal(net_eval(nz, &v, &p, &az), net_eval(np, &v, &p, &ap));
        Position c;
        MoveInfo info;
        if (pos_play(&v, &p, pos_random_move(&p, &r), &c, &info, NULL) == EV_ENDLESS)
            break;
        p = c;
    }
    assert_true(checked > 20);
    net_free(nz);
    net_free(np);
    net_file_free(zero);
    net_file_free(plain);
    net_file_free(f);
}

/* A dense network refused: in its file (the dense count out of range, a name twice, no
 * l1d.bias, a weight too large) with one line naming file and line; by net_prepare (a name
 * that is no feature of the board, sums that could leave 32 bits) with one line naming the
 * network. */
static void test_dense_refused(void **state)
{
    (void)state;
    NetFile *made = random_dense_net(3, 4, 2, 2, 2, 0.3, 0.4, 2.0, 29, 3, 4.0);
    const char *path = tmp_path("small3.net");
    FILE *out = fopen(path, "w");
    assert_non_null(out);
    Error e;
    assert_int_equal(net_file_write(made, out, &e), 0);
    fclose(out);
    static char text[1 << 16];
    FILE *in = fopen(path, "rb");
    assert_non_null(in);
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    /* Lines 1-7 the header, 8 base none, 9 dense 3, l1 0-17 lines 10-27, l1.bias 28, l1d
     * lines 29-31, l1d.bias 32, l2 33-34, l2.bias 35, out 36, out.bias 37, end 38. */
    assert_true(strncmp(text, "anywoli-net 3\n", 14) == 0);
    assert_non_null(strstr(text, "\nbase none\ndense 3\n"));
    expect_refused(with_end("d0.net", edit_line(text, 9, "dense 0")), 9,
                   "dense: expected a whole number from 1 to 64");
    expect_refused(with_end("d65.net", edit_line(text, 9, "dense 65")), 9, "dense:");
    expect_refused(with_end("dnone.net", edit_line(text, 9, NULL)), 9,
                   "expected the 'dense' line");
    expect_refused(with_end("dtwice.net", edit_line(text, 30, "l1d me.seeds 1 2")), 30,
                   "the feature 'me.seeds' a second time");
    expect_refused(with_end("dname.net", edit_line(text, 30, "l1d  1 2")), 30,
                   "l1d: expected a feature's name");
    expect_refused(with_end("dcount.net", edit_line(text, 30, "l1d op.seeds 1")), 30,
                   "expected 2 numbers, found 1");
    expect_refused(with_end("dbias.net", edit_line(text, 32, NULL)), 32,
                   "expected the 'l1d.bias' line");
    expect_refused(with_end("dbig.net", edit_line(text, 30, "l1d op.seeds 2065 0")), 30,
                   "too large for the integers");
    /* A name the board has no feature of. */
    Variant v;
    board(&v, "holes=3 seeds=2 capture=4", FF_PENULTIMATE);
    NetFile *f;
    const char *bad = with_end("dfeat.net", edit_line(text, 30, "l1d me.nothing 0.5 0.5"));
    if (net_file_load(bad, &f, &e) != 0)
        fail_msg("%s", e.msg);
    Net *net;
    assert_int_equal(net_prepare(f, &v, &net, &e), -1);
    assert_null(net);
    assert_non_null(strstr(e.msg, "its dense input 'me.nothing' is no feature of this board"));
    assert_null(strchr(e.msg, '\n'));
    net_file_free(f);
    net_file_free(made);
    /* Sums that could leave 32 bits: on the standard board a feature reaches 96 (the seeds),
     * so 27 inputs of 1,000 on one unit (8,128,000 units each, times 96) could; of 10, not. */
    made = random_dense_net(12, 4, 16, 4, 2, 0.3, 0.4, 2.0, 29, N_DENSE, 4.0);
    board(&v, "", FF_PENULTIMATE);
    for (int d = 0; d < N_DENSE; d++)
        made->w1d[(size_t)d * 4 + 1] = 1000;
    assert_int_equal(net_prepare(made, &v, &net, &e), -1);
    assert_non_null(strstr(e.msg, "l1d (a position's dense sums could leave 32 bits)"));
    for (int d = 0; d < N_DENSE; d++)
        made->w1d[(size_t)d * 4 + 1] = 10;
    if (net_prepare(made, &v, &net, &e) != 0)
        fail_msg("%s", e.msg);
    net_free(net);
    net_file_free(made);
}

/* ---- the cost of an evaluation ---- */

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Nanoseconds per evaluation of the positions of random games on the standard board, as a
 * search meets them (each reached by one move from the last, its sums kept): net_acc_update
 * from the position before and net_eval; net_acc_full and net_eval; net_eval alone; and
 * learned_eval of the compiled-in linear set. The best of `passes` passes, printed; the
 * values checked to agree. */
static void bench(int passes)
{
    Variant v;
    board(&v, "", FF_PENULTIMATE);
    enum { N = 20000 };
    static Position pos[N];
    static bool first[N];   /* the first position of its game (the start before it) */
    int k = 0;
    for (int g = 0; k < N; g++) {
        Rng r;
        rng_seed(&r, 31, 3, (uint64_t)g);
        Position p;
        pos_start(&v, &p);
        first[k] = true;
        while (k < N) {
            Position c;
            MoveInfo info;
            if (pos_play(&v, &p, pos_random_move(&p, &r), &c, &info, NULL) == EV_ENDLESS ||
                pos_over(&v, &c))
                break;
            pos[k++] = c;
            p = c;
        }
    }
    Net *n;
    Learned *L;
    Error e;
    assert_int_equal(net_prepare(net_builtin(), &v, &n, &e), 0);
    assert_int_equal(learned_prepare(learned_builtin("learned"), &v, &L, &e), 0);
    Position start;
    pos_start(&v, &start);
    NetAcc a_start;
    net_acc_full(n, &v, &start, &a_start);
    double best[4] = { 1e9, 1e9, 1e9, 1e9 };
    int64_t sum[4] = { 0 };
    for (int pass = 0; pass < passes; pass++) {
        int64_t s[4] = { 0 };
        double t0 = seconds();
        NetAcc a[2];
        for (int i = 0; i < N; i++) {
            const Position *before = first[i] ? &start : &pos[i - 1];
            const NetAcc *b = first[i] ? &a_start : &a[(i + 1) & 1];
            net_acc_update(n, &v, before, b, &pos[i], &a[i & 1]);
            s[0] += net_eval(n, &v, &pos[i], &a[i & 1]);
        }
        double t1 = seconds();
        for (int i = 0; i < N; i++) {
            net_acc_full(n, &v, &pos[i], &a[0]);
            s[1] += net_eval(n, &v, &pos[i], &a[0]);
        }
        double t2 = seconds();
        /* The sums of the start for every position: the cost, not the value. */
        for (int i = 0; i < N; i++)
            s[2] += net_eval(n, &v, &pos[i], &a_start);
        double t3 = seconds();
        for (int i = 0; i < N; i++)
            s[3] += learned_eval(L, &v, &pos[i]);
        double t4 = seconds();
        double t[4] = { t1 - t0, t2 - t1, t3 - t2, t4 - t3 };
        for (int j = 0; j < 4; j++) {
            best[j] = t[j] < best[j] ? t[j] : best[j];
            sum[j] = s[j];
        }
    }
    print_message("ns per evaluation (%d positions of random games, one thread, best of %d): "
                  "net_acc_update + net_eval %.0f, net_acc_full + net_eval %.0f, net_eval "
                  "alone %.0f, learned_eval %.0f\n", N, passes, 1e9 * best[0] / N,
                  1e9 * best[1] / N, 1e9 * best[2] / N, 1e9 * best[3] / N);
    assert_true(sum[0] == sum[1] && sum[2] != 0);
    assert_true(sum[3] != 0);
    learned_free(L);
    net_free(n);
}

static void test_bench(void **state)
{
    (void)state;
    bench(1);
}

static void test_bench_long(void **state)
{
    (void)state;
    bench(10);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "bench") == 0) {
        const struct CMUnitTest only[] = { cmocka_unit_test(test_bench_long) };
        return cmocka_run_group_tests(only, setup, teardown);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inputs_hand_built),
        cmocka_unit_test(test_builtin),
        cmocka_unit_test(test_write_read),
        cmocka_unit_test(test_base),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_updates_standard),
        cmocka_unit_test(test_updates_other_board),
        cmocka_unit_test(test_sums_16_bits),
        cmocka_unit_test(test_quantised_bound),
        cmocka_unit_test(test_dense_by_hand),
        cmocka_unit_test(test_dense),
        cmocka_unit_test(test_dense_refused),
        cmocka_unit_test(test_bench),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
