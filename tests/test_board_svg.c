/* test_board_svg.c: the board drawing (sim/board_svg.c) on hand-built positions: every hole's
 * name, count and marks, the stores, the turn, the layout (North's row above South's, right
 * to left), the caption escaped, the legend only with marks, marks from a real move's trace,
 * and nothing fetched from elsewhere. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "board_svg.h"
#include "test_util.h"

/* The drawing of p as a string (malloc'd), written to a file and read back as a reader of
 * the file would. */
static char *draw(const Variant *v, const Position *p, const BoardMarks *m, const char *caption)
{
    FILE *out = tmpfile();
    assert_non_null(out);
    board_svg_write(out, v, p, m, caption);
    long len = ftell(out);
    assert_true(len > 0 && !ferror(out));
    char *text = malloc((size_t)len + 1);
    assert_non_null(text);
    rewind(out);
    assert_int_equal(fread(text, 1, (size_t)len, out), (size_t)len);
    text[len] = '\0';
    fclose(out);
    return text;
}

/* The start tag of the element with attribute `attr` (e.g. data-hole="3"), as a string
 * (static, until the next call); fails if there is none or more than one. */
static const char *tag_with(const char *svg, const char *attr)
{
    static char tag[1024];
    const char *at = strstr(svg, attr);
    if (!at) {
        fail_msg("no element with %s", attr);
        return "";
    }
    if (strstr(at + 1, attr))
        fail_msg("two elements with %s", attr);
    const char *start = at, *end = strchr(at, '>');
    while (start > svg && *start != '<')
        start--;
    snprintf(tag, sizeof tag, "%.*s", (int)(end - start + 1), start);
    return tag;
}

/* The number after `name="` in a tag (or in the text from there). */
static int number_after(const char *text, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "%s=\"", name);
    const char *at = strstr(text, key);
    if (!at) {
        fail_msg("no %s in %s", name, text);
        return -1;
    }
    return atoi(at + strlen(key));
}

/* Hole h's circle's centre, from the drawing. */
static void centre(const char *svg, int h, int *x, int *y)
{
    char attr[32];
    snprintf(attr, sizeof attr, "data-hole=\"%d\"", h);
    const char *at = strstr(svg, attr);
    assert_non_null(at);
    const char *circle = strstr(at, "<circle");
    *x = number_after(circle, "cx");
    *y = number_after(circle, "cy");
}

/* One hole's element: its name, count and marks (as data attributes, the class and the
 * shown count). */
static void check_hole(const char *svg, int h, const char *name, int count, const char *marks)
{
    char attr[32], want[128];
    snprintf(attr, sizeof attr, "data-hole=\"%d\"", h);
    const char *tag = tag_with(svg, attr);
    snprintf(want, sizeof want, "data-name=\"%s\"", name);
    if (!strstr(tag, want))
        fail_msg("hole %d: %s lacks %s", h, tag, want);
    snprintf(want, sizeof want, "data-count=\"%d\"", count);
    if (!strstr(tag, want))
        fail_msg("hole %d: %s lacks %s", h, tag, want);
    snprintf(want, sizeof want, "data-marks=\"%s\"", marks);
    if (!strstr(tag, want))
        fail_msg("hole %d: %s lacks %s", h, tag, want);
    snprintf(want, sizeof want, "class=\"hole%s%s\"", marks[0] ? " " : "", marks);
    if (!strstr(tag, want))
        fail_msg("hole %d: %s lacks %s", h, tag, want);
    /* What people see: the count in the hole and the name beside it. */
    const char *group = strstr(svg, attr), *close = strstr(group, "</g>");
    snprintf(want, sizeof want, ">%d</text>", count);
    const char *shown = strstr(group, want);
    if (!shown || shown > close)
        fail_msg("hole %d: the count %d is not shown", h, count);
    snprintf(want, sizeof want, ">%s</text>", name);
    shown = strstr(group, want);
    if (!shown || shown > close)
        fail_msg("hole %d: the name %s is not shown", h, name);
}

/* A board of 4 holes a row, after a move from S1 (hole 0) that sowed holes 1 to 4, relayed
 * from hole 2 and captured hole 3: names, counts, marks, stores and the turn. */
static void test_hand_built(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("", "0,2,1,0/5,3,1,2 6/12 N S -", &v, &p);
    BoardMarks m = { 0, 0x1eULL, 1ULL << 2, 1ULL << 3 };
    char *svg = draw(&v, &p, &m, "after S1");
    check_hole(svg, 0, "S1", 0, "origin");
    check_hole(svg, 1, "S2", 2, "sown");
    check_hole(svg, 2, "S3", 1, "sown relay");
    check_hole(svg, 3, "S4", 0, "sown captured");
    check_hole(svg, 4, "N1", 5, "sown");
    check_hole(svg, 5, "N2", 3, "");
    check_hole(svg, 6, "N3", 1, "");
    check_hole(svg, 7, "N4", 2, "");
    assert_non_null(strstr(tag_with(svg, "data-store=\"S\""), "data-count=\"6\""));
    assert_non_null(strstr(tag_with(svg, "data-store=\"N\""), "data-count=\"12\""));
    assert_non_null(strstr(svg, "data-side=\"N\""));
    assert_non_null(strstr(svg, ">North to move</text>"));
    assert_non_null(strstr(svg, ">after S1</text>"));
    assert_non_null(strstr(svg, "class=\"legend\""));
    /* A whole SVG element, and the same text every time. */
    assert_true(strncmp(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
    assert_string_equal(svg + strlen(svg) - 7, "</svg>\n");
    char *again = draw(&v, &p, &m, "after S1");
    assert_string_equal(svg, again);
    free(again);
    free(svg);
}

/* North's row is drawn above South's, right to left: N1 above SH, NH above S1; the rows'
 * holes evenly spaced. Any board size, 2 to 32 holes a row. */
static void test_layout(void **state)
{
    (void)state;
    for (int holes = 2; holes <= MAX_HOLES; holes += 10) {
        Variant v;
        Position p;
        char opts[32];
        snprintf(opts, sizeof opts, "holes=%d", holes);
        tu_position(opts, "start", &v, &p);
        char *svg = draw(&v, &p, NULL, NULL);
        for (int k = 0; k < holes; k++) {
            int sx, sy, nx, ny;
            centre(svg, k, &sx, &sy);                    /* S(k+1) */
            centre(svg, 2 * holes - 1 - k, &nx, &ny);    /* the North hole above it */
            assert_int_equal(sx, nx);
            assert_true(ny < sy);
            if (k > 0) {
                int px, py;
                centre(svg, k - 1, &px, &py);
                assert_true(sx > px);                    /* South's row left to right */
            }
        }
        char name[HOLE_NAME_MAX];
        hole_name(&v, 2 * holes - 1, name);
        char want[32];
        snprintf(want, sizeof want, "N%d", holes);
        assert_string_equal(name, want);
        /* No marks, no legend; the drawing is as wide as its holes. */
        assert_null(strstr(svg, "class=\"legend\""));
        assert_null(strstr(svg, "data-marks=\"origin"));
        int width = number_after(svg, "width");
        assert_true(width >= holes * 40);
        free(svg);
    }
}

/* The caption's special characters are escaped, and the drawing fetches nothing: no link, no
 * script, no font or image from elsewhere. */
static void test_self_contained(void **state)
{
    (void)state;
    Variant v;
    Position p;
    tu_position("", "start", &v, &p);
    BoardMarks none = board_marks_none();
    char *svg = draw(&v, &p, &none, "S5 N5 <a & \"b\">");
    assert_non_null(strstr(svg, ">S5 N5 &lt;a &amp; &quot;b&quot;&gt;</text>"));
    assert_null(strstr(svg, "<script"));
    assert_null(strstr(svg, "href"));
    assert_null(strstr(svg, "url("));
    assert_null(strstr(svg, "@import"));
    assert_null(strstr(svg, "<image"));
    const char *http = strstr(svg, "http");
    assert_non_null(http);
    assert_null(strstr(http + 1, "http"));   /* only the namespace's name */
    assert_non_null(strstr(svg, ">South to move</text>"));
    free(svg);
}

/* Marks from a real move's trace: docs/rules.md's worked example (South plays S12, five laps
 * round the board, relays from N4, N9, S2 and S7), a move that captures, and an endless move
 * (none: it never happened). */
static void test_marks_of_moves(void **state)
{
    (void)state;
    Variant v;
    Position p, q;
    MoveInfo info;
    MoveTrace t;
    tu_position("", "start", &v, &p);
    MoveEvent ev = pos_play(&v, &p, 11, &q, &info, &t);
    BoardMarks m = board_marks_of_move(11, ev, &t);
    char *svg = draw(&v, &q, &m, NULL);
    check_hole(svg, 11, "S12", 1, "origin sown");
    check_hole(svg, 15, "N4", 0, "sown relay");
    check_hole(svg, 1, "S2", 0, "sown relay");
    check_hole(svg, 0, "S1", 5, "sown");
    for (int h = 0; h < v.pits; h++) {
        char attr[32];
        snprintf(attr, sizeof attr, "data-hole=\"%d\"", h);
        assert_null(strstr(tag_with(svg, attr), "captured"));   /* nothing captured */
    }
    free(svg);

    tu_position("", "5,3,0,0/3,3,2,2 6/8 S - -", &v, &p);
    ev = pos_play(&v, &p, 0, &q, &info, &t);
    m = board_marks_of_move(0, ev, &t);
    svg = draw(&v, &q, &m, NULL);
    check_hole(svg, 1, "S2", 0, "sown captured");
    check_hole(svg, 4, "N1", 0, "sown captured");
    check_hole(svg, 5, "N2", 0, "sown captured");
    check_hole(svg, 2, "S3", 1, "sown");
    check_hole(svg, 6, "N3", 2, "");
    free(svg);

    MoveTrace endless = t;
    m = board_marks_of_move(0, EV_ENDLESS, &endless);
    assert_int_equal(m.origin, -1);
    assert_true(m.sown == 0 && m.relayed == 0 && m.captured == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_built),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_self_contained),
        cmocka_unit_test(test_marks_of_moves),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
