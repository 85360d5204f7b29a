/* test_util.h: what the test programs share: reading data files line by line, splitting
 * fields, and building a variant from `name=value` options. Everything here is static inline,
 * so each test includes only what it uses without unused-function warnings. */
#ifndef ANYWOLI_TEST_UTIL_H
#define ANYWOLI_TEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "position.h"
#include "variant.h"

#ifndef TEST_DATA_DIR
#error "TEST_DATA_DIR must be defined (the folder tests/data)"
#endif

/* The lines of a text file, without their line ends; blank lines are kept as "". */
typedef struct Lines {
    char **line;
    int n;
} Lines;

/* Read a whole file into lines; fails the running test if it cannot be read or is empty. */
static inline Lines tu_read_lines(const char *path)
{
    Lines l = { NULL, 0 };
    FILE *f = fopen(path, "r");
    if (!f)
        fail_msg("cannot open %s", path);
    char *buf = NULL;
    size_t cap = 0;
    ssize_t len;
    int room = 0;
    while ((len = getline(&buf, &cap, f)) >= 0) {
        while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r'))
            buf[--len] = '\0';
        if (l.n == room) {
            room = room ? 2 * room : 64;
            l.line = realloc(l.line, (size_t)room * sizeof *l.line);
            assert_non_null(l.line);
        }
        l.line[l.n] = strdup(buf);
        assert_non_null(l.line[l.n]);
        l.n++;
    }
    free(buf);
    fclose(f);
    if (l.n == 0)
        fail_msg("%s is empty", path);
    return l;
}

/* Free what tu_read_lines returned. */
static inline void tu_free_lines(Lines *l)
{
    for (int i = 0; i < l->n; i++)
        free(l->line[i]);
    free(l->line);
    l->line = NULL;
    l->n = 0;
}

/* A path under TEST_DATA_DIR. */
static inline const char *tu_data_path(const char *rel, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s", TEST_DATA_DIR, rel);
    return buf;
}

/* Split s in place at every sep; returns the number of fields (at most max are stored). */
static inline int tu_split(char *s, char sep, char **field, int max)
{
    int n = 0;
    for (;;) {
        char *end = strchr(s, sep);
        if (n < max)
            field[n] = s;
        n++;
        if (!end)
            return n;
        *end = '\0';
        s = end + 1;
    }
}

/* Build a variant from space-separated `name=value` options (`variant=NAME` for a preset,
 * applied first wherever it stands). Says whether holes and seeds were fixed (a preset fixes
 * both). Does not call variant_finish. Fails the test on a bad option. */
static inline void tu_variant_opts(const char *opts, Variant *v, bool *holes_given,
                                   bool *seeds_given)
{
    char buf[256];
    char *tok[16];
    Error e;
    bool hg = false, sg = false;
    variant_default(v);
    snprintf(buf, sizeof buf, "%s", opts ? opts : "");
    int n = buf[0] ? tu_split(buf, ' ', tok, 16) : 0;
    assert_true(n <= 16);
    for (int i = 0; i < n; i++) {
        if (strncmp(tok[i], "variant=", 8) == 0) {
            if (variant_preset(v, tok[i] + 8, &e) != 0)
                fail_msg("options '%s': %s", opts, e.msg);
            hg = sg = true;
        }
    }
    for (int i = 0; i < n; i++) {
        char *eq = strchr(tok[i], '=');
        if (!eq)
            fail_msg("options '%s': '%s' is not name=value", opts, tok[i]);
        *eq = '\0';
        if (strcmp(tok[i], "variant") == 0)
            continue;
        if (variant_set(v, tok[i], eq + 1, &e) != 0)
            fail_msg("options '%s': %s", opts, e.msg);
        hg |= strcmp(tok[i], "holes") == 0;
        sg |= strcmp(tok[i], "seeds") == 0;
    }
    if (holes_given)
        *holes_given = hg;
    if (seeds_given)
        *seeds_given = sg;
}

/* The variant of the options, finished; fails the test if it is invalid. */
static inline void tu_variant(const char *opts, Variant *v)
{
    Error e;
    tu_variant_opts(opts, v, NULL, NULL);
    if (variant_finish(v, &e) != 0)
        fail_msg("options '%s': %s", opts, e.msg);
}

/* The variant of the options (tu_variant) as a value, for initialisers. */
static inline Variant tu_variant_of(const char *opts)
{
    Variant v;
    tu_variant(opts, &v);
    return v;
}

/* The variant of the options and the position: the start for NULL or "start", else the APN
 * read with holes and seeds fixed only where the options give them. Fails the test on error. */
static inline void tu_position(const char *opts, const char *apn, Variant *v, Position *p)
{
    Error e;
    bool hg, sg;
    if (!apn || strcmp(apn, "start") == 0) {
        tu_variant(opts, v);
        pos_start(v, p);
        return;
    }
    tu_variant_opts(opts, v, &hg, &sg);
    if (apn_parse(apn, v, hg, sg, p, &e) != 0)
        fail_msg("APN '%s' (options '%s'): %s", apn, opts ? opts : "", e.msg);
    if (!pos_ok(v, p))
        fail_msg("APN '%s': pos_ok fails right after parsing", apn);
}

/* The APN of p, in a static buffer (valid until the next call). */
static inline const char *tu_apn(const Variant *v, const Position *p)
{
    static char buf[APN_MAX];
    apn_format(v, p, buf);
    return buf;
}

#endif
