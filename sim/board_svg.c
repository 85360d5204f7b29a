/* board_svg.c: a position drawn as SVG (board_svg.h). */
#include "board_svg.h"

#include <stdbool.h>
#include <string.h>

/* The drawing's measures, in pixels. */
enum {
    PAD = 10,              /* around everything */
    CELL = 46,             /* one hole's square */
    RADIUS = 19,           /* a hole's circle */
    STORE_W = 60,          /* a store's width */
    GAP = 10,              /* between a store and the holes */
    CAPTION_H = 24,        /* the caption's line */
    LABEL_H = 20,          /* the holes' names above and below the rows */
    TURN_H = 24,           /* the turn line */
    LEGEND_H = 24,         /* the marks' legend */
    LEGEND_W = 600         /* its width: the drawing is at least as wide */
};

/* The marks, in the order their classes are written: the class name and the legend's text. */
enum { MARK_ORIGIN, MARK_SOWN, MARK_RELAY, MARK_CAPTURED, MARK_KINDS };
static const struct {
    const char *name, *legend;
} mark_kinds[MARK_KINDS] = {
    [MARK_ORIGIN] = { "origin", "emptied by the move" },
    [MARK_SOWN] = { "sown", "sown into" },
    [MARK_RELAY] = { "relay", "picked up by a relay lap" },
    [MARK_CAPTURED] = { "captured", "captured" },
};

/* Whether hole h has mark kind k in m. */
static bool has_mark(const BoardMarks *m, int k, int h)
{
    uint64_t bit = 1ULL << h;
    switch (k) {
    case MARK_ORIGIN: return m->origin == h;
    case MARK_SOWN: return (m->sown & bit) != 0;
    case MARK_RELAY: return (m->relayed & bit) != 0;
    default: return (m->captured & bit) != 0;
    }
}

BoardMarks board_marks_none(void)
{
    return (BoardMarks){ -1, 0, 0, 0 };
}

BoardMarks board_marks_of_move(int move, MoveEvent ev, const MoveTrace *t)
{
    BoardMarks m = board_marks_none();
    if (ev == EV_ENDLESS || !t)
        return m;   /* an endless move never happened */
    m.origin = move;
    m.sown = t->sown;
    m.relayed = t->relayed;
    for (int i = 0; i < t->n; i++)
        m.captured |= 1ULL << t->cap[i].hole;
    return m;
}

void board_hole_marks(const BoardMarks *m, int hole, char buf[BOARD_MARKS_TEXT_MAX])
{
    size_t n = 0;
    buf[0] = '\0';
    for (int k = 0; k < MARK_KINDS; k++)
        if (has_mark(m, k, hole))
            n += (size_t)snprintf(buf + n, BOARD_MARKS_TEXT_MAX - n, "%s%s", n ? " " : "",
                                  mark_kinds[k].name);
}

const char *board_turn_text(const Variant *v, const Position *p)
{
    if (pos_over(v, p))
        return "game over";
    return p->side == SOUTH ? "South to move" : "North to move";
}

void markup_text(FILE *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        switch (s[i]) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(s[i], out);
        }
    }
}

/* The look of the board and of each mark (the marks' classes, board_hole_marks). */
static const char board_style[] =
    ".anywoli-board text{font-family:sans-serif;text-anchor:middle}"
    ".anywoli-board .frame{fill:#d9b97a;stroke:#7a5a26;stroke-width:2}"
    ".anywoli-board .pit{fill:#f6ead2;stroke:#7a5a26;stroke-width:1.5}"
    ".anywoli-board .count{font-size:15px;font-weight:bold;fill:#222}"
    ".anywoli-board .label{font-size:12px;fill:#555}"
    ".anywoli-board .caption{font-size:14px;text-anchor:start;fill:#222}"
    ".anywoli-board .turn{font-size:14px;fill:#222}"
    ".anywoli-board .legend text{font-size:12px;text-anchor:start;fill:#333}"
    ".anywoli-board .sown .pit{fill:#ffe27a}"
    ".anywoli-board .relay .pit{stroke:#1f5fbf;stroke-width:2.5;stroke-dasharray:4 3}"
    ".anywoli-board .origin .pit{stroke:#1f5fbf;stroke-width:4;stroke-dasharray:none}"
    ".anywoli-board .captured .pit{fill:#f2a3a3;stroke:#b22222;stroke-width:4;"
    "stroke-dasharray:none}";

/* Where things are: the holes' row tops and the drawing's size. */
typedef struct Layout {
    int top;               /* the top of the North labels' line */
    int holes_x;           /* the left edge of the first column of holes */
    int width, height;
} Layout;

static Layout layout(const Variant *v, bool caption, bool legend)
{
    Layout l;
    l.top = PAD + (caption ? CAPTION_H : 0);
    l.holes_x = PAD + STORE_W + GAP;
    l.width = 2 * PAD + 2 * STORE_W + 2 * GAP + v->holes * CELL;
    if (legend && l.width < LEGEND_W)
        l.width = LEGEND_W;
    l.height = l.top + 2 * LABEL_H + 2 * CELL + TURN_H + (legend ? LEGEND_H : 0) + PAD;
    return l;
}

/* Hole h's centre: South's row left to right (S1 at the left), North's above it right to
 * left (N1 above SH), so that sowing runs counter-clockwise as docs/rules.md draws it. */
static void hole_centre(const Variant *v, const Layout *l, int h, int *x, int *y)
{
    int north = variant_owner(v, h) == NORTH;
    int column = north ? 2 * v->holes - 1 - h : h;
    *x = l->holes_x + column * CELL + CELL / 2;
    *y = l->top + LABEL_H + (north ? 0 : CELL) + CELL / 2;
}

static void draw_hole(FILE *out, const Variant *v, const Layout *l, const Position *p, int h,
                      const BoardMarks *m)
{
    char name[HOLE_NAME_MAX], marks[BOARD_MARKS_TEXT_MAX];
    int x, y;
    hole_name(v, h, name);
    board_hole_marks(m, h, marks);
    hole_centre(v, l, h, &x, &y);
    int label_y = variant_owner(v, h) == NORTH ? y - CELL / 2 - 6 : y + CELL / 2 + 16;
    fprintf(out, "<g class=\"hole%s%s\" data-hole=\"%d\" data-name=\"%s\" data-count=\"%u\" "
                 "data-marks=\"%s\">", marks[0] ? " " : "", marks, h, name, p->pit[h], marks);
    fprintf(out, "<circle class=\"pit\" cx=\"%d\" cy=\"%d\" r=\"%d\"/>", x, y, RADIUS);
    fprintf(out, "<text class=\"count\" x=\"%d\" y=\"%d\">%u</text>", x, y + 5, p->pit[h]);
    fprintf(out, "<text class=\"label\" x=\"%d\" y=\"%d\">%s</text></g>\n", x, label_y, name);
}

/* A store: North's on the left of the board (North's right hand), South's on the right. */
static void draw_store(FILE *out, const Variant *v, const Layout *l, const Position *p, int side)
{
    int x = side == NORTH ? PAD : l->holes_x + v->holes * CELL + GAP;
    int y = l->top + LABEL_H, h = 2 * CELL;
    fprintf(out, "<g class=\"store\" data-store=\"%c\" data-count=\"%u\">",
            side == SOUTH ? 'S' : 'N', p->store[side]);
    fprintf(out, "<rect class=\"pit\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" rx=\"14\"/>",
            x + 4, y + 4, STORE_W - 8, h - 8);
    fprintf(out, "<text class=\"count\" x=\"%d\" y=\"%d\">%u</text>", x + STORE_W / 2,
            y + h / 2 + 5, p->store[side]);
    fprintf(out, "<text class=\"label\" x=\"%d\" y=\"%d\">%s</text></g>\n", x + STORE_W / 2,
            side == NORTH ? y - 6 : y + h + 16, side == SOUTH ? "South" : "North");
}

/* The legend of the marks, one swatch each, on one line under the turn. */
static void draw_legend(FILE *out, const Layout *l)
{
    int y = l->height - PAD - LEGEND_H / 2, x = PAD + 8;
    fprintf(out, "<g class=\"legend\">");
    for (int k = 0; k < MARK_KINDS; k++) {
        fprintf(out, "<g class=\"%s\"><circle class=\"pit\" cx=\"%d\" cy=\"%d\" r=\"7\"/>"
                     "<text x=\"%d\" y=\"%d\">%s</text></g>", mark_kinds[k].name, x, y, x + 12,
                y + 4, mark_kinds[k].legend);
        x += 24 + 7 * (int)strlen(mark_kinds[k].legend);
    }
    fprintf(out, "</g>\n");
}

void board_svg_write(FILE *out, const Variant *v, const Position *p, const BoardMarks *marks,
                     const char *caption)
{
    BoardMarks none = board_marks_none();
    const BoardMarks *m = marks ? marks : &none;
    Layout l = layout(v, caption != NULL, marks != NULL);
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"anywoli-board\" "
                 "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-holes=\"%d\">\n",
            l.width, l.height, l.width, l.height, v->holes);
    fprintf(out, "<style>%s</style>\n", board_style);
    if (caption) {
        fprintf(out, "<text class=\"caption\" x=\"%d\" y=\"%d\">", PAD, PAD + 15);
        markup_text(out, caption, strlen(caption));
        fprintf(out, "</text>\n");
    }
    fprintf(out, "<rect class=\"frame\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
                 "rx=\"18\"/>\n", PAD, l.top + LABEL_H - 4,
            2 * STORE_W + 2 * GAP + v->holes * CELL, 2 * CELL + 8);
    draw_store(out, v, &l, p, NORTH);
    draw_store(out, v, &l, p, SOUTH);
    for (int h = 0; h < v->pits; h++)
        draw_hole(out, v, &l, p, h, m);
    int turn_y = l.top + 2 * LABEL_H + 2 * CELL + 16;
    fprintf(out, "<text class=\"turn\" data-side=\"%c\" x=\"%d\" y=\"%d\">%s</text>\n",
            pos_over(v, p) ? '-' : p->side == SOUTH ? 'S' : 'N',
            PAD + (2 * STORE_W + 2 * GAP + v->holes * CELL) / 2, turn_y,
            board_turn_text(v, p));
    if (marks)
        draw_legend(out, &l);
    fprintf(out, "</svg>\n");
}
