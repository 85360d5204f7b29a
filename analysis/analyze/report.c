/* report.c: the HTML report: tables as text, plots drawn by gnuplot through popen, each
 * written beside the page as a PNG file and embedded in it as a base64 data URI. */
#include "report.h"

#include <gsl/gsl_cdf.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "door.h"
#include "output.h"
#include "report_atlas.h"
#include "report_boards.h"

#define PLOT_JOBS_MAX 12          /* series with a style of their own; heat map panels */
#define PANEL_JOBS 12             /* jobs drawn in one panel of a per-job distribution plot */
#define JOB_PANEL_HEIGHT 420      /* pixels of one such panel */
#define LENGTH_POINTS 200         /* points of each cumulative length curve */
#define LENGTH_ROOM 1.05          /* the length plot's room beside its shortest and longest
                                     games, a factor on its log scale */

/* A job's name as a gnuplot single-quoted string ('' doubles a quote; the terminals are
 * noenhanced, so no markup is interpreted). */
static void gp_quoted(FILE *gp, const char *s)
{
    fputc('\'', gp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', gp);
        fputc(*s, gp);
    }
    fputc('\'', gp);
}

#define JOB_LABEL_MAX 400         /* room for a job's label: its name and its players */

/* Whether a job's name is one a tournament gave it (`anywoli run --round-robin` or
 * `--gauntlet`: rr-I-J, gauntlet-I-J, by the specs' positions; sim/config.c), a name that
 * says nothing of its players. */
static bool tournament_name(const char *name)
{
    const char *p = strncmp(name, "rr-", 3) == 0 ? name + 3
                    : strncmp(name, "gauntlet-", 9) == 0 ? name + 9 : NULL;
    if (!p)
        return false;
    size_t first = strspn(p, "0123456789");
    if (first == 0 || p[first] != '-')
        return false;
    size_t second = strspn(p + first + 1, "0123456789");
    return second > 0 && p[first + 1 + second] == '\0';
}

/* What the plots call job j: its name, and for a tournament's match its players too
 * ("rr-1-2: alphabeta:depth=2 vs greedy"), cut to fit buf. */
static void job_label(const JobAnalysis *j, char *buf, size_t size)
{
    if (j->two_agents && tournament_name(j->name))
        snprintf(buf, size, "%s: %s vs %s", j->name, j->label_a, j->label_b);
    else
        snprintf(buf, size, "%s", j->name);
}

/* The terminal and output of a plot into dir/name.png. */
static void gp_begin(FILE *gp, const char *dir, const char *name, int w, int h)
{
    fprintf(gp, "set terminal pngcairo size %d,%d font 'sans,10' noenhanced\n", w, h);
    fprintf(gp, "set output '%s/%s.png'\nset grid\nset key outside right top\n", dir, name);
}

/* The panels of a plot of one distribution per job: at most PANEL_JOBS jobs each, so that
 * every job is drawn with a style of its own in its panel; their count. */
static int job_panels(const Analysis *a)
{
    return (a->njobs + PANEL_JOBS - 1) / PANEL_JOBS;
}

/* Start panel k of such a plot: stacked one under another, each titled with the jobs it
 * draws when there are several; its first job, and its count of jobs in *n. */
static int job_panel(FILE *gp, const Analysis *a, int k, const char *title, int *n)
{
    int first = k * PANEL_JOBS, panels = job_panels(a);
    *n = a->njobs - first < PANEL_JOBS ? a->njobs - first : PANEL_JOBS;
    if (panels > 1)
        fprintf(gp, "set title \"%s\\n(panel %d of %d: jobs %d to %d of %d)\"\n", title, k + 1,
                panels, first + 1, first + *n, a->njobs);
    else
        fprintf(gp, "set title \"%s\"\n", title);
    return first;
}

/* The style of series i of a plot: a colour of its own for each of the first PLOT_JOBS_MAX
 * series, then the colours again with another dash; a point type that also tells them apart
 * in grey. (gnuplot's own line types repeat their colours after 8.) */
static void gp_style(FILE *gp, int i)
{
    static const char *const colours[PLOT_JOBS_MAX] = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#00cc66" };
    static const int points[] = { 7, 5, 9, 11, 13, 15, 1, 2, 3, 4, 6, 8 };
    fprintf(gp, " lc rgb '%s' dt %d pt %d", colours[i % PLOT_JOBS_MAX],
            i / PLOT_JOBS_MAX % 5 + 1, points[i % PLOT_JOBS_MAX]);
}

/* The first-player advantage the plots show for job j, with the unit its design calls for:
 * the pair, or the opening where pairs repeat openings (then a game-unit interval is too
 * narrow); in a match of two different agents only colour-swapped pairs tell the first move's
 * advantage from the stronger agent's wins. NULL for a job without a counted pair (left out,
 * and the caption says so). */
static const Estimate *shown_advantage(const JobAnalysis *j)
{
    const Estimate *x = &j->pair_advantage.advantage;
    return isnan(x->value) || j->has_race ? NULL : x;
}

/* Jobs that ran an adaptive root design: their pooled pairs are spread as the race chose,
 * so no mixture of their lines, and no figure of the game; the root ladder shows their
 * answers. */
static int race_jobs(const Analysis *a)
{
    int n = 0;
    for (int i = 0; i < a->njobs; i++)
        n += a->jobs[i].has_race;
    return n;
}

/* The word for the unit of job j's advantage: "pairs" or "openings". */
static const char *unit_word(const JobAnalysis *j)
{
    return j->pair_advantage.units.unit == PAIR_UNIT_OPENING ? "openings" : "pairs";
}

/* Whether re-scoring job j's games under another convention gives valid outcomes: both
 * agents ignore the convention, so they would have played the same games under any. */
static bool rescoring_valid(const JobAnalysis *j)
{
    return j->blind_a && j->blind_b;
}

/* Jobs that are matches of two different agents; those of them without pairs. */
static int two_agent_jobs(const Analysis *a, int *without_pairs)
{
    int n = 0;
    *without_pairs = 0;
    for (int i = 0; i < a->njobs; i++) {
        n += a->jobs[i].two_agents;
        *without_pairs += a->jobs[i].two_agents && !shown_advantage(&a->jobs[i]);
    }
    return n;
}

/* The length of job j's longest game (stopped ones included), and of its shortest: 0
 * without a game. Its histogram is allocated longer (up to max_plies): the plot ends at the
 * longest game, not there. */
static size_t longest_game(const JobAnalysis *j)
{
    size_t n = j->lengths_len;
    while (n > 0 && j->lengths[n - 1] == 0)
        n--;
    return n ? n - 1 : 0;
}

static size_t shortest_game(const JobAnalysis *j)
{
    size_t n = 0;
    while (n < j->lengths_len && j->lengths[n] == 0)
        n++;
    return n < j->lengths_len ? n : 0;
}

/* Job j's curve: the share of its games ended by each of LENGTH_POINTS geometric steps up to
 * its longest game, 1 - S(t) by the Kaplan-Meier estimate (histogram.h). With no censored
 * game that is the empirical share; with games stopped at max_plies it stays below 1 there,
 * as those games had not ended. */
static void length_curve(FILE *gp, const JobAnalysis *j, int i)
{
    fprintf(gp, "$L%d << EOD\n", i);
    double *surv = j->lengths_len ? malloc(j->lengths_len * sizeof *surv) : NULL;
    if (surv && j->rows) {
        km_survival(j->lengths, j->lengths_len, j->censored, surv);
        double top = longest_game(j) > 1 ? (double)longest_game(j) : 1;
        for (int k = 0; k <= LENGTH_POINTS; k++) {
            double x = pow(top, (double)k / LENGTH_POINTS);
            size_t v = (size_t)fmin(floor(x), (double)(j->lengths_len - 1));
            fprintf(gp, "%g %g\n", x, 1.0 - surv[v]);
        }
    }
    free(surv);
    fprintf(gp, "EOD\n");
}

/* The key entry of job j: its name, and for a job with censored games a short mark (the
 * caption says which max_plies stopped them), so that the key leaves the plot its width;
 * its length. */
static int length_title(char *title, size_t size, const JobAnalysis *j)
{
    char label[JOB_LABEL_MAX];
    job_label(j, label, sizeof label);
    if (j->censored)
        return snprintf(title, size, "%s (KM, %.1f%% stopped)", label,
                        100.0 * (double)j->censored / (double)j->rows);
    return snprintf(title, size, "%s", label);
}

/* The longest job label (job_label), in characters. */
static int longest_name(const Analysis *a)
{
    int most = 1;
    for (int i = 0; i < a->njobs; i++) {
        char label[JOB_LABEL_MAX];
        job_label(&a->jobs[i], label, sizeof label);
        int n = (int)strlen(label);
        most = n > most ? n : most;
    }
    return most;
}

/* Whether some job has games stopped at max_plies. */
static bool any_censored(const Analysis *a)
{
    for (int i = 0; i < a->njobs; i++)
        if (a->jobs[i].censored > 0)
            return true;
    return false;
}

#define PANELS_WIDTH 1100         /* pixels of a per-job distribution plot */
#define KEY_CHAR_PX 7.5           /* pixels of one character of a key entry, with room */
#define KEY_SAMPLE_PX 70          /* pixels of a key entry's line sample and padding */

/* The canvas of a per-job distribution plot: one panel of JOB_PANEL_HEIGHT per PANEL_JOBS
 * jobs, stacked, every panel's right edge where the longest key entry (key_chars) leaves
 * room, so that the panels line up. */
static void gp_begin_panels(FILE *gp, const Analysis *a, const char *dir, const char *name,
                            int key_chars)
{
    double key = fmin(KEY_SAMPLE_PX + KEY_CHAR_PX * key_chars, PANELS_WIDTH / 2.0);
    gp_begin(gp, dir, name, PANELS_WIDTH, JOB_PANEL_HEIGHT * job_panels(a));
    fprintf(gp, "set rmargin at screen %.3f\nset multiplot layout %d,1\n",
            1 - key / PANELS_WIDTH, job_panels(a));
}

#define LENGTH_TIC_SPAN 1000.0    /* the widest length range, a ratio, given 1-2-5 tics */

/* The 1-2-5 values in [lo, hi] (1, 2 and 5 times the powers of ten), written to gp
 * comma-separated unless gp is NULL; their count. */
static int steps_125(FILE *gp, double lo, double hi)
{
    static const int steps[] = { 1, 2, 5 };
    int n = 0;
    for (double p = 1; p <= hi; p *= 10)
        for (int s = 0; s < 3; s++)
            if (p * steps[s] >= lo && p * steps[s] <= hi) {
                if (gp)
                    fprintf(gp, "%s%g", n ? ", " : "", p * steps[s]);
                n++;
            }
    return n;
}

/* The length plot's x tics over [lo, hi]: where it spans less than LENGTH_TIC_SPAN, the
 * 1-2-5 values within it, so that a range of a decade or two has labels enough (gnuplot's
 * log axis labels only the powers of ten); gnuplot's own where fewer than two of them fall
 * in it (every game about as long). */
static void length_tics(FILE *gp, double lo, double hi)
{
    if (hi / lo >= LENGTH_TIC_SPAN || steps_125(NULL, lo, hi) < 2)
        return;
    fprintf(gp, "set xtics (");
    steps_125(gp, lo, hi);
    fprintf(gp, ")\n");
}

/* The length distributions of every job as cumulative shares on a log scale (jobs of very
 * different lengths stay readable), PANEL_JOBS jobs a panel; for jobs with games stopped at
 * max_plies (right-censored), the Kaplan-Meier estimate, said in the title and the key. */
static void plot_lengths(FILE *gp, const Analysis *a, const char *dir)
{
    /* One x range for every panel, so that panels compare at a glance: from the shortest
     * game to the longest of any job, a little room beside them (on the log scale: a factor
     * of LENGTH_ROOM), no wider, so that no part of the plot is left without games. */
    double longest = 0, shortest = INFINITY;
    int key_chars = 1;
    for (int i = 0; i < a->njobs; i++) {
        char title[JOB_LABEL_MAX + 48];
        int n = length_title(title, sizeof title, &a->jobs[i]);
        key_chars = n > key_chars ? n : key_chars;
        if (a->jobs[i].rows) {
            longest = fmax(longest, (double)longest_game(&a->jobs[i]));
            shortest = fmin(shortest, (double)shortest_game(&a->jobs[i]));
        }
    }
    if (longest < 1 || !isfinite(shortest))
        longest = shortest = 1;
    double lo = fmax(1, shortest / LENGTH_ROOM), hi = fmax(longest * LENGTH_ROOM, 2);
    gp_begin_panels(gp, a, dir, "lengths", key_chars);
    fprintf(gp, "set xlabel 'plies (log scale)'\nset ylabel 'share of games'\nset logscale x\n"
                "set yrange [0:1.02]\nset xrange [%g:%g]\n", lo, hi);
    length_tics(gp, lo, hi);
    for (int i = 0; i < a->njobs; i++)
        length_curve(gp, &a->jobs[i], i);
    const char *heading = any_censored(a) ?
        "Game length: share of the job's games ended by this length\\n(Kaplan-Meier for jobs "
        "with games stopped at max_plies: their curves end below 1)" :
        "Game length: share of the job's games ended by this length";
    for (int k = 0; k < job_panels(a); k++) {
        int n, first = job_panel(gp, a, k, heading, &n);
        fprintf(gp, "plot ");
        for (int i = 0; i < n; i++) {
            fprintf(gp, "%s$L%d using 1:2 with steps lw 2 ", i ? ", " : "", first + i);
            gp_style(gp, i);
            char entry[JOB_LABEL_MAX + 48];
            length_title(entry, sizeof entry, &a->jobs[first + i]);
            fprintf(gp, " title ");
            gp_quoted(gp, entry);
        }
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
}

/* The range of margins of the finished games of jobs first .. first + n - 1; whether they
 * have any. */
static bool margin_range(const Analysis *a, int first, int n, double *lo, double *hi)
{
    bool any = false;
    *lo = 0;
    *hi = 0;
    for (int i = first; i < first + n; i++) {
        const HistSummary *m = &a->jobs[i].margin;
        if (m->n) {
            *lo = m->min < *lo ? m->min : *lo;
            *hi = m->max > *hi ? m->max : *hi;
            any = true;
        }
    }
    return any;
}

/* The score-margin distributions of every job: share of finished games by margin, each job
 * a line through its points (bars at the same margins would hide each other), PANEL_JOBS
 * jobs a panel, the y range fitting the data. */
static void plot_margins(FILE *gp, const Analysis *a, const char *dir)
{
    gp_begin_panels(gp, a, dir, "margins", longest_name(a));
    fprintf(gp, "set xlabel 'South minus North seeds'\nset ylabel 'share of finished games'\n"
                "set yrange [0:*]\nset offsets 0, 0, 0.05, 0\n");
    for (int i = 0; i < a->njobs; i++) {
        const JobAnalysis *j = &a->jobs[i];
        fprintf(gp, "$M%d << EOD\n", i);
        for (size_t b = 0; b < j->margins_len; b++)
            if (j->margin.n && j->margins[b])
                fprintf(gp, "%lld %g\n", (long long)((int64_t)b + j->margin_origin),
                        (double)j->margins[b] / (double)j->margin.n);
        fprintf(gp, "EOD\n");
    }
    for (int k = 0; k < job_panels(a); k++) {
        int n, first = job_panel(gp, a, k, "Score margin, South minus North seeds (share of "
                                 "finished games)", &n);
        double lo, hi;
        bool any = margin_range(a, first, n, &lo, &hi);
        fprintf(gp, "set xrange [%g:%g]\n", lo - 1, hi + 1);
        /* gnuplot refuses a plot whose every series is empty: a panel of jobs without a
         * finished game says so. */
        fprintf(gp, any ? "unset label 1\nset yrange [0:*]\nplot " :
                          "set label 1 'no finished game in these jobs' at graph 0.5,0.5 "
                          "center\nset yrange [0:1]\nplot NaN notitle, ");
        for (int i = 0; i < n; i++) {
            fprintf(gp, "%s$M%d using 1:2 with linespoints lw 1.5 ps 0.8", i ? ", " : "",
                    first + i);
            gp_style(gp, i);
            char label[JOB_LABEL_MAX];
            job_label(&a->jobs[first + i], label, sizeof label);
            fprintf(gp, " title ");
            gp_quoted(gp, label);
        }
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
}

#define TIC_LINE_PX 15            /* pixels of one line of 10-point text */
#define TIC_CHAR_PX 7             /* pixels of one character of a 10-point tic label */
#define TIC_SMALL_CHAR_PX 5       /* the same at 7 points (more than 20 jobs) */
#define TIC_LEFT_PX 80            /* the y axis's labels */
#define TIC_RIGHT_CHARS 20        /* the right margin, in characters, for the key */

/* The x axis of a plot with one column per job: the jobs it shows, in order, and the points
 * drawn in each column. A column's points stand beside each other (a convention, a unit
 * each), and its label stands under their centre, so that no label is nearer another job's
 * points than its own. */
typedef struct JobAxis {
    int n;
    int *job;                     /* [k]: the job of column k */
    double *sum;                  /* [k]: the sum of the x of the points drawn in column k */
    int *points;                  /* [k]: their count */
} JobAxis;

/* The axis of every job of a, or of its self-play jobs only; -1 when out of memory. */
static int axis_open(JobAxis *x, const Analysis *a, bool self_play_only)
{
    x->n = 0;
    x->job = malloc((size_t)a->njobs * sizeof *x->job);
    x->sum = calloc((size_t)a->njobs, sizeof *x->sum);
    x->points = calloc((size_t)a->njobs, sizeof *x->points);
    if (!x->job || !x->sum || !x->points)
        return -1;
    for (int i = 0; i < a->njobs; i++)
        if (!self_play_only || !a->jobs[i].two_agents)
            x->job[x->n++] = i;
    return 0;
}

static void axis_close(JobAxis *x)
{
    free(x->job);
    free(x->sum);
    free(x->points);
}

/* A point drawn at x in column k. */
static void axis_point(JobAxis *x, int k, double at)
{
    x->sum[k] += at;
    x->points[k]++;
}

/* Where column k's label stands: the centre of its points (k when it has none). */
static double axis_tic(const JobAxis *x, int k)
{
    return x->points[k] ? x->sum[k] / x->points[k] : k;
}

/* The longest label of the axis's jobs, in characters. */
static int axis_longest_label(const Analysis *a, const JobAxis *x)
{
    int most = 1;
    for (int k = 0; k < x->n; k++) {
        char label[JOB_LABEL_MAX];
        job_label(&a->jobs[x->job[k]], label, sizeof label);
        most = (int)strlen(label) > most ? (int)strlen(label) : most;
    }
    return most;
}

/* The width of a plot with one column per job: wider for many jobs. */
static int plot_width(const JobAxis *x)
{
    return x->n > 40 ? 400 + 18 * x->n : 1100;
}

/* Whether the job labels fit slanted by 30 degrees under their tics: each ends inside the
 * canvas (the last ones run past the plot's right edge), its tic anywhere in its column's
 * points (up to JOB_POINTS_SPREAD right of the column). Else they stand vertical. */
#define JOB_POINTS_SPREAD 0.2     /* between two points of one column; the farthest a point
                                     stands from its column */
static bool tics_slanted(const Analysis *a, const JobAxis *x, int width)
{
    if (x->n > 20)
        return false;
    double step = (double)(width - TIC_LEFT_PX - TIC_RIGHT_CHARS * TIC_CHAR_PX) / x->n;
    for (int k = 0; k < x->n; k++) {
        char label[JOB_LABEL_MAX];
        job_label(&a->jobs[x->job[k]], label, sizeof label);
        double end = TIC_LEFT_PX + (k + 0.5 + JOB_POINTS_SPREAD) * step +
                     0.87 * TIC_CHAR_PX * (double)strlen(label);
        if (end > width - 10)
            return false;
    }
    return true;
}

/* The bottom margin, in lines, that the job labels need under a plot of this width: the
 * height of the longest (half its length slanted by 30 degrees, all of it upright), and
 * room for the axis. */
static int tic_margin(const Analysis *a, const JobAxis *x, int width)
{
    int px = x->n > 20 ? TIC_SMALL_CHAR_PX : TIC_CHAR_PX;
    int height = px * axis_longest_label(a, x) / (tics_slanted(a, x, width) ? 2 : 1);
    return (height + TIC_LINE_PX - 1) / TIC_LINE_PX + 3;
}

/* The canvas of a plot with one column per job, its bottom margin fitting the labels whole,
 * and a little room above and below the points (one at +1 or -1 is not drawn on the frame). */
static void gp_begin_jobs(FILE *gp, const Analysis *a, const JobAxis *x, const char *dir,
                          const char *name)
{
    int width = plot_width(x), lines = tic_margin(a, x, width);
    gp_begin(gp, dir, name, width, 380 + TIC_LINE_PX * lines);
    /* The x axis's name at the canvas's foot: gnuplot sets an xlabel past the foot under
     * upright 7-point names. */
    fprintf(gp, "set bmargin %d\nset rmargin %d\nset offsets 0, 0, 0.05, 0.05\n"
                "set label 2 'job' at screen 0.5, character 1 center\n"
                "set key outside top center horizontal\n", lines, TIC_RIGHT_CHARS);
}

/* The x tic labels, once the points are drawn: one per column under the centre of its
 * points (axis_tic), slanted when they fit, else vertical (tic_margin). */
static void job_tics(FILE *gp, const Analysis *a, const JobAxis *x)
{
    if (tics_slanted(a, x, plot_width(x)))
        fprintf(gp, "set xtics rotate by -30 left (");
    else
        fprintf(gp, "set xtics %s rotate by -90 left (", x->n > 20 ? "font ',7'" : "");
    for (int k = 0; k < x->n; k++) {
        char label[JOB_LABEL_MAX];
        job_label(&a->jobs[x->job[k]], label, sizeof label);
        fprintf(gp, "%s", k ? ", " : "");
        gp_quoted(gp, label);
        fprintf(gp, " %g", axis_tic(x, k));
    }
    fprintf(gp, ")\nset xrange [-0.5:%d.5]\n", x->n - 1);
}

/* The y range of an advantage plot: the intervals drawn, and zero, so that the origin is
 * in sight. */
typedef struct Range {
    double lo, hi;
} Range;

#define ADVANTAGE_LIMIT 1.05      /* the most an advantage axis reaches: it lies in [-1, 1] */

static Range range_new(void)
{
    return (Range){ 0, 0 };
}

/* Widen r to an estimate's interval (a NaN bound, none). */
static void range_add(Range *r, const Estimate *x)
{
    if (!isnan(x->ci.lo) && x->ci.lo < r->lo)
        r->lo = x->ci.lo;
    if (!isnan(x->ci.hi) && x->ci.hi > r->hi)
        r->hi = x->ci.hi;
}

/* An advantage row of a data block: x, then the value and its interval in points per 100
 * games, the unit of every advantage plot. */
static void gp_advantage_row(FILE *gp, double x, const Estimate *e)
{
    fprintf(gp, "%g %g %g %g\n", x, 100 * e->value, 100 * e->ci.lo, 100 * e->ci.hi);
}

/* The y axis of an advantage plot: named with its unit, the range r with a little room,
 * never beyond [-ADVANTAGE_LIMIT, ADVANTAGE_LIMIT] (an interval reaching +-1 would
 * otherwise flatten every other), and the zero line. */
static void gp_advantage_axis(FILE *gp, Range r)
{
    double pad = fmax(0.05 * (r.hi - r.lo), 0.02);
    double lo = fmax(r.lo - pad, -ADVANTAGE_LIMIT), hi = fmin(r.hi + pad, ADVANTAGE_LIMIT);
    fprintf(gp, "set ylabel 'advantage (points per 100 games)'\nset yrange [%g:%g]\n"
                "set xzeroaxis lt -1\n", 100 * lo, 100 * hi);
}

/* Whether some job is self-play (both agents the same spec): what the advantage plot
 * draws. */
static bool any_self_play(const Analysis *a)
{
    for (int i = 0; i < a->njobs; i++)
        if (!a->jobs[i].two_agents)
            return true;
    return false;
}

/* The first-player advantage of every self-play job, with its interval, under the job's
 * convention: with the game as unit where its games are independent, and beside it its own
 * unit, the pair (games 2k, 2k+1) or the opening (shown_advantage). A match of two
 * different agents is left out: South minus North there mixes the first move's advantage
 * with the stronger agent's wins (a skill comparison: the ratings and crosstable). */
static void plot_advantage(FILE *gp, const Analysis *a, const char *dir)
{
    JobAxis axis;
    if (axis_open(&axis, a, true) != 0) {
        axis_close(&axis);
        return;
    }
    gp_begin_jobs(gp, a, &axis, dir, "advantage");
    fprintf(gp, "set title 'First-player advantage P(South won) - P(North won) in self-play, "
                "95%% intervals'\n");
    Range r = range_new();
    /* Three blocks: the game unit (jobs whose games are independent), the pair unit and the
     * opening unit (each job's own, shown_advantage); only those with a point are plotted,
     * each titled with its unit. */
    static const char *const titles[3] = { "game unit (independent games)", "pair unit",
                                           "opening unit (pairs repeat openings)" };
    int points[3] = { 0 };
    for (int b = 0; b < 3; b++) {
        fprintf(gp, "$A%d << EOD\n", b);
        for (int k = 0; k < axis.n; k++) {
            const JobAnalysis *j = &a->jobs[axis.job[k]];
            bool game = j->games_independent;
            const Estimate *x = b == 0 ? (game ? &j->advantage : NULL) : shown_advantage(j);
            if (!x || (b > 0 && (j->pair_advantage.units.unit == PAIR_UNIT_OPENING) != (b == 2)))
                continue;
            /* The game unit's point and its own unit's beside it, centred on the column;
             * one point alone on it. */
            double at = k + (!game || !shown_advantage(j) ? 0
                             : b ? JOB_POINTS_SPREAD / 2 : -JOB_POINTS_SPREAD / 2);
            gp_advantage_row(gp, at, x);
            axis_point(&axis, k, at);
            range_add(&r, x);
            points[b]++;
        }
        fprintf(gp, "EOD\n");
    }
    job_tics(gp, a, &axis);
    gp_advantage_axis(gp, r);
    fprintf(gp, "plot ");
    for (int b = 0, n = 0; b < 3; b++)
        if (points[b])
            fprintf(gp, "%s$A%d using 1:2:3:4 with yerrorbars pt %d ps %s lw 2 title '%s'",
                    n++ ? ", " : "", b, b == 0 ? 7 : b == 1 ? 5 : 9, b == 0 ? "1.2" : "1",
                    titles[b]);
    if (!points[0] && !points[1] && !points[2])
        fprintf(gp, "NaN notitle");
    fprintf(gp, "\n");
    axis_close(&axis);
}

/* Whether some job's re-scorings are drawn in the convention plot. */
static bool any_rescored(const Analysis *a)
{
    for (int i = 0; i < a->njobs; i++)
        if (!a->jobs[i].two_agents && rescoring_valid(&a->jobs[i]))
            return true;
    return false;
}

/* Job j's point under convention c in the convention plot: the convention played, or any
 * other where re-scoring is valid (rescoring_valid); for a match of two agents, its pair-unit
 * advantage under the convention played only. NULL where none is drawn. */
static const Estimate *convention_point(const JobAnalysis *j, int c)
{
    bool played = (int)j->variant.final_four == c;
    const Estimate *x = j->two_agents || j->has_race ? (played ? shown_advantage(j) : NULL)
                        : played || rescoring_valid(j) ? &j->conv_pair_advantage[c].advantage
                                                       : NULL;
    return x && !isnan(x->value) ? x : NULL;
}

/* The advantage under each convention re-scored on each job's games, where the re-scoring is
 * valid (rescoring_valid); else only the convention played. A match of two agents shows its
 * pair-unit advantage under the convention played. */
static void plot_conventions(FILE *gp, const Analysis *a, const char *dir)
{
    JobAxis axis;
    if (axis_open(&axis, a, false) != 0) {
        axis_close(&axis);
        return;
    }
    gp_begin_jobs(gp, a, &axis, dir, "conventions");
    fprintf(gp, "set title '%s'\n", any_rescored(a) ?
            "Advantage under each convention, re-scored on the same games where both agents "
            "are convention-blind" : "Advantage under the convention each job played (no job "
            "re-scored: an agent of each looks at the convention)");
    Range r = range_new();
    for (int c = 0; c < CONV_NB; c++) {
        fprintf(gp, "$C%d << EOD\n", c);
        for (int i = 0; i < a->njobs; i++) {
            const Estimate *x = convention_point(&a->jobs[i], c);
            if (x) {
                /* Every job is a column of its own, column i, its points side by side in
                 * convention order, centred on it. */
                int before = 0, drawn = 0;
                for (int d = 0; d < CONV_NB; d++) {
                    before += d < c && convention_point(&a->jobs[i], d);
                    drawn += convention_point(&a->jobs[i], d) != NULL;
                }
                double at = i + JOB_POINTS_SPREAD * (before - (drawn - 1) / 2.0);
                gp_advantage_row(gp, at, x);
                axis_point(&axis, i, at);
                range_add(&r, x);
            }
        }
        fprintf(gp, "EOD\n");
    }
    job_tics(gp, a, &axis);
    gp_advantage_axis(gp, r);
    fprintf(gp, "plot ");
    for (int c = 0; c < CONV_NB; c++)
        fprintf(gp, "%s$C%d using 1:2:3:4 with yerrorbars pt 7 lw 2 title '%s'", c ? ", " : "",
                c, conv_name(c));
    fprintf(gp, "\n");
    axis_close(&axis);
}

/* The sweep plot's axes: up to two numeric swept parameters, else final_four alone (a
 * swept final_four beside numeric axes tells the series apart); their count. */
static int sweep_axes(const Analysis *a, int axes[2])
{
    int n = 0;
    for (int s = 0; s < a->nsweep && n < 2; s++)
        if (a->sweep[s] != VP_FINAL_FOUR)
            axes[n++] = a->sweep[s];
    for (int s = 0; s < a->nsweep && n == 0; s++)
        axes[n++] = a->sweep[s];
    return n;
}

/* Whether parameter p is one of the axes. */
static bool is_axis(int p, const int *axes, int naxes)
{
    for (int k = 0; k < naxes; k++)
        if (axes[k] == p)
            return true;
    return false;
}

/* Whether two jobs are of one series of the sweep plot: the same agents and openings, and
 * the same value of every parameter that is not an axis. */
static bool same_series(const JobAnalysis *x, const JobAnalysis *y, const int *axes, int naxes)
{
    if (!analyze_same_setup(x, y))
        return false;
    for (int p = 0; p < VP_NB; p++)
        if (!is_axis(p, axes, naxes) &&
            (long)variant_get(&x->variant, p) != (long)variant_get(&y->variant, p))
            return false;
    return true;
}

/* Whether job i is the first of its series. */
static bool series_first(const Analysis *a, int i, const int *axes, int naxes)
{
    for (int k = 0; k < i; k++)
        if (same_series(&a->jobs[k], &a->jobs[i], axes, naxes))
            return false;
    return true;
}

/* One point of a series: where it lies on the axes, the advantage there, what it rests on
 * (finished games, or pairs for a match of two agents) and the share of the job's games
 * stopped at max_plies (left out of it). */
typedef struct SweepPoint {
    double x, y;
    const Estimate *e;
    uint64_t n;                   /* the units the advantage rests on */
    const char *unit;             /* "pairs" or "openings" */
    double stopped;
} SweepPoint;

static int point_order(const void *p, const void *q)
{
    const SweepPoint *s = p, *t = q;
    return s->x != t->x ? (s->x > t->x) - (s->x < t->x) : (s->y > t->y) - (s->y < t->y);
}

/* Add job j's point under convention c (its own shown_advantage when c < 0) unless the
 * series has one at that place already (the first job keeps it: a cell never holds two
 * values). */
static void add_point(SweepPoint *pts, int *n, double x, double y, const JobAnalysis *j, int c)
{
    for (int k = 0; k < *n; k++)
        if (pts[k].x == x && pts[k].y == y)
            return;
    const PairAdvantage *u = c < 0 ? &j->pair_advantage : &j->conv_pair_advantage[c];
    pts[(*n)++] = (SweepPoint){
        x, y, &u->advantage, u->units.units, unit_word(j),
        j->rows ? (double)j->all.unfinished / (double)j->rows : 0 };
}

/* The points of the series of job first, in axis order; their count. pts holds njobs
 * points (CONV_NB more when the axis is final_four). Over final_four, a convention-blind
 * self-play job also stands for the conventions it did not play, re-scored on its games
 * (where no job of the series played them). */
static int series_points(const Analysis *a, int first, const int *axes, int naxes,
                         SweepPoint *pts)
{
    int n = 0;
    for (int k = first; k < a->njobs; k++) {
        const JobAnalysis *j = &a->jobs[k];
        if (same_series(j, &a->jobs[first], axes, naxes) && shown_advantage(j))
            add_point(pts, &n, (double)(long)variant_get(&j->variant, axes[0]),
                      naxes > 1 ? (double)(long)variant_get(&j->variant, axes[1]) : 0, j, -1);
    }
    for (int k = first; axes[0] == VP_FINAL_FOUR && k < a->njobs; k++) {
        const JobAnalysis *j = &a->jobs[k];
        if (same_series(j, &a->jobs[first], axes, naxes) && !j->two_agents &&
            rescoring_valid(j))
            for (int c = 0; c < CONV_NB; c++)
                add_point(pts, &n, c, 0, j, c);
    }
    qsort(pts, (size_t)n, sizeof *pts, point_order);
    return n;
}

/* A value of parameter p as the page writes it. */
static void param_text(const JobAnalysis *j, int p, char *buf, size_t size)
{
    if (p == VP_FINAL_FOUR)
        snprintf(buf, size, "%s", conv_name(j->variant.final_four));
    else
        snprintf(buf, size, "%ld", (long)variant_get(&j->variant, p));
}

/* The title of the series of job j: its agents, its openings unless from the start, and its
 * value of each parameter other than the axes that varies among the jobs of its agents and
 * openings (so that no two series share a title). */
static void series_title(const Analysis *a, const JobAnalysis *j, const int *axes, int naxes,
                         char *buf, size_t size)
{
    /* Each part is added only while the title fits: long specs (tuned weights) are cut, never
     * written past buf. */
    int n = snprintf(buf, size, "%s vs %s", j->label_a, j->label_b);
    if ((size_t)n < size && strcmp(j->openings_spec, "start") != 0)
        n += snprintf(buf + n, size - (size_t)n, ", openings %s", j->openings_spec);
    for (int p = 0; p < VP_NB && (size_t)n < size; p++) {
        bool varies = false;
        for (int k = 0; k < a->njobs; k++)
            varies |= analyze_same_setup(&a->jobs[k], j) &&
                      (long)variant_get(&a->jobs[k].variant, p) !=
                          (long)variant_get(&j->variant, p);
        if (!varies || is_axis(p, axes, naxes))
            continue;
        char value[32];
        param_text(j, p, value, sizeof value);
        n += snprintf(buf + n, size - (size_t)n, ", %s=%s", variant_param_name((VariantParam)p),
                      value);
    }
}

/* The sweep plot of an analysis: its axes and its series, each with two points or more (a
 * job alone in its series is not swept), and room for one series' points. */
typedef struct Sweep {
    int axes[2], naxes;
    int nseries;
    int *first;                   /* [s]: the first job of series s */
    SweepPoint *pts;              /* njobs + CONV_NB points */
} Sweep;

/* The sweep plot of a; -1 when out of memory. */
static int sweep_open(const Analysis *a, Sweep *w)
{
    w->axes[0] = w->axes[1] = 0;
    w->naxes = sweep_axes(a, w->axes);
    w->nseries = 0;
    w->first = malloc((size_t)a->njobs * sizeof *w->first);
    w->pts = malloc((size_t)(a->njobs + CONV_NB) * sizeof *w->pts);
    if (!w->first || !w->pts)
        return -1;
    for (int i = 0; w->naxes > 0 && i < a->njobs; i++)
        if (series_first(a, i, w->axes, w->naxes) &&
            series_points(a, i, w->axes, w->naxes, w->pts) >= 2)
            w->first[w->nseries++] = i;
    return 0;
}

static void sweep_close(Sweep *w)
{
    free(w->first);
    free(w->pts);
}

#define SWEEP_SERIES_MAX 8        /* lines in one panel of the line sweep */
#define SWEEP_PANEL_HEIGHT 420    /* pixels of one panel, at least */
#define KEY_LINE_CHARS 40         /* a key entry is wrapped at a ',' or ':' after this many */
#define KEY_LINE_PX 19            /* pixels of one key line at a spacing of 1 */

/* A series' title as a gnuplot double-quoted key entry, wrapped at a ',' or ':' once a line
 * holds KEY_LINE_CHARS characters, so that it is whole beside the plot; its lines. */
static int gp_key_entry(FILE *gp, const char *s)
{
    int lines = 1, run = 0;
    fputc('"', gp);
    for (; *s; s++, run++) {
        if (*s == ' ' && run == 0)
            continue;
        if (*s == '"' || *s == '\\')
            fputc('\\', gp);
        fputc(*s, gp);
        if ((*s == ',' || *s == ':') && s[1] && run >= KEY_LINE_CHARS) {
            fputs("\\n", gp);
            lines++;
            run = -1;
        }
    }
    fputc('"', gp);
    return lines;
}

/* The lines that series s's key entry wraps to. */
static int key_entry_lines(const Analysis *a, const Sweep *w, int s)
{
    char title[600];
    series_title(a, &a->jobs[w->first[s]], w->axes, 1, title, sizeof title);
    char *text = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&text, &len);
    int lines = mem ? gp_key_entry(mem, title) : 1;
    if (mem)
        fclose(mem);
    free(text);
    return lines;
}

/* Over final_four, the place of each convention on the x axis: the conventions some series
 * has, in order, so that no slot is empty; their count. */
static int convention_slots(const Analysis *a, Sweep *w, int slot[CONV_NB])
{
    bool present[CONV_NB] = { false };
    for (int s = 0; s < w->nseries; s++) {
        int n = series_points(a, w->first[s], w->axes, 1, w->pts);
        for (int k = 0; k < n; k++)
            present[(int)w->pts[k].x] = true;
    }
    int count = 0;
    for (int c = 0; c < CONV_NB; c++)
        slot[c] = present[c] ? count++ : -1;
    return count;
}

/* Whether parameter p is ordered (a number: holes, seeds, max_plies...), so that a line from
 * point to point shows a trend over it; a convention or a yes/no is a category, without
 * order, whose points a line would join into a trend that is not there. */
static bool axis_ordered(int p)
{
    VariantKind k = variant_params[p].kind;
    return k == VK_INT || k == VK_INT64;
}

#define SWEEP_CATEGORY_SPREAD 0.4 /* the width, in slots, over which a panel's series stand
                                     beside each other over a category */

/* Over a category, where series s's points stand beside its category's slot, so that the
 * intervals of a panel's series do not hide each other: within SWEEP_CATEGORY_SPREAD / 2
 * of the slot, in the panel's order. */
static double category_offset(int s, int nseries)
{
    int first = s / SWEEP_SERIES_MAX * SWEEP_SERIES_MAX;
    int count = nseries - first < SWEEP_SERIES_MAX ? nseries - first : SWEEP_SERIES_MAX;
    return SWEEP_CATEGORY_SPREAD * (s - first - (count - 1) / 2.0) / count;
}

/* The x axis of the line sweep: over final_four, a tic for each convention played; over a
 * yes/no, a tic for each. */
static void sweep1_axis(FILE *gp, const Analysis *a, Sweep *w, int slot[CONV_NB])
{
    const char *p = variant_param_name((VariantParam)w->axes[0]);
    fprintf(gp, "set xlabel '%s'\n", p);
    for (int c = 0; c < CONV_NB; c++)
        slot[c] = c;
    if (variant_params[w->axes[0]].kind == VK_BOOL)
        fprintf(gp, "set xtics ('no' 0, 'yes' 1)\nset xrange [-0.5:1.5]\n");
    if (w->axes[0] != VP_FINAL_FOUR)
        return;
    int count = convention_slots(a, w, slot);
    fprintf(gp, "set xtics (");
    for (int c = 0, k = 0; c < CONV_NB; c++)
        if (slot[c] >= 0)
            fprintf(gp, "%s'%s' %d", k++ ? ", " : "", conv_name(c), slot[c]);
    fprintf(gp, ")\nset xrange [-0.5:%d.5]\n", count - 1);
}

/* Over a numeric parameter, the x range padded by a twentieth of it (half a unit when every
 * point has one value) on each side, so that the end points' error bars are not on the
 * frame. */
static void sweep1_pad(FILE *gp, const Analysis *a, Sweep *w)
{
    if (!axis_ordered(w->axes[0]))
        return;
    double lo = INFINITY, hi = -INFINITY;
    for (int s = 0; s < w->nseries; s++) {
        int n = series_points(a, w->first[s], w->axes, 1, w->pts);
        for (int k = 0; k < n; k++) {
            lo = fmin(lo, w->pts[k].x);
            hi = fmax(hi, w->pts[k].x);
        }
    }
    if (lo > hi)
        return;
    double pad = hi > lo ? (hi - lo) / 20 : 0.5;
    fprintf(gp, "set xrange [%g:%g]\n", lo - pad, hi + pad);
}

/* The advantage over one swept parameter, one line per series (same_series), at most
 * SWEEP_SERIES_MAX a panel, stacked, with the key beside the plot, its entries whole; over
 * a category (a convention, a yes/no: not axis_ordered), each series' points with their
 * intervals, not joined, set beside each other (category_offset). */
static void plot_sweep1(FILE *gp, const Analysis *a, const char *dir)
{
    Sweep w;
    if (sweep_open(a, &w) != 0) {
        sweep_close(&w);
        return;
    }
    int panels = (w.nseries + SWEEP_SERIES_MAX - 1) / SWEEP_SERIES_MAX;
    int *height = calloc((size_t)panels, sizeof *height), total = 0;
    int *spacing = calloc((size_t)panels, sizeof *spacing);
    for (int k = 0; height && spacing && k < panels; k++) {
        int entries = 0;
        spacing[k] = 1;
        for (int s = k * SWEEP_SERIES_MAX; s < w.nseries && s < (k + 1) * SWEEP_SERIES_MAX; s++) {
            int lines = key_entry_lines(a, &w, s);
            spacing[k] = lines > spacing[k] ? lines : spacing[k];
            entries++;
        }
        height[k] = 160 + KEY_LINE_PX * spacing[k] * entries;
        height[k] = height[k] > SWEEP_PANEL_HEIGHT ? height[k] : SWEEP_PANEL_HEIGHT;
        total += height[k];
    }
    if (!height || !spacing) {
        free(height);
        free(spacing);
        sweep_close(&w);
        return;
    }
    const char *p = variant_param_name((VariantParam)w.axes[0]);
    int slot[CONV_NB];
    gp_begin(gp, dir, "sweep", 1200, total);
    sweep1_axis(gp, a, &w, slot);
    Range r = range_new();
    for (int s = 0; s < w.nseries; s++) {
        fprintf(gp, "$S%d << EOD\n", s);
        int n = series_points(a, w.first[s], w.axes, 1, w.pts);
        for (int k = 0; k < n; k++) {
            int x = (int)w.pts[k].x;
            double at = w.axes[0] == VP_FINAL_FOUR ? slot[x] : w.pts[k].x;
            gp_advantage_row(gp, at + (axis_ordered(w.axes[0]) ? 0 : category_offset(s, w.nseries)),
                             w.pts[k].e);
            range_add(&r, w.pts[k].e);
        }
        fprintf(gp, "EOD\n");
    }
    gp_advantage_axis(gp, r);
    sweep1_pad(gp, a, &w);
    fprintf(gp, "set multiplot\n");
    for (int k = 0, top = total; k < panels; k++) {
        int first = k * SWEEP_SERIES_MAX;
        int last = first + SWEEP_SERIES_MAX < w.nseries ? first + SWEEP_SERIES_MAX : w.nseries;
        top -= height[k];
        fprintf(gp, "set size 1,%g\nset origin 0,%g\n", (double)height[k] / total,
                (double)top / total);
        if (panels > 1)
            fprintf(gp, "set title 'First-player advantage over %s, 95%% intervals (panel %d of "
                        "%d: series %d to %d of %d)'\n", p, k + 1, panels, first + 1, last,
                    w.nseries);
        else
            fprintf(gp, "set title 'First-player advantage over %s, 95%% intervals'\n", p);
        /* gnuplot gives a key entry one line whatever its text: the spacing of the panel's
         * longest entry keeps wrapped ones apart. */
        fprintf(gp, "set key outside right top vertical maxcols 1 Left reverse spacing %d\n"
                    "plot ", spacing[k]);
        for (int s = first; s < last; s++) {
            char title[600];
            series_title(a, &a->jobs[w.first[s]], w.axes, 1, title, sizeof title);
            /* Over a category, points and their intervals only (axis_ordered). */
            fprintf(gp, "%s$S%d using 1:2:3:4 with %s lw 2", s > first ? ", " : "", s,
                    axis_ordered(w.axes[0]) ? "yerrorlines" : "yerrorbars");
            gp_style(gp, s - first);
            fprintf(gp, " title ");
            gp_key_entry(gp, title);
        }
        fprintf(gp, "\n");
    }
    fprintf(gp, "unset multiplot\n");
    free(height);
    free(spacing);
    sweep_close(&w);
}

#define PANEL_WIDTH 520           /* pixels of one heat map panel, at least */
#define PANEL_HEIGHT 440
#define CELL_WIDTH 70             /* pixels of one cell, room for its value */
#define CELL_HEIGHT 56            /* two lines: the value, and n */
#define PANEL_FRAME_WIDTH 200     /* pixels of a panel's axes and colour box */
#define PANEL_FRAME_HEIGHT 180

/* The distinct values of the points on one axis (0 x, 1 y), over the first n series. */
static int axis_values(const Analysis *a, const int *axes, const int *first, int n, int axis,
                       SweepPoint *pts)
{
    double *seen = malloc((size_t)(a->njobs + CONV_NB) * (size_t)n * sizeof *seen);
    int count = 0;
    for (int s = 0; seen && s < n; s++) {
        int m = series_points(a, first[s], axes, 2, pts);
        for (int k = 0; k < m; k++) {
            double v = axis ? pts[k].y : pts[k].x;
            int i = 0;
            while (i < count && seen[i] != v)
                i++;
            if (i == count)
                seen[count++] = v;
        }
    }
    free(seen);
    return count;
}

/* The most characters of a panel's title. */
static int longest_title(const Analysis *a, const int *axes, const int *first, int n)
{
    int most = 1;
    for (int s = 0; s < n; s++) {
        char title[600];
        series_title(a, &a->jobs[first[s]], axes, 2, title, sizeof title);
        most = (int)strlen(title) > most ? (int)strlen(title) : most;
    }
    return most;
}

#define HEAT_STOPPED_MARK 0.10    /* a cell is starred when more of its games were stopped */

/* One cell of a heat map: its place, its colour value, its label (the advantage in points
 * per 100 games, starred when over HEAT_STOPPED_MARK of the games stopped at max_plies; "n/a"
 * without a decisive game, uncoloured) and what it rests on. */
static void heat_cell(FILE *gp, const SweepPoint *p)
{
    const char *star = p->stopped > HEAT_STOPPED_MARK ? "*" : "";
    if (isnan(p->e->value))
        fprintf(gp, "%g %g NaN \"n/a%s\"", p->x, p->y, star);
    else
        fprintf(gp, "%g %g %g \"%+.1f%s\"", p->x, p->y, 100 * p->e->value, 100 * p->e->value,
                star);
    fprintf(gp, " \"n=%llu %s\"\n", (unsigned long long)p->n, p->unit);
}

/* The advantage over two swept parameters as heat maps, one panel per series (the value
 * printed in each cell), up to PLOT_JOBS_MAX panels, three to a row, sharing one colour
 * scale. */
static void plot_sweep2(FILE *gp, const Analysis *a, const char *dir)
{
    Sweep sw;
    if (sweep_open(a, &sw) != 0) {
        sweep_close(&sw);
        return;
    }
    const int *axes = sw.axes, *first = sw.first;
    SweepPoint *pts = sw.pts;
    int nseries = sw.nseries < PLOT_JOBS_MAX ? sw.nseries : PLOT_JOBS_MAX;
    int cols = nseries < 3 ? nseries : 3, rows = (nseries + cols - 1) / cols;
    /* Each panel as wide as its title and its cells need. */
    int tw = TIC_CHAR_PX * longest_title(a, axes, first, nseries) + 120;
    int cw = CELL_WIDTH * axis_values(a, axes, first, nseries, 0, pts) + PANEL_FRAME_WIDTH;
    int ch = CELL_HEIGHT * axis_values(a, axes, first, nseries, 1, pts) + PANEL_FRAME_HEIGHT;
    int w = tw > PANEL_WIDTH ? tw : PANEL_WIDTH, h = ch > PANEL_HEIGHT ? ch : PANEL_HEIGHT;
    w = cw > w ? cw : w;
    gp_begin(gp, dir, "sweep", cols * w, rows * h);
    const char *px = variant_param_name((VariantParam)axes[0]);
    const char *py = variant_param_name((VariantParam)axes[1]);
    double m = 1;
    for (int s = 0; s < nseries; s++) {
        int n = series_points(a, first[s], axes, 2, pts);
        for (int k = 0; k < n; k++)
            m = fabs(100 * pts[k].e->value) > m ? fabs(100 * pts[k].e->value) : m;
    }
    fprintf(gp, "set xlabel '%s'\nset ylabel '%s'\nset cblabel 'advantage (points per 100 "
                "games)'\nset palette "
                "defined (-1 'blue', 0 'white', 1 'red')\nset cbrange [%g:%g]\nunset key\n"
                "set grid front\nset xtics 1\nset ytics 1\nset offsets 0.5, 0.5, 0.5, 0.5\n"
                "set multiplot layout %d,%d "
                "title 'First-player advantage by %s and %s'\n", px, py, -m, m, rows, cols,
            px, py);
    for (int s = 0; s < nseries; s++) {
        char title[600];
        series_title(a, &a->jobs[first[s]], axes, 2, title, sizeof title);
        fprintf(gp, "$H%d << EOD\n", s);
        int n = series_points(a, first[s], axes, 2, pts);
        for (int k = 0; k < n; k++)
            heat_cell(gp, &pts[k]);
        fprintf(gp, "EOD\nset title ");
        gp_quoted(gp, title);
        fprintf(gp, "\nplot $H%d using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder "
                    "fc palette z notitle, $H%d using 1:2:4 with labels offset 0,0.5 "
                    "font ',8' notitle, $H%d using 1:2:5 with labels offset 0,-0.5 "
                    "font ',7' notitle\n", s, s, s);
    }
    fprintf(gp, "unset multiplot\n");
    sweep_close(&sw);
}

/* An agent spec as a gnuplot double-quoted tic label, wrapped after each ':' and ',' so
 * that a long spec stays readable under its tic and is never cut; its line count in *lines. */
static void gp_wrapped_label(FILE *gp, const char *s, int *lines)
{
    *lines = 1;
    fputc('"', gp);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', gp);
        fputc(*s, gp);
        if ((*s == ':' || *s == ',') && s[1]) {
            fputs("\\n", gp);
            (*lines)++;
        }
    }
    fputc('"', gp);
}

/* The most lines a design's rung labels wrap to. */
static int skill_label_lines(const Analysis *a, const SkillDesign *d)
{
    int most = 1;
    for (int r = 0; r < d->nrungs; r++) {
        int lines = 1;
        for (const char *c = a->jobs[d->rung[r]].label_a; *c; c++)
            lines += (*c == ':' || *c == ',') && c[1];
        most = lines > most ? lines : most;
    }
    return most;
}

/* The most characters of one line of a design's wrapped rung labels. */
static int skill_label_chars(const Analysis *a, const SkillDesign *d)
{
    int most = 1;
    for (int r = 0; r < d->nrungs; r++) {
        int run = 0;
        for (const char *c = a->jobs[d->rung[r]].label_a; *c; c++) {
            run++;
            most = run > most ? run : most;
            if (*c == ':' || *c == ',')
                run = 0;
        }
    }
    return most;
}

#define SKILL_PANEL_HEIGHT 300    /* pixels of one design's panel, above its labels */
#define SKILL_CHAR_WIDTH 8        /* pixels of one character of a tic label, with room */
#define SKILL_MARGINS 260         /* pixels of the y axis's labels and the legend */
#define SKILL_LINE_HEIGHT 14      /* pixels of one line of a tic label */

/* One design's panel: x the rungs, y the advantage with its interval, a line per
 * convention (offset a little so the error bars do not overlap). */
static void plot_skill_design(FILE *gp, const Analysis *a, const SkillDesign *d, int number)
{
    int lines;
    fprintf(gp, "set title 'Design %d: openings ", number);
    for (const char *c = d->openings; *c; c++)
        fprintf(gp, *c == '\'' ? "''" : "%c", *c);
    /* gnuplot sets the axis label one line under the tics whatever their lines: moved
     * under the design's tallest wrapped label. */
    fprintf(gp, "'\nset xlabel 'agent (rung)' offset 0,-%d\nset xtics (",
            skill_label_lines(a, d) - 1);
    for (int r = 0; r < d->nrungs; r++) {
        fprintf(gp, "%s", r ? ", " : "");
        gp_wrapped_label(gp, a->jobs[d->rung[r]].label_a, &lines);
        fprintf(gp, " %d", r);
    }
    fprintf(gp, ")\nset xrange [-0.5:%d.5]\n", d->nrungs - 1);
    int points[CONV_NB] = { 0 }, drawn = 0;
    Range range = range_new();
    for (int k = 0; k < d->nconv; k++) {
        fprintf(gp, "$K%d_%d << EOD\n", number, k);
        for (int r = 0; r < d->nrungs; r++) {
            int i = d->cell[r * CONV_NB + d->conv[k]];
            const Estimate *x = i < 0 ? NULL : &a->jobs[i].pair_advantage.advantage;
            if (x && !isnan(x->value)) {
                gp_advantage_row(gp, r + 0.12 * (k - (d->nconv - 1) / 2.0), x);
                range_add(&range, x);
                points[k]++;
            }
        }
        fprintf(gp, "EOD\n");
    }
    gp_advantage_axis(gp, range);
    /* gnuplot refuses a series without a point, so a convention whose every cell lacks a
     * counted pair (a tiny run) is left out, and a panel with none at all says so. */
    fprintf(gp, "unset label 1\n");
    for (int k = 0; k < d->nconv; k++)
        drawn += points[k] > 0;
    if (!drawn)
        fprintf(gp, "set yrange [-100:100]\nset label 1 'no counted pair in any cell' at graph "
                    "0.5,0.75 center\nplot NaN notitle\n");
    else
        fprintf(gp, "plot ");
    for (int k = 0, n = 0; k < d->nconv && drawn; k++)
        if (points[k])
            fprintf(gp, "%s$K%d_%d using 1:2:3:4 with yerrorlines pt 7 lw 2 lc %d title '%s'",
                    n++ ? ", " : "", number, k, d->conv[k] + 1, conv_name(d->conv[k]));
    fprintf(gp, "\n");
}

/* The first-player advantage against skill: one panel per design, stacked; each panel's
 * bottom margin fits its wrapped rung labels, and the page is as wide as they need. */
static void plot_skill(FILE *gp, const Analysis *a, const char *dir)
{
    int height = 0, width = 1100;
    for (int d = 0; d < a->nskill; d++) {
        const SkillDesign *s = &a->skill[d];
        height += SKILL_PANEL_HEIGHT + SKILL_LINE_HEIGHT * (skill_label_lines(a, s) + 1);
        /* wide enough that neighbouring rungs' labels never run into each other */
        int need = SKILL_MARGINS + s->nrungs * (SKILL_CHAR_WIDTH * skill_label_chars(a, s) + 16);
        width = need > width ? need : width;
    }
    gp_begin(gp, dir, "skill", width, height);
    fprintf(gp, "set multiplot\nset xzeroaxis lt -1\nset rmargin 22\n");
    int top = height;
    for (int d = 0; d < a->nskill; d++) {
        int lines = skill_label_lines(a, &a->skill[d]);
        int h = SKILL_PANEL_HEIGHT + SKILL_LINE_HEIGHT * (lines + 1);
        fprintf(gp, "set size 1,%g\nset origin 0,%g\nset bmargin %d\n", (double)h / height,
                (double)(top - h) / height, lines + 3);
        plot_skill_design(gp, a, &a->skill[d], d + 1);
        top -= h;
    }
    fprintf(gp, "unset multiplot\n");
}

/* Whether design d is a root design (all:N) with at least two rungs the file's matches
 * rate: what the root ladder's panel needs. */
static bool root_ladder_design(const Analysis *a, const SkillDesign *d)
{
    int rated = 0;
    double rating, se;
    for (int r = 0; r < d->nrungs; r++)
        rated += analyze_agent_rating(a, a->jobs[d->rung[r]].agent_a, &rating, &se);
    return a->jobs[d->first].has_root && rated >= 2;
}

/* The designs root_ladder_design accepts. */
static int root_ladder_designs(const Analysis *a)
{
    int n = 0;
    for (int d = 0; d < a->nskill; d++)
        n += root_ladder_design(a, &a->skill[d]);
    return n;
}

#define ROOT_PANEL_HEIGHT 380     /* pixels of one root design's panel */

/* The figure a rung's panel draws: an adaptive race's answer, else the held-out best line. */
static Estimate root_panel_figure(const JobAnalysis *j)
{
    return j->has_race ? analyze_race_answer(j) : j->root.held_out;
}

/* One root design's panel: x the rung's rating, y South's best line's advantage (an
 * adaptive race's answer, else held out) with its interval, a line per convention. */
static void plot_root_design(FILE *gp, const Analysis *a, const SkillDesign *d, int number)
{
    fprintf(gp, "set title 'Openings ");
    for (const char *c = d->openings; *c; c++)
        fprintf(gp, *c == '\'' ? "''" : "%c", *c);
    fprintf(gp, "%s", a->jobs[d->first].has_race
                          ? ": South''s best line, the adaptive race''s answer'\n"
                          : ": South''s best first line, held out'\n");
    fprintf(gp, "set xlabel 'rung''s rating (Elo, from the file''s matches)'\n");
    int points[CONV_NB] = { 0 }, drawn = 0;
    Range range = range_new();
    for (int k = 0; k < d->nconv; k++) {
        fprintf(gp, "$R%d_%d << EOD\n", number, k);
        for (int r = 0; r < d->nrungs; r++) {
            int i = d->cell[r * CONV_NB + d->conv[k]];
            double rating, se;
            Estimate x = i < 0 ? (Estimate){ NAN, { NAN, NAN } } : root_panel_figure(&a->jobs[i]);
            if (i < 0 || !a->jobs[i].has_root || isnan(x.value) ||
                !analyze_agent_rating(a, a->jobs[d->rung[r]].agent_a, &rating, &se))
                continue;
            gp_advantage_row(gp, rating, &x);
            range_add(&range, &x);
            points[k]++;
        }
        fprintf(gp, "EOD\n");
    }
    gp_advantage_axis(gp, range);
    fprintf(gp, "set offsets graph 0.04, graph 0.04, 0, 0\n");   /* end rungs off the frame */
    for (int k = 0; k < d->nconv; k++)
        drawn += points[k] > 0;
    if (!drawn) {
        fprintf(gp, "set yrange [-100:100]\nplot NaN notitle\n");
        return;
    }
    fprintf(gp, "plot ");
    for (int k = 0, n = 0; k < d->nconv; k++)
        if (points[k])
            fprintf(gp, "%s$R%d_%d using 1:2:3:4 with yerrorlines pt 7 lw 2 lc %d title '%s'",
                    n++ ? ", " : "", number, k, d->conv[k] + 1, conv_name(d->conv[k]));
    fprintf(gp, "\n");
}

/* The root ladder: one panel per root design, stacked. */
static void plot_root_ladder(FILE *gp, const Analysis *a, const char *dir)
{
    int panels = root_ladder_designs(a), k = 0;
    gp_begin(gp, dir, "root_ladder", 1100, ROOT_PANEL_HEIGHT * panels);
    fprintf(gp, "set multiplot layout %d,1\nset rmargin 22\n", panels);
    for (int d = 0; d < a->nskill; d++)
        if (root_ladder_design(a, &a->skill[d]))
            plot_root_design(gp, a, &a->skill[d], ++k);
    fprintf(gp, "unset multiplot\n");
}

#define RATING_ROW_PX 36          /* pixels of one agent's row of the ratings plot */
#define RATING_WIDTH 1100         /* pixels of the ratings plot */

/* The agents in rating order (analyze_rating_order), malloc'd; NULL when out of memory. */
static int *agents_in_order(const Analysis *a)
{
    int *order = malloc((size_t)(a->nagents > 0 ? a->nagents : 1) * sizeof *order);
    if (order)
        analyze_rating_order(a, order);
    return order;
}

/* The ratings of the agents of the matches of two different agents (Bradley-Terry-Davidson,
 * analyze.h; as the tables give them): one row per agent, the highest at the top, each
 * rating with its interval, the agent named by its label; the anchor's line at 0. */
static void plot_ratings(FILE *gp, const Analysis *a, const char *dir)
{
    int m = a->nagents, *order = agents_in_order(a), longest = 1;
    if (!order)
        return;
    for (int k = 0; k < m; k++)
        longest = (int)strlen(a->agent_labels[k]) > longest ? (int)strlen(a->agent_labels[k])
                                                              : longest;
    gp_begin(gp, dir, "ratings", RATING_WIDTH, 160 + RATING_ROW_PX * m);
    /* The names left of the plot, whole up to half the width. */
    double left = fmin(TIC_LEFT_PX / 2 + TIC_CHAR_PX * longest, RATING_WIDTH / 2.0);
    fprintf(gp, "set lmargin at screen %.3f\nset rmargin 4\nunset key\n"
                "set xlabel 'rating (Elo points)'\nset yrange [-0.5:%d.5]\n"
                "set offsets graph 0.05, graph 0.05, 0, 0\n"
                "set arrow 1 from 0, graph 0 to 0, graph 1 nohead dt 2\nset title ",
            left / RATING_WIDTH, m - 1);
    char title[JOB_LABEL_MAX + 100];
    snprintf(title, sizeof title, "Ratings of the agents (Bradley-Terry-Davidson, Elo points, "
             "%.*s = 0), 95%% intervals", JOB_LABEL_MAX, a->agent_labels[a->bt.anchor]);
    gp_quoted(gp, title);
    fprintf(gp, "\n");
    double z = gsl_cdf_ugaussian_Pinv(0.5 + ANALYZE_CONFIDENCE / 2);
    fprintf(gp, "$RATINGS << EOD\n");
    for (int k = 0; k < m; k++) {
        int i = order[k];
        double r = a->bt.rating[i], se = a->bt.rating_se[i];
        fprintf(gp, "%d %g %g %g\n", m - 1 - k, r, r - z * se, r + z * se);
    }
    fprintf(gp, "EOD\nset ytics (");
    for (int k = 0; k < m; k++) {
        fprintf(gp, "%s", k ? ", " : "");
        gp_quoted(gp, a->agent_labels[order[k]]);
        fprintf(gp, " %d", m - 1 - k);
    }
    fprintf(gp, ")\nplot $RATINGS using 2:1:3:4 with xerrorbars pt 7 ps 1.3 lw 2 "
                "lc rgb '#1f77b4' notitle\n");
    free(order);
}

/* Run one gnuplot script drawn by draw into the stage, and move its plot in place; -1 when
 * gnuplot failed. */
static int run_gnuplot(void (*draw)(FILE *, const Analysis *, const char *), const Analysis *a,
                       const ReportStage *stage, const char *name, Error *e)
{
    Gnuplot g;
    if (report_gnuplot_open(&g, e) != 0)
        return -1;
    draw(g.in, a, stage->dir);
    return report_gnuplot_close(&g, stage, name, e);
}

/* The plots of this analysis: name, caption and drawing function. The caption grows as
 * it is written, so that it is always whole. */
typedef struct Plot {
    const char *name;
    char *caption;                /* malloc'd; NULL after an allocation failed */
    size_t len;
    void (*draw)(FILE *, const Analysis *, const char *);
} Plot;

/* A plot with no caption yet. */
static Plot plot_new(const char *name, void (*draw)(FILE *, const Analysis *, const char *))
{
    return (Plot){ name, calloc(1, 1), 0, draw };
}

/* Free the captions of n plots. */
static void plots_free(Plot *p, int n)
{
    for (int i = 0; i < n; i++)
        free(p[i].caption);
}

/* Append to a caption, growing it; on running out of memory the caption is dropped (NULL),
 * which plots_of reports. */
static void caption_add(Plot *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void caption_add(Plot *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *grown = p->caption && n >= 0 ? realloc(p->caption, p->len + (size_t)n + 1) : NULL;
    if (!grown) {
        free(p->caption);
        p->caption = NULL;
        return;
    }
    p->caption = grown;
    va_start(ap, fmt);
    vsnprintf(p->caption + p->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    p->len += (size_t)n;
}

/* The caption's lines on matches of two different agents, where there are any. */
static void caption_two_agents(Plot *p, const Analysis *a)
{
    int without_pairs, n = two_agent_jobs(a, &without_pairs);
    if (n > without_pairs)
        caption_add(p, " Matches of two different agents (%d) show the advantage with the "
                       "colour-swapped pair as unit only: game by game, the first move's "
                       "advantage is mixed with the stronger agent's wins.", n - without_pairs);
    if (without_pairs)
        caption_add(p, " Left out: %d match(es) of two different agents without "
                       "colour-swapped pairs, whose first-player advantage cannot be told "
                       "from their agents' strength.", without_pairs);
}

/* What a plot of pooled advantages says of the jobs with an adaptive root design. */
static void caption_races(Plot *p, const Analysis *a)
{
    int n = race_jobs(a);
    if (n)
        caption_add(p, " Left out: %d job(s) with an adaptive root design, whose pairs were "
                       "spread over their lines as the race chose, so that their pooled "
                       "advantage estimates nothing; their answers are in the table of answers "
                       "and the root ladder.", n);
}

/* The advantage plot's caption: its units, and the matches of two different agents left
 * out. */
static void caption_advantage(Plot *p, const Analysis *a)
{
    caption_add(p, "First-player advantage per self-play job (both agents the same spec), in "
                   "points per 100 games, with 95%% intervals: with the pair as unit, or the "
                   "opening where a job's pairs repeat openings; with the game as unit beside "
                   "it for jobs whose games are independent (from the start, distinct, not "
                   "following few lines). Each job's label stands under the centre of its "
                   "points.");
    int without_pairs, n = two_agent_jobs(a, &without_pairs);
    if (n)
        caption_add(p, " Left out: %d match(es) of two different agents, whose South-minus-North "
                       "difference mixes the first move's advantage with the stronger agent's "
                       "wins; they are skill comparisons (see the tables%s).", n,
                    a->bt_status >= 0 ? ", the ratings and the crosstable" : "");
    caption_races(p, a);
}

/* The convention plot's caption: which re-scorings are left out, and why. */
static void caption_conventions(Plot *p, const Analysis *a)
{
    int aware = 0;
    for (int i = 0; i < a->njobs; i++)
        aware += !rescoring_valid(&a->jobs[i]);
    if (aware < a->njobs)
        caption_add(p, "First-player advantage in points per 100 games per convention on the "
                       "same games, re-scored where both agents are convention-blind.");
    else
        caption_add(p, "First-player advantage in points per 100 games under the convention "
                       "each job played (no job's games can be re-scored: an agent of each looks "
                       "at the convention).");
    caption_add(p, " Intervals with each job's unit (the pair, or the opening where pairs "
                   "repeat openings), the pairs re-scored.");
    if (aware && aware < a->njobs)
        caption_add(p, " Not valid, so left out: the re-scorings of %d job(s) where an agent "
                       "looks at the convention (it would have played other games); their "
                       "played convention is shown.", aware);
    caption_two_agents(p, a);
    caption_races(p, a);
    if (!any_self_play(a))
        caption_add(p, " No first-player advantage plot: every job is a match of two different "
                       "agents, whose South-minus-North difference mixes the first move's "
                       "advantage with the stronger agent's wins.");
}

/* The sweep plot's caption: its axes, its series (the panels of a heat map), what is left
 * out. */
static void caption_sweep(Plot *p, const Analysis *a, const Sweep *w)
{
    const int *axes = w->axes;
    int naxes = w->naxes, n = w->nseries;
    int shown = naxes > 1 && n > PLOT_JOBS_MAX ? PLOT_JOBS_MAX : n;
    caption_add(p, "First-player advantage over %s%s%s, ",
                variant_param_name((VariantParam)axes[0]), naxes > 1 ? " and " : "",
                naxes > 1 ? variant_param_name((VariantParam)axes[1]) : "");
    caption_add(p, naxes > 1 ? "one heat map per series%s:"
                   : axis_ordered(axes[0]) ? "one line per series%s:"
                   : "the points of each series%s:", shown < n ? " (the first 12)" : "");
    for (int s = 0; s < shown; s++) {
        char title[600];
        series_title(a, &a->jobs[w->first[s]], axes, naxes, title, sizeof title);
        caption_add(p, "%s %s", s ? ";" : "", title);
    }
    caption_add(p, ".");
    if (naxes == 1 && n > SWEEP_SERIES_MAX)
        caption_add(p, " In %d panels of at most %d series.", (n + SWEEP_SERIES_MAX - 1) /
                    SWEEP_SERIES_MAX, SWEEP_SERIES_MAX);
    caption_add(p, " Advantage in points per 100 games, each point's interval with its job's "
                   "unit (the pair, or the opening where pairs repeat openings).");
    if (naxes == 1 && !axis_ordered(axes[0]))
        caption_add(p, " %s's values are categories without an order, so a series' points "
                       "are not joined by lines; the series stand a little apart over each "
                       "value, so that their intervals do not hide each other.",
                    variant_param_name((VariantParam)axes[0]));
    if (naxes > 1)
        caption_add(p, " Each cell gives the advantage and n, the units it rests on (pairs, or "
                       "openings where pairs repeat openings); * marks a cell where more than %.0f%% "
                       "of the games stopped at max_plies (unfinished, left out, so the value "
                       "rests on the games that ended in time); n/a marks a cell without a "
                       "decisive game (every finished game a draw, or none finished), which "
                       "has no advantage and no colour.", 100 * HEAT_STOPPED_MARK);
    if (axes[0] == VP_FINAL_FOUR && any_rescored(a))
        caption_add(p, " A convention-blind self-play job stands for the conventions it did "
                       "not play too, re-scored on its games.");
    caption_two_agents(p, a);
    caption_races(p, a);
}

/* Every figure's warning where some job's games follow few lines: its points describe those
 * lines, not the game from its start. */
static void caption_few_lines(Plot *p, const Analysis *a)
{
    int k = 0;
    for (int i = 0; i < a->njobs; i++)
        if (a->jobs[i].lines_few)
            caption_add(p, "%s%s", k++ ? ", " : " Warning: the games of ", a->jobs[i].name);
    if (k)
        caption_add(p, " follow few lines, so what is drawn for %s describes those lines "
                       "rather than the game from its start.", k > 1 ? "them" : "it");
}

/* The length plot's caption: every job drawn, and which curves are Kaplan-Meier estimates. */
static void caption_lengths(Plot *p, const Analysis *a)
{
    caption_add(p, "Game length distribution of each job, cumulative");
    if (job_panels(a) > 1)
        caption_add(p, "; %d jobs in %d panels of at most %d", a->njobs, job_panels(a),
                    PANEL_JOBS);
    caption_add(p, ".");
    if (!any_censored(a))
        return;
    caption_add(p, " KM: the Kaplan-Meier estimate, for jobs with games stopped at max_plies "
                   "(right-censored: they had not ended), whose curve ends below 1 by the "
                   "share stopped:");
    for (int i = 0, k = 0; i < a->njobs; i++) {
        const JobAnalysis *j = &a->jobs[i];
        if (j->censored)
            caption_add(p, "%s %s %.1f%% at %lld plies", k++ ? ";" : "", j->name,
                        100.0 * (double)j->censored / (double)j->rows,
                        (long long)j->variant.max_plies);
    }
    caption_add(p, ".");
}

/* The ratings plot's caption: the model, the anchor, the first move's rating, and the
 * widening of the intervals where the matches' games are not independent. */
static void caption_ratings(Plot *p, const Analysis *a)
{
    const BtFit *f = &a->bt;
    double z = gsl_cdf_ugaussian_Pinv(0.5 + ANALYZE_CONFIDENCE / 2);
    caption_add(p, "Ratings of the %d agents of the matches of two different agents, in Elo "
                   "points, highest at the top, with 95%% intervals: the Bradley-Terry-Davidson "
                   "fit of the tables (a first-move term, a Gaussian prior of sd %g Elo on each "
                   "rating about their mean), %s pinned at 0. The first move is worth %+.1f "
                   "[%+.1f, %+.1f] Elo.", a->nagents, BT_PRIOR_SD_ELO, a->agent_labels[f->anchor],
                f->home, f->home - z * f->home_se, f->home + z * f->home_se);
    if (!f->data_finite)
        caption_add(p, " Some agents never won or never lost against the others: the prior "
                       "keeps their ratings finite, with wide intervals.");
    if (a->bt_design_job >= 0)
        caption_add(p, " The matches' games are not independent: the intervals are widened by "
                       "%.2f, the square root of the largest design effect (job %s's).",
                    sqrt(a->bt_design_effect), a->jobs[a->bt_design_job].name);
    caption_add(p, " The crosstable below gives the games they rest on.");
}

/* The margin plot's caption. */
static void caption_margins(Plot *p, const Analysis *a)
{
    caption_add(p, "Score-margin distribution of each job's finished games, one line through "
                   "each job's margins");
    if (job_panels(a) > 1)
        caption_add(p, "; %d jobs in %d panels of at most %d", a->njobs, job_panels(a),
                    PANEL_JOBS);
    caption_add(p, ".");
}

/* Which plots this analysis has, with their captions; their count, -1 when out of memory. */
static int plots_of(const Analysis *a, Plot *p)
{
    int n = 0;
    Sweep w;
    if (sweep_open(a, &w) != 0) {
        sweep_close(&w);
        return -1;
    }
    p[n] = plot_new("lengths", plot_lengths);
    caption_lengths(&p[n++], a);
    if (any_self_play(a)) {
        p[n] = plot_new("advantage", plot_advantage);
        caption_advantage(&p[n++], a);
    }
    p[n] = plot_new("conventions", plot_conventions);
    caption_conventions(&p[n++], a);
    p[n] = plot_new("margins", plot_margins);
    caption_margins(&p[n++], a);
    if (w.nseries > 0) {
        p[n] = plot_new("sweep", w.naxes > 1 ? plot_sweep2 : plot_sweep1);
        caption_sweep(&p[n++], a, &w);
    }
    if (a->bt_status == BT_OK) {
        p[n] = plot_new("ratings", plot_ratings);
        caption_ratings(&p[n++], a);
    }
    if (a->nskill > 0) {
        p[n] = plot_new("skill", plot_skill);
        caption_add(&p[n++], "First-player advantage against skill in self-play, in points per "
                             "100 games, one line per convention, one panel per design "
                             "(openings and variant), 95%% intervals.");
    }
    if (root_ladder_designs(a) > 0) {
        p[n] = plot_new("root_ladder", plot_root_ladder);
        caption_add(&p[n++], "The first player's advantage when South chooses its first "
                             "move as well as it can (the best line of the root design, "
                             "held out), in points per 100 games, against the rung's "
                             "rating, one line per convention, 95%% intervals: where the top "
                             "rungs agree, the ladder has converged.");
    }
    sweep_close(&w);
    for (int i = 0; i < n; i++)
        caption_few_lines(&p[i], a);
    bool whole = true;
    for (int i = 0; i < n; i++)
        whole &= p[i].caption != NULL;
    if (!whole) {
        plots_free(p, n);
        return -1;
    }
    return n;
}

/* The answers first: a table with a row per job (analyze_job_answer), its figure with the
 * interval, scale and units, and what it estimates. */
static void write_answers_table(FILE *out, const Analysis *a)
{
    fprintf(out, "<h2>Answers</h2>\n<p>Each job's figure with its 95%% interval, in the unit "
                 "its design calls for; the plots and the detail follow.</p>\n<table class=\"answers\">"
                 "<tr><th>job</th><th>answer [95%%]</th><th>scale</th><th>over</th>"
                 "<th>estimates</th></tr>\n");
    for (int i = 0; i < a->njobs; i++) {
        JobAnswer w = analyze_job_answer(&a->jobs[i]);
        char fig[96];
        if (isnan(w.value.value))
            snprintf(fig, sizeof fig, "-");
        else
            snprintf(fig, sizeof fig, "%+.1f [%+.1f, %+.1f]", w.value.value, w.value.ci.lo,
                     w.value.ci.hi);
        fputs("<tr><td class=\"job\">", out);
        markup_text(out, a->jobs[i].name, strlen(a->jobs[i].name));
        fprintf(out, "</td><td class=\"figure\">%s</td><td>%s</td><td>%llu %s</td><td>", fig,
                w.scale, (unsigned long long)w.units, design_unit_plural(w.unit));
        markup_text(out, w.estimates, strlen(w.estimates));
        fputs("</td></tr>\n", out);
    }
    fputs("</table>\n", out);
}


/* The crosstable of the agents of the matches of two different agents, where they are
 * rated (3 or more agents: analyze.h), as an HTML table in rating order: each cell the row
 * agent's points against the column agent over their finished games in both colours (a win
 * 1, a draw 1/2), over those games, as the tables give it, and its share. -1 when out of
 * memory. */
static int write_round_robin(FILE *out, const Analysis *a)
{
    if (a->bt_status < 0)
        return 0;
    int m = a->nagents, *order = agents_in_order(a);
    if (!order)
        return -1;
    fprintf(out, "<h2>Crosstable</h2>\n<p>Points of the row agent against the column agent "
                 "(a win 1, a draw 1/2) over their finished games in both colours, of those "
                 "games, and the row agent's share; agents in rating order.</p>\n"
                 "<table class=\"crosstable\" border=\"1\" cellpadding=\"4\" "
                 "style=\"border-collapse:collapse\">\n<tr><th></th>");
    for (int c = 0; c < m; c++) {
        fprintf(out, "<th>");
        markup_text(out, a->agent_labels[order[c]], strlen(a->agent_labels[order[c]]));
        fprintf(out, "</th>");
    }
    fprintf(out, "</tr>\n");
    for (int r = 0; r < m; r++) {
        fprintf(out, "<tr><th>");
        markup_text(out, a->agent_labels[order[r]], strlen(a->agent_labels[order[r]]));
        fprintf(out, "</th>");
        for (int c = 0; c < m; c++) {
            const CrossCell *x = &a->cross[order[r] * m + order[c]];
            if (r == c || x->games == 0)
                fprintf(out, "<td>-</td>");
            else    /* exact at any count, as the tables */
                fprintf(out, "<td>%llu%s/%llu (%.1f%%)</td>",
                        (unsigned long long)(x->half_points / 2), x->half_points % 2 ? ".5" : "",
                        (unsigned long long)x->games,
                        50.0 * (double)x->half_points / (double)x->games);
        }
        fprintf(out, "</tr>\n");
    }
    fprintf(out, "</table>\n");
    free(order);
    return 0;
}

/* The page: heading, the answers, the figures (a round robin's crosstable after them),
 * then the tables as text. */
static int write_page(FILE *out, const Analysis *a, const char *dir, const Plot *p, int n)
{
    char *tables = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&tables, &len);
    if (!mem)
        return -1;
    analyze_print(a, mem);
    fclose(mem);
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                 "<title>anywoli analysis: ");
    markup_text(out, a->path, strlen(a->path));
    fprintf(out, "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1200px}"
                 "pre{font-size:12px;background:#f6f6f6;padding:1em;overflow-x:auto}"
                 "figure{margin:1em 0;overflow-x:auto}img{border:1px solid #ddd}"
                 "table.answers{border-collapse:collapse;font-size:13px}"
                 "table.answers td,table.answers th{border:1px solid #ccc;padding:3px 6px;"
                 "text-align:left;vertical-align:top}td.figure,td.job{white-space:nowrap}"
                 "</style></head><body>\n<h1>Analysis of ");
    markup_text(out, a->path, strlen(a->path));
    fprintf(out, "</h1>\n<p>%d job(s); every interval is 95%%.</p>\n", a->njobs);
    write_answers_table(out, a);
    int rc = report_atlas_section(out, a, dir);
    fprintf(out, "<h2>Plots</h2>\n");
    for (int i = 0; i < n && rc == 0; i++)
        rc = report_html_figure(out, dir, p[i].name, p[i].caption);
    if (rc == 0)
        rc = write_round_robin(out, a);
    /* ---- the boards (report_boards.c): each start, each root line's position ---- */
    if (rc == 0)
        rc = report_boards_section(out, a, dir);
    /* ---- end of the boards ---- */
    fprintf(out, "<h2>Tables</h2>\n<pre>");
    markup_text(out, tables, len);
    fprintf(out, "</pre>\n</body></html>\n");
    free(tables);
    return rc;
}

int report_write(const Analysis *a, const char *dir, bool force, Error *e)
{
    if (report_check_dir(dir, force, e) != 0)
        return -1;
    if (a->njobs == 0)
        return error_set(e, "%s: no job to report on", dir);
    Plot plots[10];
    int n = plots_of(a, plots);
    if (n < 0)
        return error_set(e, "out of memory");
    ReportStage stage;
    int rc = report_stage_open(&stage, dir, e);
    if (rc != 0) {
        plots_free(plots, n);
        return -1;
    }
    for (int i = 0; i < n && rc == 0; i++)
        rc = run_gnuplot(plots[i].draw, a, &stage, plots[i].name, e);
    if (rc == 0)
        rc = report_atlas_draw(a, &stage, e);
    /* ---- the boards (report_boards.c), drawn into the stage as the plots are ---- */
    if (rc == 0)
        rc = report_boards_draw(a, &stage, e);
    /* ---- end of the boards ---- */
    FILE *out = rc == 0 ? report_page_open(&stage, e) : NULL;
    if (out)
        rc = report_page_commit(out, &stage, force, write_page(out, a, stage.dir, plots, n), e);
    report_stage_close(&stage);
    plots_free(plots, n);
    return out ? rc : -1;
}
