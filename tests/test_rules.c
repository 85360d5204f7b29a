/* test_rules.c: hand-built positions, one or more per rule of docs/rules.md, as data:
 * APN before, move, APN and event after, and what the move did. Each expected result was
 * worked out by hand from docs/rules.md and checked with tests/perft/perft_reference.py `move`.
 *
 * Most cases use a 4-hole board: South's holes 0-3, North's 4-7, sown 0 -> 1 -> ... -> 7 -> 0;
 * seeds per hole come from the APN's total (holes + stores) divided by 8. */
#include "test_util.h"

#include "game.h"

/* One move and its result; -1 in a count means "not checked". */
typedef struct RuleCase {
    const char *opts;     /* variant options, `name=value ...` */
    const char *before;   /* APN */
    int move;
    const char *after;    /* APN after the move (before it for endless) */
    const char *event;    /* next, extra, over or endless */
    int laps, mid, final, passed;   /* MoveInfo */
} RuleCase;

static const RuleCase rule_cases[] = {
    /* Rule 3, mid-sow, South's row: North sows 7 -> 0 -> 1; hole 0 reaches 4 with a seed
     * still to sow, so its owner South (not the mover) captures it; the last seed falls in
     * empty hole 1 (rule 4) and the turn passes. */
    { "", "3,0,1,1/1,1,1,2 6/8 N - -", 7, "0,1,1,1/1,1,1,0 10/8 S S -", "next", 1, 1, 0, 0 },
    /* Rule 3, mid-sow, North's row: South sows 3 -> 4 -> 5; hole 4 reaches 4 mid-lap and goes
     * to its owner North; the last capturer is North. */
    { "", "1,1,1,2/3,0,1,1 8/6 S - -", 3, "1,1,1,0/0,1,1,1 8/10 N N -", "next", 1, 1, 0, 0 },
    /* Rule 3, mid-sow in the mover's own row: South's hole 1 reaches 4, South captures. */
    { "", "2,3,0,0/1,1,1,1 6/9 S - -", 0, "0,0,1,0/1,1,1,1 10/9 N S -", "next", 1, 1, 0, 0 },
    /* Rule 3, final seed: South's single seed from 3 makes North's hole 4 hold 4; the mover
     * South captures the opponent's hole, is recorded as first final capturer, moves again. */
    { "", "1,1,1,1/3,1,1,1 8/6 S - -", 3, "1,1,1,0/0,1,1,1 12/6 S S S", "extra", 1, 0, 1, 0 },
    /* A later final-seed capture (North's, in North's own hole 5) leaves the first-final
     * field as it was (S) but makes North the last capturer. */
    { "", "1,1,1,1/1,3,1,1 8/6 N S S", 4, "1,1,1,1/0,0,1,1 8/10 N N S", "extra", 1, 0, 1, 0 },
    /* Several captures in one move: 0 -> 1..5; hole 1 (South's, mid) to South, hole 4
     * (North's, mid) to North, the last seed makes hole 5 hold 4: South's final capture. */
    { "", "5,3,0,0/3,3,2,2 6/8 S - -", 0, "0,0,1,1/0,0,2,2 14/12 S S S", "extra", 1, 2, 1, 0 },
    /* A final capture on the second lap: 0 -> 1 (2 seeds, relay) -> 2, 3; hole 3 reaches 4. */
    { "", "1,1,0,3/1,1,1,2 8/6 S - -", 0, "0,0,1,0/1,1,1,2 12/6 S S S", "extra", 2, 0, 1, 0 },
    /* An extra move followed by a forced pass: South's final capture empties South's row, so
     * South passes and North moves; the event is still `extra`. */
    { "", "0,0,0,1/3,2,2,2 6/8 S - -", 3, "0,0,0,0/0,2,2,2 10/8 N S S", "extra", 1, 0, 1, 1 },
    /* A pass after an ordinary move: North has no seeds, so South moves again (`next`). */
    { "", "3,2,0,0/0,0,0,0 10/9 S N N", 1, "3,0,1,1/0,0,0,0 10/9 S N N", "next", 1, 0, 0, 1 },
    /* A lap over its own emptied origin (9 seeds on 8 holes): 1..7 get one seed each, the
     * 8th falls back into hole 0, the 9th makes hole 1 (2 + 1 + 1) hold 4: final capture. */
    { "", "9,2,0,0/0,0,0,0 6/7 S - -", 0, "1,0,1,1/1,1,1,1 10/7 S S S", "extra", 1, 0, 1, 0 },
    /* The same with skip_origin: hole 0 is skipped, so the 8th seed makes hole 1 hold 4 with a
     * seed still to sow (mid-sow, to South); the 9th falls in hole 2 (2 seeds): relays from
     * 2, 4 and 6 (each skipping its own start), ending in emptied hole 0. */
    { "skip_origin=yes", "9,2,0,0/0,0,0,0 6/7 S - -", 0, "1,0,0,2/0,2,0,2 10/7 N S -", "next",
      4, 1, 0, 0 },
    /* A relay lap of 9 seeds (from hole 1) passes over its emptied origin: 2..7, 0, 1, 2; then
     * relays from 2, 4, 6 and 0 end in emptied hole 2. Six laps. */
    { "", "1,8,0,0/0,0,0,0 7/8 S - -", 0, "0,2,1,2/0,2,0,2 7/8 N - -", "next", 6, 0, 0, 0 },
    /* The same with skip_origin: the relay lap from 1 skips hole 1 (2..7, 0, 2, 3), then
     * relays from 3, 5 and 7, the last seed falling in emptied hole 1. Five laps. */
    { "skip_origin=yes", "1,8,0,0/0,0,0,0 7/8 S - -", 0, "2,1,2,0/2,0,2,0 7/8 N - -", "next",
      5, 0, 0, 0 },
    /* A relay of five laps, two seeds each after the first: 0 -> 1, 1 -> 2,3, 3 -> 4,5,
     * 5 -> 6,7, 7 -> 0,1; hole 1 was emptied by lap 2, so the last seed ends the move. */
    { "", "1,1,1,1/1,1,1,1 8/8 S - -", 0, "1,1,2,0/2,0,2,0 8/8 N - -", "next", 5, 0, 0, 0 },
    /* An endless move (rule 6), 2 holes a row: the lap starts cycle with period 8,
     * [2,0,2,1] from 0 -> [0,1,3,1] from 2 -> [1,2,0,2] from 1 -> [1,0,1,3] from 3 ->
     * [2,1,2,0] from 2 -> [3,1,0,1] from 0 -> [0,2,1,2] from 3 -> [1,3,1,0] from 1 ->
     * [2,0,2,1] from 0, no hole ever holding 4: reported as the position before it. */
    { "", "2,0/2,1 1/2 S - -", 0, "2,0/2,1 1/2 S - -", "endless", -1, 0, 0, 0 },
    /* Endless moves whose first laps make mid-sow captures (found by a search with the
     * reference): the stores, the board and the capturer fields are all put back. */
    { "", "3,2,2/6,1,0 0/10 S - -", 1, "3,2,2/6,1,0 0/10 S - -", "endless", -1, 0, 0, 0 },
    /* The same under skip_origin, on 4 holes. */
    { "skip_origin=yes", "4,0,3,0/1,0,2,1 3/2 S - -", 0, "4,0,3,0/1,0,2,1 3/2 S - -", "endless",
      -1, 0, 0, 0 },
    /* An endless move (2 holes of 5) whose first laps make a mid-sow capture for North: North's
     * store is put back too. */
    { "", "5,3/0,2 7/3 S - -", 1, "5,3/0,2 7/3 S - -", "endless", -1, 0, 0, 0 },
    /* Endless under skip_origin with laps longer than the board (8 seeds on 4 holes), which
     * wrap past the skipped origin, and captures for both sides before the cycle. */
    { "skip_origin=yes", "8,2/0,3 3/4 S - -", 0, "8,2/0,3 3/4 S - -", "endless", -1, 0, 0, 0 },
    /* Endless by the bound on seeds sown (rule 6): with capture 64 the cycle check finds no
     * repeat in 2^32 laps (the lap count used to wrap there), but the 1,000,001st seed, in lap
     * 178,840, is past the bound. */
    { "capture=64", "0,1,6,3,2,1,6,3,25,3,0,1/8,2,1,5,2,1,2,3,5,4,11,1 0/0 N - -", 22,
      "0,1,6,3,2,1,6,3,25,3,0,1/8,2,1,5,2,1,2,3,5,4,11,1 0/0 N - -", "endless", 178840, 0, 0, 0 },
    /* The game ends with all seeds captured: 2 -> 3 (mid, South's), 4 (final); none left. The
     * mover stays in the side field; no extra move once the game is over. */
    { "", "0,0,2,3/3,0,0,0 12/12 S N N", 2, "0,0,0,0/0,0,0,0 20/12 S S N", "over", 1, 1, 1, 0 },
    /* The game ends with four left: 2 -> 3, 4 (mid, North's), 5 (empty); 4 seeds remain. The
     * last capture was North's; the first final capture South's (from the APN). */
    { "", "0,0,3,0/3,0,1,1 12/12 S S S", 2, "0,0,0,1/0,1,1,1 12/16 S N S", "over", 1, 1, 0, 0 },
    /* The same where nobody has made a final-seed capture. */
    { "", "0,0,3,0/3,0,1,1 12/12 S S -", 2, "0,0,0,1/0,1,1,1 12/16 S N -", "over", 1, 1, 0, 0 },
    /* A total that is not a multiple of four: 3 holes of 3 seeds (18). From the start South's
     * 3 seeds make holes 1, 2 (South's, mid) and 3 (final) hold 4: three captures; South's
     * row is empty, so South passes. */
    { "holes=3 seeds=3", "start", 0, "0,0,0/0,3,3 12/0 N S S", "extra", 1, 2, 1, 1 },
    /* From 1: hole 2 (South's, mid), hole 3 (North's, mid, to North), hole 4 (final). */
    { "holes=3 seeds=3", "start", 1, "3,0,0/0,0,3 8/4 S S S", "extra", 1, 2, 1, 0 },
    /* The 18-seed game ends with 2 seeds left (6 - 4): 2 or fewer is over with capture 4. */
    { "holes=3", "0,0,1/3,1,1 8/4 S N N", 2, "0,0,0/0,1,1 12/4 S S N", "over", 1, 0, 1, 0 },
    /* capture 3 on 3 holes of 2: hole 1 reaches 3 mid-sow, hole 2 with the last seed. */
    { "holes=3 seeds=2 capture=3", "start", 0, "0,0,0/2,2,2 6/0 N S S", "extra", 1, 1, 1, 1 },
    /* extra_turn no: the same final capture as above, but the turn passes to North. */
    { "extra_turn=no", "1,1,1,1/3,1,1,1 8/6 S - -", 3, "1,1,1,0/0,1,1,1 12/6 N S S", "next",
      1, 0, 1, 0 },
    /* extra_turn yes: South's final capture takes North's last seeds; South moves again. */
    { "", "2,2,1,1/3,0,0,0 7/8 S - -", 3, "2,2,1,0/0,0,0,0 11/8 S S S", "extra", 1, 0, 1, 0 },
    /* extra_turn no: the turn would pass to North, who has no seeds and passes back. */
    { "extra_turn=no", "2,2,1,1/3,0,0,0 7/8 S - -", 3, "2,2,1,0/0,0,0,0 11/8 S S S", "next",
      1, 0, 1, 1 },
};

/* Check the count field `name` when the case asks for it. */
static void check_count(int i, const char *name, int want, unsigned got)
{
    if (want >= 0 && (unsigned)want != got)
        fail_msg("case %d: %s = %u, expected %d", i, name, got, want);
}

static void test_rule_cases(void **state)
{
    (void)state;
    int n = (int)(sizeof rule_cases / sizeof rule_cases[0]);
    for (int i = 0; i < n; i++) {
        const RuleCase *c = &rule_cases[i];
        Variant v;
        Position p, q;
        Error e;
        MoveInfo info;
        tu_position(c->opts, c->before, &v, &p);
        if (!pos_move_ok(&v, &p, c->move, &e))
            fail_msg("case %d: %s: move %d refused: %s", i, c->before, c->move, e.msg);
        MoveEvent ev = pos_play(&v, &p, c->move, &q, &info, NULL);
        const char *got = tu_apn(&v, &q);
        if (strcmp(got, c->after) != 0 || strcmp(move_event_name(ev), c->event) != 0)
            fail_msg("case %d: %s, move %d: got '%s %s', expected '%s %s'", i, c->before,
                     c->move, got, move_event_name(ev), c->after, c->event);
        assert_true(pos_ok(&v, &q));
        check_count(i, "laps", c->laps, info.laps);
        if (ev == EV_ENDLESS) {
            /* Reported as it stood before the move, after at least the laps before the check;
             * the move never happened, so a trace holds none of the captures it undid. */
            assert_memory_equal(&q, &p, sizeof p);
            assert_true(info.laps >= 8);
            MoveTrace t;
            assert_int_equal(pos_play(&v, &p, c->move, &q, &info, &t), EV_ENDLESS);
            if (t.n != 0)
                fail_msg("case %d: an endless move traced %d captures", i, t.n);
            continue;
        }
        check_count(i, "mid_captures", c->mid, info.mid_captures);
        check_count(i, "final_capture", c->final, info.final_capture);
        check_count(i, "passed", c->passed, info.passed);
        /* Seeds captured by the move: `capture` per capture. */
        assert_int_equal(p.left - q.left, v.capture * (info.mid_captures + info.final_capture));
        /* The game ends exactly when capture or fewer seeds are left. */
        assert_int_equal(ev == EV_OVER, q.left <= v.capture);
        if (ev == EV_OVER)
            assert_int_equal(q.side, p.side);
    }
}

/* A long move that ends, and the seeds it sows (counted by perft_reference.py move). */
typedef struct BoundCase {
    const char *opts, *before;
    int move;
    unsigned sown, laps;      /* seeds sown, in laps */
    const char *after, *event;
} BoundCase;

static const BoundCase bound_cases[] = {
    /* 109 laps without a capture, ending in an empty hole. */
    { "capture=16", "1,2,7,1/4,8,5,4 0/16 S N N", 1, 638, 109, "1,2,1,5/6,5,11,1 0/16 N N N",
      "next" },
    /* 81 laps; lap 76 makes a mid-sow capture for North, which must be undone when the bound
     * makes the move endless; the move ends the game. */
    { "capture=30", "8,14,1/14,1,10 0/0 N - -", 5, 770, 81, "4,1,8/2,1,2 0/30 N N -", "over" },
};

/* Rule 6's bound on the seeds sown in one move, made small: a move that sows one seed more than
 * the bound is endless (the position put back as before it, no capture counted or traced, its
 * laps up to the one that passes the bound), and one that sows exactly the bound ends as usual,
 * as it does under the real bound. Both paths: the fast one untraced, the general one traced. */
static void test_seed_bound(void **state)
{
    (void)state;
    int n = (int)(sizeof bound_cases / sizeof bound_cases[0]);
    for (int i = 0; i < n; i++) {
        const BoundCase *c = &bound_cases[i];
        Variant v;
        Position p, q;
        MoveInfo info, full;
        MoveTrace t;
        tu_position(c->opts, c->before, &v, &p);
        for (int traced = 0; traced < 2; traced++) {
            MoveTrace *tp = traced ? &t : NULL;
            t.n = -1;
            MoveEvent ev = pos_play_bounded(&v, &p, c->move, &q, &info, tp, c->sown - 1);
            if (ev != EV_ENDLESS)
                fail_msg("bound case %d (traced %d): %s, expected endless", i, traced,
                         move_event_name(ev));
            assert_memory_equal(&q, &p, sizeof p);
            assert_int_equal(info.laps, c->laps);
            assert_int_equal(info.mid_captures + info.final_capture, 0);
            if (traced) {
                assert_int_equal(t.n, 0);
                assert_true(t.sown == 0 && t.relayed == 0);   /* nor did its laps */
            }

            ev = pos_play_bounded(&v, &p, c->move, &q, &info, tp, c->sown);
            if (strcmp(move_event_name(ev), c->event) != 0 || strcmp(tu_apn(&v, &q), c->after))
                fail_msg("bound case %d (traced %d): got '%s %s', expected '%s %s'", i, traced,
                         tu_apn(&v, &q), move_event_name(ev), c->after, c->event);
            assert_int_equal(info.laps, c->laps);
            assert_true(pos_ok(&v, &q));
            Position r;
            assert_int_equal(pos_play(&v, &p, c->move, &r, &full, tp), ev);
            assert_memory_equal(&r, &q, sizeof q);
            assert_memory_equal(&full, &info, sizeof info);
        }
    }
}

/* The captures of a move in order, as MoveTrace records them. */
static void test_trace(void **state)
{
    (void)state;
    Variant v;
    Position p;
    MoveInfo info;
    MoveTrace t;
    tu_position("", "5,3,0,0/3,3,2,2 6/8 S - -", &v, &p);
    assert_int_equal(pos_play(&v, &p, 0, &p, &info, &t), EV_EXTRA);
    assert_int_equal(t.n, 3);
    static const Capture want[3] = { { 1, SOUTH, 0, 1 }, { 4, NORTH, 0, 1 }, { 5, SOUTH, 1, 1 } };
    for (int i = 0; i < 3; i++) {
        assert_int_equal(t.cap[i].hole, want[i].hole);
        assert_int_equal(t.cap[i].by, want[i].by);
        assert_int_equal(t.cap[i].final, want[i].final);
        assert_int_equal(t.cap[i].lap, want[i].lap);
    }
    /* The second-lap final capture is recorded in lap 2. */
    tu_position("", "1,1,0,3/1,1,1,2 8/6 S - -", &v, &p);
    pos_play(&v, &p, 0, &p, &info, &t);
    assert_int_equal(t.n, 1);
    assert_int_equal(t.cap[0].hole, 3);
    assert_int_equal(t.cap[0].lap, 2);
}

/* The holes a move's laps sow into and relay from, as MoveTrace records them for the board
 * drawings. */
static void test_trace_laps(void **state)
{
    (void)state;
    Variant v;
    Position p;
    MoveInfo info;
    MoveTrace t;
    /* docs/rules.md's worked example: five laps from hole 11 reach every hole; the relays are
     * from holes 15, 20, 1 and 6. */
    tu_position("", "4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -", &v, &p);
    assert_int_equal(pos_play(&v, &p, 11, &p, &info, &t), EV_NEXT);
    assert_true(t.sown == (1ULL << 24) - 1);
    assert_true(t.relayed == (1ULL << 15 | 1ULL << 20 | 1ULL << 1 | 1ULL << 6));
    /* One seed into hole 1, relayed from there into holes 2 and 3 (a final capture). */
    tu_position("", "1,1,0,3/1,1,1,2 8/6 S - -", &v, &p);
    pos_play(&v, &p, 0, &p, &info, &t);
    assert_true(t.sown == (1ULL << 1 | 1ULL << 2 | 1ULL << 3));
    assert_true(t.relayed == 1ULL << 1);
    /* One lap of five seeds, three captures on the way: holes 1 to 5, no relay. */
    tu_position("", "5,3,0,0/3,3,2,2 6/8 S - -", &v, &p);
    pos_play(&v, &p, 0, &p, &info, &t);
    assert_true(t.sown == 0x3eULL && t.relayed == 0);
    /* skip_origin: four seeds from hole 0 of a board of 4 go round, passing hole 0 to end in
     * hole 1, whose relay captures in holes 2 and 3; hole 0 is never sown (without the rule,
     * the fourth seed would end the move there). */
    tu_position("skip_origin=yes", "4,0/2,2 0/0 S - -", &v, &p);
    assert_int_equal(pos_play(&v, &p, 0, &p, &info, &t), EV_OVER);
    assert_true(t.sown == 0xeULL && t.relayed == 1ULL << 1);
}

/* One final-award case: a finished position and the convention. */
typedef struct AwardCase {
    const char *opts;
    const char *apn;
    FinalFour ff;
    int recipient;            /* who receives the seeds left */
    int south, north;         /* final scores */
    Outcome outcome;
} AwardCase;

static const AwardCase award_cases[] = {
    /* penultimate: the last capture (North's mid-sow one) decides: North gets the four. */
    { "", "0,0,0,1/0,1,1,1 12/16 S N S", FF_PENULTIMATE, NORTH, 12, 20, OUT_NORTH },
    /* first-final: South made the first final-seed capture and gets the four: a draw. */
    { "", "0,0,0,1/0,1,1,1 12/16 S N S", FF_FIRST_FINAL, SOUTH, 16, 16, OUT_DRAW },
    /* first-final with no final-seed capture made: as penultimate (North). */
    { "", "0,0,0,1/0,1,1,1 12/16 S N -", FF_FIRST_FINAL, NORTH, 12, 20, OUT_NORTH },
    /* A draw under penultimate: 16 + 0 against 12 + 4. */
    { "", "0,0,0,1/0,1,1,1 16/12 S N S", FF_PENULTIMATE, NORTH, 16, 16, OUT_DRAW },
    /* All seeds captured: nothing to award, whoever the recipient. */
    { "", "0,0,0,0/0,0,0,0 20/12 S S N", FF_PENULTIMATE, SOUTH, 20, 12, OUT_SOUTH },
    { "", "0,0,0,0/0,0,0,0 20/12 S S N", FF_FIRST_FINAL, NORTH, 20, 12, OUT_SOUTH },
    /* 18 seeds, capture 4: two seeds left, to the last capturer or the first final one. */
    { "holes=3", "0,0,0/0,1,1 12/4 S S N", FF_PENULTIMATE, SOUTH, 14, 4, OUT_SOUTH },
    { "holes=3", "0,0,0/0,1,1 12/4 S S N", FF_FIRST_FINAL, NORTH, 12, 6, OUT_SOUTH },
};

static void test_awards(void **state)
{
    (void)state;
    int n = (int)(sizeof award_cases / sizeof award_cases[0]);
    for (int i = 0; i < n; i++) {
        const AwardCase *c = &award_cases[i];
        Variant v;
        Position p;
        Award a;
        Rng g;
        tu_position(c->opts, c->apn, &v, &p);
        assert_true(pos_over(&v, &p));
        v.final_four = c->ff;
        rng_seed(&g, 7, 0, (uint64_t)i);
        pos_award(&v, &p, &g, &a);
        if (a.recipient != c->recipient || a.score[SOUTH] != c->south
            || a.score[NORTH] != c->north)
            fail_msg("award case %d (%s, %s): recipient %d scores %d/%d, expected %d %d/%d", i,
                     c->apn, final_four_name(c->ff), a.recipient, a.score[SOUTH],
                     a.score[NORTH], c->recipient, c->south, c->north);
        assert_int_equal(a.left, p.left);
        assert_int_equal(a.penultimate, p.last_capturer);
        assert_int_equal(a.first_final, p.first_final);
        assert_int_equal(a.score[SOUTH] + a.score[NORTH], v.total);
        assert_int_equal(game_outcome(a.score[SOUTH], a.score[NORTH]), c->outcome);
        assert_int_equal(award_recipient(c->ff, a.penultimate, a.first_final, a.lottery),
                         c->recipient);
    }
}

/* lottery: the recipient is the game's coin, the same for the same stream whatever was drawn
 * from it, and fair over many games. */
static void test_lottery(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("final_four=lottery", "0,0,0,1/0,1,1,1 12/16 S N S", &v, &p);
    assert_int_equal(v.final_four, FF_LOTTERY);
    int south = 0, n = 2000;
    for (int i = 0; i < n; i++) {
        Rng g, drawn;
        Award a, b, c;
        rng_seed(&g, 99, 3, (uint64_t)i);
        pos_award(&v, &p, &g, &a);
        assert_true(a.lottery == SOUTH || a.lottery == NORTH);
        assert_int_equal(a.recipient, a.lottery);
        assert_int_equal(a.score[a.lottery], p.store[a.lottery] + 4);
        assert_int_equal(a.score[!a.lottery], p.store[!a.lottery]);
        /* The same stream gives the same coin, also after draws from it (the agents'). */
        pos_award(&v, &p, &g, &b);
        assert_int_equal(b.lottery, a.lottery);
        drawn = g;
        for (int k = 0; k < 1 + i % 5; k++)
            rng_next(&drawn);
        pos_award(&v, &p, &drawn, &c);
        assert_int_equal(c.lottery, a.lottery);
        south += a.lottery == SOUTH;
    }
    /* Fair: 2000 tosses, sd about 22; 40% .. 60% is more than 8 sd each way. */
    assert_in_range(south, n * 2 / 5, n * 3 / 5);
}

/* The start position, legal moves, and why an illegal move is refused. */
static void test_start_and_legality(void **state)
{
    (void)state;
    Variant v;
    Position p;
    Error e;
    uint8_t moves[MAX_PITS];
    tu_position("", "start", &v, &p);
    assert_string_equal(tu_apn(&v, &p),
                        "4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -");
    assert_int_equal(pos_legal_moves(&v, &p, moves), 12);
    for (int i = 0; i < 12; i++)
        assert_int_equal(moves[i], i);

    tu_position("", "0,2,0,1/3,0,1,1 10/6 N - -", &v, &p);
    assert_int_equal(pos_legal_moves(&v, &p, moves), 3);
    assert_int_equal(moves[0], 4);
    assert_int_equal(moves[1], 6);
    assert_int_equal(moves[2], 7);
    assert_false(pos_move_ok(&v, &p, 5, &e));
    assert_non_null(strstr(e.msg, "empty"));
    assert_false(pos_move_ok(&v, &p, 1, &e));
    assert_non_null(strstr(e.msg, "South's"));
    assert_false(pos_move_ok(&v, &p, 8, &e));
    assert_non_null(strstr(e.msg, "no such hole"));
    assert_false(pos_move_ok(&v, &p, -1, &e));
    assert_true(pos_move_ok(&v, &p, 4, &e));

    /* Over: no legal moves at all. */
    tu_position("", "0,0,0,1/0,1,1,1 12/16 S N S", &v, &p);
    assert_int_equal(pos_legal_moves(&v, &p, moves), 0);
    assert_false(pos_move_ok(&v, &p, 3, &e));
    assert_non_null(strstr(e.msg, "over"));
}

/* A whole game through game_play with scripted agents: a hand loop plays the highest legal
 * hole every ply; game_play, with agents that replay those moves, must record the same plies,
 * passes, stores, award and outcome. */
typedef struct Script {
    const int *moves;
    int n, next;
} Script;

/* Play the script's next move (shared by both sides). */
static int script_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                         AgentStats *st)
{
    (void)v;
    (void)p;
    (void)rng;
    (void)st;
    Script *s = a->data;
    assert_true(s->next < s->n);
    return s->moves[s->next++];
}

static void test_scripted_game(void **state)
{
    (void)state;
    static const char *const opts[] = { "holes=3 seeds=3", "holes=4 seeds=2", "holes=5 seeds=4",
                                        "variant=yit-nuri final_four=first-final" };
    for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
        Variant v;
        Position p;
        int moves[4096], n = 0;
        uint32_t passes = 0;
        bool endless = false;
        tu_variant(opts[o], &v);
        pos_start(&v, &p);
        /* The hand loop: always the highest legal hole. */
        while (!pos_over(&v, &p) && n < 4096) {
            uint8_t legal[MAX_PITS];
            MoveInfo info;
            int k = pos_legal_moves(&v, &p, legal);
            assert_true(k > 0);
            moves[n++] = legal[k - 1];
            if (pos_play(&v, &p, legal[k - 1], &p, &info, NULL) == EV_ENDLESS) {
                endless = true;
                break;
            }
            passes += info.passed;
        }
        assert_true(n < 4096);
        Script s = { moves, n, 0 };
        Agent south = { .name = "script", .choose = script_choose, .data = &s };
        Agent north = south;
        Rng g;
        GameRecord r;
        rng_seed(&g, 5, 0, o);
        game_play(&v, &south, &north, &g, &r);
        assert_int_equal(s.next, n);
        assert_int_equal(r.plies, (uint32_t)n);
        assert_int_equal(r.passes, passes);
        if (endless) {
            assert_int_equal(r.outcome, OUT_ENDLESS);
            assert_int_equal(r.south, p.store[SOUTH]);
            assert_int_equal(r.north, p.store[NORTH]);
        } else {
            Award a;
            pos_award(&v, &p, &g, &a);
            assert_int_equal(r.south, a.score[SOUTH]);
            assert_int_equal(r.north, a.score[NORTH]);
            assert_int_equal(r.outcome, game_outcome(a.score[SOUTH], a.score[NORTH]));
            assert_int_equal(r.south + r.north, v.total);
        }
        assert_int_equal(r.left, p.left);
        assert_int_equal(r.last_capturer, p.last_capturer);
        assert_int_equal(r.first_final, p.first_final);
    }
}

/* A game that ends with an endless move (docs/rules.md rule 6): 3 holes of 3 seeds, moves 1 0 5 1.
 * South's 1 captures three groups (2 and 4 to South, 3 to North: 8/4) and moves again; 0 ends
 * in empty hole 3; North's 5 relays from 2 and ends in 4, leaving 1,2,0/2,1,0; South's 1 then
 * never ends. The game stops `endless` after 4 plies, no award: the stores as they stood. */
static void test_scripted_endless_game(void **state)
{
    (void)state;
    static const int moves[] = { 1, 0, 5, 1 };
    Variant v;
    Script s = { moves, 4, 0 };
    Agent south = { .name = "script", .choose = script_choose, .data = &s };
    Agent north = south;
    Rng g;
    GameRecord r;
    tu_variant("holes=3 seeds=3", &v);
    rng_seed(&g, 5, 1, 0);
    game_play(&v, &south, &north, &g, &r);
    assert_int_equal(s.next, 4);
    assert_int_equal(r.outcome, OUT_ENDLESS);
    assert_int_equal(r.plies, 4);
    assert_int_equal(r.passes, 0);
    assert_int_equal(r.south, 8);
    assert_int_equal(r.north, 4);
    assert_int_equal(r.left, 6);
    assert_int_equal(r.mid_captures, 2);
    assert_int_equal(r.final_captures, 1);
}

/* The hand loop's line from p: the highest legal hole every ply, at most max moves (or until
 * the game ends); *end is where it stops. */
static int highest_line(const Variant *v, const Position *p, int *moves, int max, Position *end)
{
    int n = 0;
    *end = *p;
    while (n < max && !pos_over(v, end)) {
        uint8_t legal[MAX_PITS];
        MoveInfo info;
        int k = pos_legal_moves(v, end, legal);
        moves[n++] = legal[k - 1];
        Position next;
        if (pos_play(v, end, legal[k - 1], &next, &info, NULL) == EV_ENDLESS)
            break;
        *end = next;
    }
    return n;
}

/* What the observer saw: every move, checked against pos_play, in order. */
typedef struct Seen {
    const Variant *v;
    int moves[4096];
    int n, chosen;            /* moves seen; of them, chosen by an agent */
} Seen;

/* Check one observed move and keep it. */
static void see_move(void *ctx, const GameMove *m)
{
    Seen *s = ctx;
    Position after;
    MoveInfo info;
    assert_int_equal(m->ply, (uint32_t)s->n + 1);
    assert_int_equal(pos_play(s->v, m->before, m->move, &after, &info, NULL), m->ev);
    if (m->ev != EV_ENDLESS)
        assert_memory_equal(&after, m->after, sizeof after);
    assert_memory_equal(&info, m->info, sizeof info);
    assert_int_equal(m->trace->n, (int)(info.mid_captures + info.final_capture));
    assert_true(s->n < 4096);
    s->moves[s->n++] = m->move;
    s->chosen += m->stats != NULL;
}

/* A game from a given position and given moves: the given moves are plies of the game, the
 * agents choose only after them, and the observer sees every move with its ply. */
static void test_game_from_position_and_moves(void **state)
{
    (void)state;
    Variant v;
    Position p, mid, end;
    int line[4096], rest[4096];
    tu_variant("holes=5 seeds=4", &v);
    pos_start(&v, &p);
    /* The start of the game: three plies in, then three given moves, then the agents. */
    int pre = highest_line(&v, &p, line, 3, &mid);
    assert_int_equal(pre, 3);
    int n = highest_line(&v, &mid, line, 4096, &end);
    assert_true(n > 3 && n < 4096);
    memcpy(rest, line + 3, (size_t)(n - 3) * sizeof *rest);
    Script sc = { rest, n - 3, 0 };
    Agent south = { .name = "script", .choose = script_choose, .data = &sc };
    Agent north = south;
    Seen seen = { .v = &v };
    GameOptions o = { .start = { .position = &mid, .moves = line, .n_moves = 3 },
                      .observe = see_move, .observer_ctx = &seen };
    Rng g;
    GameRecord r;
    Position stopped;
    rng_seed(&g, 5, 2, 0);
    assert_int_equal(game_play_from(&v, &south, &north, &g, &o, &r, &stopped), 0);
    assert_int_equal(sc.next, n - 3);
    assert_int_equal(r.plies, (uint32_t)n);
    assert_int_equal(seen.n, n);
    assert_int_equal(seen.chosen, n - 3);
    assert_memory_equal(seen.moves, line, (size_t)n * sizeof *line);
    assert_memory_equal(&stopped, &end, sizeof end);
    assert_int_equal(r.left, end.left);
}

/* The ply cap of the options, and its two judgements: kept unfinished (the stores as they
 * stood), or won by the side with more seeds in its store. */
static void test_game_ply_cap_judgement(void **state)
{
    (void)state;
    Variant v;
    Position p, end;
    int line[4096];
    int unequal = 0;
    tu_variant("holes=5 seeds=4", &v);
    pos_start(&v, &p);
    int full = highest_line(&v, &p, line, 4096, &end);
    for (int cap = 1; cap < full && cap < 40; cap++) {
        highest_line(&v, &p, line, cap, &end);
        if (pos_over(&v, &end))
            continue;
        for (int j = 0; j < 2; j++) {
            Script sc = { line, cap, 0 };
            Agent south = { .name = "script", .choose = script_choose, .data = &sc };
            Agent north = south;
            GameOptions o = { .max_plies = cap,
                              .unfinished = j ? UNFINISHED_BY_STORES : UNFINISHED_KEPT };
            Rng g;
            GameRecord r;
            rng_seed(&g, 5, 4, (uint64_t)cap);
            assert_int_equal(game_play_from(&v, &south, &north, &g, &o, &r, NULL), 0);
            assert_int_equal(r.plies, (uint32_t)cap);
            assert_int_equal(r.south, end.store[SOUTH]);
            assert_int_equal(r.north, end.store[NORTH]);
            int want = OUT_UNFINISHED;
            if (j && end.store[SOUTH] != end.store[NORTH])
                want = end.store[SOUTH] > end.store[NORTH] ? OUT_SOUTH : OUT_NORTH;
            assert_int_equal(r.outcome, want);
            unequal += j && want != OUT_UNFINISHED;
        }
    }
    assert_true(unequal > 0);   /* the store judgement was met */
}

/* FNV-1a of moves[0 .. n-1], as docs/results.md defines moves_hash, computed here apart from
 * the game loop. */
static uint64_t fnv_of_moves(const int *moves, int n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ (uint64_t)moves[i]) * 0x100000001b3ULL;
    return h;
}

/* line_hash is the hash of the game's first 10 plies, given moves (an opening) included, and
 * the whole game's (moves_hash) for a game of fewer plies: games stopped by caps of 1 to 12
 * plies, and the whole game. */
static void test_game_line_hash(void **state)
{
    (void)state;
    Variant v;
    Position p, end;
    int line[4096];
    tu_variant("holes=5 seeds=4", &v);
    pos_start(&v, &p);
    int full = highest_line(&v, &p, line, 4096, &end);
    assert_true(full > 12);
    for (int cap = 1; cap <= 13; cap++) {
        int n = cap <= 12 ? cap : full;   /* 13: no cap, the whole game */
        int given = n < 3 ? n : 3;
        Script sc = { line + given, n - given, 0 };
        Agent south = { .name = "script", .choose = script_choose, .data = &sc };
        Agent north = south;
        GameOptions o = { .start = { .moves = line, .n_moves = (uint32_t)given },
                          .max_plies = cap <= 12 ? cap : 0 };
        Rng g;
        GameRecord r;
        rng_seed(&g, 5, 6, (uint64_t)cap);
        assert_int_equal(game_play_from(&v, &south, &north, &g, &o, &r, NULL), 0);
        assert_int_equal(r.plies, (uint32_t)n);
        assert_int_equal(r.moves_hash, fnv_of_moves(line, n));
        assert_int_equal(r.line_hash, fnv_of_moves(line, n < 10 ? n : 10));
        if (n < 10)
            assert_int_equal(r.line_hash, r.moves_hash);
    }
}

/* Plays the script to its end, then returns AGENT_NO_MEMORY, as a search out of memory. */
static int refusing_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                           AgentStats *st)
{
    Script *s = a->data;
    return s->next < s->n ? script_choose(a, v, p, rng, st) : AGENT_NO_MEMORY;
}

/* An agent that gives up abandons the game: its code comes back, with the plies made and the
 * position it was asked about. */
static void test_game_abandoned(void **state)
{
    (void)state;
    Variant v;
    Position p, end, stopped;
    int line[4096];
    tu_variant("holes=5 seeds=4", &v);
    pos_start(&v, &p);
    highest_line(&v, &p, line, 2, &end);
    Script sc = { line, 2, 0 };
    Agent south = { .name = "refusing", .choose = refusing_choose, .data = &sc };
    Agent north = south;
    Rng g;
    GameRecord r;
    rng_seed(&g, 5, 5, 0);
    memset(&stopped, 0xff, sizeof stopped);
    memset(&r, 0xff, sizeof r);
    assert_int_equal(game_play_from(&v, &south, &north, &g, NULL, &r, &stopped),
                     AGENT_NO_MEMORY);
    assert_int_equal(r.plies, 2);
    assert_memory_equal(&stopped, &end, sizeof end);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_cases),
        cmocka_unit_test(test_seed_bound),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_trace_laps),
        cmocka_unit_test(test_awards),
        cmocka_unit_test(test_lottery),
        cmocka_unit_test(test_start_and_legality),
        cmocka_unit_test(test_scripted_game),
        cmocka_unit_test(test_scripted_endless_game),
        cmocka_unit_test(test_game_from_position_and_moves),
        cmocka_unit_test(test_game_ply_cap_judgement),
        cmocka_unit_test(test_game_line_hash),
        cmocka_unit_test(test_game_abandoned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
