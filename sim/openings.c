/* openings.c: a job's openings from its spec: parsing the spec, enumerating all:N, reading a
 * book file, and drawing plies:N for a pair. */
#include "openings.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "door.h"
#include "nearest.h"

/* Random lines plies:N tries when loaded before it says that no game survives N plies. */
#define PLIES_CHECK_DRAWS 10000

/* ---- The spec ---------------------------------------------------------------------------- */

/* The one message for a spec that is not one of the four forms, with the nearest kind when
 * the word before the colon looks like a slip ("plise:4"). */
static int bad_spec(const char *spec, Error *e)
{
    char kind[64], hint[100];
    snprintf(kind, sizeof kind, "%.*s", (int)strcspn(spec, ":"), spec);
    nearest_hint_in(kind, "start, plies, all or file", hint, sizeof hint);
    return error_set(e, "openings \"%s\": expected start, plies:N, all:N or file:PATH "
                     "(N from 1 to %d)%s", spec, OPENING_MAX_PLIES, hint);
}

/* N of plies:N or all:N: digits only, 1 to OPENING_MAX_PLIES; -1 otherwise. */
static int parse_plies(const char *text)
{
    int n = 0;
    if (!*text)
        return -1;
    for (const char *c = text; *c; c++) {
        if (!isdigit((unsigned char)*c) || n > OPENING_MAX_PLIES)
            return -1;
        n = 10 * n + (*c - '0');
    }
    return n >= 1 && n <= OPENING_MAX_PLIES ? n : -1;
}

/* The path of file:PATH: as written when absolute or when there is no base folder, else
 * BASE/PATH. NULL when out of memory. */
static char *book_path(const char *path, const char *base)
{
    if (!base || !*base || path[0] == '/')
        return strdup(path);
    size_t len = strlen(base) + strlen(path) + 2;
    char *out = malloc(len);
    if (out)
        snprintf(out, len, "%s/%s", base, path);
    return out;
}

/* Fill s's kind, plies and path from spec (s->spec already set), a relative book path taken
 * from folder base (NULL: the current folder); -1 with the message. */
static int parse_spec(OpeningSet *s, const char *spec, const char *base, Error *e)
{
    if (strcmp(spec, "start") == 0) {
        s->kind = OPENINGS_START;
        return 0;
    }
    if (strncmp(spec, "plies:", 6) == 0 || strncmp(spec, "all:", 4) == 0) {
        s->kind = spec[0] == 'p' ? OPENINGS_PLIES : OPENINGS_ALL;
        s->plies = parse_plies(strchr(spec, ':') + 1);
        return s->plies > 0 ? 0 : bad_spec(spec, e);
    }
    if (strncmp(spec, "file:", 5) == 0 && spec[5]) {
        s->kind = OPENINGS_FILE;
        s->path = book_path(spec + 5, base);
        return s->path ? 0 : error_set(e, "out of memory");
    }
    return bad_spec(spec, e);
}

/* Openings of more plies than the variant's cap would leave no game to play. */
static int check_cap(const OpeningSet *s, const Variant *v, Error *e)
{
    if (s->plies > 0 && s->plies >= v->max_plies)
        return error_set(e, "openings \"%s\": %d plies reach the variant's max_plies (%lld)",
                         s->spec, s->plies, (long long)v->max_plies);
    return 0;
}

/* ---- all:N ------------------------------------------------------------------------------- */

/* A depth-first walk over the lines of `plies` plies that keep the game going: counting them
 * (list NULL) or writing them into list in the walk's order. */
typedef struct Walk {
    int plies;                     /* N */
    int line[OPENING_MAX_PLIES];   /* the moves of the line being walked */
    int64_t lines;                 /* complete lines found so far */
    int64_t visits;                /* moves played so far */
    Opening *list;                 /* NULL: count only */
} Walk;

/* Walk the lines from p, `depth` plies made; false as soon as a limit is passed. Moves are
 * taken in increasing hole order, so the lines come in lexicographic order of their moves. */
static bool walk_lines(const Variant *v, const Position *p, int depth, Walk *w)
{
    if (depth == w->plies) {
        if (w->list) {
            Opening *o = &w->list[w->lines];
            memset(o, 0, sizeof *o);
            o->n_moves = depth;
            memcpy(o->moves, w->line, (size_t)depth * sizeof *o->moves);
        }
        return ++w->lines <= OPENINGS_MAX_COUNT;
    }
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1) {
        int move = __builtin_ctzll(m);
        if (++w->visits > OPENINGS_MAX_VISITS)
            return false;
        Position child;
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, move, &child, &info, NULL);
        if (ev == EV_OVER || ev == EV_ENDLESS)   /* a line during which the game ends */
            continue;
        w->line[depth] = move;
        if (!walk_lines(v, &child, depth + 1, w))
            return false;
    }
    return true;
}

/* Enumerate all:N into s->list: count first (refusing a list too long before allocating it),
 * then walk again writing the lines. */
static int load_all(OpeningSet *s, const Variant *v, Error *e)
{
    Position start;
    pos_start(v, &start);
    Walk w = { .plies = s->plies };
    if (!walk_lines(v, &start, 0, &w)) {
        if (w.lines > OPENINGS_MAX_COUNT)
            return error_set(e, "openings \"%s\": more than %d lines on this board (expected "
                             "a smaller N, or plies:N)", s->spec, OPENINGS_MAX_COUNT);
        return error_set(e, "openings \"%s\": counting its lines would play more than %d "
                         "moves on this board (expected a smaller N, or plies:N)", s->spec,
                         OPENINGS_MAX_VISITS);
    }
    if (w.lines == 0)
        return error_set(e, "openings \"%s\": every line of %d plies ends the game on this "
                         "board (expected a smaller N)", s->spec, s->plies);
    s->list = calloc((size_t)w.lines, sizeof *s->list);
    if (!s->list)
        return error_set(e, "openings \"%s\": out of memory for %lld lines", s->spec,
                         (long long)w.lines);
    s->count = w.lines;
    Walk fill = { .plies = s->plies, .list = s->list };
    bool whole = walk_lines(v, &start, 0, &fill);
    assert(whole && fill.lines == s->count);
    (void)whole;
    return 0;
}

/* ---- file:PATH --------------------------------------------------------------------------- */

/* Cut a `#` comment and the white space around what is left; returns the text (maybe ""). */
static char *line_content(char *text)
{
    char *hash = strchr(text, '#');
    if (hash)
        *hash = '\0';
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n > 0 && isspace((unsigned char)text[n - 1]))
        text[--n] = '\0';
    return text;
}

/* A book line that is an APN position of v's board (same holes and seeds) not yet over. */
static int parse_apn_line(const char *text, const char *where, const Variant *v, Opening *o,
                          Error *e)
{
    Variant w = *v;
    Error why;
    if (apn_parse(text, &w, true, true, &o->position, &why) != 0)
        return error_set(e, "%s: %s", where, why.msg);
    if (pos_over(v, &o->position))
        return error_set(e, "%s: the position is over (an opening must leave a game to play)",
                         where);
    o->has_position = true;
    return 0;
}

/* A hole number as `anywoli move` takes it: digits only, at most 4 of them; -1 otherwise. */
static int parse_hole(const char *tok, size_t len)
{
    if (len == 0 || len > 4)
        return -1;
    int n = 0;
    for (size_t i = 0; i < len; i++) {
        if (!isdigit((unsigned char)tok[i]))
            return -1;
        n = 10 * n + (tok[i] - '0');
    }
    return n;
}

/* A book line that is a move list, legal in turn from v's start, none ending the game. */
static int parse_moves_line(const char *text, const char *where, const Variant *v, Opening *o,
                            Error *e)
{
    Position p;
    pos_start(v, &p);
    for (const char *c = text; *c;) {
        size_t len = strcspn(c, " \t");
        int ply = o->n_moves + 1;
        int move = parse_hole(c, len);
        if (move < 0)
            return error_set(e, "%s: ply %d: '%.*s' is not a hole number (0 to %d)", where, ply,
                             (int)(len > 40 ? 40 : len), c, v->pits - 1);
        if (o->n_moves == OPENING_MAX_PLIES)
            return error_set(e, "%s: more than %d moves", where, OPENING_MAX_PLIES);
        Error why;
        if (!pos_move_ok(v, &p, move, &why))
            return error_set(e, "%s: ply %d: %s", where, ply, why.msg);
        MoveInfo info;
        MoveEvent ev = pos_play(v, &p, move, &p, &info, NULL);
        if (ev == EV_OVER)
            return error_set(e, "%s: ply %d: move %d ends the game (an opening must leave a "
                             "game to play)", where, ply, move);
        if (ev == EV_ENDLESS)
            return error_set(e, "%s: ply %d: move %d is endless (it never ends)", where, ply,
                             move);
        o->moves[o->n_moves++] = move;
        c += len;
        c += strspn(c, " \t");
    }
    if (o->n_moves >= v->max_plies)
        return error_set(e, "%s: %d moves reach the variant's max_plies (%lld)", where,
                         o->n_moves, (long long)v->max_plies);
    return 0;
}

/* One book line into *o: 1 for a blank or comment line, 0 for an opening, -1 with
 * `PATH:LINE: what`. A line with a ',' or '/' is an APN position, any other a move list. */
static int parse_book_line(char *raw, const char *path, long line_no, const Variant *v,
                           Opening *o, Error *e)
{
    char where[256];
    snprintf(where, sizeof where, "%s:%ld", path, line_no);
    char *text = line_content(raw);
    if (!*text)
        return 1;
    memset(o, 0, sizeof *o);
    if (strpbrk(text, ",/"))
        return parse_apn_line(text, where, v, o, e);
    return parse_moves_line(text, where, v, o, e);
}

/* Append o to s->list, growing it; -1 with a message. */
static int list_append(OpeningSet *s, int64_t *room, const Opening *o, Error *e)
{
    if (s->count == *room) {
        int64_t more = *room ? 2 * *room : 64;
        Opening *list = realloc(s->list, (size_t)more * sizeof *list);
        if (!list)
            return error_set(e, "%s: out of memory for %lld openings", s->path,
                             (long long)more);
        s->list = list;
        *room = more;
    }
    s->list[s->count++] = *o;
    return 0;
}

/* What book_line found. */
typedef enum LineRead { LINE_READ, LINE_END, LINE_LONG, LINE_FAILED } LineRead;

/* The next line of f into buf (OPENINGS_LINE_MAX + 1 bytes), its '\n' dropped, its length
 * (NUL bytes included) in *len: memory stays bounded by the line limit whatever the file
 * holds, and a read error is told from the end of the file (LINE_FAILED, errno set). */
static LineRead book_line(FILE *f, char *buf, size_t *len)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n == OPENINGS_LINE_MAX)
            return LINE_LONG;
        buf[n++] = (char)c;
    }
    buf[n] = '\0';
    *len = n;
    if (c == EOF && ferror(f))
        return LINE_FAILED;
    return c == EOF && n == 0 ? LINE_END : LINE_READ;
}

/* One line of the book (line_no, n bytes in buf) into s->list; -1 with its message. */
static int book_add_line(OpeningSet *s, char *buf, size_t n, long line_no, int64_t *room,
                         const Variant *v, Error *e)
{
    Opening o;
    if (strlen(buf) != n)
        return error_set(e, "%s:%ld: a NUL byte (a book is text)", s->path, line_no);
    int got = parse_book_line(buf, s->path, line_no, v, &o, e);
    if (got < 0)
        return -1;
    if (got == 0 && s->count == OPENINGS_MAX_COUNT)
        return error_set(e, "%s:%ld: more than %d openings", s->path, line_no,
                         OPENINGS_MAX_COUNT);
    return got == 0 ? list_append(s, room, &o, e) : 0;
}

/* Read the book lines of f into s->list; -1 with the message of the first bad line, or of a
 * read error (never taken for the end of the file). */
static int read_book(OpeningSet *s, FILE *f, const Variant *v, Error *e)
{
    char buf[OPENINGS_LINE_MAX + 1];
    size_t len;
    long line_no = 0;
    int64_t room = 0;
    int rc = 0;
    LineRead got;
    while (rc == 0 && (got = book_line(f, buf, &len)) != LINE_END) {
        line_no++;
        if (got == LINE_FAILED)
            rc = error_set(e, "%s:%ld: cannot read: %s", s->path, line_no, strerror(errno));
        else if (got == LINE_LONG)
            rc = error_set(e, "%s:%ld: longer than %d characters", s->path, line_no,
                           OPENINGS_LINE_MAX);
        else
            rc = book_add_line(s, buf, len, line_no, &room, v, e);
    }
    if (rc == 0 && s->count == 0)
        rc = error_set(e, "%s: no openings (only blank lines and comments)", s->path);
    return rc;
}

/* Read file:PATH into s->list (through door_read_open: a FIFO or a folder is refused). */
static int load_file(OpeningSet *s, const Variant *v, Error *e)
{
    int fd = door_read_open(s->path, e);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "r");
    if (!f) {
        int err = errno;
        close(fd);
        return error_set(e, "%s: cannot read: %s", s->path, strerror(err));
    }
    int rc = read_book(s, f, v, e);
    fclose(f);
    return rc;
}

/* ---- plies:N ----------------------------------------------------------------------------- */

/* Draw n plies from the start into *o, each uniform among the legal moves (pos_random_move,
 * the `random` agent's draw); false when a ply ends the game or is endless (o is then not an
 * opening, and the caller draws again). */
static bool draw_line(const Variant *v, Rng *r, int n, Opening *o)
{
    Position p;
    pos_start(v, &p);
    memset(o, 0, sizeof *o);
    for (int i = 0; i < n; i++) {
        int move = pos_random_move(&p, r);
        MoveInfo info;
        MoveEvent ev = pos_play(v, &p, move, &p, &info, NULL);
        if (ev == EV_OVER || ev == EV_ENDLESS)
            return false;
        o->moves[o->n_moves++] = move;
    }
    return true;
}

/* Refuse plies:N when no line of the first PLIES_CHECK_DRAWS of a fixed stream survives: on
 * such a board, drawing a pair's opening again and again could take forever. */
static int check_plies(const OpeningSet *s, const Variant *v, Error *e)
{
    Rng r;
    rng_seed(&r, 0, 0, 0);
    r = rng_substream(&r, RNG_SUB_OPENING);
    Opening o;
    for (int i = 0; i < PLIES_CHECK_DRAWS; i++) {
        if (draw_line(v, &r, s->plies, &o))
            return 0;
    }
    return error_set(e, "openings \"%s\": none of %d random lines of %d plies keeps the game "
                     "going on this board (expected a smaller N)", s->spec, PLIES_CHECK_DRAWS,
                     s->plies);
}

/* ---- The set ----------------------------------------------------------------------------- */

int openings_load(OpeningSet *s, const char *spec, const Variant *v, Error *e)
{
    return openings_load_in(s, spec, NULL, v, e);
}

int openings_load_in(OpeningSet *s, const char *spec, const char *base, const Variant *v,
                     Error *e)
{
    memset(s, 0, sizeof *s);
    s->spec = strdup(spec);
    if (!s->spec)
        return error_set(e, "out of memory");
    int rc = parse_spec(s, spec, base, e);
    if (rc == 0)
        rc = check_cap(s, v, e);
    if (rc == 0 && s->kind == OPENINGS_ALL)
        rc = load_all(s, v, e);
    else if (rc == 0 && s->kind == OPENINGS_FILE)
        rc = load_file(s, v, e);
    else if (rc == 0 && s->kind == OPENINGS_PLIES)
        rc = check_plies(s, v, e);
    if (rc != 0)
        openings_free(s);
    return rc;
}

/* ---- The order of a list ------------------------------------------------------------------ */

const char *const openings_order_names[OPENINGS_ORDER_NB] = { "in-order", "shuffled" };

int openings_order_parse(const char *text, OpeningsOrder *order)
{
    for (int i = 0; i < OPENINGS_ORDER_NB; i++)
        if (strcmp(text, openings_order_names[i]) == 0) {
            *order = (OpeningsOrder)i;
            return 0;
        }
    return -1;
}

int openings_set_order(OpeningSet *s, OpeningsOrder order, uint64_t seed, uint64_t job,
                       Error *e)
{
    if (order == OPENINGS_IN_ORDER)
        return 0;
    if (s->kind != OPENINGS_ALL && s->kind != OPENINGS_FILE)
        return error_set(e, "openings_order \"%s\": only a list of openings (all:N or "
                         "file:PATH) has an order to shuffle, not \"%s\"",
                         openings_order_names[order], s->spec);
    /* One permutation per job, not one per cycle: the openings table then holds each line
     * once, in the order every cycle plays it, and the shuffle costs one pass at load. */
    Rng first;
    rng_seed(&first, seed, job, 0);
    Rng r = rng_substream(&first, RNG_SUB_OPENINGS_ORDER);
    for (int64_t i = s->count - 1; i > 0; i--) {   /* count <= OPENINGS_MAX_COUNT fits rng_below */
        int64_t j = (int64_t)rng_below(&r, (uint32_t)(i + 1));
        Opening t = s->list[i];
        s->list[i] = s->list[j];
        s->list[j] = t;
    }
    s->order = order;
    return 0;
}

void openings_free(OpeningSet *s)
{
    free(s->spec);
    free(s->path);
    free(s->list);
    memset(s, 0, sizeof *s);
}

int64_t openings_pair(const OpeningSet *s, const Variant *v, uint64_t seed, uint64_t job,
                      uint64_t pair, Opening *o)
{
    switch (s->kind) {
    case OPENINGS_ALL:
    case OPENINGS_FILE: {
        int64_t i = (int64_t)(pair % (uint64_t)s->count);
        *o = s->list[i];
        return i;
    }
    case OPENINGS_PLIES: {
        Rng first;
        rng_seed(&first, seed, job, 2 * pair);
        Rng r = rng_substream(&first, RNG_SUB_OPENING);
        while (!draw_line(v, &r, s->plies, o))   /* openings_load saw that lines survive */
            ;
        return (int64_t)pair;
    }
    case OPENINGS_START:
    default:
        memset(o, 0, sizeof *o);
        return -1;
    }
}

/* ---- One opening ------------------------------------------------------------------------- */

void opening_position(const Variant *v, const Opening *o, Position *p)
{
    if (o->has_position)
        *p = o->position;
    else
        pos_start(v, p);
    for (int i = 0; i < o->n_moves; i++) {
        MoveInfo info;
        MoveEvent ev = pos_play(v, p, o->moves[i], p, &info, NULL);
        assert(ev != EV_OVER && ev != EV_ENDLESS);   /* openings are checked when made */
        (void)ev;
    }
}

GameStart opening_game_start(const Opening *o)
{
    return (GameStart){ .position = o->has_position ? &o->position : NULL,
                        .moves = o->moves,
                        .n_moves = (uint32_t)o->n_moves };
}

int opening_apn(const Variant *v, const Opening *o, char *buf)
{
    Position p;
    opening_position(v, o, &p);
    return apn_format(v, &p, buf);
}

void opening_moves_text(const Opening *o, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0)
        return;
    buf[0] = '\0';
    for (int i = 0; i < o->n_moves && used < len; i++) {
        int n = snprintf(buf + used, len - used, i ? " %d" : "%d", o->moves[i]);
        if (n < 0)
            return;
        used += (size_t)n;
    }
}

void opening_root_line(const Variant *v, const Opening *o, int64_t index, RootLine *l)
{
    memset(l, 0, sizeof *l);
    l->opening = index;
    l->n_moves = o->n_moves < ROOT_MAX_PLIES ? o->n_moves : ROOT_MAX_PLIES;
    Opening prefix = *o;
    for (int k = 0; k < l->n_moves; k++) {
        Position p;
        prefix.n_moves = k;
        opening_position(v, &prefix, &p);
        l->moves[k] = o->moves[k];
        l->mover[k] = (int8_t)p.side;
    }
}
