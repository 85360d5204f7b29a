/* book.h: a balanced book of openings, as `anywoli openings` makes it. Every line of N plies
 * from the start (the all:N list of openings.h) is valued by an alpha-beta search of the
 * position it leads to; the lines whose value lies within a window around 0 are kept, and
 * written as a book file that openings_load reads (file:PATH). Everything here is a pure
 * function of the variant and the settings: the same book for any thread count.
 * docs/openings.md ("A balanced book") is the user's page. */
#ifndef ANYWOLI_BOOK_H
#define ANYWOLI_BOOK_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "agent.h"
#include "eval.h"
#include "error.h"
#include "openings.h"
#include "position.h"
#include "variant.h"

/* Values are in hundredths of a seed (the evaluation's EVAL_SCALE units), as integers, so
 * that the window test and the order of --max never depend on floating point. */
#define BOOK_SCALE EVAL_SCALE

/* The most forced moves (a side with one legal move) played before a position is searched;
 * a longer forced line is valued 0, as a game that never ends. */
#define BOOK_FORCED_MAX 1000

typedef struct BookSettings {
    int plies;              /* N: every line of N plies from the start */
    int depth;              /* plies searched (with a node budget: the deepest allowed) */
    int64_t nodes;          /* node budget of each search (0: depth alone) */
    int64_t window;         /* W: keep |value| <= W, in BOOK_SCALE units */
    int64_t max;            /* keep at most this many, those closest to 0 (0: no limit) */
} BookSettings;

typedef struct Book {
    OpeningSet lines;       /* all:N: every line, in its fixed order */
    int32_t *value;         /* per line: South's value of its position, BOOK_SCALE units */
    bool *kept;             /* per line: in the book */
    int64_t in_window;      /* lines whose value lies within the window */
    int64_t kept_count;     /* lines kept (fewer than in_window when --max cut) */
} Book;

/* The searcher that values lines: alphabeta with the settings' depth and node budget, ties
 * broken by the first move in a fixed order. -1 with a one-line message. */
int book_agent(Agent *a, const BookSettings *s, Error *e);

/* South's value of p (not over) in BOOK_SCALE units, by the searcher a: the search value
 * for the side to move, negated when North moves. A side with one legal move plays it first
 * (a search does not value a forced move); a move that ends the game gives its exact final
 * margin (eval_final). a is reset first, so the value depends on p alone. */
int32_t book_value(Agent *a, const Variant *v, const Position *p);

/* Enumerate all:N, value every line (in parallel, each thread its own searcher, into an
 * array), and mark the kept ones: within [-W, +W], then, with max, the `max` closest to 0,
 * ties by list order. -1 with a one-line message (book_free is then harmless), also when
 * no line is within the window (a book holds at least one opening). */
int book_make(Book *b, const Variant *v, const BookSettings *s, Error *e);

/* Write the book to f: a header of `#` comments (how it was made: the variant, N, the
 * search, the window, the counts, the command line), then each kept line in list order as
 * its moves and a trailing `# value` comment. -1 with a message on a write error. */
int book_write(const Book *b, const Variant *v, const BookSettings *s,
               const char *command_line, FILE *f, Error *e);

/* Free what book_make made; *b is then empty. */
void book_free(Book *b);

#endif
