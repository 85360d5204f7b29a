/* board_page.h: a game as a self-contained HTML page that steps through it (`replay --html`,
 * `search --html`): First, Previous, Next and Last buttons (and the arrow, Home and End keys),
 * the ply, mover, move, event, stores and APN of each step, and the board (sim/board_svg.h)
 * with the last move's marks; the outcome at the end.
 *
 * The page knows no rules: each step's position and marks are written here, from the
 * positions the caller's game loop made, as data in the page, and its script only shows one
 * step's data at a time. It is written as the game goes (one step at a time), so a long game
 * costs no memory.
 *
 * For tests (and links to a ply): the page opened at `#ply=K` presses its Next button K times
 * as it loads; at `#press=KEYS` it presses, for each letter, n Next, p Previous, f First,
 * l Last, or the keys > (ArrowRight) and < (ArrowLeft), each through the handler a click or
 * a key uses, and keeps a copy of what is shown after each in the element #trail. */
#ifndef ANYWOLI_BOARD_PAGE_H
#define ANYWOLI_BOARD_PAGE_H

#include <stdint.h>
#include <stdio.h>

#include "position.h"

typedef struct BoardPage {
    FILE *out;
    const Variant *v;
    uint32_t steps;           /* steps written, the start's included */
} BoardPage;

/* Begin the page on out: its title and a line on what it shows (both plain text). */
void board_page_begin(BoardPage *pg, FILE *out, const Variant *v, const char *title,
                      const char *about);

/* The game's start, step 0 (after board_page_begin, before any move). */
void board_page_start(BoardPage *pg, const Position *start);

/* One move as the next step: its ply, the hole, the positions before and after it (after is
 * before for an endless move), its event and its trace (pos_play's, for the marks). */
void board_page_move(BoardPage *pg, uint32_t ply, int move, const Position *before,
                     const Position *after, MoveEvent ev, const MoveTrace *trace);

/* End the page with the outcome (plain text, shown at the last step). */
void board_page_end(BoardPage *pg, const char *outcome);

#endif
