/* apn.c: reading and writing positions in Anywoli position notation (APN).
 *
 *   4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -
 *   holes (South's row / North's row), stores S/N, side to move, last capturer, first
 *   final-seed capturer. */
#include "position.h"

#include <stdio.h>
#include <string.h>

#define MAX_FIELD_TEXT 40

/* Show at most MAX_FIELD_TEXT characters of a field in a message, control characters as `?`. */
static const char *clip(const char *s, size_t n, char buf[MAX_FIELD_TEXT + 4])
{
    size_t k = n > MAX_FIELD_TEXT ? MAX_FIELD_TEXT : n;
    for (size_t i = 0; i < k; i++)   /* an error stays one line, whatever the input holds */
        buf[i] = (s[i] >= ' ' && s[i] != 0x7f) ? s[i] : '?';
    memcpy(buf + k, n > k ? "..." : "", n > k ? 4 : 1);
    return buf;
}

/* Read a count (digits only) from s[0..n); -1 if it is not one or exceeds limit. */
static long read_count(const char *s, size_t n, long limit)
{
    if (n == 0 || n > 9)
        return -1;
    long x = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        x = x * 10 + (s[i] - '0');
    }
    return x > limit ? -1 : x;
}

/* Split text into exactly five fields separated by single spaces. */
static int split_fields(const char *text, const char *f[5], size_t len[5], Error *e)
{
    int k = 0;
    const char *s = text;
    for (;;) {
        const char *sp = strchr(s, ' ');
        size_t n = sp ? (size_t)(sp - s) : strlen(s);
        if (k < 5) {
            f[k] = s;
            len[k] = n;
        }
        k++;
        if (n == 0 && k <= 5)
            return error_set(e, "APN: field %d is empty (fields are separated by single spaces)",
                             k);
        if (!sp)
            break;
        s = sp + 1;
    }
    if (k != 5)
        return error_set(e, "APN: expected 5 fields (holes, stores, side, last capturer, first "
                         "final capturer), found %d", k);
    return 0;
}

/* Read one row of comma-separated counts into pit[first..]; returns its length or -1. */
static int read_row(const char *s, size_t n, const char *which, uint16_t *pit, int max, Error *e)
{
    int count = 0;
    size_t i = 0;
    char buf[MAX_FIELD_TEXT + 4];
    for (;;) {
        size_t j = i;
        while (j < n && s[j] != ',')
            j++;
        if (count >= max)
            return error_set(e, "APN: %s row has more than %d holes", which, max);
        long x = read_count(s + i, j - i, 65535);
        if (x < 0)
            return error_set(e, "APN: %s row, hole %d: '%s' is not a seed count (expected a "
                             "whole number, 0 or more)", which, count + 1,
                             clip(s + i, j - i, buf));
        pit[count++] = (uint16_t)x;
        if (j == n)
            return count;
        i = j + 1;
    }
}

/* Read a side letter for field k: S or N, or also '-' when allowed. */
static int read_side(const char *s, size_t n, bool dash_ok, const char *what, int *out, Error *e)
{
    char buf[MAX_FIELD_TEXT + 4];
    if (n == 1 && (s[0] == 'S' || s[0] == 'N')) {
        *out = s[0] == 'S' ? SOUTH : NORTH;
        return 0;
    }
    if (n == 1 && s[0] == '-' && dash_ok) {
        *out = NOBODY;
        return 0;
    }
    return error_set(e, "APN: %s: '%s' is not %s", what, clip(s, n, buf),
                     dash_ok ? "S, N or -" : "S or N");
}

/* Read the holes field into pit[] and return H, or -1. */
static int read_holes(const char *s, size_t n, uint16_t pit[MAX_PITS], Error *e)
{
    const char *slash = memchr(s, '/', n);
    if (!slash)
        return error_set(e, "APN: the holes field needs South's row, '/', then North's row");
    size_t ns = (size_t)(slash - s), nn = n - ns - 1;
    if (memchr(slash + 1, '/', nn))
        return error_set(e, "APN: the holes field has more than one '/'");
    uint16_t north[MAX_HOLES + 1];
    int hs = read_row(s, ns, "South's", pit, MAX_HOLES, e);
    if (hs < 0)
        return -1;
    int hn = read_row(slash + 1, nn, "North's", north, MAX_HOLES, e);
    if (hn < 0)
        return -1;
    if (hs != hn)
        return error_set(e, "APN: rows of unequal length (South %d holes, North %d)", hs, hn);
    if (hs < 2)
        return error_set(e, "APN: rows of %d holes (at least 2)", hs);
    memcpy(pit + hs, north, (size_t)hn * sizeof north[0]);
    return hs;
}

/* Read the stores field `S/N`. */
static int read_stores(const char *s, size_t n, long store[2], Error *e)
{
    char buf[MAX_FIELD_TEXT + 4];
    const char *slash = memchr(s, '/', n);
    if (slash) {
        size_t ns = (size_t)(slash - s);
        store[0] = read_count(s, ns, 65535);
        store[1] = read_count(slash + 1, n - ns - 1, 65535);
    }
    if (!slash || store[0] < 0 || store[1] < 0)
        return error_set(e, "APN: stores: '%s' is not two seed counts written S/N",
                         clip(s, n, buf));
    return 0;
}

/* Make the variant agree with the row length and the seed total, as docs/rules.md decides. */
static int fit_variant(Variant *v, int h, long total, bool holes_given, bool seeds_given,
                       Error *e)
{
    if (holes_given && v->holes != h)
        return error_set(e, "APN: rows of %d holes, but the variant has %d holes", h, v->holes);
    v->holes = h;
    if (seeds_given) {
        if (total != 2L * h * v->seeds)
            return error_set(e, "APN: holes and stores hold %ld seeds, but the variant has %ld "
                             "(2 x %d holes x %d seeds)", total, 2L * h * v->seeds, h, v->seeds);
    } else {
        if (total == 0 || total % (2L * h) != 0)
            return error_set(e, "APN: holes and stores hold %ld seeds, not a whole number of "
                             "seeds per hole for %d holes a row", total, h);
        v->seeds = (int)(total / (2L * h));
    }
    return variant_finish(v, e);
}

int apn_parse(const char *text, Variant *v, bool holes_given, bool seeds_given, Position *p,
              Error *e)
{
    const char *f[5];
    size_t len[5];
    uint16_t pit[MAX_PITS] = { 0 };
    long store[2] = { 0, 0 };
    int side = SOUTH, last = NOBODY, first = NOBODY;

    if (!text || split_fields(text, f, len, e) != 0)
        return text ? -1 : error_set(e, "APN: empty");
    int h = read_holes(f[0], len[0], pit, e);
    if (h < 0 || read_stores(f[1], len[1], store, e) != 0
        || read_side(f[2], len[2], false, "side to move", &side, e) != 0
        || read_side(f[3], len[3], true, "last capturer", &last, e) != 0
        || read_side(f[4], len[4], true, "first final-seed capturer", &first, e) != 0)
        return -1;

    long on_board = 0;
    for (int i = 0; i < 2 * h; i++)
        on_board += pit[i];
    if (fit_variant(v, h, on_board + store[0] + store[1], holes_given, seeds_given, e) != 0)
        return -1;

    memset(p, 0, sizeof *p);
    memcpy(p->pit, pit, sizeof pit);
    p->store[SOUTH] = (uint16_t)store[0];
    p->store[NORTH] = (uint16_t)store[1];
    p->left = (uint16_t)on_board;
    p->side = (int8_t)side;
    p->last_capturer = (int8_t)last;
    p->first_final = (int8_t)first;
    pos_set_masks(v, p);
    if (!pos_over(v, p) && !p->legal)
        return error_set(e, "APN: %s is to move but has no seeds (a pass would already have "
                         "been applied)", side == SOUTH ? "South" : "North");
    /* The seeds in play exceed the capture, so a game reaches its end only by captures: the
     * award of the seeds left needs the last capturer. */
    if (pos_over(v, p) && last == NOBODY)
        return error_set(e, "APN: the game is over (seeds on the board %ld, at most capture %d) "
                         "but the last capturer is '-' (a finished game has one: S or N)",
                         on_board, v->capture);
    return 0;
}

/* The letter of a side field. */
static char side_letter(int s)
{
    return s == SOUTH ? 'S' : s == NORTH ? 'N' : '-';
}

int apn_format(const Variant *v, const Position *p, char *buf)
{
    char *o = buf;
    for (int i = 0; i < v->pits; i++) {
        if (i)
            *o++ = (i == v->holes) ? '/' : ',';
        o += sprintf(o, "%u", (unsigned)p->pit[i]);
    }
    o += sprintf(o, " %u/%u %c %c %c", (unsigned)p->store[SOUTH], (unsigned)p->store[NORTH],
                 side_letter(p->side), side_letter(p->last_capturer),
                 side_letter(p->first_final));
    return (int)(o - buf);
}
