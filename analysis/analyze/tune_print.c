/* tune_print.c: a tuning in a results file as tables, JSON and a report with plots (the
 * tuning part of `anywoli analyze`). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elo.h"
#include "json.h"
#include "report_page.h"
#include "tune.h"
#include "tune_print.h"

#define TABLE_ROWS 25   /* trajectory rows printed at most: every k-th, and the last */


/* Whether row i of n is printed when the table is sampled. */
static bool sampled(int64_t i, int64_t n)
{
    int64_t every = (n + TABLE_ROWS - 2) / (TABLE_ROWS - 1);
    return n <= TABLE_ROWS || i % (every ? every : 1) == 0 || i == n - 1;
}

void tune_verify_print(const TuneVerify *v, const char *name, FILE *out)
{
    const SprtBounds *b = &v->sprt;
    fprintf(out, "  vs %-8s %6lld pairs  +%lld =%lld -%lld  score %.3f  Elo %+.1f [%+.1f, "
            "%+.1f] (pentanomial, %lld pairs)  LOS %.3f (games)\n",
            name, (long long)v->pairs_done, (long long)v->sums.wins, (long long)v->sums.draws,
            (long long)v->sums.losses, v->score, v->elo, v->elo_lo, v->elo_hi,
            (long long)v->pairs_done, v->los);
    fprintf(out, "    SPRT H0 elo %g vs H1 elo %g (alpha %g, beta %g): %s, LLR %.2f [%.2f, %.2f]\n",
            b->elo0, b->elo1, b->alpha, b->beta, sprt_decision_text((SprtDecision)v->decision),
            v->llr, v->llr_lower, v->llr_upper);
    /* A file from before matches stopped on their SPRT records no stop (-1): nothing to say. */
    if (v->stop_pair > 0)
        fprintf(out, "    stopped on its SPRT at pair %lld of %lld; the score, Elo and interval "
                "after a sequential stop are biased (they tend to overstate the difference that stopped it) and are not corrected\n",
                (long long)v->stop_pair, (long long)v->pairs_planned);
    else if (v->stop_pair == 0)
        fprintf(out, "    the SPRT did not stop it: all %lld pairs played\n",
                (long long)v->pairs_done);
}

void tune_print(const TuneData *d, FILE *out)
{
    fprintf(out, "tuning of %s against %s: %lld of %lld iterations of %lld pairs, seed %lld\n",
            d->agent, d->opponent ? d->opponent : "self", (long long)d->nsteps,
            (long long)d->iterations, (long long)d->pairs, (long long)d->seed);
    fprintf(out, "SPSA gains: a %g, c %g, A %g, alpha %g, gamma %g\n\n", d->gains.a, d->gains.c,
            d->gains.A, d->gains.alpha, d->gains.gamma);
    fprintf(out, "%-10s %9s %9s %9s %9s %9s\n", "weight", "start", "min", "max", "step",
            "tuned");
    for (int i = 0; i < d->nweights; i++)
        fprintf(out, "%-10s %9.3f %9.3f %9.3f %9.3f %9.3f\n", d->names[i], d->start[i], d->lo[i],
                d->hi[i], d->step[i], d->tuned[i]);
    fprintf(out, "\ntrajectory%s (theta before each iteration; plus: theta+ games won, drawn, "
            "lost; D: score(theta+) - score(theta-)):\n",
            d->nsteps > TABLE_ROWS ? ", sampled" : "");
    fprintf(out, "%9s %7s %7s", "iteration", "a_k", "c_k");
    for (int i = 0; i < d->nweights; i++)
        fprintf(out, " %10.10s", d->names[i]);
    fprintf(out, " %16s %7s\n", "plus W-D-L", "D");
    for (int64_t k = 0; k < d->nsteps; k++) {
        const TuneStep *s = &d->steps[k];
        if (!sampled(k, d->nsteps))
            continue;
        char wdl[48];
        snprintf(wdl, sizeof wdl, "%lld-%lld-%lld", (long long)s->plus.wins,
                 (long long)s->plus.draws, (long long)s->plus.losses);
        fprintf(out, "%9llu %7.3f %7.3f", (unsigned long long)s->k, s->a_k, s->c_k);
        for (int i = 0; i < d->nweights; i++)
            fprintf(out, " %9.3f%c", s->theta[i], s->delta[i] > 0 ? '+' : '-');
        fprintf(out, " %16s %+7.3f\n", wdl, s->diff);
    }
    if (d->nverify)
        fprintf(out, "\nverification (tuned weights as A: %s):\n",
                d->tuned_spec ? d->tuned_spec : "?");
    for (int i = 0; i < d->nverify; i++) {
        tune_verify_print(&d->verify[i], tune_verify_names[i], out);
        fprintf(out, "    (%s)\n", d->verify[i].opponent);
    }
    if (d->tuned_spec)
        fprintf(out, "\ntuned spec: %s\n", d->tuned_spec);
    else
        fprintf(out, "\n(the tuning has not finished)\n");
}

void tune_json(const TuneData *d, const char *path, FILE *out)
{
    Json j;
    json_init(&j, out);
    json_object_begin(&j);
    json_kv_string(&j, "format", "anywoli-tuning-analysis");
    json_kv_int(&j, "format_version", 1);
    json_kv_string(&j, "file", path);
    json_key(&j, "tuning");
    json_object_begin(&j);
    json_kv_string(&j, "agent", d->agent);
    json_kv_string(&j, "opponent", d->opponent);
    json_kv_int(&j, "seed", d->seed);
    json_kv_int(&j, "iterations", d->iterations);
    json_kv_int(&j, "iterations_done", d->nsteps);
    json_kv_int(&j, "pairs", d->pairs);
    json_key(&j, "gains");
    json_object_begin(&j);
    json_kv_double(&j, "a", d->gains.a);
    json_kv_double(&j, "c", d->gains.c);
    json_kv_double(&j, "A", d->gains.A);
    json_kv_double(&j, "alpha", d->gains.alpha);
    json_kv_double(&j, "gamma", d->gains.gamma);
    json_object_end(&j);
    json_key(&j, "weights");
    json_array_begin(&j);
    for (int i = 0; i < d->nweights; i++) {
        json_object_begin(&j);
        json_kv_string(&j, "name", d->names[i]);
        json_kv_double(&j, "start", d->start[i]);
        json_kv_double(&j, "min", d->lo[i]);
        json_kv_double(&j, "max", d->hi[i]);
        json_kv_double(&j, "step", d->step[i]);
        json_kv_double(&j, "tuned", d->tuned[i]);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "trajectory");
    json_array_begin(&j);
    for (int64_t k = 0; k < d->nsteps; k++) {
        const TuneStep *s = &d->steps[k];
        json_object_begin(&j);
        json_kv_uint(&j, "iteration", s->k);
        json_kv_double(&j, "a_k", s->a_k);
        json_kv_double(&j, "c_k", s->c_k);
        json_key(&j, "theta");
        json_array_begin(&j);
        for (int i = 0; i < d->nweights; i++)
            json_double(&j, s->theta[i]);
        json_array_end(&j);
        json_key(&j, "delta");
        json_array_begin(&j);
        for (int i = 0; i < d->nweights; i++)
            json_int(&j, s->delta[i]);
        json_array_end(&j);
        json_key(&j, "plus");
        json_array_begin(&j);
        json_int(&j, s->plus.wins);
        json_int(&j, s->plus.draws);
        json_int(&j, s->plus.losses);
        json_array_end(&j);
        json_key(&j, "minus");
        json_array_begin(&j);
        json_int(&j, s->minus.wins);
        json_int(&j, s->minus.draws);
        json_int(&j, s->minus.losses);
        json_array_end(&j);
        json_kv_double(&j, "diff", s->diff);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_key(&j, "verification");
    json_array_begin(&j);
    for (int i = 0; i < d->nverify; i++) {
        const TuneVerify *v = &d->verify[i];
        json_object_begin(&j);
        json_kv_string(&j, "against", tune_verify_names[i]);
        json_kv_string(&j, "opponent_spec", v->opponent);
        json_kv_int(&j, "pairs", v->pairs_done);
        /* In a job's words (analyze's agents and pairs): the tuned agent is A. */
        json_kv_int(&j, "a_wins", v->sums.wins);
        json_kv_int(&j, "draws", v->sums.draws);
        json_kv_int(&j, "a_losses", v->sums.losses);
        json_key(&j, "pentanomial");
        json_array_begin(&j);
        for (int p = 0; p < 5; p++)
            json_int(&j, v->sums.pairs[p]);
        json_array_end(&j);
        /* The score's interval is the Elo one's image (it was mapped from the score's). */
        json_kv_estimate(&j, "score", (Estimate){ v->score, { score_from_elo(v->elo_lo),
                                                              score_from_elo(v->elo_hi) } });
        json_kv_estimate(&j, "elo", (Estimate){ v->elo, { v->elo_lo, v->elo_hi } });
        json_kv_double(&j, "los", v->los);
        json_kv_string(&j, "model", "pentanomial");
        json_key(&j, "sprt");
        json_object_begin(&j);
        json_kv_string(&j, "model", "pentanomial");
        json_kv_double(&j, "elo0", v->sprt.elo0);
        json_kv_double(&j, "elo1", v->sprt.elo1);
        json_kv_double(&j, "alpha", v->sprt.alpha);
        json_kv_double(&j, "beta", v->sprt.beta);
        json_kv_double(&j, "llr", v->llr);
        json_kv_double(&j, "lower", v->llr_lower);
        json_kv_double(&j, "upper", v->llr_upper);
        json_kv_string(&j, "decision", sprt_decision_key((SprtDecision)v->decision));
        /* Whether the match stopped on this SPRT, at which pair (from 1) of how many planned
         * (null: a file from before matches stopped); its estimates are then biased. */
        json_key(&j, "stopped");
        if (v->stop_pair < 0)
            json_null(&j);
        else
            json_bool(&j, v->stop_pair > 0);
        json_key(&j, "stop_pair");
        if (v->stop_pair > 0)
            json_int(&j, v->stop_pair);
        else
            json_null(&j);
        json_key(&j, "pairs_planned");
        if (v->pairs_planned >= 0)
            json_int(&j, v->pairs_planned);
        else
            json_null(&j);
        json_object_end(&j);
        json_object_end(&j);
    }
    json_array_end(&j);
    json_kv_string(&j, "tuned_spec", d->tuned_spec);
    json_object_end(&j);
    json_object_end(&j);
    json_finish(&j);
}

/* Each weight over the iterations, one panel per weight (the range it went through, a step
 * either side), with its start dotted and its bounds dashed when in view. */
static void plot_weights(FILE *gp, const TuneData *d, const char *dir)
{
    int rows = (d->nweights + 1) / 2;
    fprintf(gp, "set terminal pngcairo size 1000,%d font 'sans,10' noenhanced\n", 260 * rows);
    fprintf(gp, "set output '%s/tuning_weights.png'\nset grid\nunset key\n", dir);
    fprintf(gp, "$theta << EOD\n");
    for (int64_t k = 0; k < d->nsteps; k++) {
        fprintf(gp, "%llu", (unsigned long long)d->steps[k].k);
        for (int i = 0; i < d->nweights; i++)
            fprintf(gp, " %.9g", d->steps[k].theta[i]);
        fprintf(gp, "\n");
    }
    fprintf(gp, "%lld", (long long)d->nsteps);
    for (int i = 0; i < d->nweights; i++)
        fprintf(gp, " %.9g", d->tuned[i]);
    fprintf(gp, "\nEOD\nset multiplot layout %d,%d\n", rows, d->nweights > 1 ? 2 : 1);
    for (int i = 0; i < d->nweights; i++) {
        /* The range the weight went through, a step either side, within its bounds. */
        double lo = d->tuned[i], hi = d->tuned[i];
        for (int64_t k = 0; k < d->nsteps; k++) {
            lo = fmin(lo, d->steps[k].theta[i]);
            hi = fmax(hi, d->steps[k].theta[i]);
        }
        lo = fmax(d->lo[i], lo - d->step[i]);
        hi = fmin(d->hi[i], hi + d->step[i]);
        fprintf(gp, "set title 'w.%s'\nset xlabel 'iteration'\nset yrange [%g:%g]\n",
                d->names[i], lo - 0.02 * (hi - lo), hi + 0.02 * (hi - lo));
        fprintf(gp, "plot $theta using 1:%d with lines lw 2, %g dt 2 lc 'gray', %g dt 2 "
                "lc 'gray', %g dt 3 lc 'black'\n", i + 2, d->lo[i], d->hi[i], d->start[i]);
    }
    fprintf(gp, "unset multiplot\n");
}

/* The verification matches: Elo with its 95% interval, and the per-iteration score
 * difference D (a moving average of 20 iterations). */
static void plot_matches(FILE *gp, const TuneData *d, const char *dir)
{
    fprintf(gp, "set terminal pngcairo size 1000,360 font 'sans,10' noenhanced\n");
    fprintf(gp, "set output '%s/tuning_matches.png'\nset grid\nset multiplot layout 1,2\n", dir);
    fprintf(gp, "set title 'verification: Elo of the tuned weights (95%% interval)'\n"
                "unset key\nset xrange [-0.5:%d]\nset xtics (", d->nverify ? d->nverify - 0.5 > 0
                                                                    ? d->nverify : 1 : 1);
    for (int i = 0; i < d->nverify; i++)
        fprintf(gp, "%s'vs %s' %d", i ? ", " : "", tune_verify_names[i], i);
    fprintf(gp, ")\n$elo << EOD\n");
    for (int i = 0; i < d->nverify; i++)
        fprintf(gp, "%d %.6g %.6g %.6g\n", i, d->verify[i].elo,
                isfinite(d->verify[i].elo_lo) ? d->verify[i].elo_lo : -1000.0,
                isfinite(d->verify[i].elo_hi) ? d->verify[i].elo_hi : 1000.0);
    fprintf(gp, "EOD\nset ylabel 'Elo'\n");
    if (d->nverify)
        fprintf(gp, "plot $elo using 1:2:3:4 with yerrorbars pt 7 ps 1.5 lw 2, 0 lc 'gray'\n");
    else
        fprintf(gp, "plot 0 lc 'gray'\n");
    fprintf(gp, "set title 'score difference D per iteration (moving mean of 20)'\n"
                "set autoscale x\nset xtics autofreq\nset ylabel 'D'\nset xlabel 'iteration'\n"
                "$d << EOD\n");
    double window[20] = { 0 }, sum = 0.0;
    for (int64_t k = 0; k < d->nsteps; k++) {
        sum += d->steps[k].diff - window[k % 20];
        window[k % 20] = d->steps[k].diff;
        fprintf(gp, "%lld %.6g %.6g\n", (long long)k, d->steps[k].diff,
                sum / (double)(k + 1 < 20 ? k + 1 : 20));
    }
    fprintf(gp, "EOD\nplot $d using 1:2 with points pt 7 ps 0.3 lc 'gray', $d using 1:3 with "
                "lines lw 2\nunset multiplot\n");
}

/* Run one gnuplot script drawn by draw into the stage, and move its plot in place; -1 when
 * gnuplot failed. */
static int run_gnuplot(void (*draw)(FILE *, const TuneData *, const char *), const TuneData *d,
                       const ReportStage *stage, const char *name, Error *e)
{
    Gnuplot g;
    if (report_gnuplot_open(&g, e) != 0)
        return -1;
    draw(g.in, d, stage->dir);
    return report_gnuplot_close(&g, stage, name, e);
}

/* The page of the tuning report, its plots drawn and in place: written in the stage, then
 * put in place. */
static int write_page(const TuneData *d, const char *path, const ReportStage *stage, bool force,
                      Error *e)
{
    const char *dir = stage->final;
    char *tables = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&tables, &len);
    if (!mem)
        return error_set(e, "out of memory");
    tune_print(d, mem);
    fclose(mem);
    FILE *out = report_page_open(stage, e);
    if (!out) {
        free(tables);
        return -1;
    }
    fprintf(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                 "<title>anywoli tuning: ");
    markup_text(out, path, strlen(path));
    fprintf(out, "</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1200px}"
                 "pre{font-size:12px;background:#f6f6f6;padding:1em;overflow-x:auto}"
                 "img{max-width:100%%;border:1px solid #ddd}</style></head><body>\n"
                 "<h1>Tuning in ");
    markup_text(out, path, strlen(path));
    fprintf(out, "</h1>\n<h2>Plots</h2>\n");
    if (report_html_figure(out, stage->dir, "tuning_weights", "Each tuned weight over the iterations "
                           "(dotted: its start; dashed: its bounds).") != 0 ||
        report_html_figure(out, stage->dir, "tuning_matches", "The verification matches, and the "
                           "score difference of each iteration.") != 0) {
        free(tables);
        report_page_commit(out, stage, force, -1, e);
        return error_set(e, "%s: cannot read the plots gnuplot drew", dir);
    }
    fprintf(out, "<h2>Tables</h2>\n<pre>");
    markup_text(out, tables, len);
    fprintf(out, "</pre>\n</body></html>\n");
    free(tables);
    return report_page_commit(out, stage, force, 0, e);
}

int tune_report(const TuneData *d, const char *path, const char *dir, bool force, Error *e)
{
    ReportStage stage;
    if (report_check_dir(dir, force, e) != 0 || report_stage_open(&stage, dir, e) != 0)
        return -1;
    int rc = run_gnuplot(plot_weights, d, &stage, "tuning_weights", e);
    if (rc == 0)
        rc = run_gnuplot(plot_matches, d, &stage, "tuning_matches", e);
    if (rc == 0)
        rc = write_page(d, path, &stage, force, e);
    report_stage_close(&stage);
    return rc;
}
