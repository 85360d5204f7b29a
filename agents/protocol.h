/* protocol.h: the line protocol between the lab and a program that plays (docs/protocol.md).
 * Every line of it is written and read here, for both ends the lab has: the external agent
 * (agents/external.c, the lab talking to a program) and `anywoli engine` (the lab's agents
 * answering as a program). */
#ifndef ANYWOLI_PROTOCOL_H
#define ANYWOLI_PROTOCOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "position.h"
#include "variant.h"

#define PROTOCOL_VERSION 1

/* The longest line a program may write to the lab, its '\n' included: answers are short, so a
 * longer one is a program gone wrong (a flood), not a move. */
#define PROTOCOL_LINE_MAX 4096

/* Text that lines are written into, grown as needed; `failed` once memory ran out. */
typedef struct ProtoText {
    char *s;
    size_t n, cap;
    bool failed;
} ProtoText;

void proto_text_clear(ProtoText *t);   /* empty it, keeping its memory */
void proto_text_free(ProtoText *t);

/* The lines the lab writes (each appended to t, '\n' included). */
void proto_hello(ProtoText *t);                                      /* anywoli protocol 1 */
void proto_set(ProtoText *t, const char *name, const char *value);   /* set NAME VALUE */
/* game seed N side S|N holes 12 ... max_plies 200 start APN: every variant parameter by its
 * variant_params name, the agent's stream key as the seed, its side, the start position. */
void proto_game(ProtoText *t, const Variant *v, int side, uint64_t seed, const Position *start);
/* position APN moves M... history M...: the legal moves ascending, then the moves made since
 * the game's previous position line to this program (the first: since the game's start), so
 * that the lines, added up, give the whole history. */
void proto_position(ProtoText *t, const Variant *v, const Position *p, const uint8_t *history,
                    size_t n_history);
void proto_end(ProtoText *t, const char *outcome, unsigned south, unsigned north);
void proto_quit(ProtoText *t);

/* The lines a program writes. */
void proto_name(ProtoText *t, const char *name);
void proto_version(ProtoText *t);                                    /* protocol 1 */
void proto_move(ProtoText *t, int move, uint64_t nodes, uint64_t playouts);
void proto_error(ProtoText *t, const char *text);

/* What a line is, by its first word. */
typedef enum ProtoWord {
    PW_EMPTY = 0,   /* nothing but spaces */
    PW_HELLO,       /* anywoli */
    PW_SET, PW_GAME, PW_POSITION, PW_END, PW_QUIT,
    PW_NAME, PW_OPTION, PW_PROTOCOL, PW_MOVE, PW_INFO, PW_ERROR,
    PW_UNKNOWN
} ProtoWord;

/* The first word of line (which holds no '\n') and, in *rest, the text after it and its
 * spaces. */
ProtoWord proto_word(const char *line, const char **rest);

/* The version in the rest of `protocol N` (hello: `protocol N` after `anywoli`). */
int proto_parse_version(const char *rest, int *version, Error *e);
int proto_parse_hello(const char *rest, int *version, Error *e);

/* The rest of a program's `option NAME DEFAULT`: NAME (one word, into name) and DEFAULT (one
 * word), nothing after them. */
int proto_parse_option(const char *rest, char *name, size_t len, Error *e);

/* A program's answer: the rest of `move N [nodes K] [playouts K]` (each at most once, in
 * either order). */
int proto_parse_move(const char *rest, int *move, uint64_t *nodes, uint64_t *playouts, Error *e);

/* A game as the `game` line gives it (parameters not given keep the standard game's; no
 * seed: 0; no side: South; no start: the variant's). */
typedef struct ProtoGame {
    Variant v;
    int side;
    uint64_t seed;
    Position start;
} ProtoGame;
int proto_parse_game(const char *rest, ProtoGame *g, Error *e);

/* A position of v as the `position` line gives it; `moves`, when given, must be its legal
 * moves (a check that both ends play the same rules); `history` is read past. */
int proto_parse_position(const char *rest, const Variant *v, Position *p, Error *e);

#endif
