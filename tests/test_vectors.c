/* test_vectors.c: the rule vectors in tests/data/vectors, every
 * line: single moves, endless moves and whole random games with their final awards. */
#include "test_util.h"

/* moves-PRESET.txt: `APN before|move|APN after|event`. */
static void check_moves(const char *preset)
{
    char rel[64], path[1024], opts[64];
    snprintf(rel, sizeof rel, "vectors/moves-%s.txt", preset);
    snprintf(opts, sizeof opts, "variant=%s", preset);
    Lines l = tu_read_lines(tu_data_path(rel, path, sizeof path));
    int events[4] = { 0 };
    for (int i = 0; i < l.n; i++) {
        char *f[4];
        if (tu_split(l.line[i], '|', f, 4) != 4)
            fail_msg("%s:%d: expected 4 fields", rel, i + 1);
        Variant v;
        Position p, q;
        Error e;
        MoveInfo info;
        tu_position(opts, f[0], &v, &p);
        /* The APN reads back as written. */
        if (strcmp(tu_apn(&v, &p), f[0]) != 0)
            fail_msg("%s:%d: '%s' formats back as '%s'", rel, i + 1, f[0], tu_apn(&v, &p));
        int move = atoi(f[1]);
        if (!pos_move_ok(&v, &p, move, &e))
            fail_msg("%s:%d: move %d refused: %s", rel, i + 1, move, e.msg);
        MoveEvent ev = pos_play(&v, &p, move, &q, &info, NULL);
        const char *got = tu_apn(&v, &q);
        if (strcmp(got, f[2]) != 0 || strcmp(move_event_name(ev), f[3]) != 0)
            fail_msg("%s:%d: %s, move %d: got '%s %s', expected '%s %s'", rel, i + 1, f[0],
                     move, got, move_event_name(ev), f[2], f[3]);
        if (!pos_ok(&v, &q))
            fail_msg("%s:%d: pos_ok fails after the move", rel, i + 1);
        /* In-place play (in and out aliased) gives the same. */
        MoveInfo info2;
        assert_int_equal(pos_play(&v, &p, move, &p, &info2, NULL), ev);
        assert_string_equal(tu_apn(&v, &p), f[2]);
        events[ev]++;
    }
    /* The files mix every kind of move but endless. */
    assert_true(events[EV_NEXT] > 0 && events[EV_EXTRA] > 0 && events[EV_OVER] > 0);
    assert_int_equal(events[EV_ENDLESS], 0);
    tu_free_lines(&l);
}

static void test_moves_anywoli(void **state)
{
    (void)state;
    check_moves("anywoli");
}

static void test_moves_yit_nuri(void **state)
{
    (void)state;
    check_moves("yit-nuri");
}

static void test_moves_yit_jani(void **state)
{
    (void)state;
    check_moves("yit-jani");
}

/* endless.txt: `APN|move` on 6 holes, seeds from the total; the move never ends. */
static void test_endless(void **state)
{
    (void)state;
    char path[1024];
    Lines l = tu_read_lines(tu_data_path("vectors/endless.txt", path, sizeof path));
    for (int i = 0; i < l.n; i++) {
        char *f[2];
        if (tu_split(l.line[i], '|', f, 2) != 2)
            fail_msg("endless.txt:%d: expected 2 fields", i + 1);
        Variant v;
        Position p, q;
        Error e;
        MoveInfo info;
        variant_default(&v);
        if (apn_parse(f[0], &v, false, false, &p, &e) != 0)
            fail_msg("endless.txt:%d: %s", i + 1, e.msg);
        assert_int_equal(v.holes, 6);
        assert_int_equal(v.total, 2 * 6 * v.seeds);
        int move = atoi(f[1]);
        assert_true(pos_move_ok(&v, &p, move, &e));
        memset(&q, 0xa5, sizeof q);
        MoveEvent ev = pos_play(&v, &p, move, &q, &info, NULL);
        if (ev != EV_ENDLESS)
            fail_msg("endless.txt:%d: %s move %d: event %s, expected endless (after: %s)",
                     i + 1, f[0], move, move_event_name(ev), tu_apn(&v, &q));
        assert_string_equal(move_event_name(ev), "endless");
        /* The position is reported as it stood before the move. */
        assert_string_equal(tu_apn(&v, &q), f[0]);
        assert_memory_equal(&q, &p, sizeof p);
        assert_true(info.laps > 1);
    }
    tu_free_lines(&l);
}

/* Parse `penultimate=S/N` style fields. */
static void parse_score(const char *field, const char *name, int score[2])
{
    char fmt[64];
    snprintf(fmt, sizeof fmt, "%s=%%d/%%d", name);
    if (sscanf(field, fmt, &score[0], &score[1]) != 2)
        fail_msg("'%s' is not %s=S/N", field, name);
}

/* games files: `H S|m1 m2 ...|final APN|over plies=P passes=Q penultimate=S/N first-final=S/N`. */
static void check_games(const char *file)
{
    char rel[64], path[1024];
    snprintf(rel, sizeof rel, "vectors/%s", file);
    Lines l = tu_read_lines(tu_data_path(rel, path, sizeof path));
    bool all_captured = strcmp(file, "games-all-captured.txt") == 0;
    for (int i = 0; i < l.n; i++) {
        char *f[4], *r[6];
        if (tu_split(l.line[i], '|', f, 4) != 4)
            fail_msg("%s:%d: expected 4 fields", file, i + 1);
        int holes, seeds, plies, passes, pen[2], ff[2];
        if (sscanf(f[0], "%d %d", &holes, &seeds) != 2)
            fail_msg("%s:%d: bad board '%s'", file, i + 1, f[0]);
        if (tu_split(f[3], ' ', r, 6) != 5 || strcmp(r[0], "over") != 0
            || sscanf(r[1], "plies=%d", &plies) != 1 || sscanf(r[2], "passes=%d", &passes) != 1)
            fail_msg("%s:%d: bad result field", file, i + 1);
        parse_score(r[3], "penultimate", pen);
        parse_score(r[4], "first-final", ff);
        int room = 1;
        for (const char *c = f[1]; *c; c++)
            room += *c == ' ';
        char **mv = malloc((size_t)room * sizeof *mv);
        assert_non_null(mv);
        int n = tu_split(f[1], ' ', mv, room);
        assert_int_equal(n, room);

        Variant v;
        char opts[64];
        snprintf(opts, sizeof opts, "holes=%d seeds=%d", holes, seeds);
        tu_variant(opts, &v);
        Position p;
        pos_start(&v, &p);
        int got_passes = 0;
        for (int k = 0; k < n; k++) {
            Error e;
            MoveInfo info;
            int move = atoi(mv[k]);
            if (!pos_move_ok(&v, &p, move, &e))
                fail_msg("%s:%d: ply %d, move %d illegal in %s: %s", file, i + 1, k + 1, move,
                         tu_apn(&v, &p), e.msg);
            MoveEvent ev = pos_play(&v, &p, move, &p, &info, NULL);
            got_passes += info.passed;
            if (!pos_ok(&v, &p))
                fail_msg("%s:%d: ply %d: pos_ok fails", file, i + 1, k + 1);
            if ((ev == EV_OVER) != (k == n - 1))
                fail_msg("%s:%d: ply %d of %d: event %s", file, i + 1, k + 1, n,
                         move_event_name(ev));
        }
        if (strcmp(tu_apn(&v, &p), f[2]) != 0)
            fail_msg("%s:%d: final position '%s', expected '%s'", file, i + 1, tu_apn(&v, &p),
                     f[2]);
        free(mv);
        assert_int_equal(n, plies);
        if (all_captured)
            assert_int_equal(p.left, 0);
        if (got_passes != passes)
            fail_msg("%s:%d: %d passes, expected %d", file, i + 1, got_passes, passes);

        /* The final award under the two deterministic conventions. */
        static const struct { FinalFour ff; const char *name; } conv[] = {
            { FF_PENULTIMATE, "penultimate" }, { FF_FIRST_FINAL, "first-final" },
        };
        for (int c = 0; c < 2; c++) {
            Award a;
            Rng g;
            rng_seed(&g, 1, 0, (uint64_t)i);
            v.final_four = conv[c].ff;
            pos_award(&v, &p, &g, &a);
            const int *want = c == 0 ? pen : ff;
            if (a.score[SOUTH] != want[0] || a.score[NORTH] != want[1])
                fail_msg("%s:%d: %s award %d/%d, expected %d/%d", file, i + 1, conv[c].name,
                         a.score[SOUTH], a.score[NORTH], want[0], want[1]);
            assert_int_equal(a.score[SOUTH] + a.score[NORTH], v.total);
            assert_int_equal(a.left, p.left);
        }
    }
    tu_free_lines(&l);
}

static void test_games_anywoli(void **state)
{
    (void)state;
    check_games("games-anywoli.txt");
}

static void test_games_yit_nuri(void **state)
{
    (void)state;
    check_games("games-yit-nuri.txt");
}

static void test_games_yit_jani(void **state)
{
    (void)state;
    check_games("games-yit-jani.txt");
}

static void test_games_all_captured(void **state)
{
    (void)state;
    check_games("games-all-captured.txt");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_anywoli),
        cmocka_unit_test(test_moves_yit_nuri),
        cmocka_unit_test(test_moves_yit_jani),
        cmocka_unit_test(test_endless),
        cmocka_unit_test(test_games_anywoli),
        cmocka_unit_test(test_games_yit_nuri),
        cmocka_unit_test(test_games_yit_jani),
        cmocka_unit_test(test_games_all_captured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
