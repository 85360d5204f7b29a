/* report_boards.c: the analysis report's boards (report_boards.h). */
#include "report_boards.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "board_svg.h"
#include "door.h"

/* The most boards a report draws: with its plots and page they stay within the files a
 * report's stage puts in place (report_page.c takes 256); the tables list every line. */
#define BOARDS_MAX 200

/* The width a board is shown at in the page (its file keeps its own size). */
#define BOARD_SHOWN_WIDTH 380

/* One board of the report: a job's start (line -1) or the position after a root line. */
typedef struct Board {
    int job, line;
    char name[48];            /* its file, without .svg */
} Board;

/* Whether job i is the first of the file to play its board (holes and seeds): each start is
 * drawn once. */
static bool first_on_its_board(const Analysis *a, int i)
{
    const Variant *v = &a->jobs[i].variant;
    for (int k = 0; k < i; k++)
        if (a->jobs[k].variant.holes == v->holes && a->jobs[k].variant.seeds == v->seeds)
            return false;
    return true;
}

/* The boards of the analysis in the page's order into b (at most BOARDS_MAX): each board's
 * start, then the root designs' lines, job by job; how many, and in *left_out how many lines
 * were left out for the limit. */
static int boards_of(const Analysis *a, Board *b, int *left_out)
{
    int n = 0;
    *left_out = 0;
    for (int i = 0; i < a->njobs && n < BOARDS_MAX; i++)
        if (first_on_its_board(a, i)) {
            b[n] = (Board){ i, -1, "" };
            snprintf(b[n++].name, sizeof b->name, "board_start_j%d", i);
        }
    for (int i = 0; i < a->njobs; i++) {
        if (!a->jobs[i].has_root)
            continue;
        for (int k = 0; k < a->jobs[i].root.nlines; k++) {
            if (n == BOARDS_MAX) {
                (*left_out)++;
                continue;
            }
            b[n] = (Board){ i, k, "" };
            snprintf(b[n++].name, sizeof b->name, "board_j%d_line%d", i, k);
        }
    }
    return n;
}

/* The position of board b, with the marks of the line's last move: the line played from the
 * variant's start by the rules (a move that is not legal there, from a damaged file, ends
 * it). */
static void board_position(const Analysis *a, const Board *b, Position *p, BoardMarks *m)
{
    const JobAnalysis *j = &a->jobs[b->job];
    pos_start(&j->variant, p);
    *m = board_marks_none();
    if (b->line < 0)
        return;
    const RootLine *l = &j->root.lines[b->line];
    for (int k = 0; k < l->n_moves && pos_move_ok(&j->variant, p, l->moves[k], NULL); k++) {
        MoveInfo info;
        MoveTrace t;
        MoveEvent ev = pos_play(&j->variant, p, l->moves[k], p, &info, &t);
        *m = board_marks_of_move(l->moves[k], ev, &t);
    }
}

/* The title drawn above board b. */
static void board_title(const Analysis *a, const Board *b, char *buf, size_t len)
{
    const JobAnalysis *j = &a->jobs[b->job];
    if (b->line < 0)
        snprintf(buf, len, "the start: %d holes a row, %d seeds a hole", j->variant.holes,
                 j->variant.seeds);
    else
        analyze_line_names(&j->variant, &j->root.lines[b->line], buf, len);
}

/* Draw board b as stage->dir/NAME.svg, a new file through the door. */
static int draw_board(const Analysis *a, const Board *b, const ReportStage *stage, Error *e)
{
    char path[4400], title[256];
    snprintf(path, sizeof path, "%s/%s.svg", stage->dir, b->name);
    FILE *out = door_create_stream(path, e);
    if (!out)
        return -1;
    Position p;
    BoardMarks m;
    board_position(a, b, &p, &m);
    board_title(a, b, title, sizeof title);
    board_svg_write(out, &a->jobs[b->job].variant, &p, b->line < 0 ? NULL : &m, title);
    if (ferror(out) | (fclose(out) != 0))
        return error_set(e, "%s/%s.svg: cannot write it", stage->final, b->name);
    return 0;
}

int report_boards_draw(const Analysis *a, const ReportStage *stage, Error *e)
{
    Board *b = malloc(BOARDS_MAX * sizeof *b);
    if (!b)
        return error_set(e, "out of memory");
    int left_out, n = boards_of(a, b, &left_out), rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        rc = draw_board(a, &b[i], stage, e);
    free(b);
    return rc;
}

/* Board b's caption in the page: whose start, or the line with its advantage for South. */
static void board_caption(const Analysis *a, const Board *b, char *buf, size_t len)
{
    const JobAnalysis *j = &a->jobs[b->job];
    char name[256];
    if (b->line < 0) {
        snprintf(buf, len, "The start of %s's board (%d holes a row, %d seeds a hole), South "
                 "to move.", j->name, j->variant.holes, j->variant.seeds);
        return;
    }
    const RootLine *l = &j->root.lines[b->line];
    analyze_line_names(&j->variant, l, name, sizeof name);
    size_t at = (size_t)snprintf(buf, len, "%s, line %s (holes", j->name, name);
    for (int k = 0; k < l->n_moves && at < len; k++)
        at += (size_t)snprintf(buf + at, len - at, " %d", l->moves[k]);
    if (at >= len)
        return;
    if (l->pairs == 0 || isnan(l->advantage.value))
        snprintf(buf + at, len - at, "): no pair played.");
    else
        snprintf(buf + at, len - at, "): South's advantage %+.1f [%+.1f, %+.1f] points per 100 "
                 "games, %llu pairs.", 100 * l->advantage.value, 100 * l->advantage.ci.lo,
                 100 * l->advantage.ci.hi, (unsigned long long)l->pairs);
}

int report_boards_section(FILE *out, const Analysis *a, const char *dir)
{
    Board *b = malloc(BOARDS_MAX * sizeof *b);
    if (!b)
        return -1;
    int left_out, n = boards_of(a, b, &left_out), rc = 0, job = -1;
    fprintf(out, "<h2>Boards</h2>\n<p>North's row on top, drawn right to left; holes S1.. "
                 "from South's left, N1.. from North's left; sowing runs counter-clockwise. A "
                 "root line's board is the position after its moves, with its last move "
                 "marked (the hole it emptied, those it sowed into and captured); its figure "
                 "is South's advantage over the line's pairs, 95%% interval.</p>\n");
    for (int i = 0; i < n && rc == 0; i++) {
        if (b[i].line >= 0 && b[i].job != job) {
            job = b[i].job;
            fprintf(out, "<h3>Root design of ");
            markup_text(out, a->jobs[job].name, strlen(a->jobs[job].name));
            fprintf(out, " (");
            markup_text(out, a->jobs[job].openings_spec, strlen(a->jobs[job].openings_spec));
            fprintf(out, ")</h3>\n");
        }
        char caption[1024];
        board_caption(a, &b[i], caption, sizeof caption);
        rc = report_html_svg(out, dir, b[i].name, caption, BOARD_SHOWN_WIDTH);
    }
    if (left_out)
        fprintf(out, "<p>%d more lines are not drawn (at most %d boards a report); the tables "
                     "list every line.</p>\n", left_out, BOARDS_MAX);
    free(b);
    return rc;
}
