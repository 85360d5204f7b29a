/* board_svg.h: a position drawn as SVG, for people: two rows of holes (North's on top, drawn
 * right to left, as docs/rules.md lays the board out), each hole named S1..SH or N1..NH with
 * its seeds, both stores, whose turn it is, and optionally the marks of the move that led to
 * it (the hole it emptied, the holes its laps sowed into, those relay laps picked up, those
 * captured). Deterministic text, self-contained (no font, script or image from elsewhere).
 *
 * Every element a reader (or a page's script, or a test) needs carries data attributes:
 * a hole `data-hole` (its index), `data-name`, `data-count` and `data-marks` (its marks'
 * class names, space-separated); a store `data-store` (S or N) and `data-count`; the turn
 * line `data-side`. Its text children have the classes `count` and `label`. */
#ifndef ANYWOLI_BOARD_SVG_H
#define ANYWOLI_BOARD_SVG_H

#include <stdint.h>
#include <stdio.h>

#include "position.h"

/* s[0 .. len) with the special characters of XML and HTML escaped (< > & "): the one
 * escaper of the lab's drawings and pages (the replay page, the report). */
void markup_text(FILE *out, const char *s, size_t len);

/* What a drawing marks of the move that led to the position. */
typedef struct BoardMarks {
    int origin;               /* the hole the move emptied; -1: none (a start, no move) */
    uint64_t sown;            /* holes a seed was dropped into */
    uint64_t relayed;         /* holes a relay lap picked up */
    uint64_t captured;        /* holes captured during the move (a hole may be sown again
                               * after its capture, so it need not be empty after the move) */
} BoardMarks;

/* No marks (a start position). */
BoardMarks board_marks_none(void);

/* The marks of move `move` from its trace (pos_play's MoveTrace); none for an endless move. */
BoardMarks board_marks_of_move(int move, MoveEvent ev, const MoveTrace *t);


/* A hole's marks as its class names ("origin sown", "" for none), into buf: the one place
 * the marks are named, for the drawing and for a page's data. */
#define BOARD_MARKS_TEXT_MAX 40
void board_hole_marks(const BoardMarks *m, int hole, char buf[BOARD_MARKS_TEXT_MAX]);

/* The turn line under the board: "South to move", "North to move", or "game over" once
 * capture or fewer seeds are left. */
const char *board_turn_text(const Variant *v, const Position *p);

/* Draw p as one <svg> element (with its xmlns, so that it is also a whole SVG file when
 * written alone): the caption (NULL: none) above the board; marks (NULL: none, and no
 * legend) on its holes. */
void board_svg_write(FILE *out, const Variant *v, const Position *p, const BoardMarks *marks,
                     const char *caption);

#endif
