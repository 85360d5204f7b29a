/* test_book.c: the balanced book (sim/book.c). Every line's value against a plain negamax
 * written here (no pruning, no table: the documented convention, South's lead in seeds,
 * forced moves played first); the window and --max selection recomputed from the values; the
 * same book for 1 and 2 threads; the written book read back by openings_load, line for line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "book.h"
#include "eval.h"
#include "openings.h"
#include "position.h"
#include "variant.h"

#include "test_util.h"

#define TEST_TMP_NAME "book"
#include "test_tmp.h"

/* Negamax without pruning: p's value for its side to move, `depth` plies (at least 1), with
 * the evaluation at the horizon and exact ends, negated only where the side changes. */
static int32_t negamax(const Evaluator *ev, const Variant *v, const Position *p, int depth)
{
    uint8_t moves[MAX_PITS];
    int n = pos_legal_moves(v, p, moves);
    int32_t best = INT32_MIN;
    for (int i = 0; i < n; i++) {
        Position c;
        MoveInfo info;
        MoveEvent e = pos_play(v, p, moves[i], &c, &info, NULL);
        int32_t x;
        if (e >= EV_OVER)
            x = eval_final(v, &c, e);
        else {
            x = depth <= 1 ? eval_position(ev, v, &c) : negamax(ev, v, &c, depth - 1);
            if (c.side != p->side)
                x = -x;
        }
        if (x > best)
            best = x;
    }
    return best;
}

/* The documented value of a line's position: forced moves played, then South's negamax. */
static int32_t reference_value(const Variant *v, const Position *start, int depth)
{
    Evaluator ev;
    EvalWeights w;
    eval_default(&w);
    eval_prepare(&w, &ev);
    Position p = *start;
    uint8_t moves[MAX_PITS];
    while (pos_legal_moves(v, &p, moves) == 1) {
        Position c;
        MoveInfo info;
        MoveEvent e = pos_play(v, &p, moves[0], &c, &info, NULL);
        if (e >= EV_OVER)
            return c.side == SOUTH ? eval_final(v, &c, e) : -eval_final(v, &c, e);
        p = c;
    }
    int32_t x = negamax(&ev, v, &p, depth);
    return p.side == SOUTH ? x : -x;
}

/* Make a book that must be made, with `threads` threads. */
static Book make_ok(const Variant *v, const BookSettings *s, int threads)
{
    Book b;
    Error e = { "" };
    omp_set_num_threads(threads);
    if (book_make(&b, v, s, &e) != 0)
        fail_msg("book_make: %s", e.msg);
    return b;
}

/* Every line's value is the reference's; kept exactly when within the window. */
static void check_values(const Variant *v, const Book *b, const BookSettings *s)
{
    int64_t in = 0;
    for (int64_t i = 0; i < b->lines.count; i++) {
        Position p;
        opening_position(v, &b->lines.list[i], &p);
        assert_int_equal(b->value[i], reference_value(v, &p, s->depth));
        bool within = llabs(b->value[i]) <= s->window;
        assert_int_equal(b->kept[i], within);
        in += within;
    }
    assert_int_equal(b->in_window, in);
    assert_int_equal(b->kept_count, in);
    assert_true(in > 0 && in < b->lines.count);   /* the window does select */
}

/* Values and selection on the standard board and on Yit Nuri (depths 2 and 3). */
static void test_values_and_window(void **state)
{
    (void)state;
    static const char *yit_nuri = "holes=7";
    const Variant standard = tu_variant_of(""), nuri = tu_variant_of(yit_nuri);
    BookSettings s = { .plies = 2, .depth = 2, .window = 100 };
    Book b = make_ok(&standard, &s, 1);
    assert_int_equal(b.lines.count, 116);
    check_values(&standard, &b, &s);
    book_free(&b);
    s = (BookSettings){ .plies = 3, .depth = 3, .window = 150 };
    b = make_ok(&nuri, &s, 2);
    assert_int_equal(b.lines.count, 250);
    check_values(&nuri, &b, &s);
    book_free(&b);
}

/* --max: the M within the window closest to 0, ties by list order. */
static void test_max(void **state)
{
    (void)state;
    const Variant v = tu_variant_of("");
    BookSettings s = { .plies = 2, .depth = 2, .window = 200, .max = 0 };
    Book all = make_ok(&v, &s, 1);
    s.max = 5;
    Book cut = make_ok(&v, &s, 1);
    assert_true(all.kept_count > 5);
    assert_int_equal(cut.kept_count, 5);
    assert_int_equal(cut.in_window, all.kept_count);
    /* The 5th smallest distance D: every line nearer is kept, and of those at D the first. */
    int32_t worst = -1;
    for (int64_t i = 0; i < cut.lines.count; i++)
        if (cut.kept[i] && llabs(cut.value[i]) > worst)
            worst = (int32_t)llabs(cut.value[i]);
    bool passed_over = false;
    for (int64_t i = 0; i < cut.lines.count; i++) {
        int32_t d = (int32_t)llabs(cut.value[i]);
        if (d < worst)
            assert_true(cut.kept[i]);
        else if (d > worst)
            assert_false(cut.kept[i]);
        else if (!cut.kept[i])
            passed_over = true;
        else
            assert_false(passed_over);   /* a tie kept after one passed over */
    }
    book_free(&all);
    book_free(&cut);
}

/* The same values and book text for 1 and 2 threads, also with a node budget. */
static void test_threads(void **state)
{
    (void)state;
    const Variant v = tu_variant_of("");
    BookSettings settings[] = { { .plies = 2, .depth = 4, .window = 100 },
                                { .plies = 2, .depth = 64, .nodes = 3000, .window = 100 } };
    for (int k = 0; k < 2; k++) {
        Book one = make_ok(&v, &settings[k], 1), two = make_ok(&v, &settings[k], 2);
        assert_int_equal(one.lines.count, two.lines.count);
        assert_memory_equal(one.value, two.value, (size_t)one.lines.count * sizeof *one.value);
        assert_memory_equal(one.kept, two.kept, (size_t)one.lines.count * sizeof *one.kept);
        book_free(&one);
        book_free(&two);
    }
}

/* The written book: its header comments, and openings_load reads back the kept lines, in
 * list order, as move lists. */
static void test_written_book_loads(void **state)
{
    (void)state;
    const Variant v = tu_variant_of("");
    BookSettings s = { .plies = 2, .depth = 2, .window = 100 };
    Book b = make_ok(&v, &s, 2);
    const char *path = tmp_path("book.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    Error e = { "" };
    assert_int_equal(book_write(&b, &v, &s, "anywoli openings --plies 2", f, &e), 0);
    fclose(f);
    char spec[300];
    snprintf(spec, sizeof spec, "file:%s", path);
    OpeningSet loaded;
    if (openings_load(&loaded, spec, &v, &e) != 0)
        fail_msg("%s", e.msg);
    assert_int_equal(loaded.count, b.kept_count);
    int64_t k = 0;
    for (int64_t i = 0; i < b.lines.count; i++) {
        if (!b.kept[i])
            continue;
        const Opening *want = &b.lines.list[i], *got = &loaded.list[k++];
        assert_false(got->has_position);
        assert_int_equal(got->n_moves, want->n_moves);
        assert_memory_equal(got->moves, want->moves, (size_t)want->n_moves * sizeof *want->moves);
    }
    openings_free(&loaded);
    /* The header says how the book was made. */
    f = fopen(path, "r");
    char text[4096];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = 0;
    fclose(f);
    char kept[80];
    snprintf(kept, sizeof kept, "# kept: %lld of 116 lines", (long long)b.kept_count);
    assert_non_null(strstr(text, kept));
    assert_non_null(strstr(text, "# command: anywoli openings --plies 2\n"));
    assert_non_null(strstr(text, "# value: alphabeta, depth 2,"));
    assert_non_null(strstr(text, "# window: |value| <= 1.00 seeds"));
    book_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_and_window),
        cmocka_unit_test(test_max),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_written_book_loads),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
