/* test_game_api.c: libanywoli_game.so through its header alone, as a binding uses it: a
 * state's life (new, clone, free), moves and their counts, APN in and out, results under each
 * convention, and every refusal with its message. Linked against the shared library, so the
 * sanitizer build checks the library's memory as Python would use it. (The rule vectors and
 * the agreement with `anywoli move` are python/tests/test_game.py's.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "anywoli_game.h"

static const char *const no_names[1] = { NULL };

static AwGame *game_of(const char *preset, int n, const char *const *names,
                       const char *const *values, const char *apn)
{
    AwGame *g = aw_new(preset, n, names, values, apn);
    if (!g)
        fail_msg("aw_new: %s", aw_last_error());
    return g;
}

static void test_start_and_moves(void **state)
{
    (void)state;
    AwGame *g = game_of("yit-nuri", 0, no_names, no_names, NULL);
    char apn[AW_APN_MAX];
    assert_int_equal(aw_to_apn(g, apn, sizeof apn), 37);
    assert_string_equal(apn, "4,4,4,4,4,4,4/4,4,4,4,4,4,4 0/0 S - -");
    int moves[AW_MAX_PITS];
    assert_int_equal(aw_legal_moves(g, moves, AW_MAX_PITS), 7);
    assert_int_equal(moves[6], 6);
    assert_int_equal(aw_legal_moves(g, moves, 3), -1);
    assert_non_null(strstr(aw_last_error(), "do not fit"));
    int info[AW_INFO_N];
    assert_int_equal(aw_play_moves(g, 3, info, moves), AW_EV_NEXT);
    assert_int_equal(info[AW_INFO_MOVER], 0);
    assert_int_equal(info[AW_INFO_STATUS], AW_PLAYING);
    assert_int_equal(info[AW_INFO_N_MOVES], aw_legal_moves(g, moves, AW_MAX_PITS));
    assert_int_equal(aw_side_to_move(g), 1);
    assert_int_equal(aw_plies(g), 1);
    int board[AW_MAX_PITS + 2];
    assert_int_equal(aw_board(g, board, AW_MAX_PITS + 2), 16);
    int seeds = 0;
    for (int i = 0; i < 16; i++)
        seeds += board[i];
    assert_int_equal(seeds, 56);
    assert_int_equal(aw_board(g, board, 15), -1);
    assert_int_equal(aw_to_apn(g, apn, 10), -1);
    aw_free(g);
    aw_free(NULL);
}

static void test_parameters(void **state)
{
    (void)state;
    const char *names[] = { "holes", "final-four", "extra_turn" };
    const char *values[] = { "5", "lottery", "no" };
    AwGame *g = game_of(NULL, 3, names, values, NULL);
    char text[320];
    assert_true(aw_variant(g, text, sizeof text) > 0);
    assert_non_null(strstr(text, "holes=5 seeds=4 capture=4 final_four=lottery extra_turn=no"));
    assert_int_equal(aw_holes(g), 5);
    aw_free(g);

    static const struct { const char *name, *value, *says; } bad[] = {
        { "holes", "99", "holes: 99 is out of range (2 to 32)" },
        { "colour", "1", "unknown variant parameter 'colour'" },
        { "seeds", "x", "seeds: 'x' is not a whole number" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_null(aw_new(NULL, 1, &bad[i].name, &bad[i].value, NULL));
        assert_non_null(strstr(aw_last_error(), bad[i].says));
    }
    const char *twice[] = { "holes", "holes" }, *vals[] = { "5", "6" };
    assert_null(aw_new(NULL, 2, twice, vals, NULL));
    assert_string_equal(aw_last_error(), "holes: given twice");
    assert_null(aw_new("nope", 0, no_names, no_names, NULL));
    assert_non_null(strstr(aw_last_error(), "unknown preset 'nope'"));
    assert_null(aw_new(NULL, 0, no_names, no_names, "4,4/4,4 0/0 S"));
    assert_non_null(strstr(aw_last_error(), "APN"));
}

static void test_refusals_leave_the_state(void **state)
{
    (void)state;
    AwGame *g = game_of(NULL, 0, no_names, no_names, NULL);
    char before[AW_APN_MAX], after[AW_APN_MAX];
    aw_to_apn(g, before, sizeof before);
    assert_int_equal(aw_play(g, 12, NULL), -1);
    assert_non_null(strstr(aw_last_error(), "North's"));
    assert_int_equal(aw_play(g, -1, NULL), -1);
    assert_int_equal(aw_play(g, 1000000, NULL), -1);
    aw_to_apn(g, after, sizeof after);
    assert_string_equal(before, after);
    assert_int_equal(aw_plies(g), 0);
    int scores[2];
    assert_int_equal(aw_result(g, NULL, scores), -1);
    assert_string_equal(aw_last_error(), "the game is not over: no result yet");
    assert_int_equal(aw_store(g, 2), -1);
    aw_free(g);
}

static void test_results_by_convention(void **state)
{
    (void)state;
    /* Four seeds left: the penultimate group went South, the first final capture North. */
    AwGame *g = game_of(NULL, 0, no_names, no_names, "1,1,0,0,0,0/0,0,0,0,1,1 22/22 S S N");
    assert_int_equal(aw_status(g), AW_OVER);
    assert_true(aw_is_over(g));
    assert_int_equal(aw_play(g, 0, NULL), -1);
    assert_string_equal(aw_last_error(), "the game is over");
    int scores[2];
    assert_int_equal(aw_result(g, "penultimate", scores), AW_SOUTH_WON);
    assert_int_equal(scores[0], 26);
    assert_int_equal(aw_result(g, "first-final", scores), AW_NORTH_WON);
    assert_int_equal(scores[1], 26);
    assert_int_equal(aw_result(g, NULL, scores), AW_SOUTH_WON);   /* the variant's own */
    int won[2] = { 0, 0 };
    for (uint64_t seed = 0; seed < 16; seed++) {
        aw_set_seed(g, seed);
        won[aw_result(g, "lottery", scores)]++;
    }
    assert_true(won[0] > 0 && won[1] > 0);
    assert_int_equal(aw_result(g, "coin", scores), -1);
    assert_non_null(strstr(aw_last_error(), "'coin' is not a convention"));
    aw_free(g);
}

static void test_clone_and_playout(void **state)
{
    (void)state;
    const char *names[] = { "max_plies" }, *values[] = { "100000" };
    AwGame *g = game_of("yit-jani", 1, names, values, NULL);
    assert_int_equal(aw_play(g, 0, NULL), AW_EV_NEXT);
    AwGame *c = aw_clone(g);
    int64_t plies = 0;
    int status = aw_random_playout(g, 5, &plies);
    assert_true(status == AW_OVER || status == AW_ENDLESS || status == AW_UNFINISHED);
    assert_int_equal(aw_plies(g), plies + 1);
    assert_int_equal(aw_plies(c), 1);
    assert_int_equal(aw_random_playout(c, 5, NULL), status);
    char a[AW_APN_MAX], b[AW_APN_MAX];
    aw_to_apn(g, a, sizeof a);
    aw_to_apn(c, b, sizeof b);
    assert_string_equal(a, b);
    assert_int_equal(aw_random_playout(c, 5, NULL), -1);
    int moves[AW_MAX_PITS];
    assert_int_equal(aw_legal_moves(c, moves, AW_MAX_PITS), 0);
    aw_free(c);
    aw_free(g);
}

static void test_unfinished_at_max_plies(void **state)
{
    (void)state;
    const char *names[] = { "max_plies" }, *values[] = { "3" };
    AwGame *g = game_of(NULL, 1, names, values, NULL);
    int info[AW_INFO_N], moves[AW_MAX_PITS];
    for (int i = 0; i < 3; i++) {
        assert_true(aw_legal_moves(g, moves, AW_MAX_PITS) > 0);
        assert_true(aw_play(g, moves[0], info) >= 0);
    }
    assert_int_equal(info[AW_INFO_STATUS], AW_UNFINISHED);
    int scores[2];
    assert_int_equal(aw_result(g, "lottery", scores), AW_OUT_UNFINISHED);
    assert_int_equal(scores[0], aw_store(g, 0));
    assert_int_equal(aw_play(g, moves[0], NULL), -1);
    assert_non_null(strstr(aw_last_error(), "max_plies"));
    aw_free(g);
}

int main(void)
{
    assert_int_equal(aw_api_version(), AW_API_VERSION);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_and_moves),
        cmocka_unit_test(test_parameters),
        cmocka_unit_test(test_refusals_leave_the_state),
        cmocka_unit_test(test_results_by_convention),
        cmocka_unit_test(test_clone_and_playout),
        cmocka_unit_test(test_unfinished_at_max_plies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
