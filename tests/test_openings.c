/* test_openings.c: a job's openings (sim/openings.c). The four specs and every bad one with
 * its message; all:N against perft (counted again here by a direct recursion over pos_play);
 * book files, good and bad, each bad kind with its PATH:LINE; plies:N as a pure function of
 * (seed, job, pair), drawn again when a line ends the game, recomputed here from the
 * documented stream; one opening as a GameStart, as APN and as text; random games from openings
 * by the fast playout, record for record those of the game loop with two `random` agents. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agent.h"
#include "game.h"
#include "openings.h"
#include "perft.h"
#include "position.h"
#include "record_row.h"
#include "variant.h"

#include "test_util.h"

#define TEST_TMP_NAME "openings"
#include "test_tmp.h"

static const char *small_board = "holes=3 seeds=1";   /* ends soon */
static const char *tiny_board = "holes=2 seeds=2";    /* over by ply 2 */
static const char *yit_nuri = "holes=7";

/* Load a spec that must load. */
static OpeningSet load_ok(const char *spec, const Variant *v)
{
    OpeningSet s;
    Error e = { "" };
    if (openings_load(&s, spec, v, &e) != 0)
        fail_msg("openings \"%s\": %s", spec, e.msg);
    return s;
}

/* Load a spec that must fail with exactly `want` (and leave nothing to free). */
static void load_fails(const char *spec, const Variant *v, const char *want)
{
    OpeningSet s;
    Error e = { "" };
    assert_int_equal(openings_load(&s, spec, v, &e), -1);
    assert_string_equal(e.msg, want);
    assert_null(s.spec);
    assert_null(s.list);
    assert_null(s.path);
    openings_free(&s);
}

/* Write text to a file in the temporary folder; returns its path. */
static const char *write_file(const char *name, const char *text)
{
    const char *path = tmp_path(name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* Play an opening's moves from its start here, independently of opening_position: every
 * move legal, none ending the game or endless. The position it leads to into *end. */
static void assert_opening_playable(const Variant *v, const Opening *o, Position *end)
{
    Position p;
    if (o->has_position)
        p = o->position;
    else
        pos_start(v, &p);
    assert_true(o->n_moves >= 0 && o->n_moves <= OPENING_MAX_PLIES);
    for (int i = 0; i < o->n_moves; i++) {
        assert_true(pos_move_ok(v, &p, o->moves[i], NULL));
        MoveInfo info;
        MoveEvent ev = pos_play(v, &p, o->moves[i], &p, &info, NULL);
        assert_true(ev == EV_NEXT || ev == EV_EXTRA);
    }
    assert_false(pos_over(v, &p));
    if (end)
        *end = p;
}

/* ---- Specs ------------------------------------------------------------------------------- */

static void test_spec_forms(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    OpeningSet s = load_ok("start", &v);
    assert_int_equal(s.kind, OPENINGS_START);
    assert_string_equal(s.spec, "start");
    assert_int_equal(s.count, 0);
    assert_null(s.list);
    openings_free(&s);

    s = load_ok("plies:4", &v);
    assert_int_equal(s.kind, OPENINGS_PLIES);
    assert_int_equal(s.plies, 4);
    assert_int_equal(s.count, 0);
    openings_free(&s);

    s = load_ok("plies:64", &v);
    assert_int_equal(s.plies, OPENING_MAX_PLIES);
    openings_free(&s);

    s = load_ok("all:2", &v);
    assert_int_equal(s.kind, OPENINGS_ALL);
    assert_int_equal(s.plies, 2);
    assert_string_equal(s.spec, "all:2");
    openings_free(&s);

    const char *book = write_file("forms.txt", "3\n");
    char spec[300];
    snprintf(spec, sizeof spec, "file:%s", book);
    s = load_ok(spec, &v);
    assert_int_equal(s.kind, OPENINGS_FILE);
    assert_string_equal(s.path, book);
    assert_int_equal(s.count, 1);
    openings_free(&s);
    assert_null(s.spec);
    openings_free(&s);   /* twice is harmless */
}

static void test_spec_bad(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    static const char *const bad[] = {
        "", "begin", "Start", "start ", "plies", "plies:", "plies:0", "plies:65", "plies:x",
        "plies:4x", "plies:-1", "plies:+4", "plies: 4", "plies:99999999999999999999", "all",
        "all:", "all:0", "all:65", "all:2.5", "file:", "file", "book.txt", "random:4",
    };
    /* A slip of the kind's name gets the nearest kind. */
    static const char *const hint[sizeof bad / sizeof bad[0]] = {
        [2] = "start", [3] = "start",   /* "Start", "start " */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char want[200], suffix[40] = "";
        if (hint[i])
            snprintf(suffix, sizeof suffix, "; did you mean '%s'?", hint[i]);
        snprintf(want, sizeof want, "openings \"%s\": expected start, plies:N, all:N or "
                 "file:PATH (N from 1 to 64)%s", bad[i], suffix);
        load_fails(bad[i], &v, want);
    }
    char want[200];
    snprintf(want, sizeof want, "openings \"plise:4\": expected start, plies:N, all:N or "
             "file:PATH (N from 1 to 64); did you mean 'plies'?");
    load_fails("plise:4", &v, want);
}

static void test_spec_cap_and_board(void **state)
{
    (void)state;
    const char *capped = "max_plies=5";
    Variant v = tu_variant_of(capped);
    load_fails("plies:5", &v, "openings \"plies:5\": 5 plies reach the variant's max_plies (5)");
    load_fails("all:6", &v, "openings \"all:6\": 6 plies reach the variant's max_plies (5)");
    OpeningSet s = load_ok("plies:4", &v);
    openings_free(&s);

    Variant tiny = tu_variant_of(tiny_board);
    load_fails("all:3", &tiny, "openings \"all:3\": every line of 3 plies ends the game on "
               "this board (expected a smaller N)");
    load_fails("plies:3", &tiny, "openings \"plies:3\": none of 10000 random lines of 3 plies "
               "keeps the game going on this board (expected a smaller N)");
}

/* ---- all:N ------------------------------------------------------------------------------- */

/* Lines of exactly `depth` plies from p whose last move ends the game: the part of perft's
 * count that all:N leaves out, counted here by a direct recursion. */
static uint64_t lines_ending_at(const Variant *v, const Position *p, int depth)
{
    uint64_t n = 0;
    for (int move = 0; move < v->pits; move++) {
        if (pos_over(v, p) || !pos_move_ok(v, p, move, NULL))
            continue;
        Position child;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, move, &child, &info, NULL);
        if (depth == 1)
            n += ev == EV_OVER;
        else if (ev != EV_OVER && ev != EV_ENDLESS)
            n += lines_ending_at(v, &child, depth - 1);
    }
    return n;
}

/* Whether a's moves come strictly before b's, compared hole by hole. */
static bool line_before(const Opening *a, const Opening *b)
{
    for (int i = 0; i < a->n_moves && i < b->n_moves; i++) {
        if (a->moves[i] != b->moves[i])
            return a->moves[i] < b->moves[i];
    }
    return a->n_moves < b->n_moves;
}

/* all:N's list: perft N minus the lines ending at ply N; each line playable; the lines in
 * strictly increasing lexicographic order (so distinct, and in the documented order). */
static int64_t check_all(const Variant *v, int n)
{
    char spec[16];
    snprintf(spec, sizeof spec, "all:%d", n);
    OpeningSet s = load_ok(spec, v);
    Position start;
    pos_start(v, &start);
    uint64_t want = perft(v, &start, n, NULL) - lines_ending_at(v, &start, n);
    assert_int_equal((uint64_t)s.count, want);
    for (int64_t i = 0; i < s.count; i++) {
        const Opening *o = &s.list[i];
        assert_false(o->has_position);
        assert_int_equal(o->n_moves, n);
        assert_opening_playable(v, o, NULL);
        if (i > 0)
            assert_true(line_before(&s.list[i - 1], o));
    }
    int64_t count = s.count;
    openings_free(&s);
    return count;
}

static void test_all_counts(void **state)
{
    (void)state;
    Variant standard = tu_variant_of(""), nuri = tu_variant_of(yit_nuri), small = tu_variant_of(small_board);
    int64_t got[5];
    for (int n = 1; n <= 4; n++) {
        got[n] = check_all(&standard, n);
        check_all(&nuri, n);
        check_all(&small, n);
        check_all(&small, n + 4);   /* lines that end are common here */
    }
    print_message("all:N on the standard board: %lld %lld %lld %lld (N = 1 .. 4)\n",
                  (long long)got[1], (long long)got[2], (long long)got[3], (long long)got[4]);
}

static void test_all_pairs_cycle(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    OpeningSet s = load_ok("all:1", &v);
    assert_int_equal(s.count, 12);
    for (uint64_t pair = 0; pair < 30; pair++) {
        Opening o;
        int64_t i = openings_pair(&s, &v, 1, 2, pair, &o);
        assert_int_equal(i, (int64_t)(pair % 12));
        assert_int_equal(o.n_moves, 1);
        assert_int_equal(o.moves[0], (int)(pair % 12));   /* hole order */
    }
    openings_free(&s);
}

static void test_all_too_many(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    load_fails("all:6", &v, "openings \"all:6\": more than 1000000 lines on this board "
               "(expected a smaller N, or plies:N)");
}

/* ---- file:PATH --------------------------------------------------------------------------- */

static void test_file_good(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    const char *apn = "0,5,5,5,5,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 N - -";
    char text[1024];
    snprintf(text, sizeof text,
             "# a book\n"
             "\n"
             "3 14 7   # a line and a comment\n"
             "  \t\n"
             "%s\n"
             "\t0\t12 \r\n"
             "# the end", apn);
    const char *path = write_file("good.txt", text);
    char spec[300];
    snprintf(spec, sizeof spec, "file:%s", path);
    OpeningSet s = load_ok(spec, &v);
    assert_int_equal(s.count, 3);

    const Opening *o = &s.list[0];
    assert_false(o->has_position);
    assert_int_equal(o->n_moves, 3);
    assert_int_equal(o->moves[0], 3);
    assert_int_equal(o->moves[1], 14);
    assert_int_equal(o->moves[2], 7);

    o = &s.list[1];
    assert_true(o->has_position);
    assert_int_equal(o->n_moves, 0);
    char buf[APN_MAX];
    opening_apn(&v, o, buf);
    assert_string_equal(buf, apn);

    o = &s.list[2];
    assert_int_equal(o->n_moves, 2);
    assert_int_equal(o->moves[1], 12);

    for (int64_t i = 0; i < s.count; i++)
        assert_opening_playable(&v, &s.list[i], NULL);
    Opening got;
    assert_int_equal(openings_pair(&s, &v, 9, 9, 7, &got), 1);
    assert_true(got.has_position);
    openings_free(&s);
}

/* A book that must fail at line `line` with `PATH:LINE: <want>`. */
static void book_fails(const Variant *v, const char *text, int line, const char *want)
{
    const char *path = write_file("bad.txt", text);
    char spec[300], msg[600];
    snprintf(spec, sizeof spec, "file:%s", path);
    snprintf(msg, sizeof msg, "%s:%d: %s", path, line, want);
    load_fails(spec, v, msg);
}

/* The first line (depth first, holes in order) of at most `max` plies whose last move has
 * event ev, into line[]; its length, or 0 if there is none. */
static int find_line(const Variant *v, const Position *p, MoveEvent ev, int depth, int max,
                     int *line)
{
    if (depth == max)
        return 0;
    for (int move = 0; move < v->pits; move++) {
        if (!pos_move_ok(v, p, move, NULL))
            continue;
        Position child;
        MoveInfo info;
        MoveEvent got = pos_play(v, p, move, &child, &info, NULL);
        line[depth] = move;
        if (got == ev)
            return depth + 1;
        if (got == EV_OVER || got == EV_ENDLESS)
            continue;
        int n = find_line(v, &child, ev, depth + 1, max, line);
        if (n)
            return n;
    }
    return 0;
}

/* A line of moves as text, plus an ending. */
static void line_text(const int *line, int n, const char *tail, char *buf, size_t len)
{
    Opening o = { .n_moves = n };
    memcpy(o.moves, line, (size_t)n * sizeof *line);
    opening_moves_text(&o, buf, len);
    strncat(buf, tail, len - strlen(buf) - 1);
}

static void test_file_bad_moves(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    book_fails(&v, "# comment\n3 x7 2\n", 2, "ply 2: 'x7' is not a hole number (0 to 23)");
    book_fails(&v, "3 -1\n", 1, "ply 2: '-1' is not a hole number (0 to 23)");
    book_fails(&v, "3,\n", 1, "APN: expected 5 fields (holes, stores, side, last capturer, "
               "first final capturer), found 1");
    book_fails(&v, "\n\n24\n", 3,
               "ply 1: move 24: no such hole (0 to 23, S1 to S12 and N1 to N12)");
    book_fails(&v, "0 3\n", 1, "ply 2: move 3: hole S4 is South's, and North is to move");
    book_fails(&v, "1 13 0\n", 1, "ply 3: move 0: hole S1 is empty");
    book_fails(&v, "99999\n", 1, "ply 1: '99999' is not a hole number (0 to 23)");

    /* A line longer than an opening may be: 64 legal moves, then one more. */
    OpeningSet s = load_ok("plies:64", &v);
    Opening o;
    openings_pair(&s, &v, 1, 1, 1, &o);
    openings_free(&s);
    char text[1024];
    line_text(o.moves, o.n_moves, " 0\n", text, sizeof text);
    book_fails(&v, text, 1, "more than 64 moves");

    /* Lines that end the game, or make an endless move, on the small board. */
    Variant small = tu_variant_of(small_board);
    Position start;
    pos_start(&small, &start);
    int line[OPENING_MAX_PLIES], n = find_line(&small, &start, EV_OVER, 0, 8, line);
    assert_true(n > 0);
    char want[200];
    line_text(line, n, "\n", text, sizeof text);
    snprintf(want, sizeof want, "ply %d: move %d ends the game (an opening must leave a game "
             "to play)", n, line[n - 1]);
    book_fails(&small, text, 1, want);
    n = find_line(&small, &start, EV_ENDLESS, 0, 8, line);
    assert_true(n > 0);
    line_text(line, n, "\n", text, sizeof text);
    snprintf(want, sizeof want, "ply %d: move %d is endless (it never ends)", n, line[n - 1]);
    book_fails(&small, text, 1, want);

    const char *capped = "max_plies=3";
    Variant c = tu_variant_of(capped);
    book_fails(&c, "0 12\n1 13 2\n", 2, "3 moves reach the variant's max_plies (3)");
}

static void test_file_bad_positions(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    book_fails(&v, "4,4,4,4,4,4,4/4,4,4,4,4,4,4 0/0 S - -\n", 1,
               "APN: rows of 7 holes, but the variant has 12 holes");
    book_fails(&v, "5,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -\n", 1,
               "APN: holes and stores hold 97 seeds, but the variant has 96 (2 x 12 holes x 4 "
               "seeds)");
    book_fails(&v, "3\n4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 X - -\n", 2,
               "APN: side to move: 'X' is not S or N");
    book_fails(&v, "0,0,0,0,0,0,0,0,0,0,0,4/0,0,0,0,0,0,0,0,0,0,0,0 46/46 N S S\n", 1,
               "the position is over (an opening must leave a game to play)");
    /* A line of 4096 characters is read (and is no APN), one of 4097 is refused. */
    char longer[OPENINGS_LINE_MAX + 3];
    memset(longer, '/', sizeof longer);
    longer[OPENINGS_LINE_MAX] = '\n';
    longer[OPENINGS_LINE_MAX + 1] = '\0';
    book_fails(&v, longer, 1, "APN: expected 5 fields (holes, stores, side, last capturer, "
               "first final capturer), found 1");
    longer[OPENINGS_LINE_MAX] = '/';
    longer[OPENINGS_LINE_MAX + 1] = '\n';
    longer[OPENINGS_LINE_MAX + 2] = '\0';
    book_fails(&v, longer, 1, "longer than 4096 characters");
}

static void test_file_bad_files(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    char spec[300], want[400];

    const char *path = write_file("empty.txt", "# nothing\n\n   # still nothing\n");
    snprintf(spec, sizeof spec, "file:%s", path);
    snprintf(want, sizeof want, "%s: no openings (only blank lines and comments)", path);
    load_fails(spec, &v, want);

    path = write_file("void.txt", "");
    snprintf(spec, sizeof spec, "file:%s", path);
    snprintf(want, sizeof want, "%s: no openings (only blank lines and comments)", path);
    load_fails(spec, &v, want);

    path = tmp_path("missing.txt");
    snprintf(spec, sizeof spec, "file:%s", path);
    snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
    load_fails(spec, &v, want);

    path = tmp_path("fifo");
    assert_int_equal(mkfifo(path, 0600), 0);
    snprintf(spec, sizeof spec, "file:%s", path);
    snprintf(want, sizeof want, "%s: not a regular file (a FIFO)", path);
    load_fails(spec, &v, want);

    snprintf(spec, sizeof spec, "file:%s", tmpdir);
    snprintf(want, sizeof want, "%s: not a regular file (a folder)", tmpdir);
    load_fails(spec, &v, want);

    path = tmp_path("nul.txt");
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fwrite("3\n1\0 2\n", 1, 7, f);
    fclose(f);
    snprintf(spec, sizeof spec, "file:%s", path);
    snprintf(want, sizeof want, "%s:2: a NUL byte (a book is text)", path);
    load_fails(spec, &v, want);

    /* A read that fails is an error naming the line, never the end of the book: this
     * process's memory at address 0, a regular file whose first read fails. */
    load_fails("file:/proc/self/mem", &v, "/proc/self/mem:1: cannot read: Input/output error");
}

/* ---- plies:N ----------------------------------------------------------------------------- */

/* The opening of a pair recomputed from the documented stream: sub-stream RNG_SUB_OPENING of
 * game 2 * pair's stream, N uniform plies, all drawn again (the stream continued) when one
 * ends the game. Also says how many lines were drawn. */
static Opening expected_plies(const Variant *v, int n, uint64_t seed, uint64_t job,
                              uint64_t pair, int *draws)
{
    Rng g;
    rng_seed(&g, seed, job, 2 * pair);
    Rng r = rng_substream(&g, RNG_SUB_OPENING);
    Opening o;
    for (*draws = 1;; (*draws)++) {
        memset(&o, 0, sizeof o);
        Position p;
        pos_start(v, &p);
        bool ended = false;
        for (int i = 0; i < n && !ended; i++) {
            uint8_t legal[MAX_PITS];
            int k = pos_legal_moves(v, &p, legal);
            int move = legal[rng_below(&r, (uint32_t)k)];
            MoveInfo info;
            MoveEvent ev = pos_play(v, &p, move, &p, &info, NULL);
            ended = ev == EV_OVER || ev == EV_ENDLESS;
            o.moves[o.n_moves++] = move;
        }
        if (!ended)
            return o;
    }
}

static bool same_opening(const Opening *a, const Opening *b)
{
    return a->has_position == b->has_position && a->n_moves == b->n_moves
           && memcmp(a->moves, b->moves, (size_t)a->n_moves * sizeof *a->moves) == 0;
}

/* Pairs of plies:n on v: each the recomputed one, playable, a pure function of its inputs;
 * returns how many pairs needed more than one draw. */
static int check_plies(const Variant *v, int n, int pairs)
{
    char spec[16];
    snprintf(spec, sizeof spec, "plies:%d", n);
    OpeningSet s = load_ok(spec, v);
    int redrawn = 0, distinct = 0;
    for (int pair = pairs - 1; pair >= 0; pair--) {   /* any order gives the same openings */
        Opening o, again, want;
        int draws;
        assert_int_equal(openings_pair(&s, v, 42, 3, (uint64_t)pair, &o), pair);
        assert_int_equal(openings_pair(&s, v, 42, 3, (uint64_t)pair, &again), pair);
        assert_true(same_opening(&o, &again));
        want = expected_plies(v, n, 42, 3, (uint64_t)pair, &draws);
        assert_true(same_opening(&o, &want));
        redrawn += draws > 1;
        assert_false(o.has_position);
        assert_int_equal(o.n_moves, n);
        assert_opening_playable(v, &o, NULL);
        Opening other;
        openings_pair(&s, v, 42, 3, (uint64_t)pair + 1, &other);
        distinct += !same_opening(&o, &other);
    }
    assert_true(distinct >= pairs * 9 / 10);   /* neighbouring pairs draw their own */
    openings_free(&s);
    return redrawn;
}

static void test_plies_pure(void **state)
{
    (void)state;
    /* The opening's stream is 16, the one tune's openings have always come from, and none of
     * the game's own (lottery, agents). */
    assert_int_equal(RNG_SUB_OPENING, 16);
    Rng g;
    rng_seed(&g, 42, 3, 0);
    uint64_t opening_key = rng_substream(&g, RNG_SUB_OPENING).key;
    static const uint64_t others[] = { RNG_SUB_LOTTERY, RNG_SUB_AGENT_SOUTH, RNG_SUB_AGENT_NORTH };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        assert_true(opening_key != rng_substream(&g, others[i]).key);
    assert_true(opening_key != g.key);

    Variant standard = tu_variant_of(""), small = tu_variant_of(small_board);
    check_plies(&standard, 4, 200);
    check_plies(&standard, 20, 50);
    assert_true(check_plies(&small, 6, 200) > 0);   /* lines ending the game were drawn again */

    /* Seed and job change the openings. */
    OpeningSet s = load_ok("plies:8", &standard);
    int differ_seed = 0, differ_job = 0;
    for (uint64_t pair = 0; pair < 50; pair++) {
        Opening a, b, c;
        openings_pair(&s, &standard, 1, 0, pair, &a);
        openings_pair(&s, &standard, 2, 0, pair, &b);
        openings_pair(&s, &standard, 1, 1, pair, &c);
        differ_seed += !same_opening(&a, &b);
        differ_job += !same_opening(&a, &c);
    }
    assert_true(differ_seed >= 45 && differ_job >= 45);
    openings_free(&s);
}

/* ---- One opening ------------------------------------------------------------------------- */

static void test_start(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    OpeningSet s = load_ok("start", &v);
    Opening o;
    memset(&o, 0xff, sizeof o);
    assert_int_equal(openings_pair(&s, &v, 1, 2, 3, &o), -1);
    assert_false(o.has_position);
    assert_int_equal(o.n_moves, 0);
    GameStart g = opening_game_start(&o);
    assert_null(g.position);
    assert_int_equal(g.n_moves, 0);
    char apn[APN_MAX], text[8];
    opening_apn(&v, &o, apn);
    assert_string_equal(apn, "4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -");
    opening_moves_text(&o, text, sizeof text);
    assert_string_equal(text, "");
    openings_free(&s);
}

static void test_one_opening(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    Opening o = { .n_moves = 3, .moves = { 3, 14, 7 } };
    char text[32];
    opening_moves_text(&o, text, sizeof text);
    assert_string_equal(text, "3 14 7");
    opening_moves_text(&o, text, 5);
    assert_string_equal(text, "3 14");
    opening_moves_text(&o, text, 4);
    assert_string_equal(text, "3 1");

    Position want, got;
    assert_opening_playable(&v, &o, &want);
    opening_position(&v, &o, &got);
    assert_memory_equal(&got, &want, sizeof got);
    char apn[APN_MAX], want_apn[APN_MAX];
    apn_format(&v, &want, want_apn);
    assert_int_equal(opening_apn(&v, &o, apn), (int)strlen(want_apn));
    assert_string_equal(apn, want_apn);

    GameStart g = opening_game_start(&o);
    assert_null(g.position);
    assert_ptr_equal(g.moves, o.moves);
    assert_int_equal(g.n_moves, 3);

    /* From a position: the GameStart points at it. */
    o.has_position = true;
    pos_start(&v, &o.position);
    g = opening_game_start(&o);
    assert_ptr_equal(g.position, &o.position);
}

/* What a game's observer saw: its first moves and the position before ply `at`. */
typedef struct Seen {
    int moves[OPENING_MAX_PLIES];
    int n;
    uint32_t at;
    Position before_at;
} Seen;

static void observe(void *ctx, const GameMove *m)
{
    Seen *seen = ctx;
    if (seen->n < OPENING_MAX_PLIES)
        seen->moves[seen->n++] = m->move;
    if (m->ply == seen->at)
        seen->before_at = *m->before;
}

/* The game loop plays an opening's moves first, from its position, then the agents. */
static void test_game_from_opening(void **state)
{
    (void)state;
    Variant v = tu_variant_of("");
    Agent south, north;
    assert_int_equal(agent_create(&south, "random", NULL), 0);
    assert_int_equal(agent_create(&north, "random", NULL), 0);
    Opening openings[2] = { { .n_moves = 3, .moves = { 3, 14, 7 } },
                            { .has_position = true, .n_moves = 2, .moves = { 1, 12 } } };
    pos_start(&v, &openings[1].position);
    MoveInfo info;
    pos_play(&v, &openings[1].position, 0, &openings[1].position, &info, NULL);   /* North's turn */
    openings[1].moves[0] = 13;
    openings[1].moves[1] = 1;
    for (int k = 0; k < 2; k++) {
        const Opening *o = &openings[k];
        assert_opening_playable(&v, o, NULL);
        Seen seen = { .at = (uint32_t)o->n_moves + 1 };
        GameOptions opt = { .start = opening_game_start(o), .observe = observe,
                            .observer_ctx = &seen };
        Rng g;
        rng_seed(&g, 5, 0, (uint64_t)k);
        GameRecord r;
        assert_int_equal(game_play_from(&v, &south, &north, &g, &opt, &r, NULL), 0);
        assert_true(r.plies > (uint32_t)o->n_moves);
        assert_memory_equal(seen.moves, o->moves, (size_t)o->n_moves * sizeof *o->moves);
        Position want;
        opening_position(&v, o, &want);
        assert_memory_equal(&seen.before_at, &want, sizeof want);
    }
    agent_free(&south);
    agent_free(&north);
}

/* ---- Random games from an opening ---------------------------------------------------------- */

/* Whether two positions are the same (field by field: a struct's padding may differ). */
static bool same_position(const Position *a, const Position *b)
{
    return a->nonempty == b->nonempty && a->legal == b->legal &&
           memcmp(a->pit, b->pit, sizeof a->pit) == 0 && a->store[SOUTH] == b->store[SOUTH] &&
           a->store[NORTH] == b->store[NORTH] && a->left == b->left && a->side == b->side &&
           a->last_capturer == b->last_capturer && a->first_final == b->first_final;
}

/* What the games of check_random_games ended as, so that a test knows it met each case. */
typedef struct RandomTally {
    long games, unfinished, capped_in_opening, endless;
} RandomTally;

/* A book of `lines` openings for v, drawn by plies:N: even lines as move lists, odd ones as
 * the APN position the line leads to (a book's two forms). Returns its spec. */
static const char *random_book(const Variant *v, int plies, int lines, const char *name)
{
    char spec[32];
    snprintf(spec, sizeof spec, "plies:%d", plies);
    OpeningSet s = load_ok(spec, v);
    size_t size = (size_t)lines * (APN_MAX + 2);
    char *text = malloc(size);
    assert_non_null(text);
    size_t len = 0;
    for (int k = 0; k < lines; k++) {
        Opening o;
        openings_pair(&s, v, 9, 0, (uint64_t)k, &o);
        char line[APN_MAX];
        if (k % 2)
            opening_apn(v, &o, line);
        else
            opening_moves_text(&o, line, sizeof line);
        len += (size_t)snprintf(text + len, size - len, "%s\n", line);
    }
    openings_free(&s);
    static char book[300];
    snprintf(book, sizeof book, "file:%s", write_file(name, text));
    free(text);
    return book;
}

/* Game `game` of two `random` agents from opening op (index in its table) as `run` plays it
 * (a and b NULL: the fast path) against the game loop with two `random` agents a and b: the
 * same record, field by field, and the same end position, under o's cap and judgement. */
static void check_random_game(const Variant *v, const Opening *op, int32_t index, uint64_t game,
                              const GameOptions *o, Agent *a, Agent *b, RandomTally *t)
{
    GameRecord fast, loop;
    Position fast_end, loop_end;
    memset(&fast, 0xa5, sizeof fast);
    memset(&loop, 0x5a, sizeof loop);
    assert_int_equal(game_play_indexed(v, 3, 1, game, op, index, NULL, NULL, o, &fast,
                                       &fast_end), 0);
    assert_int_equal(game_play_indexed(v, 3, 1, game, op, index, a, b, o, &loop, &loop_end), 0);
    for (int i = 0; i < row_field_count(); i++)
        if (row_field_value(&fast, i) != row_field_value(&loop, i))
            fail_msg("cap %lld, game %llu, opening %d: %s %lld by the playout, %lld by the loop",
                     (long long)o->max_plies, (unsigned long long)game, (int)index,
                     row_field_name(i), (long long)row_field_value(&fast, i),
                     (long long)row_field_value(&loop, i));
    assert_true(same_position(&fast_end, &loop_end));
    t->games++;
    t->unfinished += loop.outcome == OUT_UNFINISHED ||
                     (o->unfinished == UNFINISHED_BY_STORES && (int64_t)loop.plies == o->max_plies);
    t->capped_in_opening += loop.plies < (uint32_t)op->n_moves ||
                            (op->n_moves > 0 && loop.plies == (uint32_t)op->n_moves &&
                             (int64_t)loop.plies == o->max_plies);
    t->endless += loop.outcome == OUT_ENDLESS;
}

/* check_random_game for the games of `pairs` pairs from the openings of `spec`, under the cap
 * max_plies (0: v's) and judgement how. */
static void check_random_games(const Variant *v, const char *spec, int64_t max_plies,
                               UnfinishedJudgement how, uint64_t pairs, RandomTally *t)
{
    Agent a, b;
    assert_int_equal(agent_create(&a, "random", NULL), 0);
    assert_int_equal(agent_create(&b, "random", NULL), 0);
    OpeningSet s = load_ok(spec, v);
    GameOptions o = { .max_plies = max_plies, .unfinished = how };
    for (uint64_t game = 0; game < 2 * pairs; game++) {
        Opening op;
        int32_t index = (int32_t)openings_pair(&s, v, 3, 1, game / 2, &op);
        check_random_game(v, &op, index, game, &o, &a, &b, t);
    }
    openings_free(&s);
    agent_free(&a);
    agent_free(&b);
}

/* check_random_game from openings whose one move makes the opponent pass: positions met in
 * random games of v, before such a move (so that the opening's passes count too). */
static void check_passing_openings(const Variant *v, int openings, RandomTally *t)
{
    Agent a, b;
    assert_int_equal(agent_create(&a, "random", NULL), 0);
    assert_int_equal(agent_create(&b, "random", NULL), 0);
    GameOptions o = { 0 };
    Rng r;
    rng_seed(&r, 8, 0, 0);
    int found = 0;
    for (long tries = 0; found < openings && tries < 1000000; tries++) {
        Position p;
        pos_start(v, &p);
        while (!pos_over(v, &p) && found < openings) {
            Opening op = { .has_position = true, .position = p, .n_moves = 1,
                           .moves = { pos_random_move(&p, &r) } };
            MoveInfo info;
            MoveEvent ev = pos_play(v, &p, op.moves[0], &p, &info, NULL);
            if (ev == EV_ENDLESS)
                break;
            if (info.passed && !pos_over(v, &p)) {
                for (uint64_t game = 0; game < 4; game++)
                    check_random_game(v, &op, found, game, &o, &a, &b, t);
                found++;
            }
        }
    }
    assert_int_equal(found, openings);
    agent_free(&a);
    agent_free(&b);
}

/* `run`'s random games from an opening (its moves or its position, then the fast playout) are
 * those of two `random` agents in the game loop: the opening's plies counted in plies, passes,
 * captures, the hash and against the cap, on boards with unfinished and endless games. */
static void test_random_games_from_openings(void **state)
{
    (void)state;
    static const char *five = "holes=5";   /* endless moves are common */
    static const char *skip = "skip_origin=yes";
    Variant standard = tu_variant_of(""), small = tu_variant_of(five), skipping = tu_variant_of(skip);
    RandomTally t = { 0 };
    check_random_games(&standard, "plies:4", 0, UNFINISHED_KEPT, 500, &t);
    check_random_games(&standard, "all:2", 0, UNFINISHED_KEPT, 300, &t);
    check_random_games(&standard, random_book(&standard, 6, 40, "random.txt"), 0,
                       UNFINISHED_KEPT, 300, &t);
    assert_int_equal(t.unfinished, 0);
    long full = t.games;
    /* A cap inside the opening (3 of its 4 plies), at its end and after it, by stores. */
    check_random_games(&standard, "plies:4", 3, UNFINISHED_KEPT, 100, &t);
    check_random_games(&standard, "plies:4", 4, UNFINISHED_BY_STORES, 100, &t);
    check_random_games(&standard, "plies:4", 30, UNFINISHED_BY_STORES, 200, &t);
    check_random_games(&standard, "all:2", 60, UNFINISHED_KEPT, 200, &t);
    assert_true(t.unfinished >= 700);
    assert_true(t.capped_in_opening >= 400);
    check_random_games(&small, "plies:3", 0, UNFINISHED_KEPT, 1000, &t);
    check_random_games(&small, random_book(&small, 2, 30, "small.txt"), 40, UNFINISHED_KEPT,
                       500, &t);
    check_random_games(&skipping, "plies:4", 0, UNFINISHED_KEPT, 300, &t);
    check_passing_openings(&standard, 200, &t);
    check_passing_openings(&small, 100, &t);
    assert_true(t.endless >= 20);
    print_message("%ld games (%ld uncapped), %ld unfinished, %ld capped in the opening, "
                  "%ld endless\n", t.games, full, t.unfinished, t.capped_in_opening, t.endless);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spec_forms),
        cmocka_unit_test(test_spec_bad),
        cmocka_unit_test(test_spec_cap_and_board),
        cmocka_unit_test(test_all_counts),
        cmocka_unit_test(test_all_pairs_cycle),
        cmocka_unit_test(test_all_too_many),
        cmocka_unit_test(test_file_good),
        cmocka_unit_test(test_file_bad_moves),
        cmocka_unit_test(test_file_bad_positions),
        cmocka_unit_test(test_file_bad_files),
        cmocka_unit_test(test_plies_pure),
        cmocka_unit_test(test_start),
        cmocka_unit_test(test_one_opening),
        cmocka_unit_test(test_game_from_opening),
        cmocka_unit_test(test_random_games_from_openings),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
