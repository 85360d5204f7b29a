/* test_errors.c: malformed APNs and bad variant options are refused with -1 and a one-line
 * message that says what is wrong (docs/rules.md, Position notation; Variant parameters). */
#include "test_util.h"
#include "nearest.h"
#include "variant_text.h"

/* Every message: not empty, one line, and naming what the case expects. */
static void check_message(const char *what, const Error *e, const char *want)
{
    if (!e->msg[0])
        fail_msg("%s: empty message", what);
    if (strchr(e->msg, '\n') || strchr(e->msg, '\r'))
        fail_msg("%s: message has a line break: '%s'", what, e->msg);
    if (!strstr(e->msg, want))
        fail_msg("%s: message '%s' lacks '%s'", what, e->msg, want);
}

/* A malformed APN under the options given. */
typedef struct ApnCase {
    const char *opts;     /* `name=value ...`, `variant=NAME` for a preset */
    const char *apn;
    const char *want;     /* a substring of the message */
} ApnCase;

#define START12 "4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4"

static const ApnCase apn_cases[] = {
    /* Wrong field counts. */
    { "", "4,4/4,4 0/0 S -", "expected 5 fields" },
    { "", "4,4/4,4 0/0 S - - -", "expected 5 fields" },
    { "", "4,4/4,4", "expected 5 fields" },
    { "", "4,4/4,4 0/0 S - - ", "expected 5 fields" },      /* trailing space */
    /* Empty fields: the empty string, a double space, a leading space. */
    { "", "", "field 1 is empty" },
    { "", "4,4/4,4 0/0  S - -", "field 3 is empty" },
    { "", " 4,4/4,4 0/0 S - -", "field 1 is empty" },
    /* The holes field. */
    { "", "4,4,4/4,4 0/0 S - -", "rows of unequal length" },
    { "", "4,4,4,4 0/0 S - -", "South's row, '/', then North's row" },
    { "", "4,4/4,4/4,4 0/0 S - -", "more than one '/'" },
    { "", "4/4 0/0 S - -", "rows of 1 holes" },
    { "", "4,-4/4,4 0/0 S - -", "'-4' is not a seed count" },
    { "", "4,x/4,4 0/0 S - -", "'x' is not a seed count" },
    { "", "4,4/4,4.0 0/0 S - -", "'4.0' is not a seed count" },
    { "", "4,,4/4,4,4 0/0 S - -", "hole 2: '' is not a seed count" },
    { "", "4,4/4,99999 0/0 S - -", "not a seed count" },
    { "", "4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4,4/4 0/0 S - -",
      "more than 32 holes" },
    /* Stores and the letter fields. */
    { "", "4,4/4,4 0 S - -", "stores: '0' is not two seed counts" },
    { "", "4,4/4,4 0/-1 S - -", "stores" },
    { "", "4,4/4,4 0/0 X - -", "side to move: 'X' is not S or N" },
    { "", "4,4/4,4 0/0 - - -", "side to move: '-' is not S or N" },
    { "", "4,4/4,4 0/0 s - -", "is not S or N" },
    { "", "4,4/4,4 0/0 S Q -", "last capturer: 'Q' is not S, N or -" },
    { "", "4,4/4,4 0/0 S - SN", "first final-seed capturer: 'SN' is not S, N or -" },
    /* Seeds that do not add up. */
    { "variant=anywoli", START12 " 0/1 S - -", "97 seeds, but the variant has 96" },
    { "seeds=4", "4,4/4,4 4/0 S - -", "but the variant has 16" },
    { "", "3,0/1,0 0/1 S - -", "not a whole number of seeds per hole" },
    { "", "0,0/0,0 0/0 S - -", "0 seeds" },
    /* The row length against a given holes (a preset gives it). */
    { "variant=yit-nuri", START12 " 0/0 S - -", "rows of 12 holes, but the variant has 7" },
    { "holes=5", "4,4/4,4 0/0 S - -", "rows of 2 holes, but the variant has 5" },
    /* The side to move has no seeds though the game is not over. */
    { "", "0,0,0,0/2,2,2,2 0/0 S - -", "South is to move but has no seeds" },
    { "", "2,2,2,2/0,0,0,0 0/0 N - -", "North is to move but has no seeds" },
    /* A finished game without a last capturer, whom the award of the seeds left needs. */
    { "", "1,0,0,0/0,0,0,0 8/7 S - -", "the game is over (seeds on the board 1, at most "
      "capture 4) but the last capturer is '-'" },
    /* A total too small for the capture (2 x holes x seeds must exceed it). */
    { "", "1,0/0,0 0/3 S - -", "capture: 4 must be below" },
};

static void test_apn_errors(void **state)
{
    (void)state;
    int n = (int)(sizeof apn_cases / sizeof apn_cases[0]);
    assert_true(n >= 20);
    for (int i = 0; i < n; i++) {
        const ApnCase *c = &apn_cases[i];
        Variant v;
        Position p;
        Error e = { "" };
        bool hg, sg;
        char what[200];
        snprintf(what, sizeof what, "APN case %d '%s' (%s)", i, c->apn, c->opts);
        tu_variant_opts(c->opts, &v, &hg, &sg);
        if (apn_parse(c->apn, &v, hg, sg, &p, &e) != -1)
            fail_msg("%s: accepted", what);
        check_message(what, &e, c->want);
    }
    /* No text at all. */
    Variant v;
    Position p;
    Error e = { "" };
    variant_default(&v);
    assert_int_equal(apn_parse(NULL, &v, false, false, &p, &e), -1);
    check_message("NULL APN", &e, "empty");
}

/* Positions at the edge of validity that must be accepted. */
static void test_apn_accepted(void **state)
{
    (void)state;
    static const struct { const char *opts, *apn; int holes, seeds; } ok[] = {
        /* Over: the side to move may have no seeds. */
        { "", "0,0,0,1/0,1,1,1 12/16 S N S", 4, 4 },
        { "", "0,0/0,0 4/4 N S N", 2, 2 },
        /* Seeds from the total; stores need not be multiples of the capture. */
        { "", "2,0/2,1 1/2 S - -", 2, 2 },
        { "", "0,0,1/3,1,1 8/4 S N N", 3, 3 },
        { "variant=yit-jani", "2,2,2,2,2,2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2,2,2,2,2,2 0/0 S - -",
          13, 2 },
        { "holes=2 seeds=2", "2,0/2,1 1/2 S - -", 2, 2 },
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        Variant v;
        Position p;
        Error e = { "" };
        bool hg, sg;
        tu_variant_opts(ok[i].opts, &v, &hg, &sg);
        if (apn_parse(ok[i].apn, &v, hg, sg, &p, &e) != 0)
            fail_msg("'%s' refused: %s", ok[i].apn, e.msg);
        assert_int_equal(v.holes, ok[i].holes);
        assert_int_equal(v.seeds, ok[i].seeds);
        assert_true(pos_ok(&v, &p));
        assert_string_equal(tu_apn(&v, &p), ok[i].apn);
    }
}

/* A bad variant option: refused by variant_set, or accepted there and refused by
 * variant_finish. */
typedef struct VariantCase {
    const char *name, *value;
    bool at_finish;       /* refused by variant_finish rather than variant_set */
    const char *want;
} VariantCase;

static const VariantCase variant_cases[] = {
    { "holes", "1", true, "holes: 1 is out of range (2 to 32)" },
    { "holes", "33", true, "holes: 33 is out of range" },
    { "holes", "-3", true, "holes: -3 is out of range" },
    { "holes", "12x", false, "holes: '12x' is not a whole number" },
    { "holes", "", false, "not a whole number" },
    { "holes", "99999999999", false, "holes: 99999999999 is out of range" },
    { "seeds", "0", true, "seeds: 0 is out of range (1 to 64)" },
    { "seeds", "65", true, "seeds: 65 is out of range" },
    { "seeds", "four", false, "seeds: 'four' is not a whole number" },
    { "capture", "1", true, "capture: 1 is out of range (2 to 64)" },
    { "capture", "65", true, "capture: 65 is out of range" },
    { "max_plies", "0", true, "max_plies: 0 is out of range" },
    { "max_plies", "-5", true, "max_plies: -5 is out of range" },
    /* A game counts its plies in 32 bits: a larger cap would wrap the count, never stopping. */
    { "max_plies", "4294967296", true,
      "max_plies: 4294967296 is out of range (at most 10000000)" },
    { "max_plies", "10000001", true, "max_plies: 10000001 is out of range (at most 10000000)" },
    { "max-plies", "1e3", false, "max_plies: '1e3' is not a whole number" },
    { "final_four", "bogus", false, "final_four: 'bogus' is not a convention" },
    { "final-four", "Lottery", false, "is not a convention" },
    { "extra_turn", "maybe", false, "extra_turn: 'maybe' is not yes or no" },
    { "skip-origin", "2", false, "skip_origin: '2' is not yes or no" },
    { "colour", "red", false, "unknown variant parameter 'colour'" },
    { "", "1", false, "unknown variant parameter" },
};

static void test_variant_errors(void **state)
{
    (void)state;
    int n = (int)(sizeof variant_cases / sizeof variant_cases[0]);
    for (int i = 0; i < n; i++) {
        const VariantCase *c = &variant_cases[i];
        Variant v;
        Error e = { "" };
        char what[160];
        snprintf(what, sizeof what, "variant case %d (%s=%s)", i, c->name, c->value);
        variant_default(&v);
        int rc = variant_set(&v, c->name, c->value, &e);
        if (c->at_finish) {
            if (rc != 0)
                fail_msg("%s: variant_set refused it: %s", what, e.msg);
            rc = variant_finish(&v, &e);
        }
        if (rc != -1)
            fail_msg("%s: accepted", what);
        check_message(what, &e, c->want);
    }
}

/* Combinations only variant_finish can judge, and unknown presets. */
static void test_variant_combinations(void **state)
{
    (void)state;
    Variant v;
    Error e = { "" };
    /* 2 x holes x seeds must exceed the capture: 2 x 2 x 1 = 4 is not above 4. */
    variant_default(&v);
    assert_int_equal(variant_set(&v, "holes", "2", &e), 0);
    assert_int_equal(variant_set(&v, "seeds", "1", &e), 0);
    assert_int_equal(variant_finish(&v, &e), -1);
    check_message("holes 2 seeds 1 capture 4", &e, "capture: 4 must be below the 4 seeds");
    /* ... and 5 is enough for capture 4 when there are 2 x 5 x 1 = 10. */
    assert_int_equal(variant_set(&v, "holes", "5", &e), 0);
    assert_int_equal(variant_finish(&v, &e), 0);
    /* capture 64 needs more than 64 seeds. */
    variant_default(&v);
    assert_int_equal(variant_set(&v, "holes", "4", &e), 0);
    assert_int_equal(variant_set(&v, "seeds", "8", &e), 0);
    assert_int_equal(variant_set(&v, "capture", "64", &e), 0);
    assert_int_equal(variant_finish(&v, &e), -1);
    check_message("capture 64 of 64", &e, "must be below the 64 seeds");

    static const char *const bad_presets[] = { "oware", "Anywoli", "", "yit_nuri" };
    for (size_t i = 0; i < sizeof bad_presets / sizeof bad_presets[0]; i++) {
        e.msg[0] = '\0';
        assert_int_equal(variant_preset(&v, bad_presets[i], &e), -1);
        check_message(bad_presets[i], &e, "unknown preset");
    }
}

/* The spellings that must be accepted, and the range edges. */
static void test_variant_accepted(void **state)
{
    (void)state;
    Variant v;
    Error e;
    variant_default(&v);
    assert_int_equal(variant_set(&v, "final-four", "first-final", &e), 0);
    assert_int_equal(v.final_four, FF_FIRST_FINAL);
    assert_int_equal(variant_set(&v, "final_four", "lottery", &e), 0);
    assert_int_equal(v.final_four, FF_LOTTERY);
    assert_int_equal(variant_set(&v, "extra-turn", "no", &e), 0);
    assert_false(v.extra_turn);
    assert_int_equal(variant_set(&v, "extra_turn", "yes", &e), 0);
    assert_true(v.extra_turn);
    assert_int_equal(variant_set(&v, "skip_origin", "true", &e), 0);
    assert_true(v.skip_origin);
    assert_int_equal(variant_set(&v, "holes", "32", &e), 0);
    assert_int_equal(variant_set(&v, "seeds", "64", &e), 0);
    assert_int_equal(variant_set(&v, "capture", "64", &e), 0);
    assert_int_equal(variant_set(&v, "max_plies", "1", &e), 0);
    assert_int_equal(variant_finish(&v, &e), 0);
    assert_int_equal(v.pits, 64);
    assert_int_equal(v.total, 64 * 64);
    assert_int_equal(v.row[SOUTH] | v.row[NORTH], ~0ULL);
    assert_int_equal(v.row[SOUTH] & v.row[NORTH], 0);
    assert_int_equal(variant_set(&v, "max_plies", "10000000", &e), 0);
    assert_int_equal(variant_finish(&v, &e), 0);

    for (int i = 0; variant_preset_names[i]; i++)
        assert_int_equal(variant_preset(&v, variant_preset_names[i], &e), 0);
    assert_int_equal(variant_preset(&v, "yit-jani", &e), 0);
    assert_int_equal(v.holes, 13);
    assert_int_equal(v.seeds, 2);
    assert_int_equal(v.capture, 4);
}

/* A variant as text: the fault names the part refused (the preset, a parameter's text, or the
 * whole), and the command line's message names the option at fault, once. */
static void test_variant_text(void **state)
{
    (void)state;
    Variant v;
    VariantFault f;
    Error e;
    VariantText t = { 0 };
    t.preset = "yit-nuri";
    t.value[VP_FINAL_FOUR] = "lottery";
    assert_int_equal(variant_from_text(&t, &v, &f), 0);
    assert_int_equal(v.holes, 7);
    assert_int_equal(v.final_four, FF_LOTTERY);

    t.preset = "oware";
    assert_int_equal(variant_from_text(&t, &v, &f), -1);
    assert_int_equal(f.param, VT_PRESET);
    assert_string_equal(f.e.msg, "variant: unknown preset 'oware' (expected anywoli, yit-nuri "
                                 "or yit-jani)");
    variant_option_error(&t, &f, &e);
    assert_string_equal(e.msg, "--variant: unknown preset 'oware' (expected anywoli, yit-nuri "
                               "or yit-jani)");

    t.preset = NULL;
    t.value[VP_EXTRA_TURN] = "maybe";
    assert_int_equal(variant_from_text(&t, &v, &f), -1);
    assert_int_equal(f.param, VP_EXTRA_TURN);
    assert_false(f.whole);
    variant_option_error(&t, &f, &e);
    assert_string_equal(e.msg, "--extra-turn maybe: extra_turn: 'maybe' is not yes or no");

    t.value[VP_EXTRA_TURN] = NULL;
    t.value[VP_HOLES] = "99";
    assert_int_equal(variant_apply_text(&t, &v, &f), 0);
    assert_int_equal(variant_from_text(&t, &v, &f), -1);
    assert_int_equal(f.param, VP_HOLES);
    assert_true(f.whole);
    variant_option_error(&t, &f, &e);
    assert_string_equal(e.msg, "--holes 99: holes: 99 is out of range (2 to 32)");

    /* The capture refused, left at its default: the message alone, no option to name. */
    t.value[VP_HOLES] = "2";
    t.value[VP_SEEDS] = "1";
    assert_int_equal(variant_from_text(&t, &v, &f), -1);
    assert_int_equal(f.param, VP_CAPTURE);
    variant_option_error(&t, &f, &e);
    assert_string_equal(e.msg, "capture: 4 must be below the 4 seeds in play (2 x holes x seeds)");
}

/* Edit distance: each kind of edit counts 1, a swap of neighbours too. */
static void test_nearest_distance(void **state)
{
    (void)state;
    static const struct { const char *a, *b; int d; } cases[] = {
        { "", "", 0 }, { "", "abc", 3 }, { "games", "games", 0 },
        { "gmaes", "games", 1 },           /* swap */
        { "dept", "depth", 1 },            /* insertion */
        { "alphabeat", "alphabeta", 1 },   /* swap at the end */
        { "agnet-a", "agent-a", 1 },
        { "kitten", "sitting", 3 },
        { "ca", "abc", 3 },                /* no edit of a swapped pair */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t na = strlen(cases[i].a), nb = strlen(cases[i].b);
        assert_int_equal(nearest_distance(cases[i].a, na, cases[i].b, nb), cases[i].d);
        assert_int_equal(nearest_distance(cases[i].b, nb, cases[i].a, na), cases[i].d);
    }
}

/* The hint: the nearest name of a list when it is a slip, nothing otherwise. */
static void test_nearest_hint(void **state)
{
    (void)state;
    char out[80];
    const char *keys = "variant, holes, seeds, games or max_plies";
    assert_string_equal(nearest_hint_in("gmaes", keys, out, sizeof out),
                        "; did you mean 'games'?");
    assert_string_equal(nearest_hint_in("max-plies", keys, out, sizeof out),
                        "; did you mean 'max_plies'?");
    assert_string_equal(nearest_hint_in("hole", keys, out, sizeof out),
                        "; did you mean 'holes'?");
    /* "or" is the list's word, not a name; far names and short words get no hint. */
    assert_string_equal(nearest_hint_in("orr", keys, out, sizeof out), "");
    assert_string_equal(nearest_hint_in("frobnicate", keys, out, sizeof out), "");
    assert_string_equal(nearest_hint_in("gam", keys, out, sizeof out), "");
    assert_string_equal(nearest_hint_in("xy", "x, y", out, sizeof out), "");
    /* An exact match is not a slip (the caller refused it for another reason). */
    assert_string_equal(nearest_hint_in("games", keys, out, sizeof out), "");

    Nearest n;
    nearest_start(&n, "agnet-a");
    nearest_consider(&n, "agent-b", 7);
    nearest_consider(&n, "agent-a", 7);
    assert_string_equal(nearest_hint(&n, "--", out, sizeof out), "; did you mean '--agent-a'?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apn_errors),
        cmocka_unit_test(test_apn_accepted),
        cmocka_unit_test(test_variant_errors),
        cmocka_unit_test(test_variant_combinations),
        cmocka_unit_test(test_variant_accepted),
        cmocka_unit_test(test_variant_text),
        cmocka_unit_test(test_nearest_distance),
        cmocka_unit_test(test_nearest_hint),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
