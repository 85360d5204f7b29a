/* analyze_json.c: an Analysis as one JSON document (keys documented in docs/analyze.md). */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>

#include "analyze.h"
#include "json.h"

/* key: { count, rate, lo, hi }. */
static void kv_rate(Json *j, const char *key, uint64_t count, Estimate rate)
{
    json_key(j, key);
    json_object_begin(j);
    json_kv_uint(j, "count", count);
    json_kv_double(j, "rate", rate.value);
    json_kv_double(j, "lo", rate.ci.lo);
    json_kv_double(j, "hi", rate.ci.hi);
    json_object_end(j);
}

/* The variant's parameters under their docs/rules.md names. */
static void write_variant(Json *j, const Variant *v)
{
    json_key(j, "variant");
    json_object_begin(j);
    for (int p = 0; p < VP_NB; p++) {   /* numbers, yes/no as 1/0, the convention by name */
        int64_t x = variant_get(v, p);
        if (variant_params[p].kind == VK_CONVENTION)
            json_kv_string(j, variant_params[p].name, final_four_name((FinalFour)x));
        else
            json_kv_int(j, variant_params[p].name, x);
    }
    json_object_end(j);
}

/* The outcome counts and rates, keyed by the outcomes' words (outcome_name). */
static void write_outcomes(Json *j, const JobAnalysis *x)
{
    json_key(j, "outcomes");
    json_object_begin(j);
    kv_rate(j, outcome_name(OUT_SOUTH), x->all.south, x->rate[0]);
    kv_rate(j, outcome_name(OUT_NORTH), x->all.north, x->rate[1]);
    kv_rate(j, outcome_name(OUT_DRAW), x->all.draw, x->rate[2]);
    json_kv_uint(j, "finished", outcomes_finished(&x->all));
    kv_rate(j, outcome_name(OUT_ENDLESS), x->all.endless, x->endless_rate);
    kv_rate(j, outcome_name(OUT_UNFINISHED), x->all.unfinished, x->unfinished_rate);
    json_kv_uint(j, "total", outcomes_total(&x->all));
    json_object_end(j);
}

/* An advantage over some games: counts, estimate (with the job's unit) and its test's p
 * under key p_key (the exact binomial over games, the t test over pairs or openings). */
static void kv_advantage(Json *j, const char *key, const Outcomes *o, Estimate adv, double p,
                         const char *p_key)
{
    json_key(j, key);
    json_object_begin(j);
    json_kv_uint(j, "finished", outcomes_finished(o));
    json_kv_uint(j, outcome_name(OUT_SOUTH), o->south);
    json_kv_uint(j, outcome_name(OUT_NORTH), o->north);
    json_kv_uint(j, outcome_name(OUT_DRAW), o->draw);
    json_estimate_members(j, adv);
    json_kv_double(j, p_key, p);
    json_object_end(j);
}

/* The test of an advantage with the job's unit: its key. */
static const char *advantage_test_key(const JobAnalysis *x)
{
    return x->unit == UNIT_GAME ? "p_binomial" : "p_t";
}

/* The unit every interval and test of the job is over (analyze.h's DesignUnit). */
static void write_unit(Json *j, const JobAnalysis *x)
{
    json_key(j, "unit");
    json_object_begin(j);
    json_kv_string(j, "name", design_unit_name(x->unit));
    json_kv_uint(j, "units", x->units);
    json_key(j, "share_design_effects");
    json_object_begin(j);
    json_kv_double(j, outcome_name(OUT_SOUTH), x->share_deff[0]);
    json_kv_double(j, outcome_name(OUT_NORTH), x->share_deff[1]);
    json_kv_double(j, outcome_name(OUT_DRAW), x->share_deff[2]);
    json_object_end(j);
    json_kv_double(j, "design_effect_bound", x->deff_bound);
    json_object_end(j);
}

/* The colour split and the colour-balanced advantage (null with one agent). */
static void write_colours(Json *j, const JobAnalysis *x)
{
    json_key(j, "colour_split");
    if (!x->two_agents) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    kv_advantage(j, "a_south", &x->by_south[0], x->split_advantage[0], x->split_p[0],
                 "p_binomial");
    kv_advantage(j, "a_north", &x->by_south[1], x->split_advantage[1], x->split_p[1],
                 "p_binomial");
    json_kv_estimate(j, "balanced", x->balanced);
    json_object_end(j);
}

/* One McNemar test's counts and p-value. */
static void kv_paired(Json *j, const char *key, const PairedTest *t, bool independent)
{
    json_key(j, key);
    json_object_begin(j);
    json_kv_uint(j, "only_first", t->only_first);
    json_kv_uint(j, "only_second", t->only_second);
    json_kv_double(j, "p", independent ? t->p_value : NAN);
    json_object_end(j);
}

/* An advantage with the unit its interval is over (the pairs' advantage, pairs.advantage's
 * keys). */
static void kv_unit_advantage(Json *j, const char *key, const PairAdvantage *p)
{
    json_key(j, key);
    json_object_begin(j);
    json_kv_double(j, "value", p->advantage.value);
    json_kv_double(j, "lo", p->advantage.ci.lo);
    json_kv_double(j, "hi", p->advantage.ci.hi);
    json_kv_string(j, "unit", p->units.unit == PAIR_UNIT_OPENING ? "opening" : "pair");
    json_kv_uint(j, "units", p->units.units);
    json_kv_bool(j, "degenerate", p->degenerate);
    json_object_end(j);
}

/* The McNemar tests of each pair of conventions (p null where the games are not
 * independent). */
static void write_mcnemar(Json *j, const JobAnalysis *x)
{
    json_key(j, "mcnemar");
    json_array_begin(j);
    for (int q = 0; q < CONV_PAIRS_NB; q++) {
        int c1, c2;
        conv_pair(q, &c1, &c2);
        json_object_begin(j);
        json_kv_string(j, "first", conv_name(c1));
        json_kv_string(j, "second", conv_name(c2));
        kv_paired(j, "south_won", &x->mc_south[q], x->games_independent);
        kv_paired(j, "north_won", &x->mc_north[q], x->games_independent);
        json_object_end(j);
    }
    json_array_end(j);
}

/* The conventions re-scored on the same games. */
static void write_conventions(Json *j, const JobAnalysis *x)
{
    json_key(j, "conventions");
    json_object_begin(j);
    json_kv_string(j, "job_convention", final_four_name(x->variant.final_four));
    json_kv_bool(j, "agents_blind", x->blind_a && x->blind_b);
    json_kv_string(j, "note", "holds for agents that do not look at the convention (random); "
                              "alphabeta, mcts and greedy see it through the award");
    for (int c = 0; c < CONV_NB; c++) {
        json_key(j, conv_name(c));
        json_object_begin(j);
        kv_rate(j, outcome_name(OUT_SOUTH), x->conv[c].south, x->conv_rate[c][0]);
        kv_rate(j, outcome_name(OUT_NORTH), x->conv[c].north, x->conv_rate[c][1]);
        kv_rate(j, outcome_name(OUT_DRAW), x->conv[c].draw, x->conv_rate[c][2]);
        json_kv_estimate(j, "advantage", x->conv_advantage[c]);
        kv_unit_advantage(j, "advantage_unit", &x->conv_pair_advantage[c]);
        json_kv_double(j, advantage_test_key(x), x->conv_advantage_p[c]);
        json_object_end(j);
    }
    write_mcnemar(j, x);
    json_object_end(j);
}

/* A distribution summary's members. */
static void summary_members(Json *j, const HistSummary *s)
{
    json_kv_uint(j, "n", s->n);
    json_kv_double(j, "mean", s->mean);
    json_kv_double(j, "sd", s->sd);
    json_kv_double(j, "min", s->min);
    json_kv_double(j, "p5", s->p5);
    json_kv_double(j, "p25", s->p25);
    json_kv_double(j, "median", s->median);
    json_kv_double(j, "p75", s->p75);
    json_kv_double(j, "p95", s->p95);
    json_kv_double(j, "p99", s->p99);
    json_kv_double(j, "max", s->max);
}

/* A distribution summary as an object under key. */
static void kv_summary(Json *j, const char *key, const HistSummary *s)
{
    json_key(j, key);
    json_object_begin(j);
    summary_members(j, s);
    json_object_end(j);
}

/* The lengths' summary with its censoring: with games stopped at max_plies, the Kaplan-Meier
 * figures (a quantile not reached is null) and the restricted mean. */
static void write_length(Json *j, const JobAnalysis *x)
{
    json_key(j, "length");
    json_object_begin(j);
    summary_members(j, &x->length);
    json_kv_uint(j, "censored", x->censored);
    json_kv_string(j, "estimator", x->censored ? "kaplan-meier" : "empirical");
    json_kv_string(j, "mean_kind", x->censored ? "restricted_to_max_plies" : "mean");
    json_object_end(j);
}

/* A sequential test's members: the hypotheses and error rates asked for, its state. */
static void sprt_members(Json *j, const AnalyzeOptions *o, const Sprt *t)
{
    json_kv_double(j, "elo0", o->elo0);
    json_kv_double(j, "elo1", o->elo1);
    json_kv_double(j, "alpha", o->alpha);
    json_kv_double(j, "beta", o->beta);
    json_kv_double(j, "llr", t->llr);
    json_kv_double(j, "lower", t->lower);
    json_kv_double(j, "upper", t->upper);
    json_kv_string(j, "decision", sprt_decision_key(t->decision));
}

/* The sequential test's result (null when not asked for). */
static void write_sprt(Json *j, const Analysis *a, const JobAnalysis *x)
{
    json_key(j, "sprt");
    if (!a->opt.sprt) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    sprt_members(j, &a->opt, &x->sprt);
    json_object_end(j);
}

/* Agent A's match against B. */
static void write_agents(Json *j, const Analysis *a, const JobAnalysis *x)
{
    json_key(j, "agents");
    json_object_begin(j);
    json_kv_uint(j, "a_wins", x->a_wins);
    json_kv_uint(j, "draws", x->a_draws);
    json_kv_uint(j, "a_losses", x->a_losses);
    json_kv_estimate(j, "score", (Estimate){ x->elo.score, x->elo.score_ci });
    json_kv_estimate(j, "elo", (Estimate){ x->elo.elo, x->elo.elo_ci });
    json_kv_double(j, "los", x->elo.los);
    write_sprt(j, a, x);
    json_object_end(j);
}

/* The pentanomial GSPRT (null when not asked for). */
static void write_pair_sprt(Json *j, const Analysis *a, const JobAnalysis *x)
{
    json_key(j, "sprt");
    if (!a->opt.sprt) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_kv_string(j, "model", "pentanomial");
    sprt_members(j, &a->opt, &x->sprt_pairs);
    json_kv_bool(j, "assumes_independent_pairs", true);
    json_kv_bool(j, "pairs_repeat_openings", x->pairs.units.unit == PAIR_UNIT_OPENING);
    json_object_end(j);
}

/* The units of a pair statistic: unit ("pair" or "opening"), units, pairs per unit. */
static void units_members(Json *j, const PairUnits *u)
{
    json_kv_string(j, "unit", u->unit == PAIR_UNIT_OPENING ? "opening" : "pair");
    json_kv_uint(j, "units", u->units);
    json_kv_uint(j, "pairs_per_unit_min", u->fewest);
    json_kv_uint(j, "pairs_per_unit_max", u->most);
}

/* The games as pairs (2k, 2k+1): pentanomial counts, A's score and Elo over the pairs, the
 * SPRT on them, and the first-player advantage with the pair as unit. */
static void write_pairs(Json *j, const Analysis *a, const JobAnalysis *x)
{
    json_key(j, "pairs");
    json_object_begin(j);
    json_kv_uint(j, "pairs", x->pairs.pairs);
    json_kv_uint(j, "left_out_unfinished", x->tally.unfinished);
    json_kv_bool(j, "unpaired_game", x->unpaired_game);
    json_key(j, "pentanomial");
    json_array_begin(j);
    for (int i = 0; i < PENTA_NB; i++)
        json_uint(j, x->tally.penta[i]);
    json_array_end(j);
    json_key(j, "score");
    json_object_begin(j);
    json_estimate_members(j, (Estimate){ x->pairs.score, x->pairs.score_ci });
    json_kv_double(j, "se", x->pairs.se);
    units_members(j, &x->pairs.units);
    json_object_end(j);
    json_kv_estimate(j, "elo", (Estimate){ x->pairs.elo, x->pairs.elo_ci });
    write_pair_sprt(j, a, x);
    json_key(j, "advantage");
    json_object_begin(j);
    json_kv_uint(j, "pairs", x->pair_advantage.pairs);
    json_estimate_members(j, x->pair_advantage.advantage);
    json_kv_double(j, "sd", x->pair_advantage.sd);
    json_kv_bool(j, "degenerate", x->pair_advantage.degenerate);
    units_members(j, &x->pair_advantage.units);
    json_object_end(j);
    json_object_end(j);
}

/* The distinct games by moves_hash (null when the file has no such column). */
static void write_distinct(Json *j, const JobAnalysis *x)
{
    const DistinctGames *d = &x->distinct;
    json_key(j, "distinct_games");
    if (!x->has_distinct) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_kv_uint(j, "games", d->games);
    json_kv_uint(j, "distinct", d->distinct);
    json_kv_uint(j, "most_repeated", d->most_repeated);
    json_kv_double(j, "effective_games", d->effective);
    json_kv_double(j, "too_narrow_by", d->games ? sqrt((double)d->games / d->effective) : NAN);
    json_kv_bool(j, "independent", !distinct_games_few(d));
    json_object_end(j);
}

/* The distinct lines by line_hash (null when the file has no such column). */
static void write_lines(Json *j, const JobAnalysis *x)
{
    const DistinctGames *d = &x->lines;
    json_key(j, "distinct_lines");
    if (!x->has_lines) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_kv_int(j, "plies", LINE_PLIES);
    json_kv_uint(j, "games", d->games);
    json_kv_uint(j, "distinct", d->distinct);
    json_kv_double(j, "top_share", distinct_top_share(d));
    json_kv_double(j, "top_share_in_colour", x->lines_colour_share);
    json_kv_bool(j, "few", x->lines_few);
    json_object_end(j);
}

/* The distinct openings (null when the file has no opening column). */
static void write_openings(Json *j, const JobAnalysis *x)
{
    json_key(j, "distinct_openings");
    if (!x->has_openings) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_kv_uint(j, "games_with_opening", x->openings.games);
    json_kv_uint(j, "distinct", x->openings.distinct);
    json_object_end(j);
}

/* One agent's work: its sums and the mean per move (null when it chose no move). */
static void write_agent_work(Json *j, const char *key, const JobAnalysis *x, int side)
{
    json_key(j, key);
    json_object_begin(j);
    json_kv_uint(j, "work", x->work[side]);
    json_kv_uint(j, "moves", x->choices[side]);
    json_key(j, "per_move");
    if (x->choices[side] == 0)
        json_null(j);
    else
        json_double(j, (double)x->work[side] / (double)x->choices[side]);
    json_object_end(j);
}

/* The agents' work (null when the file has no nodes and choices columns). */
static void write_work(Json *j, const JobAnalysis *x)
{
    json_key(j, "work");
    if (!x->has_work) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    write_agent_work(j, "a", x, 0);
    write_agent_work(j, "b", x, 1);
    json_object_end(j);
}

/* The Ludii-style metrics. */
static void write_metrics(Json *j, const GameMetrics *m)
{
    json_key(j, "metrics");
    json_object_begin(j);
    for (int r = 0; r < metric_row_count; r++)
        json_kv_estimate(j, metric_rows[r].key, metric_value(m, r));
    json_key(j, "duration");
    json_object_begin(j);
    json_estimate_members(j, m->duration);
    json_kv_double(j, "sd", m->duration_sd);
    json_object_end(j);
    json_object_end(j);
}

/* A text value, or null when not known. */
static void kv_text_or_null(Json *j, const char *key, const char *text)
{
    json_key(j, key);
    if (text)
        json_string(j, text);
    else
        json_null(j);
}

/* A line's moves: `moves`, hole indices from 0 (as `anywoli move` and the protocol take
 * them), and `names`, as people read them (S5, N5). */
static void kv_line_moves(Json *j, const Variant *v, const RootLine *l)
{
    json_key(j, "moves");
    json_array_begin(j);
    for (int k = 0; k < l->n_moves; k++)
        json_int(j, l->moves[k]);
    json_array_end(j);
    json_key(j, "names");
    json_array_begin(j);
    for (int k = 0; k < l->n_moves; k++) {
        char h[HOLE_NAME_MAX];
        hole_name(v, l->moves[k], h);
        json_string(j, h);
    }
    json_array_end(j);
}

/* One line of the root design: its moves and who played each, its pairs by half (the
 * sums an independent check needs) and its estimate. */
static void write_root_line(Json *j, const Variant *v, const RootLine *l)
{
    json_object_begin(j);
    json_kv_int(j, "opening", l->opening);
    kv_line_moves(j, v, l);
    json_key(j, "movers");
    json_array_begin(j);
    for (int k = 0; k < l->n_moves; k++)
        json_string(j, l->mover[k] == SOUTH ? "south" : "north");
    json_array_end(j);
    json_kv_uint(j, "pairs", l->pairs);
    json_kv_estimate(j, "advantage", l->advantage);
    json_kv_bool(j, "degenerate", l->degenerate);
    json_key(j, "halves");
    json_array_begin(j);
    for (int f = 0; f < ROOT_FOLDS; f++) {
        json_object_begin(j);
        json_kv_uint(j, "pairs", l->fold[f].n);
        json_kv_double(j, "sum", l->fold[f].sum);
        json_kv_double(j, "sum_squares", l->fold[f].sumsq);
        json_object_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

/* A line index, or null for none. */
static void json_line(Json *j, int line)
{
    if (line < 0)
        json_null(j);
    else
        json_int(j, line);
}

/* key: a line index, or null. */
static void kv_line(Json *j, const char *key, int line)
{
    json_key(j, key);
    json_line(j, line);
}

/* The root design of a self-play job from all:N (null for any other job). */
static void write_root(Json *j, const JobAnalysis *x)
{
    json_key(j, "root");
    if (!x->has_root) {
        json_null(j);
        return;
    }
    const RootAnalysis *r = &x->root;
    json_object_begin(j);
    json_key(j, "lines");
    json_array_begin(j);
    for (int i = 0; i < r->nlines; i++)
        write_root_line(j, &x->variant, &r->lines[i]);
    json_array_end(j);
    json_key(j, "first_moves");
    json_array_begin(j);
    for (int k = 0; k < r->nfirst; k++) {
        json_object_begin(j);
        json_kv_int(j, "move", r->first[k].move);
        kv_line(j, "line", r->first[k].line);
        json_kv_estimate(j, "advantage", r->first[k].advantage);
        json_object_end(j);
    }
    json_array_end(j);
    json_key(j, "naive");
    json_object_begin(j);
    kv_line(j, "line", r->naive_line);
    json_kv_estimate(j, "advantage", r->naive);
    json_object_end(j);
    json_key(j, "held_out");
    json_object_begin(j);
    json_key(j, "lines");
    json_array_begin(j);
    for (int f = 0; f < ROOT_FOLDS; f++)
        json_line(j, r->held_line[f]);
    json_array_end(j);
    json_kv_estimate(j, "advantage", r->held_out);
    json_kv_double(j, "se", r->held_out_se);
    json_kv_bool(j, "degenerate", r->held_out_degenerate);
    json_kv_bool(j, "same_choice", r->same_choice);
    json_object_end(j);
    json_key(j, "minimax");
    json_object_begin(j);
    json_kv_double(j, "lo", r->minimax.lo);
    json_kv_double(j, "hi", r->minimax.hi);
    json_key(j, "lines");
    json_array_begin(j);
    for (int s = 0; s < 2; s++)
        json_line(j, r->minimax_line[s]);
    json_array_end(j);
    json_key(j, "union_lines");
    json_array_begin(j);
    for (int s = 0; s < 2; s++)
        json_int(j, r->minimax_lines[s]);
    json_array_end(j);
    json_key(j, "levels");
    json_array_begin(j);
    for (int s = 0; s < 2; s++)
        json_double(j, r->minimax_level[s]);
    json_array_end(j);
    json_object_end(j);
    json_object_end(j);
}

/* The adaptive root design the job ran with (null without one): its rule, each line's pairs,
 * mean, interval and the round it went out (null: in), each round's first pair and lines
 * in, the root's value and interval, and why it stopped. */
static void write_race(Json *j, const JobAnalysis *x)
{
    json_key(j, "root_design");
    if (!x->has_race) {
        json_null(j);
        return;
    }
    const RootRace *r = &x->race;
    json_object_begin(j);
    json_kv_int(j, "round_pairs", r->rule.round_pairs);
    json_kv_double(j, "halfwidth", r->rule.halfwidth);
    json_kv_double(j, "confidence", r->rule.confidence);
    json_key(j, "lines");
    json_array_begin(j);
    for (int i = 0; i < r->nlines; i++) {
        json_object_begin(j);
        kv_line_moves(j, &x->variant, &r->lines[i]);
        json_kv_uint(j, "pairs", r->sum[i].n);
        json_kv_double(j, "mean", r->sum[i].n ? r->sum[i].sum / (double)r->sum[i].n : NAN);
        json_kv_double(j, "lo", r->ci[i].lo);
        json_kv_double(j, "hi", r->ci[i].hi);
        kv_line(j, "out_round", r->out_round[i]);
        json_object_end(j);
    }
    json_array_end(j);
    json_key(j, "rounds");
    json_array_begin(j);
    for (int k = 0; k <= r->round; k++) {
        json_object_begin(j);
        json_kv_int(j, "first_pair", r->round_first[k]);
        json_kv_int(j, "lines", r->round_lines[k]);
        json_object_end(j);
    }
    json_array_end(j);
    kv_line(j, "best_line", r->best);
    Estimate root = analyze_race_answer(x);
    json_kv_double(j, "value", root.value);
    json_kv_double(j, "lo", r->root.lo);
    json_kv_double(j, "hi", r->root.hi);
    json_kv_int(j, "pairs", r->next_pair);
    json_kv_string(j, "stopped", analyze_race_end_text(x));
    json_object_end(j);
}

/* The sequential test the job ran with (null without one): its bounds, its state at the
 * end, where it stopped the job, and that the estimates are not corrected for the stop. */
static void write_sequential(Json *j, const JobAnalysis *x)
{
    const StoredTest *t = &x->seq;
    json_key(j, "sequential_test");
    if (!t->has) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_kv_double(j, "elo0", t->bounds.elo0);
    json_kv_double(j, "elo1", t->bounds.elo1);
    json_kv_double(j, "alpha", t->bounds.alpha);
    json_kv_double(j, "beta", t->bounds.beta);
    json_kv_int(j, "min_pairs", SPRT_MIN_PAIRS);
    json_kv_double(j, "llr", t->ended ? t->test.llr : NAN);
    json_kv_double(j, "lower", t->ended ? t->test.lower : NAN);
    json_kv_double(j, "upper", t->ended ? t->test.upper : NAN);
    json_kv_string(j, "decision", t->ended ? sprt_decision_key(t->test.decision) : "continue");
    json_kv_bool(j, "stopped", t->stopped);
    json_key(j, "stop_pair");
    if (t->stopped)
        json_int(j, t->stop_pair);
    else
        json_null(j);
    json_kv_bool(j, "estimates_corrected", false);
    json_object_end(j);
}

/* One job. */
static void write_job(Json *j, const Analysis *a, const JobAnalysis *x)
{
    json_object_begin(j);
    json_kv_string(j, "name", x->name);
    json_kv_string(j, "agent_a", x->agent_a);
    json_kv_string(j, "agent_b", x->agent_b);
    json_kv_string(j, "openings", x->openings_spec);
    kv_text_or_null(j, "agent_a_played", x->played_a);
    kv_text_or_null(j, "agent_b_played", x->played_b);
    json_kv_string(j, "agent_a_label", x->label_a);
    json_kv_string(j, "agent_b_label", x->label_b);
    write_variant(j, &x->variant);
    json_kv_int(j, "games_planned", x->games_planned);
    json_kv_uint(j, "games", x->rows);
    write_sequential(j, x);
    json_kv_bool(j, "two_agents", x->two_agents);
    json_kv_bool(j, "games_independent", x->games_independent);
    json_kv_bool(j, "agent_a_blind", x->blind_a);
    json_kv_bool(j, "agent_b_blind", x->blind_b);
    json_kv_uint(j, "inconsistent_rows", x->inconsistent);
    if (x->adjudicate)   /* only then: every other job's JSON is as it was */
        json_kv_uint(j, "adjudicated_games", x->adjudicated);
    write_outcomes(j, x);
    write_unit(j, x);
    kv_advantage(j, "advantage", &x->all, x->advantage, x->advantage_p, advantage_test_key(x));
    write_colours(j, x);
    write_conventions(j, x);
    write_length(j, x);
    json_kv_bool(j, "length_from_stored_histogram", x->stored_histogram);
    kv_summary(j, "margin", &x->margin);
    write_agents(j, a, x);
    write_pairs(j, a, x);
    write_distinct(j, x);
    write_lines(j, x);
    write_openings(j, x);
    write_root(j, x);
    write_race(j, x);
    write_metrics(j, &x->metrics);
    write_work(j, x);
    json_object_end(j);
}

/* A test's statistic, df, p and Holm-adjusted p. */
static void kv_test(Json *j, const char *key, TestResult t, double holm)
{
    json_key(j, key);
    json_object_begin(j);
    json_kv_double(j, "statistic", t.statistic);
    json_kv_double(j, "df", t.df);
    json_kv_double(j, "p", t.p_value);
    json_kv_double(j, "p_holm", holm);
    json_object_end(j);
}

/* The log-rank test of a pair's lengths (null unless a job has censored games). */
static void write_log_rank(Json *j, const JobPair *q)
{
    json_key(j, "log_rank_lengths");
    if (!q->lengths_censored) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    json_kv_string(j, "test", "log-rank");
    json_kv_double(j, "observed_first", q->log_rank.observed);
    json_kv_double(j, "expected_first", q->log_rank.expected);
    json_kv_double(j, "variance", q->log_rank.variance);
    json_kv_double(j, "statistic", q->log_rank.chi.statistic);
    json_kv_double(j, "df", q->log_rank.chi.df);
    json_kv_double(j, "p", q->log_rank.chi.p_value);
    json_kv_double(j, "p_holm", q->lengths_holm);
    json_object_end(j);
}

/* One pair of jobs compared. */
static void write_pair(Json *j, const Analysis *a, const JobPair *q)
{
    json_object_begin(j);
    json_kv_string(j, "first", a->jobs[q->i].name);
    json_kv_string(j, "second", a->jobs[q->j].name);
    json_kv_string(j, "differs_in", q->differs);
    json_key(j, "advantage_difference");
    json_object_begin(j);
    json_estimate_members(j, q->advantage.difference);
    json_kv_double(j, "df", q->advantage.df);
    json_kv_double(j, "p", q->advantage.p_value);
    json_kv_double(j, "p_holm", q->advantage_holm);
    json_object_end(j);
    json_kv_bool(j, "game_tests", q->game_tests);
    if (!q->game_tests) {
        json_key(j, "chi_square_outcomes");
        json_null(j);
        json_key(j, "mann_whitney_lengths");
        json_null(j);
        json_key(j, "log_rank_lengths");
        json_null(j);
        json_object_end(j);
        return;
    }
    kv_test(j, "chi_square_outcomes", q->chi, q->chi_holm);
    json_key(j, "mann_whitney_lengths");
    if (q->lengths_censored) {
        json_null(j);
    } else {
        json_object_begin(j);
        json_kv_string(j, "test", "mann-whitney");
        json_kv_double(j, "u", q->lengths.u);
        json_kv_double(j, "z", q->lengths.z);
        json_kv_double(j, "p", q->lengths.p_value);
        json_kv_double(j, "p_holm", q->lengths_holm);
        json_kv_double(j, "effect", q->lengths.effect);
        json_object_end(j);
    }
    write_log_rank(j, q);
    json_object_end(j);
}

/* The comparisons between jobs (null with one job). */
static void write_between(Json *j, const Analysis *a)
{
    json_key(j, "between_jobs");
    if (a->njobs < 2) {
        json_null(j);
        return;
    }
    json_object_begin(j);
    if (isnan(a->omnibus.p_value)) {
        json_key(j, "chi_square_outcomes");
        json_null(j);
    } else {
        kv_test(j, "chi_square_outcomes", a->omnibus, a->omnibus.p_value);
    }
    json_kv_string(j, "pairs_rule", a->pairs_by_parameter ? "one_parameter_apart" : "all_pairs");
    json_key(j, "pairs");
    json_array_begin(j);
    for (int k = 0; k < a->npairs; k++)
        write_pair(j, a, &a->pairs[k]);
    json_array_end(j);
    json_key(j, "swept");
    json_array_begin(j);
    for (int s = 0; s < a->nsweep; s++)
        json_string(j, variant_param_name((VariantParam)a->sweep[s]));
    json_array_end(j);
    json_object_end(j);
}

/* A rating with its standard error and interval. */
static void kv_rating(Json *j, const char *agent, const char *label, double r, double se,
                      double z)
{
    json_object_begin(j);
    if (agent)
        json_kv_string(j, "agent", agent);
    if (label)
        json_kv_string(j, "label", label);
    json_kv_double(j, "rating", r);
    json_kv_double(j, "se", se);
    json_kv_double(j, "lo", r - z * se);
    json_kv_double(j, "hi", r + z * se);
    json_object_end(j);
}

/* The crosstable: each pair of agents that met, the first in rating order as a. */
static void write_crosstable(Json *j, const Analysis *a)
{
    int m = a->nagents, *order = malloc((size_t)m * sizeof *order);
    json_key(j, "crosstable");
    json_array_begin(j);
    if (order)
        analyze_rating_order(a, order);
    for (int r = 0; order && r < m; r++)
        for (int c = r + 1; c < m; c++) {
            const CrossCell *x = &a->cross[order[r] * m + order[c]];
            if (x->games == 0)
                continue;
            json_object_begin(j);
            json_kv_string(j, "a", a->agents[order[r]]);
            json_kv_string(j, "b", a->agents[order[c]]);
            json_kv_uint(j, "games", x->games);
            json_kv_double(j, "points_a", (double)x->half_points / 2);
            json_kv_double(j, "score_a", (double)x->half_points / 2 / (double)x->games);
            json_object_end(j);
        }
    json_array_end(j);
    free(order);
}

/* The ratings' prior (ratings.h). */
static void write_prior(Json *j)
{
    json_key(j, "prior");
    json_object_begin(j);
    json_kv_string(j, "kind", "gaussian on each rating's deviation from the mean rating");
    json_kv_double(j, "sd", BT_PRIOR_SD_ELO);
    json_object_end(j);
}

/* The ratings of the agents (null when not fitted). */
static void write_ratings(Json *j, const Analysis *a)
{
    json_key(j, "ratings");
    if (a->bt_status < 0) {
        json_null(j);
        return;
    }
    double z = gsl_cdf_ugaussian_Pinv(0.5 + ANALYZE_CONFIDENCE / 2);
    json_object_begin(j);
    json_kv_int(j, "status", a->bt_status);
    json_kv_string(j, "message", bt_strerror(a->bt_status));
    json_kv_string(j, "anchor", a->agents[0]);
    write_prior(j);
    json_kv_double(j, "design_effect", a->bt_design_effect);
    json_kv_string(j, "design_effect_job",
                   a->bt_design_job >= 0 ? a->jobs[a->bt_design_job].name : NULL);
    json_key(j, "few_lines_jobs");
    json_array_begin(j);
    for (int i = 0; i < a->njobs; i++)
        if (a->jobs[i].two_agents && a->jobs[i].lines_few)
            json_string(j, a->jobs[i].name);
    json_array_end(j);
    if (a->bt_status == BT_OK) {
        json_kv_bool(j, "data_finite", a->bt.data_finite);
        json_key(j, "agents");
        json_array_begin(j);
        for (int i = 0; i < a->bt.agents; i++)
            kv_rating(j, a->agents[i], a->agent_labels[i], a->bt.rating[i], a->bt.rating_se[i], z);
        json_array_end(j);
        json_key(j, "first_move");
        kv_rating(j, NULL, NULL, a->bt.home, a->bt.home_se, z);
        json_kv_double(j, "draw_nu", a->bt.draw_nu);
        json_kv_double(j, "draw_nu_se", a->bt.draw_nu_se);
        json_kv_double(j, "log_likelihood", a->bt.log_likelihood);
    }
    write_crosstable(j, a);
    json_object_end(j);
}

/* One cell of a skill design: job i's advantage with its interval and sample. */
static void write_skill_cell(Json *j, const JobAnalysis *x)
{
    const PairAdvantage *p = &x->pair_advantage;
    /* A race's pooled pairs are no mixture of its lines: its answer is `race` below. */
    Estimate pooled = x->has_race ? (Estimate){ NAN, { NAN, NAN } } : p->advantage;
    json_object_begin(j);
    json_kv_string(j, "job", x->name);
    json_kv_double(j, "advantage", pooled.value);
    json_kv_double(j, "lo", pooled.ci.lo);
    json_kv_double(j, "hi", pooled.ci.hi);
    json_kv_bool(j, "degenerate", p->degenerate);
    json_kv_string(j, "unit", p->units.unit == PAIR_UNIT_OPENING ? "opening" : "pair");
    json_kv_uint(j, "units", p->units.units);
    json_kv_uint(j, "games", x->rows);
    json_kv_double(j, "distinct_share", x->has_distinct && x->distinct.games
                                            ? (double)x->distinct.distinct /
                                                  (double)x->distinct.games
                                            : NAN);
    json_key(j, "root");
    if (x->has_root) {
        json_object_begin(j);
        json_kv_estimate(j, "held_out", x->root.held_out);
        json_kv_estimate(j, "naive", x->root.naive);
        json_key(j, "minimax");
        json_object_begin(j);
        json_kv_double(j, "lo", x->root.minimax.lo);
        json_kv_double(j, "hi", x->root.minimax.hi);
        json_object_end(j);
        json_object_end(j);
    } else {
        json_null(j);
    }
    json_key(j, "race");
    if (x->has_race) {
        Estimate r = analyze_race_answer(x);
        json_object_begin(j);
        json_kv_double(j, "value", r.value);
        json_kv_double(j, "lo", r.ci.lo);
        json_kv_double(j, "hi", r.ci.hi);
        json_kv_int(j, "pairs", x->race.next_pair);
        json_kv_string(j, "stopped", analyze_race_end_text(x));
        json_object_end(j);
    } else {
        json_null(j);
    }
    json_object_end(j);
}

/* One design of the advantage against skill. */
static void write_skill_design(Json *j, const Analysis *a, const SkillDesign *d)
{
    json_object_begin(j);
    json_kv_string(j, "openings", d->openings);
    json_kv_string(j, "variant", d->variant);
    json_key(j, "conventions");
    json_array_begin(j);
    for (int k = 0; k < d->nconv; k++)
        json_string(j, conv_name(d->conv[k]));
    json_array_end(j);
    json_key(j, "rungs");
    json_array_begin(j);
    for (int r = 0; r < d->nrungs; r++)
        json_string(j, a->jobs[d->rung[r]].agent_a);
    json_array_end(j);
    json_key(j, "rung_labels");
    json_array_begin(j);
    for (int r = 0; r < d->nrungs; r++)
        json_string(j, a->jobs[d->rung[r]].label_a);
    json_array_end(j);
    json_key(j, "rung_ratings");   /* Elo points where the file's matches rate the rung */
    json_array_begin(j);
    for (int r = 0; r < d->nrungs; r++) {
        double rating, se;
        if (analyze_agent_rating(a, a->jobs[d->rung[r]].agent_a, &rating, &se)) {
            json_object_begin(j);
            json_kv_double(j, "rating", rating);
            json_kv_double(j, "se", se);
            json_object_end(j);
        } else {
            json_null(j);
        }
    }
    json_array_end(j);
    json_key(j, "cells");
    json_array_begin(j);
    for (int r = 0; r < d->nrungs; r++) {
        json_array_begin(j);
        for (int k = 0; k < d->nconv; k++) {
            int i = d->cell[r * CONV_NB + d->conv[k]];
            if (i < 0)
                json_null(j);
            else
                write_skill_cell(j, &a->jobs[i]);
        }
        json_array_end(j);
    }
    json_array_end(j);
    json_object_end(j);
}

/* The first-player advantage against skill: the designs of self-play jobs with 2+ rungs. */
static void write_skill(Json *j, const Analysis *a)
{
    json_key(j, "skill");
    json_array_begin(j);
    for (int d = 0; d < a->nskill; d++)
        write_skill_design(j, a, &a->skill[d]);
    json_array_end(j);
}

/* One cell of an atlas: its board, convention, job, answer, exact value and verdict. */
static void write_atlas_cell(Json *j, const Analysis *a, const AtlasCell *c)
{
    json_object_begin(j);
    json_kv_int(j, "holes", c->holes);
    json_kv_int(j, "seeds", c->seeds);
    json_kv_string(j, "convention", conv_name(c->conv));
    json_kv_string(j, "job", a->jobs[c->job].name);
    json_kv_estimate(j, "answer", c->answer);
    json_key(j, "exact");
    if (c->has_exact)
        json_int(j, c->exact);
    else
        json_null(j);
    json_key(j, "agrees");
    if (c->verdict == ATLAS_NO_EXACT)
        json_null(j);
    else
        json_bool(j, c->verdict == ATLAS_AGREES);
    kv_text_or_null(j, "verdict", atlas_verdict_name(c->verdict));
    json_object_end(j);
}

/* One convention of an atlas: its cells (row by row: holes, then seeds; boards without a
 * job left out) and the counts of its check. */
static void write_atlas_grid(Json *j, const Analysis *a, const Atlas *t, int k)
{
    const AtlasCheck *x = &t->check[k];
    json_object_begin(j);
    json_kv_string(j, "convention", conv_name(t->conv[k]));
    json_key(j, "cells");
    json_array_begin(j);
    for (int h = 0; h < t->nholes; h++)
        for (int s = 0; s < t->nseeds; s++)
            if (atlas_cell(t, k, h, s)->job >= 0)
                write_atlas_cell(j, a, atlas_cell(t, k, h, s));
    json_array_end(j);
    json_key(j, "check");
    json_object_begin(j);
    json_kv_int(j, "exact", x->exact);
    json_kv_int(j, "agrees", x->agrees);
    json_kv_int(j, "undecided", x->undecided);
    json_kv_int(j, "contradicts", x->contradicts);
    json_object_end(j);
    json_object_end(j);
}

/* An array of ints. */
static void kv_ints(Json *j, const char *key, const int *x, int n)
{
    json_key(j, key);
    json_array_begin(j);
    for (int i = 0; i < n; i++)
        json_int(j, x[i]);
    json_array_end(j);
}

/* The rung's ratings: per cell with a match of it, the match and A's Elo over B. */
static void write_atlas_ratings(Json *j, const Analysis *a, const Atlas *t)
{
    json_key(j, "ratings");
    json_array_begin(j);
    for (int r = 0; r < t->nratings; r++) {
        const AtlasRating *x = &t->ratings[r];
        json_object_begin(j);
        json_kv_string(j, "convention", final_four_name((FinalFour)x->final_four));
        json_kv_int(j, "holes", x->holes);
        json_kv_int(j, "seeds", x->seeds);
        json_kv_string(j, "job", a->jobs[x->job].name);
        json_kv_string(j, "against", a->jobs[x->job].agent_b);
        json_kv_estimate(j, "elo", x->elo);
        json_object_end(j);
    }
    json_array_end(j);
}

/* One atlas: its rung and what else its jobs share, its axes, a grid per convention, the
 * ratings and the fairest cells. */
static void write_atlas_one(Json *j, const Analysis *a, const Atlas *t)
{
    const JobAnalysis *f = &a->jobs[t->first];
    char rule[48];
    if (f->stored_race.has)
        root_rule_text(&f->stored_race.rule, rule, sizeof rule);
    json_object_begin(j);
    json_kv_string(j, "rung", f->agent_a);
    json_kv_string(j, "rung_label", f->label_a);
    json_kv_string(j, "openings", f->openings_spec);
    kv_text_or_null(j, "root_design", f->stored_race.has ? rule : NULL);
    json_kv_string(j, "variant", t->variant);
    kv_ints(j, "holes", t->holes, t->nholes);
    kv_ints(j, "seeds", t->seeds, t->nseeds);
    json_key(j, "conventions");
    json_array_begin(j);
    for (int k = 0; k < t->nconv; k++)
        write_atlas_grid(j, a, t, k);
    json_array_end(j);
    write_atlas_ratings(j, a, t);
    json_key(j, "fairest");
    json_array_begin(j);
    for (int r = 0; r < t->nfair; r++)
        write_atlas_cell(j, a, &t->cells[t->fair[r]]);
    json_array_end(j);
    json_object_end(j);
}

/* The variant atlases, only where the file has one (other documents stay as they were). */
static void write_atlas(Json *j, const Analysis *a)
{
    if (a->natlas == 0)
        return;
    json_key(j, "atlas");
    json_array_begin(j);
    for (int t = 0; t < a->natlas; t++)
        write_atlas_one(j, a, &a->atlas[t]);
    json_array_end(j);
}

/* Each job's answer first, as the text's table (analyze_job_answer). */
static void write_answers(Json *j, const Analysis *a)
{
    json_key(j, "answers");
    json_array_begin(j);
    for (int i = 0; i < a->njobs; i++) {
        JobAnswer w = analyze_job_answer(&a->jobs[i]);
        json_object_begin(j);
        json_kv_string(j, "job", a->jobs[i].name);
        json_kv_string(j, "kind", answer_kind_name(w.kind));
        json_estimate_members(j, w.value);
        json_kv_string(j, "scale", w.scale);
        json_kv_string(j, "unit", design_unit_name(w.unit));
        json_kv_uint(j, "units", w.units);
        kv_text_or_null(j, "line", w.line[0] ? w.line : NULL);
        json_kv_string(j, "estimates", w.estimates);
        json_object_end(j);
    }
    json_array_end(j);
}

void analyze_json(const Analysis *a, FILE *out)
{
    Json j;
    json_init(&j, out);
    json_object_begin(&j);
    json_kv_string(&j, "format", "anywoli-analysis");
    json_kv_int(&j, "format_version", 1);
    json_kv_string(&j, "file", a->path);
    json_kv_string(&j, "program_version", a->program_version);
    json_kv_string(&j, "git_commit", a->git_commit);
    json_kv_string(&j, "started", a->started);
    json_kv_string(&j, "finished", a->finished);
    json_kv_double(&j, "confidence", ANALYZE_CONFIDENCE);
    write_answers(&j, a);
    write_atlas(&j, a);
    json_key(&j, "jobs");
    json_array_begin(&j);
    for (int i = 0; i < a->njobs; i++)
        write_job(&j, a, &a->jobs[i]);
    json_array_end(&j);
    write_between(&j, a);
    write_skill(&j, a);
    write_ratings(&j, a);
    json_object_end(&j);
    json_finish(&j);
}
