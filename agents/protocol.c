/* protocol.c: the protocol's lines, written and read (protocol.h, docs/protocol.md). */
#include "protocol.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void proto_text_clear(ProtoText *t)
{
    t->n = 0;
    t->failed = false;
    if (t->s)
        t->s[0] = '\0';
}

void proto_text_free(ProtoText *t)
{
    free(t->s);
    memset(t, 0, sizeof *t);
}

/* Make room in t for `more` bytes and the ending zero. */
static bool text_room(ProtoText *t, size_t more)
{
    if (t->n + more + 1 <= t->cap)
        return true;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->n + more + 1)
        cap *= 2;
    char *grown = realloc(t->s, cap);
    if (!grown) {
        t->failed = true;
        return false;
    }
    t->s = grown;
    t->cap = cap;
    return true;
}

/* Append formatted text to t. */
static void add(ProtoText *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(ProtoText *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || t->failed || !text_room(t, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)n;
}

void proto_hello(ProtoText *t)
{
    add(t, "anywoli protocol %d\n", PROTOCOL_VERSION);
}

void proto_set(ProtoText *t, const char *name, const char *value)
{
    add(t, "set %s %s\n", name, value);
}

static const char side_letter[2] = { 'S', 'N' };

void proto_game(ProtoText *t, const Variant *v, int side, uint64_t seed, const Position *start)
{
    char apn[APN_MAX], value[64];
    add(t, "game seed %" PRIu64 " side %c", seed, side_letter[side]);
    for (int i = 0; i < VP_NB; i++) {
        variant_param_text(v, (VariantParam)i, value, sizeof value);
        add(t, " %s %s", variant_param_name((VariantParam)i), value);
    }
    apn_format(v, start, apn);
    add(t, " start %s\n", apn);
}

void proto_position(ProtoText *t, const Variant *v, const Position *p, const uint8_t *history,
                    size_t n_history)
{
    char apn[APN_MAX];
    apn_format(v, p, apn);
    add(t, "position %s moves", apn);
    for (uint64_t m = pos_legal_mask(v, p); m; m &= m - 1)
        add(t, " %d", __builtin_ctzll(m));
    add(t, " history");
    for (size_t i = 0; i < n_history; i++)
        add(t, " %d", history[i]);
    add(t, "\n");
}

void proto_end(ProtoText *t, const char *outcome, unsigned south, unsigned north)
{
    add(t, "end %s %u %u\n", outcome, south, north);
}

void proto_quit(ProtoText *t)
{
    add(t, "quit\n");
}

void proto_name(ProtoText *t, const char *name)
{
    add(t, "name %s\n", name);
}

void proto_version(ProtoText *t)
{
    add(t, "protocol %d\n", PROTOCOL_VERSION);
}

void proto_move(ProtoText *t, int move, uint64_t nodes, uint64_t playouts)
{
    add(t, "move %d", move);
    if (nodes)
        add(t, " nodes %" PRIu64, nodes);
    if (playouts)
        add(t, " playouts %" PRIu64, playouts);
    add(t, "\n");
}

void proto_error(ProtoText *t, const char *text)
{
    add(t, "error %s\n", text);
}

static const struct {
    const char *word;
    ProtoWord kind;
} words[] = {
    { "anywoli", PW_HELLO }, { "set", PW_SET }, { "game", PW_GAME },
    { "position", PW_POSITION }, { "end", PW_END }, { "quit", PW_QUIT },
    { "name", PW_NAME }, { "option", PW_OPTION }, { "protocol", PW_PROTOCOL },
    { "move", PW_MOVE }, { "info", PW_INFO }, { "error", PW_ERROR },
};

ProtoWord proto_word(const char *line, const char **rest)
{
    line += strspn(line, " \t\r");
    size_t n = strcspn(line, " \t\r");
    *rest = line + n + strspn(line + n, " \t\r");
    if (n == 0)
        return PW_EMPTY;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].word) == n && strncmp(line, words[i].word, n) == 0)
            return words[i].kind;
    return PW_UNKNOWN;
}

/* The next space-separated word of *at into buf (moving *at past it); false at the end or
 * for a word that does not fit. */
static bool next_word(const char **at, char *buf, size_t len)
{
    const char *p = *at + strspn(*at, " \t\r");
    size_t n = strcspn(p, " \t\r");
    if (n == 0 || n >= len)
        return false;
    memcpy(buf, p, n);
    buf[n] = '\0';
    *at = p + n;
    return true;
}

/* Whether nothing but spaces is left at p. */
static bool at_end(const char *p)
{
    return p[strspn(p, " \t\r")] == '\0';
}

/* A whole number of at most 20 digits (no sign, no spaces, no hex) into *out. */
static bool parse_count(const char *word, uint64_t *out)
{
    size_t n = strlen(word);
    if (n == 0 || n > 20 || strspn(word, "0123456789") != n)
        return false;
    *out = strtoull(word, NULL, 10);
    return n < 20 || strcmp(word, "18446744073709551615") <= 0;
}

int proto_parse_version(const char *rest, int *version, Error *e)
{
    char word[32];
    uint64_t n;
    const char *given = rest;
    if (!next_word(&rest, word, sizeof word) || !parse_count(word, &n) || n > 1000000 ||
        !at_end(rest))
        return error_set(e, "'protocol %.40s' is not a version (expected protocol %d)", given,
                         PROTOCOL_VERSION);
    *version = (int)n;
    return 0;
}

int proto_parse_hello(const char *rest, int *version, Error *e)
{
    const char *after;
    if (proto_word(rest, &after) != PW_PROTOCOL)
        return error_set(e, "expected 'anywoli protocol %d'", PROTOCOL_VERSION);
    return proto_parse_version(after, version, e);
}

int proto_parse_option(const char *rest, char *name, size_t len, Error *e)
{
    char value[PROTOCOL_LINE_MAX];
    const char *start = rest;
    if (!next_word(&rest, name, len) || !next_word(&rest, value, sizeof value) ||
        !at_end(rest))
        return error_set(e, "'option %.60s' (expected option NAME DEFAULT, two words)", start);
    return 0;
}

int proto_parse_move(const char *rest, int *move, uint64_t *nodes, uint64_t *playouts, Error *e)
{
    char word[32], key[32];
    uint64_t n;
    const char *start = rest;
    *nodes = *playouts = 0;
    if (!next_word(&rest, word, sizeof word) || !parse_count(word, &n) || n > 1000)
        return error_set(e, "'move %.40s' is not a move (expected move N, N a hole's index)",
                         start);
    *move = (int)n;
    for (bool seen[2] = { false, false }; next_word(&rest, key, sizeof key);) {
        int which = strcmp(key, "nodes") == 0 ? 0 : strcmp(key, "playouts") == 0 ? 1 : -1;
        uint64_t *to = which == 0 ? nodes : playouts;
        if (which < 0 || seen[which] || !next_word(&rest, word, sizeof word) ||
            !parse_count(word, to))
            return error_set(e, "'move %.40s': after the move, only 'nodes K' and "
                             "'playouts K', each at most once", start);
        seen[which] = true;
    }
    if (!at_end(rest))   /* a word too long for next_word */
        return error_set(e, "'move %.40s': after the move, only 'nodes K' and 'playouts K', "
                         "each at most once", start);
    return 0;
}

/* The APN at *at: its five space-separated fields, moving *at past them. */
static int read_apn(const char **at, char *apn, Error *e)
{
    size_t used = 0;
    char field[APN_MAX];
    for (int i = 0; i < 5; i++) {
        if (!next_word(at, field, sizeof field))
            return error_set(e, "expected an APN (five fields, e.g. "
                             "4,4,4,4,4,4,4,4,4,4,4,4/4,4,4,4,4,4,4,4,4,4,4,4 0/0 S - -)");
        used += (size_t)snprintf(apn + used, APN_MAX - used, "%s%s", i ? " " : "", field);
        if (used >= APN_MAX)
            return error_set(e, "the APN is too long");
    }
    return 0;
}

/* The position of v in the APN at *at, moving *at past it. */
static int read_position(const char **at, const Variant *v, Position *p, Error *e)
{
    char apn[APN_MAX];
    Variant same = *v;
    if (read_apn(at, apn, e) != 0)
        return -1;
    if (apn_parse(apn, &same, true, true, p, e) != 0)
        return -1;
    return 0;
}

int proto_parse_game(const char *rest, ProtoGame *g, Error *e)
{
    char key[64], value[64];
    bool has_start = false;
    const char *start_at = NULL;
    variant_default(&g->v);
    g->side = SOUTH;
    g->seed = 0;
    while (next_word(&rest, key, sizeof key)) {
        if (strcmp(key, "start") == 0) {   /* the APN ends the line */
            has_start = true;
            start_at = rest;
            break;
        }
        if (!next_word(&rest, value, sizeof value))
            return error_set(e, "game: '%s' has no value", key);
        if (strcmp(key, "seed") == 0) {
            if (!parse_count(value, &g->seed))
                return error_set(e, "game: seed %s is not a whole number (0 to 2^64-1)", value);
        } else if (strcmp(key, "side") == 0) {
            if (strcmp(value, "S") != 0 && strcmp(value, "N") != 0)
                return error_set(e, "game: side %s is not S or N", value);
            g->side = value[0] == 'S' ? SOUTH : NORTH;
        } else {
            Error why;
            if (variant_set(&g->v, key, value, &why) != 0)
                return error_set(e, "game: %s", why.msg);
        }
    }
    Error why;
    if (variant_finish(&g->v, &why) != 0)
        return error_set(e, "game: %s", why.msg);
    if (!has_start) {
        pos_start(&g->v, &g->start);
        return 0;
    }
    if (read_position(&start_at, &g->v, &g->start, &why) != 0)
        return error_set(e, "game: start: %s", why.msg);
    if (!at_end(start_at))
        return error_set(e, "game: unexpected text after the start position");
    return 0;
}

/* The legal moves listed after `moves` at *at (up to `history` or the end), as a mask. */
static int read_moves(const char **at, const Variant *v, uint64_t *mask, Error *e)
{
    char word[32];
    *mask = 0;
    for (const char *before = *at; next_word(at, word, sizeof word); before = *at) {
        uint64_t m;
        if (strcmp(word, "history") == 0) {
            *at = before;
            break;
        }
        if (!parse_count(word, &m) || m >= (uint64_t)v->pits)
            return error_set(e, "position: moves: '%s' is not a hole (0 to %d)", word,
                             v->pits - 1);
        *mask |= 1ULL << m;
    }
    return 0;
}

int proto_parse_position(const char *rest, const Variant *v, Position *p, Error *e)
{
    Error why;
    char word[32] = "";
    if (read_position(&rest, v, p, &why) != 0)
        return error_set(e, "position: %s", why.msg);
    bool more = next_word(&rest, word, sizeof word);
    if (more && strcmp(word, "moves") == 0) {
        uint64_t mask;
        if (read_moves(&rest, v, &mask, e) != 0)
            return -1;
        if (mask != pos_legal_mask(v, p))
            return error_set(e, "position: the moves listed are not the legal moves of the "
                             "position under this game's variant");
        more = next_word(&rest, word, sizeof word);
    }
    if (more && strcmp(word, "history") == 0) {   /* read past: the position says it all */
        uint64_t m;
        while (next_word(&rest, word, sizeof word))
            if (!parse_count(word, &m) || m >= (uint64_t)v->pits)
                return error_set(e, "position: history: '%s' is not a hole (0 to %d)", word,
                                 v->pits - 1);
    } else if (more) {
        return error_set(e, "position: unexpected '%s' after the position (expected moves or "
                         "history)", word);
    }
    if (pos_over(v, p))
        return error_set(e, "position: the game is over in this position: no move to choose");
    return 0;
}
