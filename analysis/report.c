/* report.c: the HTML report: tables as text, plots drawn by gnuplot through popen, each
 * written beside the page as a PNG file and embedded in it as a base64 data URI. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define PLOT_JOBS_MAX 12          /* distributions drawn overlaid: the first 12 jobs */
#define LENGTH_POINTS 200         /* points of each cumulative length curve */

static const char *const conv_names[CONV_NB] = { "penultimate", "first-final", "lottery" };

int report_gnuplot_available(void)
{
    const char *path = getenv("PATH");
    char dir[4096], file[4200];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s", (int)(n < sizeof dir ? n : sizeof dir - 1), path);
        snprintf(file, sizeof file, "%s/gnuplot", n ? dir : ".");
        if (access(file, X_OK) == 0)
            return 1;
        path += n + (path[n] == ':');
    }
    return 0;
}

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

/* The terminal and output of a plot into dir/name.png. */
static void gp_begin(FILE *gp, const char *dir, const char *name, int w, int h)
{
    fprintf(gp, "set terminal pngcairo size %d,%d font 'sans,10' noenhanced\n", w, h);
    fprintf(gp, "set output '%s/%s.png'\nset grid\nset key outside right top\n", dir, name);
}

/* The number of jobs drawn overlaid. */
static int overlaid(const Analysis *a)
{
    return a->njobs < PLOT_JOBS_MAX ? a->njobs : PLOT_JOBS_MAX;
}

/* The line of overlaid job i in the length plot: one of PLOT_JOBS_MAX distinct colours, and
 * a dash pattern that also differs between neighbours, so no two jobs look alike. */
static void length_line_style(FILE *gp, int i)
{
    static const char *const colour[PLOT_JOBS_MAX] = {
        "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000", "#aec7e8",
    };
    static const int dash[4] = { 1, 2, 4, 5 };   /* solid, dashed, dash-dot, dash-dot-dot */
    fprintf(gp, "lc rgb '%s' dt %d", colour[i % PLOT_JOBS_MAX], dash[i % 4]);
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
        double top = j->lengths_len > 1 ? (double)j->lengths_len - 1 : 1;
        for (int k = 0; k <= LENGTH_POINTS; k++) {
            double x = pow(top, (double)k / LENGTH_POINTS);
            size_t v = (size_t)fmin(floor(x), (double)(j->lengths_len - 1));
            fprintf(gp, "%g %g\n", x, 1.0 - surv[v]);
        }
    }
    free(surv);
    fprintf(gp, "EOD\n");
}

/* The key entry of job j: its name, and for a job with censored games the estimator and
 * how many were stopped. */
static void length_title(FILE *gp, const JobAnalysis *j)
{
    char title[400];
    if (j->censored)
        snprintf(title, sizeof title, "%s (Kaplan-Meier: %.1f%% stopped at max_plies %lld)",
                 j->name, 100.0 * (double)j->censored / (double)j->rows,
                 (long long)j->variant.max_plies);
    else
        snprintf(title, sizeof title, "%s", j->name);
    gp_quoted(gp, title);
}

/* The length distributions as cumulative shares on a log scale (jobs of very different
 * lengths stay readable); for jobs with games stopped at max_plies (right-censored), the
 * Kaplan-Meier estimate, said in the title and the key. */
static void plot_lengths(FILE *gp, const Analysis *a, const char *dir)
{
    bool censored = false;
    for (int i = 0; i < overlaid(a); i++)
        censored |= a->jobs[i].censored > 0;
    gp_begin(gp, dir, "lengths", 1100, 500);
    fprintf(gp, "set title \"Game length: share of the job's games ended by this length%s\"\n"
                "set xlabel 'plies (log scale)'\nset ylabel 'share of games'\nset logscale x\n"
                "set yrange [0:1.02]\nset key outside right top\n",
            censored ? "\\n(Kaplan-Meier for jobs with games stopped at max_plies: their "
                       "curves end below 1)" : "");
    for (int i = 0; i < overlaid(a); i++)
        length_curve(gp, &a->jobs[i], i);
    fprintf(gp, "plot ");
    for (int i = 0; i < overlaid(a); i++) {
        fprintf(gp, "%s$L%d using 1:2 with steps lw 2 ", i ? ", " : "", i);
        length_line_style(gp, i);
        fprintf(gp, " title ");
        length_title(gp, &a->jobs[i]);
    }
    fprintf(gp, "\n");
}

/* The score-margin distributions: share of finished games by margin. */
static void plot_margins(FILE *gp, const Analysis *a, const char *dir)
{
    gp_begin(gp, dir, "margins", 1100, 500);
    fprintf(gp, "set title 'Score margin, South minus North seeds (share of finished games)'\n"
                "set xlabel 'seeds'\nset ylabel 'share of games'\n");
    for (int i = 0; i < overlaid(a); i++) {
        const JobAnalysis *j = &a->jobs[i];
        fprintf(gp, "$M%d << EOD\n", i);
        for (size_t b = 0; b < j->margins_len; b++)
            if (j->margin.n)
                fprintf(gp, "%lld %g\n", (long long)((int64_t)b + j->margin_origin),
                        (double)j->margins[b] / (double)j->margin.n);
        fprintf(gp, "EOD\n");
    }
    double lo = 0, hi = 0;
    for (int i = 0; i < overlaid(a); i++) {
        if (a->jobs[i].margin.n && a->jobs[i].margin.min < lo)
            lo = a->jobs[i].margin.min;
        if (a->jobs[i].margin.n && a->jobs[i].margin.max > hi)
            hi = a->jobs[i].margin.max;
    }
    fprintf(gp, "set xrange [%g:%g]\nplot ", lo - 1, hi + 1);
    for (int i = 0; i < overlaid(a); i++) {
        fprintf(gp, "%s$M%d using 1:2 with impulses lw 2 title ", i ? ", " : "", i);
        gp_quoted(gp, a->jobs[i].name);
    }
    fprintf(gp, "\n");
}

/* The width of a plot with one column per job: wider for many jobs. */
static int plot_width(const Analysis *a)
{
    return a->njobs > 40 ? 400 + 18 * a->njobs : 1100;
}

/* The x tic labels: one per job, rotated. */
static void job_tics(FILE *gp, const Analysis *a)
{
    if (a->njobs > 20)
        fprintf(gp, "set bmargin 22\nset xtics font ',7'\nset xtics rotate by -90 left (");
    else
        fprintf(gp, "set xtics rotate by -30 left (");
    for (int i = 0; i < a->njobs; i++) {
        fprintf(gp, "%s", i ? ", " : "");
        gp_quoted(gp, a->jobs[i].name);
        fprintf(gp, " %d", i);
    }
    fprintf(gp, ")\nset xrange [-0.5:%d.5]\n", a->njobs - 1);
}

/* The first-player advantage of every job, with its interval, under the job's convention. */
static void plot_advantage(FILE *gp, const Analysis *a, const char *dir)
{
    gp_begin(gp, dir, "advantage", plot_width(a), 560 + (a->njobs > 20) * 120);
    fprintf(gp, "set title 'First-player advantage P(South won) - P(North won), 95%% "
                "intervals'\nset ylabel 'advantage'\nset bmargin 12\nset rmargin 20\n");
    job_tics(gp, a);
    fprintf(gp, "$A << EOD\n");
    for (int i = 0; i < a->njobs; i++) {
        const Estimate *x = &a->jobs[i].advantage;
        fprintf(gp, "%d %g %g %g\n", i, x->value, x->ci.lo, x->ci.hi);
    }
    /* Beside each, the same advantage with the pair (games 2k, 2k+1) as the unit. */
    fprintf(gp, "EOD\n$P << EOD\n");
    for (int i = 0; i < a->njobs; i++) {
        const Estimate *x = &a->jobs[i].pair_advantage.advantage;
        if (!isnan(x->value))
            fprintf(gp, "%g %g %g %g\n", i + 0.2, x->value, x->ci.lo, x->ci.hi);
    }
    fprintf(gp, "EOD\nset xzeroaxis lt -1\nplot $A using 1:2:3:4 with yerrorbars pt 7 ps 1.2 "
                "lw 2 title 'job''s own convention (game unit)', $P using 1:2:3:4 with "
                "yerrorbars pt 5 ps 1 lw 2 title 'pair unit'\n");
}

/* The advantage under each convention re-scored on each job's games. */
static void plot_conventions(FILE *gp, const Analysis *a, const char *dir)
{
    gp_begin(gp, dir, "conventions", plot_width(a), 560 + (a->njobs > 20) * 120);
    fprintf(gp, "set title 'Advantage under each convention, re-scored on the same games "
                "(valid for convention-blind agents)'\nset ylabel 'advantage'\n"
                "set bmargin 12\nset rmargin 20\n");
    job_tics(gp, a);
    for (int c = 0; c < CONV_NB; c++) {
        fprintf(gp, "$C%d << EOD\n", c);
        for (int i = 0; i < a->njobs; i++) {
            const Estimate *x = &a->jobs[i].conv_advantage[c];
            fprintf(gp, "%g %g %g %g\n", i + 0.2 * (c - 1), x->value, x->ci.lo, x->ci.hi);
        }
        fprintf(gp, "EOD\n");
    }
    fprintf(gp, "set xzeroaxis lt -1\nplot ");
    for (int c = 0; c < CONV_NB; c++)
        fprintf(gp, "%s$C%d using 1:2:3:4 with yerrorbars pt 7 lw 2 title '%s'", c ? ", " : "",
                c, conv_names[c]);
    fprintf(gp, "\n");
}

/* The value of a swept parameter of a job, as a number. */
static double sweep_value(const JobAnalysis *j, int p)
{
    const Variant *v = &j->variant;
    switch (p) {
    case VP_HOLES: return v->holes;
    case VP_SEEDS: return v->seeds;
    case VP_CAPTURE: return v->capture;
    case VP_FINAL_FOUR: return (double)v->final_four;
    case VP_EXTRA_TURN: return v->extra_turn;
    case VP_SKIP_ORIGIN: return v->skip_origin;
    default: return (double)v->max_plies;
    }
}

/* Whether job i is the first of its series in a sweep: the first with its agents and its
 * openings (a book job and a start job of the same agents are two series). */
static bool series_first(const Analysis *a, int i)
{
    for (int k = 0; k < i; k++)
        if (analyze_same_setup(&a->jobs[k], &a->jobs[i]))
            return false;
    return true;
}

/* The advantage over one swept parameter, one series per pair of agents and openings. */
static void plot_sweep1(FILE *gp, const Analysis *a, const char *dir)
{
    int p = a->sweep[0];
    gp_begin(gp, dir, "sweep", 1100, 500);
    fprintf(gp, "set title 'First-player advantage over %s, 95%% intervals'\n"
                "set xlabel '%s'\nset ylabel 'advantage'\nset xzeroaxis lt -1\n",
            variant_param_name((VariantParam)p), variant_param_name((VariantParam)p));
    if (p == VP_FINAL_FOUR)
        fprintf(gp, "set xtics ('penultimate' 0, 'first-final' 1, 'lottery' 2)\n"
                    "set xrange [-0.5:2.5]\n");
    int series = 0;
    for (int i = 0; i < a->njobs; i++) {
        if (!series_first(a, i))
            continue;
        fprintf(gp, "$S%d << EOD\n", series++);
        for (int k = i; k < a->njobs; k++) {
            const JobAnalysis *j = &a->jobs[k];
            if (analyze_same_setup(j, &a->jobs[i]))
                fprintf(gp, "%g %g %g %g\n", sweep_value(j, p), j->advantage.value,
                        j->advantage.ci.lo, j->advantage.ci.hi);
        }
        fprintf(gp, "EOD\n");
    }
    fprintf(gp, "plot ");
    for (int s = 0, i = 0; i < a->njobs && s < series; i++) {
        if (!series_first(a, i))
            continue;
        const JobAnalysis *j = &a->jobs[i];
        char title[600];
        snprintf(title, sizeof title, "%s vs %s%s%s", j->agent_a, j->agent_b,
                 strcmp(j->openings_spec, "start") ? ", openings " : "",
                 strcmp(j->openings_spec, "start") ? j->openings_spec : "");
        fprintf(gp, "%s$S%d using 1:2:3:4 with yerrorlines pt 7 lw 2 title ", s ? ", " : "", s);
        gp_quoted(gp, title);
        s++;
    }
    fprintf(gp, "\n");
}

/* The advantage over two swept parameters as a heat map (value printed in each cell). */
static void plot_sweep2(FILE *gp, const Analysis *a, const char *dir)
{
    int px = a->sweep[0], py = a->sweep[1];
    gp_begin(gp, dir, "sweep", 1100, 640);
    fprintf(gp, "set title 'First-player advantage by %s and %s'\nset xlabel '%s'\n"
                "set ylabel '%s'\nset cblabel 'advantage'\nset palette defined (-1 'blue', "
                "0 'white', 1 'red')\nunset key\nset grid front\n",
            variant_param_name((VariantParam)px), variant_param_name((VariantParam)py),
            variant_param_name((VariantParam)px), variant_param_name((VariantParam)py));
    double m = 0.01;
    for (int i = 0; i < a->njobs; i++)
        if (fabs(a->jobs[i].advantage.value) > m)
            m = fabs(a->jobs[i].advantage.value);
    fprintf(gp, "set cbrange [%g:%g]\n$H << EOD\n", -m, m);
    for (int i = 0; i < a->njobs; i++)
        fprintf(gp, "%g %g %g\n", sweep_value(&a->jobs[i], px), sweep_value(&a->jobs[i], py),
                a->jobs[i].advantage.value);
    fprintf(gp, "EOD\nset offsets 0.5, 0.5, 0.5, 0.5\n"
                "plot $H using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder "
                "fc palette z notitle, $H using 1:2:(sprintf('%%.3f', $3)) with labels "
                "font ',8' notitle\n");
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
        for (const char *c = a->jobs[d->rung[r]].agent_a; *c; c++)
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
        for (const char *c = a->jobs[d->rung[r]].agent_a; *c; c++) {
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
    fprintf(gp, "'\nset ylabel 'advantage (points per 100 games)'\nset xtics (");
    for (int r = 0; r < d->nrungs; r++) {
        fprintf(gp, "%s", r ? ", " : "");
        gp_wrapped_label(gp, a->jobs[d->rung[r]].agent_a, &lines);
        fprintf(gp, " %d", r);
    }
    fprintf(gp, ")\nset xrange [-0.5:%d.5]\n", d->nrungs - 1);
    for (int k = 0; k < d->nconv; k++) {
        fprintf(gp, "$K%d_%d << EOD\n", number, k);
        for (int r = 0; r < d->nrungs; r++) {
            int i = d->cell[r * CONV_NB + d->conv[k]];
            const Estimate *x = i < 0 ? NULL : &a->jobs[i].pair_advantage.advantage;
            if (x && !isnan(x->value))
                fprintf(gp, "%g %g %g %g\n", r + 0.12 * (k - (d->nconv - 1) / 2.0),
                        100 * x->value, 100 * x->ci.lo, 100 * x->ci.hi);
        }
        fprintf(gp, "EOD\n");
    }
    fprintf(gp, "plot ");
    for (int k = 0; k < d->nconv; k++)
        fprintf(gp, "%s$K%d_%d using 1:2:3:4 with yerrorlines pt 7 lw 2 lc %d title '%s'",
                k ? ", " : "", number, k, d->conv[k] + 1, conv_names[d->conv[k]]);
    fprintf(gp, "\n");
}

/* The first-player advantage against skill: one panel per design, stacked; each panel's
 * bottom margin fits its wrapped rung labels, and the page is as wide as they need. */
static void plot_skill(FILE *gp, const Analysis *a, const char *dir)
{
    int height = 0, width = 1100;
    for (int d = 0; d < a->nskill; d++) {
        const SkillDesign *s = &a->skill[d];
        height += SKILL_PANEL_HEIGHT + SKILL_LINE_HEIGHT * skill_label_lines(a, s);
        /* wide enough that neighbouring rungs' labels never run into each other */
        int need = SKILL_MARGINS + s->nrungs * (SKILL_CHAR_WIDTH * skill_label_chars(a, s) + 16);
        width = need > width ? need : width;
    }
    gp_begin(gp, dir, "skill", width, height);
    fprintf(gp, "set multiplot\nset xzeroaxis lt -1\nset rmargin 16\n");
    int top = height;
    for (int d = 0; d < a->nskill; d++) {
        int lines = skill_label_lines(a, &a->skill[d]);
        int h = SKILL_PANEL_HEIGHT + SKILL_LINE_HEIGHT * lines;
        fprintf(gp, "set size 1,%g\nset origin 0,%g\nset bmargin %d\n", (double)h / height,
                (double)(top - h) / height, lines + 2);
        plot_skill_design(gp, a, &a->skill[d], d + 1);
        top -= h;
    }
    fprintf(gp, "unset multiplot\n");
}

int report_gnuplot_open(Gnuplot *g, Error *e)
{
    /* gnuplot's stderr goes to a temporary file, so that its several-line messages never
     * reach the terminal: report_gnuplot_close quotes the line that says what failed. */
    g->errors = tmpfile();
    if (!g->errors)
        return error_set(e, "cannot run gnuplot: no temporary file: %s", strerror(errno));
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    if (saved < 0 || dup2(fileno(g->errors), STDERR_FILENO) < 0) {
        int err = errno;
        fclose(g->errors);
        if (saved >= 0)
            close(saved);
        return error_set(e, "cannot run gnuplot: %s", strerror(err));
    }
    g->in = popen("gnuplot", "w");
    int err = errno;
    dup2(saved, STDERR_FILENO);
    close(saved);
    if (!g->in) {
        fclose(g->errors);
        return error_set(e, "cannot run gnuplot: %s", strerror(err));
    }
    return 0;
}

/* The first line of gnuplot's messages that says something (not an echo of the script, not
 * a caret), with runs of spaces squeezed, into buf; "" if none. */
static void gnuplot_complaint(FILE *errors, char *buf, size_t size)
{
    char line[512];
    buf[0] = '\0';
    rewind(errors);
    while (fgets(line, sizeof line, errors)) {
        char *p = line + strspn(line, " \t");
        if (strncmp(p, "gnuplot>", 8) == 0 || strspn(p, "^ \t\r\n") == strlen(p))
            continue;
        size_t n = 0;
        for (; *p && *p != '\n' && n + 1 < size; p++)
            if (!(*p == ' ' && n > 0 && buf[n - 1] == ' ') && (unsigned char)*p >= 0x20)
                buf[n++] = *p;
        buf[n] = '\0';
        return;
    }
}

int report_gnuplot_close(Gnuplot *g, const char *dir, const char *name, Error *e)
{
    int status = pclose(g->in);
    char why[256];
    gnuplot_complaint(g->errors, why, sizeof why);
    fclose(g->errors);
    if (status != 0)
        return error_set(e, "gnuplot failed drawing %s/%s.png (%s %d)%s%s", dir, name,
                         WIFEXITED(status) ? "exit status" : "signal",
                         WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
                         why[0] ? ": " : "", why);
    return 0;
}

/* Run one gnuplot script drawn by draw; -1 when gnuplot failed. */
static int run_gnuplot(void (*draw)(FILE *, const Analysis *, const char *), const Analysis *a,
                       const char *dir, const char *name, Error *e)
{
    Gnuplot g;
    if (report_gnuplot_open(&g, e) != 0)
        return -1;
    draw(g.in, a, dir);
    return report_gnuplot_close(&g, dir, name, e);
}

int report_check_dir(const char *dir, bool force, Error *e)
{
    if (strchr(dir, '\'') || strchr(dir, '\n'))
        return error_set(e, "%s: a report folder's name cannot hold a quote or a newline", dir);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return error_set(e, "%s: cannot create the folder: %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return error_set(e, "%s: not a folder", dir);
    /* Tried with a file, since permissions alone do not tell (root, read-only mounts). */
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/.anywoli-probe-XXXXXX", dir);
    int fd = mkstemp(probe);
    if (fd < 0)
        return error_set(e, "%s: cannot write in the folder: %s", dir, strerror(errno));
    close(fd);
    unlink(probe);
    char page[4200];
    snprintf(page, sizeof page, "%s/index.html", dir);
    if (lstat(page, &st) == 0 && !S_ISREG(st.st_mode))
        return error_set(e, "%s: exists and is not a regular file: not replaced", page);
    if (lstat(page, &st) == 0 && !force)
        return error_set(e, "%s: exists (give --force to replace it)", page);
    return 0;
}

/* mkstemp makes files 0600; the page gets the mode fopen would have given it. */
static void chmod_as_created(const char *path)
{
    mode_t mask = umask(0);
    umask(mask);
    chmod(path, 0666 & ~mask);
}

FILE *report_page_open(const char *dir, char *tmp, size_t size, Error *e)
{
    snprintf(tmp, size, "%s/.index.html.XXXXXX", dir);
    int fd = mkstemp(tmp);
    FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
    if (!out) {
        error_set(e, "%s: cannot write in the folder: %s", dir, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(tmp);
        }
    }
    return out;
}

int report_page_commit(FILE *out, const char *tmp, const char *dir, bool force, int rc, Error *e)
{
    char page[4200];
    snprintf(page, sizeof page, "%s/index.html", dir);
    if (fclose(out) != 0 || rc != 0) {
        unlink(tmp);
        return error_set(e, "%s: writing the page failed", page);
    }
    chmod_as_created(tmp);
    /* Without force, link() fails on an index.html that appeared meanwhile: never replaced. */
    if (force ? rename(tmp, page) != 0 : link(tmp, page) != 0) {
        int err = errno;
        unlink(tmp);
        if (err == EEXIST)
            return error_set(e, "%s: appeared while the report was drawn: left as it is (give "
                             "--force to replace it)", page);
        return error_set(e, "%s: cannot put the page in place: %s", page, strerror(err));
    }
    if (!force)
        unlink(tmp);
    return 0;
}

/* A file's bytes as base64 on out; -1 if it cannot be read. */
static int base64_file(const char *path, FILE *out)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    FILE *in = fopen(path, "rb");
    if (!in)
        return -1;
    unsigned char b[3];
    size_t n;
    while ((n = fread(b, 1, 3, in)) > 0) {
        unsigned long v = (unsigned long)b[0] << 16 | (n > 1 ? (unsigned long)b[1] << 8 : 0) |
                          (n > 2 ? b[2] : 0);
        fputc(digits[v >> 18 & 63], out);
        fputc(digits[v >> 12 & 63], out);
        fputc(n > 1 ? digits[v >> 6 & 63] : '=', out);
        fputc(n > 2 ? digits[v & 63] : '=', out);
    }
    int bad = ferror(in);
    fclose(in);
    return bad ? -1 : 0;
}

void report_html_text(FILE *out, const char *s, size_t len)
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

int report_html_figure(FILE *out, const char *dir, const char *name, const char *caption)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s.png", dir, name);
    fprintf(out, "<figure><img alt=\"%s\" src=\"data:image/png;base64,", name);
    if (base64_file(path, out) != 0)
        return -1;
    fprintf(out, "\"><figcaption>");
    report_html_text(out, caption, strlen(caption));
    fprintf(out, " (also <a href=\"%s.png\">%s.png</a>)</figcaption></figure>\n", name, name);
    return 0;
}

/* The plots of this analysis: name, caption and drawing function. */
typedef struct Plot {
    const char *name, *caption;
    void (*draw)(FILE *, const Analysis *, const char *);
} Plot;

/* Which plots this analysis has; their count. */
static int plots_of(const Analysis *a, Plot *p)
{
    int n = 0;
    p[n++] = (Plot){ "lengths", "Game length distribution of each job, cumulative (first 12 jobs)",
                     plot_lengths };
    p[n++] = (Plot){ "advantage", "First-player advantage per job with 95% intervals",
                     plot_advantage };
    p[n++] = (Plot){ "conventions", "First-player advantage per convention on the same games",
                     plot_conventions };
    p[n++] = (Plot){ "margins", "Score-margin distribution of each job (first 12 jobs)",
                     plot_margins };
    if (a->nsweep == 1)
        p[n++] = (Plot){ "sweep", "First-player advantage over the swept parameter",
                         plot_sweep1 };
    if (a->nsweep == 2 && a->sweep[0] != VP_FINAL_FOUR && a->sweep[1] != VP_FINAL_FOUR)
        p[n++] = (Plot){ "sweep", "First-player advantage over the two swept parameters",
                         plot_sweep2 };
    if (a->nskill > 0)
        p[n++] = (Plot){ "skill", "First-player advantage against skill in self-play, one line "
                         "per convention, one panel per design (openings and variant), 95% "
                         "intervals", plot_skill };
    return n;
}

/* The page: heading, the figures, then the tables as text. */
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
    report_html_text(out, a->path, strlen(a->path));
    fprintf(out, "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1200px}"
                 "pre{font-size:12px;background:#f6f6f6;padding:1em;overflow-x:auto}"
                 "img{max-width:100%%;border:1px solid #ddd}figure{margin:1em 0}"
                 "</style></head><body>\n<h1>Analysis of ");
    report_html_text(out, a->path, strlen(a->path));
    fprintf(out, "</h1>\n<p>%d job(s); every interval is 95%%.</p>\n<h2>Plots</h2>\n",
            a->njobs);
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++)
        rc = report_html_figure(out, dir, p[i].name, p[i].caption);
    fprintf(out, "<h2>Tables</h2>\n<pre>");
    report_html_text(out, tables, len);
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
    Plot plots[8];
    int n = plots_of(a, plots);
    for (int i = 0; i < n; i++)
        if (run_gnuplot(plots[i].draw, a, dir, plots[i].name, e) != 0)
            return -1;
    char tmp[4200];
    FILE *out = report_page_open(dir, tmp, sizeof tmp, e);
    if (!out)
        return -1;
    return report_page_commit(out, tmp, dir, force, write_page(out, a, dir, plots, n), e);
}
