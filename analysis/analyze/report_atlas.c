/* report_atlas.c: the report's variant atlas (report_atlas.h). */
#include "report_atlas.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

/* The most heat maps a report draws (atlases times conventions): with the boards
 * (report_boards.c: 200), the plots and the page they stay within the files a report's
 * stage puts in place (report_page.c: 256). The tables list every atlas whole. */
#define ATLAS_MAPS_MAX 36

#define ATLAS_CELL_WIDTH 120      /* pixels of a cell: room for "[-100, -100]" */
#define ATLAS_CELL_HEIGHT 72      /* three lines: the value, the interval, the exact value */
#define ATLAS_FRAME_WIDTH 260     /* the axes, their labels and the colour box */
#define ATLAS_FRAME_HEIGHT 170    /* the title, the x axis and its label */

/* A heat map's file name (without .png): atlas N (from 1) under convention k. */
static void map_name(const Atlas *t, int n, int k, char *buf, size_t len)
{
    snprintf(buf, len, "atlas_%d_%s", n + 1, conv_name(t->conv[k]));
}

/* Whether map k of atlas n is drawn: the first ATLAS_MAPS_MAX maps of the file are. */
static bool map_drawn(const Analysis *a, int n, int k)
{
    int before = 0;
    for (int m = 0; m < n; m++)
        before += a->atlas[m].nconv;
    return before + k < ATLAS_MAPS_MAX;
}

/* The colour scale's reach: the largest |advantage| of the atlas, at least 1, so that the
 * maps of one atlas share one scale centred at 0. */
static double atlas_reach(const Atlas *t)
{
    double m = 1;
    for (int i = 0; i < t->nconv * t->nholes * t->nseeds; i++)
        if (t->cells[i].job >= 0 && fabs(t->cells[i].answer.value) > m)
            m = fabs(t->cells[i].answer.value);
    return m;
}

/* Text for a gnuplot double-quoted string (without its quotes): the atlas's words hold no
 * double quote or backslash but an agent spec might; they are left out. */
static void gp_text(FILE *gp, const char *s)
{
    for (; *s; s++)
        if (*s != '"' && *s != '\\')
            fputc(*s, gp);
}

/* Tics at each of n values on an axis ("x" or "y"). */
static void gp_tics(FILE *gp, const char *axis, const int *values, int n)
{
    fprintf(gp, "set %stics (", axis);
    for (int i = 0; i < n; i++)
        fprintf(gp, "%s\"%d\" %d", i ? ", " : "", values[i], values[i]);
    fprintf(gp, ")\n");
}

/* A cell's three labels: its value, its interval, its exact value with the verdict's mark
 * (! contradicts, ? undecided) or "". */
static void cell_labels(const AtlasCell *c, char *value, char *interval, char *exact, size_t len)
{
    char e[16];
    snprintf(value, len, "%+.1f", c->answer.value);
    snprintf(interval, len, "[%+.1f, %+.1f]", c->answer.ci.lo, c->answer.ci.hi);
    snprintf(exact, len, "%s%s%s", c->has_exact ? "exact " : "",
             c->has_exact ? atlas_cell_exact(c, e, sizeof e) + 1 : "",
             c->verdict == ATLAS_CONTRADICTS ? " !" : c->verdict == ATLAS_UNDECIDED ? " ?" : "");
}

/* The data of map k: a row per cell with a job (seeds, holes, value or NaN, the labels);
 * $E: the cells with an exact value. Whether any has one. */
static bool map_data(FILE *gp, const Atlas *t, int k)
{
    bool exact = false;
    fprintf(gp, "$C << EOD\n");
    for (int h = 0; h < t->nholes; h++)
        for (int s = 0; s < t->nseeds; s++) {
            const AtlasCell *c = atlas_cell(t, k, h, s);
            char value[48], interval[64], ex[48];
            if (c->job < 0)
                continue;
            if (isnan(c->answer.value)) {
                fprintf(gp, "%d %d NaN \"n/a\" \"\" \"\"\n", c->seeds, c->holes);
                continue;
            }
            cell_labels(c, value, interval, ex, sizeof value);
            fprintf(gp, "%d %d %.6g \"%s\" \"%s\" \"%s\"\n", c->seeds, c->holes,
                    c->answer.value, value, interval, ex);
            exact |= c->has_exact;
        }
    fprintf(gp, "EOD\n$E << EOD\n");
    for (int h = 0; h < t->nholes; h++)
        for (int s = 0; s < t->nseeds; s++)
            if (atlas_cell(t, k, h, s)->has_exact)
                fprintf(gp, "%d %d\n", t->seeds[s], t->holes[h]);
    fprintf(gp, "EOD\n");
    return exact;
}

/* Map k of atlas n: South's advantage by seeds (x) and holes (y, from the top as the text's
 * rows), a diverging palette centred at 0, each cell labelled; a bold border round the
 * cells with an exact value. */
static void draw_map(FILE *gp, const Analysis *a, int n, int k, const char *dir)
{
    const Atlas *t = &a->atlas[n];
    char name[64], title[1800];
    /* The title's second line names the rung alone: the rest of what sets the atlas apart
     * is in the caption, and a line wider than the plot is cut at both ends. */
    const char *what = a->jobs[t->first].label_a;
    map_name(t, n, k, name, sizeof name);
    snprintf(title, sizeof title, "Atlas %d, %s: South's advantage", n + 1,
             conv_name(t->conv[k]));
    /* As wide as its cells need, and its title's longer line (about 7 pixels a letter). */
    int w = ATLAS_CELL_WIDTH * t->nseeds + ATLAS_FRAME_WIDTH;
    int tw = 7 * (int)strlen(what) + 60, h = ATLAS_CELL_HEIGHT * t->nholes + ATLAS_FRAME_HEIGHT;
    w = tw > w ? tw : w;
    fprintf(gp, "set terminal pngcairo size %d,%d font 'sans,10' noenhanced\n",
            w > 560 ? w : 560, h > 380 ? h : 380);
    fprintf(gp, "set output '%s/%s.png'\n", dir, name);
    double m = atlas_reach(t);
    fprintf(gp, "unset key\nset xlabel 'seeds per hole'\nset ylabel 'holes per row'\n"
                "set cblabel \"South's advantage (points per 100 games)\"\n"
                "set palette defined (-1 '#2166ac', 0 'white', 1 '#b2182b')\n"
                "set cbrange [%g:%g]\nset xrange [%g:%g]\nset yrange [%g:%g]\n", -m, m,
            t->seeds[0] - 0.5, t->seeds[t->nseeds - 1] + 0.5,
            t->holes[t->nholes - 1] + 0.5, t->holes[0] - 0.5);
    /* Grey behind the cells: a board without a job is not white, the colour of even. */
    fprintf(gp, "set object 1 rectangle from graph 0,0 to graph 1,1 behind "
                "fc rgb '#d0d0d0' fillstyle solid 1.0 noborder\n");
    gp_tics(gp, "x", t->seeds, t->nseeds);
    gp_tics(gp, "y", t->holes, t->nholes);
    fprintf(gp, "set title \"");
    gp_text(gp, title);
    fprintf(gp, "\\n");
    gp_text(gp, what);
    fprintf(gp, "\"\n");
    bool exact = map_data(gp, t, k);
    fprintf(gp, "plot $C using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder "
                "fc palette z notitle");
    if (exact)
        fprintf(gp, ", $E using 1:2:(0.47):(0.47) with boxxyerror "
                    "lw 3 lc rgb 'black' fs empty border notitle");
    fprintf(gp, ", $C using 1:2:4 with labels offset 0,0.9 font ',10' notitle"
                ", $C using 1:2:5 with labels font ',8' notitle"
                ", $C using 1:2:6 with labels offset 0,-0.9 font ',8' notitle\n");
}

int report_atlas_draw(const Analysis *a, const ReportStage *stage, Error *e)
{
    for (int n = 0; n < a->natlas; n++) {
        for (int k = 0; k < a->atlas[n].nconv; k++) {
            if (!map_drawn(a, n, k))
                return 0;
            char name[64];
            map_name(&a->atlas[n], n, k, name, sizeof name);
            Gnuplot g;
            if (report_gnuplot_open(&g, e) != 0)
                return -1;
            draw_map(g.in, a, n, k, stage->dir);
            if (report_gnuplot_close(&g, stage, name, e) != 0)
                return -1;
        }
    }
    return 0;
}

/* What map k of atlas n shows, for its caption, into buf. */
static void map_caption(const Analysis *a, int n, int k, char *buf, size_t len)
{
    const Atlas *t = &a->atlas[n];
    char what[1600];
    atlas_describe(a, t, what, sizeof what);
    snprintf(buf, len, "Atlas %d (%s) under %s: South's advantage in points per 100 games, "
             "P(South won) - P(North won), each cell the job's answer with its 95%% interval "
             "(in the unit its design calls for), by holes per row (rows) and seeds per hole "
             "(columns); red: South ahead, blue: North ahead, white even, one colour scale for "
             "the atlas's maps; grey: no job on that board. A bold border marks a board whose start's exact value is known "
             "(South's margin in seeds under perfect play, printed as \"exact\"): ! where the "
             "interval contradicts it in sign, ? where the interval holds 0 and the exact "
             "value is not.", n + 1, what, conv_name(t->conv[k]));
}

/* A row of the fairest or not-agreeing table: rank (0 for none), board, convention,
 * advantage, exact value, verdict, job. */
static void cell_row(FILE *out, const Analysis *a, const AtlasCell *c, int rank)
{
    char e[16];
    fputs("<tr>", out);
    if (rank > 0)
        fprintf(out, "<td>%d</td>", rank);
    fprintf(out, "<td>%d</td><td>%d</td><td>%s</td><td class=\"figure\">%+.1f [%+.1f, %+.1f]"
                 "</td><td>%s</td><td>%s</td><td class=\"job\">", c->holes, c->seeds,
            conv_name(c->conv), c->answer.value, c->answer.ci.lo, c->answer.ci.hi,
            c->has_exact ? atlas_cell_exact(c, e, sizeof e) + 1 : "-",
            c->verdict != ATLAS_NO_EXACT ? atlas_verdict_name(c->verdict) : "-");
    markup_text(out, a->jobs[c->job].name, strlen(a->jobs[c->job].name));
    fputs("</td></tr>\n", out);
}

/* The head of a table of cells. */
static void cell_table_head(FILE *out, bool ranked)
{
    fprintf(out, "<table class=\"answers\"><tr>%s<th>holes</th><th>seeds</th><th>convention"
                 "</th><th>advantage [95%%]</th><th>exact</th><th>check</th><th>job</th></tr>\n",
            ranked ? "<th>rank</th>" : "");
}

/* The fairest cells of atlas t. */
static void fairest_table(FILE *out, const Analysis *a, const Atlas *t)
{
    fprintf(out, "<p>Fairest variants: the cells ranked by how close to even they are, those "
                 "whose interval holds 0 first, then by the larger of |lo| and |hi| (the "
                 "furthest from even the advantage may be), then by |value|; the first %d.</p>\n",
            ATLAS_FAIREST);
    cell_table_head(out, true);
    for (int r = 0; r < t->nfair; r++)
        cell_row(out, a, &t->cells[t->fair[r]], r + 1);
    fputs("</table>\n", out);
}

/* The check of atlas t against the exact values: counts per convention, then the cells that
 * do not agree. */
static void check_table(FILE *out, const Analysis *a, const Atlas *t)
{
    fprintf(out, "<p>The estimates against the exact values of the starts, in sign: an "
                 "interval above 0, below 0 or holding 0 against the exact value's sign (an "
                 "exact 0 agrees with an interval that holds 0); undecided: the interval holds 0 "
                 "where the exact value is not 0; contradicts: it excludes 0 on the wrong side, "
                 "or away from an exact 0.</p>\n<table class=\"answers\"><tr><th>convention"
                 "</th><th>with an exact value</th><th>agree</th><th>undecided</th>"
                 "<th>contradict</th></tr>\n");
    int misses = 0;
    for (int k = 0; k < t->nconv; k++) {
        const AtlasCheck *x = &t->check[k];
        fprintf(out, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%d</td><td>%d</td></tr>\n",
                conv_name(t->conv[k]), x->exact, x->agrees, x->undecided, x->contradicts);
        misses += x->undecided + x->contradicts;
    }
    fputs("</table>\n", out);
    if (misses == 0)
        return;
    fprintf(out, "<p>The cells that do not agree:</p>\n");
    cell_table_head(out, false);
    for (int i = 0; i < t->nconv * t->nholes * t->nseeds; i++)
        if (t->cells[i].verdict == ATLAS_UNDECIDED || t->cells[i].verdict == ATLAS_CONTRADICTS)
            cell_row(out, a, &t->cells[i], 0);
    fputs("</table>\n", out);
}

/* The rung's rating in each cell that has a match of it. */
static void ratings_table(FILE *out, const Analysis *a, const Atlas *t)
{
    if (t->nratings == 0)
        return;
    fprintf(out, "<p>The rung's rating in each cell: a match on its board under its "
                 "convention with the rung as A, A's Elo over B with its 95%% interval in the "
                 "match's unit.</p>\n"
                 "<table class=\"answers\"><tr><th>convention</th><th>holes</th><th>seeds</th>"
                 "<th>Elo [95%%]</th><th>against</th><th>job</th></tr>\n");
    for (int r = 0; r < t->nratings; r++) {
        const AtlasRating *x = &t->ratings[r];
        const JobAnalysis *j = &a->jobs[x->job];
        fprintf(out, "<tr><td>%s</td><td>%d</td><td>%d</td><td class=\"figure\">%+.0f "
                     "[%+.0f, %+.0f]</td><td>", final_four_name((FinalFour)x->final_four),
                x->holes, x->seeds, x->elo.value, x->elo.ci.lo, x->elo.ci.hi);
        markup_text(out, j->label_b, strlen(j->label_b));
        fputs("</td><td class=\"job\">", out);
        markup_text(out, j->name, strlen(j->name));
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}

int report_atlas_section(FILE *out, const Analysis *a, const char *dir)
{
    if (a->natlas == 0)
        return 0;
    fprintf(out, "<h2>Variant atlas</h2>\n<p>Self-play jobs of one agent spec (a rung) that "
                 "differ only in holes, seeds and the convention, one heat map per convention; "
                 "the tables give every cell.</p>\n");
    for (int n = 0; n < a->natlas; n++) {
        const Atlas *t = &a->atlas[n];
        char what[1600], caption[3600];
        atlas_describe(a, t, what, sizeof what);
        fprintf(out, "<h3>Atlas %d: ", n + 1);
        markup_text(out, what, strlen(what));
        fputs("</h3>\n", out);
        for (int k = 0; k < t->nconv; k++) {
            char name[64];
            map_name(t, n, k, name, sizeof name);
            map_caption(a, n, k, caption, sizeof caption);
            if (!map_drawn(a, n, k))
                fprintf(out, "<p>(No heat map for %s: a report draws at most %d.)</p>\n",
                        conv_name(t->conv[k]), ATLAS_MAPS_MAX);
            else if (report_html_figure(out, dir, name, caption) != 0)
                return -1;
        }
        ratings_table(out, a, t);
        fairest_table(out, a, t);
        check_table(out, a, t);
    }
    return 0;
}
