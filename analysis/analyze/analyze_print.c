/* analyze_print.c: an Analysis as aligned text tables (stdout of `anywoli analyze`). */
#include <gsl/gsl_cdf.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"

#define EST_LEN 112              /* room for "value [lo, hi]" of three numbers */

/* x with prec decimals into buf, "-" when not a number ("inf" and "-inf" kept). */
static const char *num(char *buf, size_t len, double x, int prec)
{
    if (isnan(x))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%.*f", prec, x);
    return buf;
}

/* An estimate as "value [lo, hi]" with prec decimals into buf (EST_LEN bytes). */
static const char *est(char *buf, size_t len, Estimate x, int prec)
{
    char v[32], lo[32], hi[32];
    (void)len;
    snprintf(buf, EST_LEN, "%s [%s, %s]", num(v, sizeof v, x.value, prec),
             num(lo, sizeof lo, x.ci.lo, prec), num(hi, sizeof hi, x.ci.hi, prec));
    return buf;
}

/* A p-value: four decimals, or scientific notation below 0.0001; one below the smallest
 * double is shown as such rather than as a misleading 0. */
static const char *pval(char *buf, size_t len, double p)
{
    if (isnan(p))
        snprintf(buf, len, "-");
    else if (p < DBL_MIN)
        snprintf(buf, len, "<2.2e-308");
    else if (p < 1e-4)
        snprintf(buf, len, "%.2e", p);
    else
        snprintf(buf, len, "%.4f", p);
    return buf;
}

/* The distinct games (by moves_hash), with the warning when too few are distinct: repeated
 * games are not independent, so every interval of the job is too narrow. */
static void print_distinct(const JobAnalysis *j, FILE *out)
{
    const DistinctGames *d = &j->distinct;
    if (!j->has_distinct) {
        fprintf(out, "distinct games: not known (the file has no moves_hash column)\n");
        return;
    }
    double share = d->games ? (double)d->distinct / (double)d->games : NAN;
    fprintf(out, "distinct games: %llu of %llu (%.1f%%", (unsigned long long)d->distinct,
            (unsigned long long)d->games, 100 * share);
    if (d->most_repeated > 1)
        fprintf(out, "; the most common is played %llu times",
                (unsigned long long)d->most_repeated);
    fprintf(out, ")\n");
    if (distinct_games_few(d))
        fprintf(out, "warning: fewer than %.0f%% of the games are distinct: the games are not "
                     "independent, and every interval below is too narrow, by a factor of at "
                     "least %.2f (the %llu games are worth at most %.0f independent ones)\n",
                100 * DISTINCT_WARN_BELOW, sqrt((double)d->games / d->effective),
                (unsigned long long)d->games, d->effective);
}

/* The distinct lines (by line_hash: the first LINE_PLIES plies), with the warning when most
 * games follow one line: then every game may differ somewhere (so distinct games say
 * nothing), yet the figures are those of the line, not of the game from its start. */
static void print_lines(const JobAnalysis *j, FILE *out)
{
    const DistinctGames *d = &j->lines;
    if (!j->has_lines) {
        fprintf(out, "distinct %d-ply lines: not known (the file has no line_hash column)\n",
                LINE_PLIES);
        return;
    }
    fprintf(out, "distinct %d-ply lines: %llu of %llu games; the most common is followed by "
                 "%.1f%% of them", LINE_PLIES, (unsigned long long)d->distinct,
            (unsigned long long)d->games, 100 * distinct_top_share(d));
    if (j->lines_colour_share > distinct_top_share(d) + 0.0005)
        fprintf(out, ", and by %.1f%% of one colour assignment's games",
                100 * j->lines_colour_share);
    fprintf(out, "\n");
    if (j->lines_few)
        fprintf(out, "warning: the games follow few lines, so the job's figures describe those "
                     "lines rather than the game from its start; for the game itself use "
                     "openings (a book, plies:N) or diverse play (margin, temperature)\n");
}

/* The distinct openings (by opening), where the file records them. */
static void print_openings(const JobAnalysis *j, FILE *out)
{
    if (!j->has_openings)
        return;
    fprintf(out, "distinct openings: %llu (over the %llu games with an opening; %llu from "
                 "the start)\n", (unsigned long long)j->openings.distinct,
            (unsigned long long)j->openings.games,
            (unsigned long long)(j->rows - j->openings.games));
}

/* The full specs the agents played (every option and weight at its value), or that the file
 * does not say: a spec as given leaves its defaults to the program that ran it. */
static void print_played(const JobAnalysis *j, FILE *out)
{
    if (!j->played_a || !j->played_b) {
        fprintf(out, "played: not known (the file has no agent_a_played attribute: the specs "
                     "above as the program of the time read them)\n");
        return;
    }
    fprintf(out, "played: A %s\n", j->played_a);
    if (j->two_agents)
        fprintf(out, "played: B %s\n", j->played_b);
}

/* The sequential test a job ran with: its state at the end, where it stopped the job, and
 * that the estimates which follow are not corrected for the stop. */
static void print_sequential(const JobAnalysis *j, FILE *out)
{
    const StoredTest *t = &j->seq;
    if (!t->has)
        return;
    fprintf(out, "sequential test: H0 elo %g vs H1 elo %g (alpha %g, beta %g), pentanomial, "
            "checked after each pair once %d pairs are in", t->bounds.elo0, t->bounds.elo1,
            t->bounds.alpha, t->bounds.beta, SPRT_MIN_PAIRS);
    if (t->ended)
        fprintf(out, ": LLR %.2f [%.2f, %.2f], %s", t->test.llr, t->test.lower, t->test.upper,
                sprt_decision_text(t->test.decision));
    if (t->stopped)
        fprintf(out, "; it stopped the job after %lld pairs (games 0 to %lld)\n"
                "warning: the estimates below follow a sequential stop, and are biased toward "
                "the hypothesis it accepted (a match that stops when it crosses a bound "
                "overstates the difference it crossed at); they are not corrected\n",
                (long long)t->stop_pair + 1, 2 * (long long)t->stop_pair + 1);
    else
        fprintf(out, "%s\n", t->ended ? "; every planned game was played" : "");
}

/* The job's heading: its agents and variant. */
static void print_heading(const JobAnalysis *j, FILE *out)
{
    const Variant *v = &j->variant;
    fprintf(out, "== job %s: A %s vs B %s\n", j->name, j->agent_a, j->agent_b);
    print_played(j, out);
    fputs("variant:", out);
    for (int p = 0; p < VP_NB; p++) {
        int64_t x = variant_get(v, p);
        fprintf(out, "%s %s ", p ? "," : "", variant_params[p].name);
        if (variant_params[p].kind == VK_CONVENTION)   /* else a number: yes/no as 1/0 */
            fputs(final_four_name((FinalFour)x), out);
        else
            fprintf(out, "%" PRId64, x);
    }
    fputc('\n', out);
    fprintf(out, "games: %llu in the table (%lld planned); intervals are 95%%\n",
            (unsigned long long)j->rows, (long long)j->games_planned);
    print_sequential(j, out);
    print_distinct(j, out);
    print_lines(j, out);
    print_openings(j, out);
    if (j->adjudicate)
        fprintf(out, "adjudicated: %llu games ended once a store held more than half the seeds "
                "(won, the stores then stored; their margins are left out)\n",
                (unsigned long long)j->adjudicated);
    if (j->inconsistent)
        fprintf(out, "warning: %llu finished games have scores that disagree with their "
                     "outcome or award\n", (unsigned long long)j->inconsistent);
}

/* One outcome row: a count and its rate with interval. */
static void outcome_row(FILE *out, const char *label, uint64_t count, const Estimate *rate,
                        const char *over)
{
    char b[EST_LEN];
    fprintf(out, "  %-12s %12llu  %-28s %s\n", label, (unsigned long long)count,
            rate ? est(b, sizeof b, *rate, 4) : "", over);
}

/* A column head for intervals of shares counted in games: "rate [95% Wilson]" where the
 * games are the unit, "rate [95% Wilson, by pair]" where the pair or opening is (their
 * effective games, analyze.h). */
static const char *interval_head(char *buf, size_t len, const JobAnalysis *j, const char *how)
{
    if (j->unit == UNIT_GAME)
        snprintf(buf, len, "rate [95%% %s]", how);
    else
        snprintf(buf, len, "rate [95%% %s, by %s]", how, design_unit_name(j->unit));
    return buf;
}

/* The line under a table of shares where the unit is not the game: how its intervals use it. */
static void print_share_note(const JobAnalysis *j, FILE *out)
{
    if (j->unit == UNIT_GAME)
        return;
    fprintf(out, "  (by %s: each interval over the games' effective number, games / design "
                 "effect, with the %s as unit: measured over the %s for the job's own "
                 "outcomes, South %.2f, North %.2f, draw %.2f; %.0f, its bound, for the rest)\n",
            design_unit_name(j->unit), design_unit_name(j->unit), design_unit_plural(j->unit),
            j->share_deff[0], j->share_deff[1], j->share_deff[2], j->deff_bound);
}

/* The outcomes table. */
static void print_outcomes(const JobAnalysis *j, FILE *out)
{
    const Outcomes *o = &j->all;
    char head[48];
    fprintf(out, "\nOutcomes       %12s  %-28s %s\n", "games",
            interval_head(head, sizeof head, j, "Wilson"), "over");
    outcome_row(out, outcome_phrase(OUT_SOUTH), o->south, &j->rate[0], "finished");
    outcome_row(out, outcome_phrase(OUT_NORTH), o->north, &j->rate[1], "finished");
    outcome_row(out, outcome_phrase(OUT_DRAW), o->draw, &j->rate[2], "finished");
    outcome_row(out, "finished", outcomes_finished(o), NULL, "");
    outcome_row(out, outcome_phrase(OUT_ENDLESS), o->endless, &j->endless_rate, "all games");
    outcome_row(out, outcome_phrase(OUT_UNFINISHED), o->unfinished, &j->unfinished_rate,
                "all games");
    outcome_row(out, "all", outcomes_total(o), NULL, "");
    print_share_note(j, out);
}

/* One advantage row: the games it is over, the estimate, the test's p. */
static void advantage_row(FILE *out, const char *label, uint64_t n, Estimate adv, double pv)
{
    char b[EST_LEN], p[32];
    fprintf(out, "  %-16s %10llu  %-30s %s\n", label, (unsigned long long)n,
            est(b, sizeof b, adv, 4), pval(p, sizeof p, pv));
}

/* The first-player advantage with the design's unit, with the colour split for two agents:
 * over games, Tango's interval and the exact binomial test; over pairs (or openings), the t
 * interval and test of the pairs' means, and the colour split only where each unit gives one
 * game to each colour (the pair). */
static void print_advantage(const JobAnalysis *j, FILE *out)
{
    char b[EST_LEN], head[64];
    bool games = j->unit == UNIT_GAME;
    fprintf(out, "\nFirst-player advantage P(South won) - P(North won), over finished games, "
                 "the %s as unit\n", design_unit_name(j->unit));
    if (j->has_race) {
        fprintf(out, "  (an adaptive root design: its pairs were spread over its lines as the "
                     "race chose, so their pooled advantage estimates nothing; its answer, the "
                     "best line with the race's interval, is in the root design below)\n");
        return;
    }
    snprintf(head, sizeof head, "advantage [95%% %s]", games ? "Tango" : "t");
    fprintf(out, "  %-16s %10s  %-30s %s\n", "subset", design_unit_plural(j->unit), head,
            games ? "p (exact binomial, S = N on decisive)" : "p (t test, mean 0)");
    advantage_row(out, "all", j->units, j->advantage, j->advantage_p);
    if (!j->two_agents)
        return;
    if (j->unit == UNIT_OPENING) {
        fprintf(out, "  (no colour split: a colour's games repeat openings as the pairs do)\n");
        return;
    }
    advantage_row(out, "A as South", outcomes_finished(&j->by_south[0]), j->split_advantage[0],
                  j->split_p[0]);
    advantage_row(out, "A as North", outcomes_finished(&j->by_south[1]), j->split_advantage[1],
                  j->split_p[1]);
    if (games)
        fprintf(out, "  %-16s %10s  %-30s %s\n", "colour-balanced", "",
                est(b, sizeof b, j->balanced, 4), "(agent strength taken out; MOVER interval)");
    else
        fprintf(out, "  (the colour rows count games, one of each pair; \"all\" is the "
                     "colour-balanced advantage: each pair plays each agent as South once)\n");
}

/* Who among the job's agents looks at the convention, as a sentence. */
static void print_blindness(const JobAnalysis *j, FILE *out)
{
    fprintf(out, "  This comparison holds for agents that do not look at the convention "
                 "(random);\n  agents that search (alphabeta, mcts, greedy) see it through the "
                 "award: compare jobs instead.\n");
    if (j->blind_a && j->blind_b)
        fprintf(out, "  Here both agents are convention-blind: the comparison holds.\n");
    else if (!j->blind_a && !j->blind_b)
        fprintf(out, "  Here A and B look at the convention: the re-scored outcomes are not "
                     "what these agents would have played to.\n");
    else
        fprintf(out, "  Here %s looks at the convention: the re-scored outcomes are not "
                     "what these agents would have played to.\n", j->blind_a ? "B" : "A");
}

/* The outcome under each convention, re-scored from the same games. */
static void print_convention_rows(const JobAnalysis *j, FILE *out)
{
    char b[4][EST_LEN], p[32], by[24], head[4][48];
    bool games = j->unit == UNIT_GAME;
    snprintf(by, sizeof by, "%s%s", games ? "" : ", by ",
             games ? "" : design_unit_name(j->unit));
    snprintf(head[0], sizeof head[0], "South won [95%%%s]", by);
    snprintf(head[1], sizeof head[1], "North won [95%%%s]", by);
    snprintf(head[2], sizeof head[2], "draw [95%%%s]", by);
    snprintf(head[3], sizeof head[3], "advantage [95%%%s]", by);
    fprintf(out, "  %-13s %-26s %-26s %-26s %-30s %s\n", "convention", head[0], head[1],
            head[2], head[3], games ? "p (binomial)" : "p (t test)");
    for (int c = 0; c < CONV_NB; c++) {
        char label[32];
        snprintf(label, sizeof label, "%s%s", conv_name(c),
                 c == (int)j->variant.final_four ? "*" : "");
        fprintf(out, "  %-13s %-26s %-26s %-26s %-30s %s\n", label,
                est(b[0], EST_LEN, j->conv_rate[c][0], 4), est(b[1], EST_LEN, j->conv_rate[c][1], 4),
                est(b[2], EST_LEN, j->conv_rate[c][2], 4),
                est(b[3], EST_LEN, j->conv_advantage[c], 4),
                pval(p, sizeof p, j->conv_advantage_p[c]));
    }
    if (games)
        fprintf(out, "  (* the job's own convention; shares and advantage over games)\n");
    else
        fprintf(out, "  (* the job's own convention; the advantage over the %s, re-scored; the "
                     "shares over their effective games, with the design effect's bound %.0f "
                     "but for the job's own convention, measured; McNemar's tests count games as "
                     "independent, and this job's are not (pairs share openings, or games repeat "
                     "or follow few lines): \"-\")\n", design_unit_plural(j->unit),
                j->deff_bound);
}

/* McNemar's exact tests of each pair of conventions. */
static void print_mcnemar(const JobAnalysis *j, FILE *out)
{
    char p1[32], p2[32];
    fprintf(out, "  McNemar exact tests, paired on the same games (discordant games: only "
                 "the first, only the second)\n");
    fprintf(out, "  %-27s %10s %10s %10s   %10s %10s %10s\n", "pair", "S: first", "second",
            "p", "N: first", "second", "p");
    for (int q = 0; q < CONV_PAIRS_NB; q++) {
        int c1, c2;
        conv_pair(q, &c1, &c2);
        char label[40];
        snprintf(label, sizeof label, "%s vs %s", conv_name(c1), conv_name(c2));
        const PairedTest *s = &j->mc_south[q], *n = &j->mc_north[q];
        bool ok = j->games_independent;
        fprintf(out, "  %-27s %10llu %10llu %10s   %10llu %10llu %10s\n", label,
                (unsigned long long)s->only_first, (unsigned long long)s->only_second,
                ok ? pval(p1, sizeof p1, s->p_value) : "-", (unsigned long long)n->only_first,
                (unsigned long long)n->only_second, ok ? pval(p2, sizeof p2, n->p_value) : "-");
    }
}

/* The three conventions on the same games. */
static void print_conventions(const JobAnalysis *j, FILE *out)
{
    fprintf(out, "\nConventions on the same games (each row's `left` seeds re-awarded to each "
                 "convention's recipient)\n");
    print_blindness(j, out);
    print_convention_rows(j, out);
    print_mcnemar(j, out);
}

/* One distribution summary row. */
static void summary_row(FILE *out, const char *label, const HistSummary *s)
{
    char v[11][32];
    const double x[11] = { s->mean, s->sd, s->min, s->p5, s->p25, s->median, s->p75, s->p95,
                           s->p99, s->max };
    for (int i = 0; i < 10; i++) {
        num(v[i], sizeof v[i], x[i], i < 2 ? 2 : 1);
        if (isinf(x[i]))        /* a Kaplan-Meier quantile beyond the cap (s->max) */
            snprintf(v[i], sizeof v[i], ">%.0f", s->max);
    }
    fprintf(out, "  %-22s %10llu %10s %9s %7s %7s %7s %7s %7s %7s %7s %7s\n", label,
            (unsigned long long)s->n, v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8],
            v[9]);
}

/* Game length and score margin. */
static void print_distributions(const JobAnalysis *j, FILE *out)
{
    fprintf(out, "\nDistributions  %-9s %10s %10s %9s %7s %7s %7s %7s %7s %7s %7s %7s\n", "",
            "n", "mean", "sd", "min", "p5", "p25", "median", "p75", "p95", "p99", "max");
    summary_row(out, "length (plies)", &j->length);
    summary_row(out, "margin (S - N seeds)", &j->margin);
    fprintf(out, "  (lengths of all games, %s; margins of finished games)\n",
            j->stored_histogram ? "equal to the stored length_histogram"
                                : "from the table (no stored histogram)");
    if (j->censored)
        fprintf(out, "  censored: %llu of %llu games stopped at max_plies (%.1f%%): lengths by "
                     "the Kaplan-Meier estimate (mean: the restricted mean up to max_plies "
                     "%lld; a quantile not reached is >%lld)\n",
                (unsigned long long)j->censored, (unsigned long long)j->length.n,
                100.0 * (double)j->censored / (double)j->length.n,
                (long long)j->variant.max_plies, (long long)j->variant.max_plies);
}

/* Agent A's match against B. */
static void print_agents(const JobAnalysis *j, const AnalyzeOptions *opt, FILE *out)
{
    char s[EST_LEN], e[EST_LEN], los[32];
    const EloEstimate *x = &j->elo;
    char hs[48], he[48];
    const char *by = j->unit == UNIT_GAME ? "" : j->unit == UNIT_PAIR ? ", by pair"
                                                                      : ", by opening";
    snprintf(hs, sizeof hs, "score [95%%%s]", by);
    snprintf(he, sizeof he, "Elo [95%%%s]", by);
    fprintf(out, "\nAgents: A %s vs B %s (finished games, from A's side%s)\n", j->agent_a,
            j->agent_b, j->unit == UNIT_GAME ? ""
                        : "; the score, Elo and LOS from the pairs' pentanomial counts");
    fprintf(out, "  %8s %8s %8s  %-28s %-30s %s\n", "A won", "draw", "A lost", hs, he, "LOS");
    fprintf(out, "  %8llu %8llu %8llu  %-28s %-30s %s\n", (unsigned long long)j->a_wins,
            (unsigned long long)j->a_draws, (unsigned long long)j->a_losses,
            est(s, sizeof s, (Estimate){ x->score, x->score_ci }, 4),
            est(e, sizeof e, (Estimate){ x->elo, x->elo_ci }, 1),
            num(los, sizeof los, x->los, 4));
    if (!opt->sprt)
        return;
    fprintf(out, "  SPRT elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.3f, bounds [%.3f, %.3f]: "
                 "%s\n", opt->elo0, opt->elo1, opt->alpha, opt->beta, j->sprt.llr,
            j->sprt.lower, j->sprt.upper, sprt_decision_text(j->sprt.decision));
}

/* The units of a pair statistic in words: "pair as unit: 24 pairs", or "opening as unit:
 * 3 openings, 8 pairs each" (or "2 to 3 pairs each"). */
static const char *units_words(char *buf, size_t len, const PairUnits *u)
{
    if (u->unit == PAIR_UNIT_PAIR)
        snprintf(buf, len, "pair as unit: %llu pairs", (unsigned long long)u->units);
    else if (u->fewest == u->most)
        snprintf(buf, len, "opening as unit: %llu opening%s, %llu pairs each",
                 (unsigned long long)u->units, u->units == 1 ? "" : "s",
                 (unsigned long long)u->most);
    else
        snprintf(buf, len, "opening as unit: %llu opening%s, %llu to %llu pairs each",
                 (unsigned long long)u->units, u->units == 1 ? "" : "s",
                 (unsigned long long)u->fewest, (unsigned long long)u->most);
    return buf;
}

/* The pentanomial counts, A's score and Elo over the pairs, and the pentanomial SPRT. */
static void print_pentanomial(const JobAnalysis *j, const AnalyzeOptions *opt, FILE *out)
{
    char s[EST_LEN], e[EST_LEN], se[32], u[160];
    const PairEstimate *x = &j->pairs;
    bool by_opening = x->units.unit == PAIR_UNIT_OPENING;
    fprintf(out, "  A's points per pair  %8s %8s %8s %8s %8s   %-28s %s\n", "0", "1/2", "1",
            "3/2", "2", "score [95% Wilson]", "Elo [95%]");
    fprintf(out, "  %-20s %8llu %8llu %8llu %8llu %8llu   %-28s %s\n", "pairs",
            (unsigned long long)j->tally.penta[0], (unsigned long long)j->tally.penta[1],
            (unsigned long long)j->tally.penta[2], (unsigned long long)j->tally.penta[3],
            (unsigned long long)j->tally.penta[4],
            est(s, sizeof s, (Estimate){ x->score, x->score_ci }, 4),
            est(e, sizeof e, (Estimate){ x->elo, x->elo_ci }, 1));
    fprintf(out, "  (the score's standard error from the pentanomial variance: %s; %s%s)\n",
            num(se, sizeof se, x->se, 4), units_words(u, sizeof u, &x->units),
            by_opening ? ", a cluster-robust (CR1) variance" : "");
    if (!opt->sprt)
        return;
    fprintf(out, "  SPRT on pairs (pentanomial) elo0 %g, elo1 %g, alpha %g, beta %g: LLR %.3f, "
                 "bounds [%.3f, %.3f]: %s\n", opt->elo0, opt->elo1, opt->alpha, opt->beta,
            j->sprt_pairs.llr, j->sprt_pairs.lower, j->sprt_pairs.upper,
            sprt_decision_text(j->sprt_pairs.decision));
    if (by_opening)
        fprintf(out, "  (the SPRT assumes independent pairs, but here pairs repeat openings: "
                     "its error rates do not hold)\n");
}

/* Why a unit's interval is not a t interval: every unit gave the same value (or there is
 * one), so the interval bounds the share of units that could differ (pairs.h). */
static void print_degenerate_note(const PairUnits *u, FILE *out)
{
    const char *unit = u->unit == PAIR_UNIT_OPENING ? "opening" : "pair";
    if (u->units == 1)
        fprintf(out, "  (one %s only, so no variance: the interval bounds the share of %ss "
                     "that could differ from it)\n", unit, unit);
    else
        fprintf(out, "  (every %s gave the same %s: the interval bounds the share of %ss that "
                     "could differ)\n", unit, u->unit == PAIR_UNIT_OPENING ? "mean" : "result",
                unit);
}

/* Games 2k and 2k+1 as pairs: A's match counted by pairs (two agents), and the first-player
 * advantage with the pair (or the opening, when pairs repeat openings) as unit beside the
 * game-unit one. */
static void print_game_pairs(const JobAnalysis *j, const AnalyzeOptions *opt, FILE *out)
{
    char p[EST_LEN], g[EST_LEN], u[160], how[200];
    fprintf(out, "\nPairs (games 2k and 2k+1, colours swapped): %llu pairs",
            (unsigned long long)j->pairs.pairs);
    if (j->tally.unfinished)
        fprintf(out, "; left out: %llu with an unfinished game",
                (unsigned long long)j->tally.unfinished);
    if (j->unpaired_game)
        fprintf(out, "; the last game has no partner and is left out");
    fprintf(out, "\n");
    const PairAdvantage *x = &j->pair_advantage;
    bool by_opening = x->units.unit == PAIR_UNIT_OPENING;
    if (by_opening)
        fprintf(out, "  %s (pairs that share an opening are not independent)\n",
                units_words(u, sizeof u, &x->units));
    if (j->two_agents)
        print_pentanomial(j, opt, out);
    double wp = x->advantage.ci.hi - x->advantage.ci.lo;
    if (x->degenerate)
        snprintf(how, sizeof how, "%s, exact bound (draws and endless count 0)",
                 by_opening ? "openings" : "pairs");
    else if (by_opening)
        snprintf(how, sizeof how, "openings, CR1 t interval on %llu df (draws and endless "
                 "count 0)", (unsigned long long)x->units.units - 1);
    else
        snprintf(how, sizeof how, "pairs, t interval (draws and endless count 0)");
    fprintf(out, "  %-30s %-30s %s\n", "first-player advantage", "[95%]", "unit");
    fprintf(out, "  %-30s %-30s %s\n", by_opening ? "opening unit" : "pair unit",
            est(p, sizeof p, x->advantage, 4), how);
    if (x->degenerate)
        print_degenerate_note(&x->units, out);
    if (j->unit == UNIT_GAME) {
        double wg = j->advantage.ci.hi - j->advantage.ci.lo;
        fprintf(out, "  %-30s %-30s %s\n", "game unit", est(g, sizeof g, j->advantage, 4),
                "finished games, Tango interval (the job's unit: its games are independent)");
        if (wg > 0 && !isnan(x->advantage.value))
            fprintf(out, "  (the %s-unit interval is %.2f times as wide as the game-unit one)\n",
                    by_opening ? "opening" : "pair", wp / wg);
    } else if (!isnan(x->advantage.value)) {
        fprintf(out, "  (design effect %.2f: the advantage's variance with the %s as unit over "
                     "its variance were the games independent; no game-unit interval is given, "
                     "as the games are not)\n", analyze_advantage_design_effect(j),
                by_opening ? "opening" : "pair");
    }
}

/* The Ludii-style metrics. */
static void print_metrics(const JobAnalysis *j, FILE *out)
{
    const GameMetrics *m = &j->metrics;
    char b[EST_LEN], sd[32];
    char head[48];
    snprintf(head, sizeof head, "value [95%%%s%s]", j->unit == UNIT_GAME ? "" : ", by ",
             j->unit == UNIT_GAME ? "" : design_unit_name(j->unit));
    fprintf(out, "\nMetrics (Ludii style)  %-28s %s\n", head, "definition");
    for (int r = 0; r < metric_row_count; r++)
        fprintf(out, "  %-20s %-28s %s\n", metric_rows[r].label,
                est(b, EST_LEN, metric_value(m, r), 4), metric_rows[r].definition);
    fprintf(out, "  %-20s %-28s sd %s plies%s\n", "duration", est(b, EST_LEN, m->duration, 2),
            num(sd, sizeof sd, m->duration_sd, 2),
            j->censored ? " (the restricted mean up to max_plies: some games were stopped there)"
                        : "");
    print_share_note(j, out);
}

/* Agent side (0 A, 1 B)'s work per move: nodes, or playouts for MCTS. */
static void work_row(const JobAnalysis *j, int side, FILE *out)
{
    const char *spec = side == 0 ? j->agent_a : j->agent_b;
    const char *unit = strncmp(spec, "mcts", 4) == 0 ? "playouts" : "nodes";
    if (j->choices[side] == 0) {
        fprintf(out, "  %s %s: chose no move\n", side == 0 ? "A" : "B", spec);
        return;
    }
    fprintf(out, "  %s %s: %.1f %s a move (%llu moves)\n", side == 0 ? "A" : "B", spec,
            (double)j->work[side] / (double)j->choices[side], unit,
            (unsigned long long)j->choices[side]);
}

/* What each agent's moves cost, where the file has the columns. */
static void print_work(const JobAnalysis *j, FILE *out)
{
    if (!j->has_work)
        return;
    fprintf(out, "\nWork per move (the mean over every move each agent chose)\n");
    work_row(j, 0, out);
    if (j->two_agents)
        work_row(j, 1, out);
}

/* Line i of job j's root design (or, with race, of its adaptive race) by the holes' names,
 * "-" for none (i < 0). */
static const char *line_named(const JobAnalysis *j, bool race, int i, char *buf, size_t len)
{
    if (i < 0) {
        snprintf(buf, len, "-");
        return buf;
    }
    return analyze_line_names(&j->variant, race ? &j->race.lines[i] : &j->root.lines[i], buf,
                              len);
}

/* The most lines the text lists one by one; a larger design (all:2 has about 120) lists
 * South's first moves, each with the minimax of the lines below it (JSON has every line). */
#define ROOT_LINES_LISTED 24

/* The root design of a self-play job from every line of N plies: each line's (or first
 * move's) advantage, and South's best, naive and held out. */
static void print_root(const JobAnalysis *j, FILE *out)
{
    if (!j->has_root)
        return;
    const RootAnalysis *r = &j->root;
    char b[EST_LEN], m[96], m2[96];
    bool by_line = r->nlines <= ROOT_LINES_LISTED;
    fprintf(out, "\nRoot design (%s: South chooses its first move; each line's pairs are "
                 "its unit)\n", j->openings_spec);
    if (by_line)
        fprintf(out, "  %-16s %8s  %s\n", "line", "pairs", "advantage [95%]");
    else
        fprintf(out, "  %-16s %8s  %-30s %s\n", "first move", "pairs", "advantage [95%]",
                "the line below it (naive minimax)");
    if (by_line) {
        for (int i = 0; i < r->nlines; i++) {
            const RootLine *l = &r->lines[i];
            fprintf(out, "  %-16s %8llu  %s%s\n", analyze_line_names(&j->variant, l, m, sizeof m),
                    (unsigned long long)l->pairs, est(b, sizeof b, l->advantage, 4),
                    l->degenerate ? "  (every pair alike: exact bound)" : "");
        }
    } else {
        for (int k = 0; k < r->nfirst; k++) {
            const RootFirst *x = &r->first[k];
            char first[HOLE_NAME_MAX];
            hole_name(&j->variant, x->move, first);
            fprintf(out, "  %-16s %8llu  %-30s %s\n", first,
                    x->line < 0 ? 0ULL : (unsigned long long)r->lines[x->line].pairs,
                    est(b, sizeof b, x->advantage, 4),
                    line_named(j, false, x->line, m, sizeof m));
        }
    }
    fprintf(out, "  %-40s %-30s %s\n", "best line, naive (minimax, all pairs)",
            est(b, sizeof b, r->naive, 4),
            line_named(j, false, r->naive_line, m, sizeof m));
    fprintf(out, "  %-40s %-30s ", "best line, held out (two halves)",
            est(b, sizeof b, r->held_out, 4));
    if (r->held_line[0] < 0 || r->held_line[1] < 0)
        fprintf(out, "a half has no pair to choose by\n");
    else
        fprintf(out, "halves chose %s and %s\n",
                line_named(j, false, r->held_line[0], m, sizeof m),
                line_named(j, false, r->held_line[1], m2, sizeof m2));
    char lo[32], hi[32], iv[EST_LEN];
    snprintf(iv, sizeof iv, "[%s, %s]", num(lo, sizeof lo, r->minimax.lo, 4),
             num(hi, sizeof hi, r->minimax.hi, 4));
    fprintf(out, "  %-40s %-30s ", "best line's true value, simultaneous", iv);
    if (r->minimax_line[0] < 0 || r->minimax_line[1] < 0)
        fprintf(out, "-\n");
    else
        fprintf(out, "lower from %s (%d lines, each %.2f%% one-sided), upper from %s (%d, "
                     "%.2f%%)\n",
                line_named(j, false, r->minimax_line[0], m, sizeof m), r->minimax_lines[0],
                100 * r->minimax_level[0],
                line_named(j, false, r->minimax_line[1], m2, sizeof m2), r->minimax_lines[1],
                100 * r->minimax_level[1]);
    if (j->has_race)
        fprintf(out, "  %-40s %-30s %s\n", "every line alike (uniform mixture)", "-",
                "none: the race gave its lines unequal pairs (its answer: below)");
    else
        fprintf(out, "  %-40s %-30s %s\n", "every line alike (uniform mixture)",
                est(b, sizeof b, j->pair_advantage.advantage, 4), "the job's advantage above");
    fprintf(out, "  (the naive figure is a maximum over noisy estimates and errs high; the "
                 "held-out one chooses on half the pairs and values the choice on the other "
                 "half, and errs low where lines are close; neither interval accounts for "
                 "the choice. The simultaneous bounds do: the minimax of each line's lower "
                 "and of its upper confidence bound, each at Sidak's level for the lines one "
                 "side's strategy leaves open, cover the minimax of the lines' true values "
                 "with at least 95%% confidence)\n");
}

/* A race's value as its lines' means are printed. */
static const char *race_value(char *buf, size_t len, double x)
{
    snprintf(buf, len, "%+.4f", x);
    return buf;
}

/* A race line's mean, or "-" with no pair counted. */
static const char *race_mean(char *buf, size_t len, RootSum s)
{
    if (s.n == 0)
        return snprintf(buf, len, "-"), buf;
    return race_value(buf, len, s.sum / (double)s.n);
}

/* One line of the race: its pairs, mean, last interval and whether it is in. */
static void race_line(const JobAnalysis *j, const RootRace *r, int i, FILE *out)
{
    char m[96], mean[32], status[48];
    if (r->out_round[i] < 0)
        snprintf(status, sizeof status, "in%s", i == r->best ? " (best)" : "");
    else
        snprintf(status, sizeof status, "out after round %d", r->out_round[i]);
    fprintf(out, "  %-16s %8llu  %-9s [%+.4f, %+.4f]  %s\n", line_named(j, true, i, m, sizeof m),
            (unsigned long long)r->sum[i].n, race_mean(mean, sizeof mean, r->sum[i]),
            r->ci[i].lo, r->ci[i].hi, status);
}

/* The adaptive root design the job ran with: its lines (in or out, and when), where the
 * pairs went, the root's value with its interval, and why it stopped. */
static void print_race(const JobAnalysis *j, FILE *out)
{
    if (!j->has_race)
        return;
    const RootRace *r = &j->race;
    char rule[96], m[96], mean[32];
    root_rule_text(&r->rule, rule, sizeof rule);
    fprintf(out, "\nAdaptive root design (root_design %s: rounds of %d pairs to each line still "
                 "in; t intervals at 1 - %g / (K (r + 1) (r + 2)), K = %d lines, round r)\n",
            rule, r->rule.round_pairs, 1.0 - r->rule.confidence, r->nlines);
    fprintf(out, "  %-16s %8s  %-9s %-18s  %s\n", "line", "pairs", "mean", "interval", "status");
    int out_lines = 0;
    for (int i = 0; i < r->nlines; i++) {
        if (r->nlines <= ROOT_LINES_LISTED || r->out_round[i] < 0)
            race_line(j, r, i, out);
        else
            out_lines++;
    }
    if (out_lines)
        fprintf(out, "  (and %d lines out, listed in JSON)\n", out_lines);
    fprintf(out, "  rounds %d, pairs %lld of %lld planned; lines in by round:", r->round + 1,
            (long long)r->next_pair, (long long)(j->games_planned / 2));
    for (int k = 0; k <= r->round && k < 40; k++)
        fprintf(out, " %d", r->round_lines[k]);
    fprintf(out, "%s\n", r->round >= 40 ? " ..." : "");
    /* The value is the race's answer; the interval is the race's even before it has one. */
    Estimate root = analyze_race_answer(j);
    fprintf(out, "  root value (minimax of the means)  %s [%+.4f, %+.4f], half-width %.1f points; "
                 "best line %s\n",
            isnan(root.value) ? "-" : race_value(mean, sizeof mean, root.value), r->root.lo,
            r->root.hi, 100.0 * (r->root.hi - r->root.lo) / 2.0,
            line_named(j, true, r->best, m, sizeof m));
    fprintf(out, "  stopped: %s (the rule: a half-width of %g points)\n",
            analyze_race_end_text(j), r->rule.halfwidth);
}

/* Every table of one job. */
static void print_job(const Analysis *a, const JobAnalysis *j, FILE *out)
{
    print_heading(j, out);
    print_outcomes(j, out);
    print_advantage(j, out);
    print_conventions(j, out);
    print_distributions(j, out);
    print_agents(j, &a->opt, out);
    print_game_pairs(j, &a->opt, out);
    print_root(j, out);
    print_race(j, out);
    print_metrics(j, out);
    print_work(j, out);
    fprintf(out, "\n");
}

/* A job's unit in a few words: "1000 pairs", "335 openings". */
static const char *unit_count(char *buf, size_t len, const PairUnits *u)
{
    snprintf(buf, len, "%llu %s", (unsigned long long)u->units,
             u->unit == PAIR_UNIT_OPENING ? "openings" : "pairs");
    return buf;
}

/* The jobs whose games follow few lines, named after a warning's words. */
static void print_few_line_jobs(const Analysis *a, bool rated_only, FILE *out)
{
    int n = 0;
    for (int i = 0; i < a->njobs; i++)
        if (a->jobs[i].lines_few && (!rated_only || a->jobs[i].two_agents))
            fprintf(out, "%s%s", n++ ? ", " : " ", a->jobs[i].name);
    fprintf(out, "\n");
}

/* The advantage of every job side by side, each with the unit its design calls for (the
 * pair, or the opening where pairs repeat openings: a game-unit interval would be too
 * narrow), and the test of their equality where it holds. */
static void print_job_table(const Analysis *a, FILE *out)
{
    char b[EST_LEN], p[32], len[32], u[48];
    fprintf(out, "== between jobs\n%-44s %-16s %-30s %s\n", "job", "unit",
            "advantage [95%, that unit]", "mean plies");
    bool few = false;
    for (int i = 0; i < a->njobs; i++) {
        const JobAnalysis *j = &a->jobs[i];
        fprintf(out, "%-44s %-16s %-30s %s%s\n", j->name,
                unit_count(u, sizeof u, &j->pair_advantage.units),
                est(b, EST_LEN, j->pair_advantage.advantage, 4),
                num(len, sizeof len, j->length.mean, 1), j->lines_few ? "  (few lines)" : "");
        few |= j->lines_few;
    }
    fprintf(out, "(the advantage per game, over the job's pairs, or its openings where pairs repeat "
                 "openings, as in each job's pairs table)\n");
    if (few) {
        fprintf(out, "warning: these jobs' games follow few lines, so their figures describe "
                     "those lines rather than the game from its start:");
        print_few_line_jobs(a, false, out);
    }
    if (isnan(a->omnibus.p_value))
        fprintf(out, "chi-square of the outcome counts over all jobs: not made: it counts games "
                     "as independent, and some jobs' games are not (openings shared by a "
                     "pair or repeated, few lines or repeated games)\n");
    else
        fprintf(out, "chi-square of the outcome counts (South, North, draw) over all jobs: "
                     "chi2 %.3f, df %.0f, p %s\n", a->omnibus.statistic, a->omnibus.df,
                pval(p, sizeof p, a->omnibus.p_value));
}

/* The tests of difference between pairs of jobs, Holm-corrected. */
static void print_pairs(const Analysis *a, FILE *out)
{
    char p[4][32];
    bool censored = false;
    if (a->npairs == 0) {
        fprintf(out, "no pairs of jobs to test (none one parameter apart with the same agents, "
                     "and more than 10 jobs)\n");
        return;
    }
    fprintf(out, "\nTests of difference between %s (Holm within each column)\n",
            a->pairs_by_parameter ? "jobs one variant parameter apart, same agents"
                                  : "every pair of jobs");
    fprintf(out, "%-60s %-12s %-30s %10s %10s %10s %10s %10s %10s %10s\n", "pair",
            "differs in", "advantage difference [95%]", "p", "Holm p", "chi2", "p", "Holm p",
            "MW p", "Holm p");
    bool untested = false;
    for (int k = 0; k < a->npairs; k++) {
        const JobPair *q = &a->pairs[k];
        char label[160], d[EST_LEN], p6[2][32], chi[32];
        snprintf(label, sizeof label, "%s vs %s", a->jobs[q->i].name, a->jobs[q->j].name);
        snprintf(chi, sizeof chi, isnan(q->chi.statistic) ? "-" : "%.3f", q->chi.statistic);
        fprintf(out, "%-60s %-12s %-30s %10s %10s %10s %10s %10s %10s %10s%s\n", label,
                q->differs ? q->differs : "-", est(d, sizeof d, q->advantage.difference, 4),
                pval(p6[0], 32, q->advantage.p_value), pval(p6[1], 32, q->advantage_holm), chi,
                pval(p[0], 32, q->chi.p_value), pval(p[1], 32, q->chi_holm),
                pval(p[2], 32, job_pair_length_p(q)), pval(p[3], 32, q->lengths_holm),
                q->game_tests && q->lengths_censored ? " LR" : "");
        censored |= q->game_tests && q->lengths_censored;
        untested |= !q->game_tests;
    }
    fprintf(out, "(advantage difference: the first job's minus the second's, each with its own "
                 "unit as in the table above, Welch's t; chi2: chi-square on South/North/draw "
                 "counts; MW: Mann-Whitney on game lengths%s)\n",
            censored ? ", or, marked LR, the log-rank test where a job has games stopped at "
                       "max_plies (censored)" : "");
    if (untested)
        fprintf(out, "(\"-\": chi2 and the length test count games as independent, and a job "
                     "of that pair has games that are not: its pairs share openings, or its "
                     "games repeat or follow few lines; they are not made)\n");
}

/* The crosstable of the agents in rating order: the row agent's points against the column
 * agent over their games, as "points/games"; agents numbered in the first column. */
static void print_crosstable(const Analysis *a, const int *order, FILE *out)
{
    int m = a->nagents;
    fprintf(out, "\nCrosstable (points of the row agent against the column agent, a win 1 and a "
                 "draw 1/2, over their finished games in both colours; agents in rating "
                 "order)\n");
    fprintf(out, "%-3s %-32s", "", "agent");
    for (int c = 0; c < m; c++)
        fprintf(out, " %12d", c + 1);
    fprintf(out, "\n");
    for (int r = 0; r < m; r++) {
        fprintf(out, "%-3d %-32s", r + 1, a->agent_labels[order[r]]);
        for (int c = 0; c < m; c++) {
            const CrossCell *x = &a->cross[order[r] * m + order[c]];
            char cell[48] = "-";
            if (r != c && x->games > 0)
                snprintf(cell, sizeof cell, "%llu%s/%llu",   /* exact at any count */
                         (unsigned long long)(x->half_points / 2), x->half_points % 2 ? ".5" : "",
                         (unsigned long long)x->games);
            fprintf(out, " %12s", cell);
        }
        fprintf(out, "\n");
    }
}

/* The Bradley-Terry-Davidson ratings of the agents with their prior, in rating order, and the
 * crosstable. */
static void print_ratings(const Analysis *a, FILE *out)
{
    if (a->bt_status < 0)
        return;
    fprintf(out, "\nRatings (Bradley-Terry-Davidson with a first-move term, over the jobs "
                 "with two agents; Elo points, %s = 0; maximum a posteriori with a Gaussian "
                 "prior of sd %g Elo on each rating about their mean)\n", a->agent_labels[0],
            BT_PRIOR_SD_ELO);
    if (a->bt_few_lines) {
        fprintf(out, "warning: the games of rated jobs follow few lines, so these ratings "
                     "describe those lines rather than the players; for the players use "
                     "openings (a book, plies:N):");
        print_few_line_jobs(a, true, out);
    }
    int *order = malloc((size_t)a->nagents * sizeof *order);
    if (!order)
        return;
    analyze_rating_order(a, order);
    if (a->bt_status != BT_OK) {
        fprintf(out, "no fit: %s\n", bt_strerror(a->bt_status));
    } else {
        const BtFit *f = &a->bt;
        double z = gsl_cdf_ugaussian_Pinv(0.5 + ANALYZE_CONFIDENCE / 2);
        if (!f->data_finite)
            fprintf(out, "(some agents never won or never lost against the others: without "
                         "the prior their ratings would be infinite; the prior keeps them "
                         "finite, with wide intervals)\n");
        if (a->bt_design_job >= 0)
            fprintf(out, "(the fit counts games, and the matches' games are not independent: "
                         "se and intervals widened by %.2f, the square root of the largest "
                         "design effect %.2f, job %s's)\n", sqrt(a->bt_design_effect),
                    a->bt_design_effect, a->jobs[a->bt_design_job].name);
        fprintf(out, "%-32s %10s %10s  %s\n", "agent", "rating", "se", "95% interval");
        for (int k = 0; k < f->agents; k++) {
            int i = order[k];
            fprintf(out, "%-32s %10.1f %10.1f  [%.1f, %.1f]\n", a->agent_labels[i], f->rating[i],
                    f->rating_se[i], f->rating[i] - z * f->rating_se[i],
                    f->rating[i] + z * f->rating_se[i]);
        }
        fprintf(out, "%-32s %10.1f %10.1f  [%.1f, %.1f]\n", "first move (South)", f->home,
                f->home_se, f->home - z * f->home_se, f->home + z * f->home_se);
        fprintf(out, "%-32s %10.4f %10.4f\n", "draw parameter nu", f->draw_nu,
                f->draw_nu_se);
    }
    print_crosstable(a, order, out);
    free(order);
}

/* An advantage in points (per 100 games, signed) as "+28.1 [+24.0, +32.2]". */
static const char *points(char *buf, size_t len, Estimate x)
{
    if (isnan(x.value))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%+.1f [%+.1f, %+.1f]", 100 * x.value, 100 * x.ci.lo,
                 100 * x.ci.hi);
    return buf;
}

/* A cell's sample: games, the share of distinct games, the units of its interval, and
 * "alike" where every unit had the same value (the interval is then the all-alike bound). */
static const char *cell_sample(char *buf, size_t len, const JobAnalysis *j)
{
    char share[32] = "?";
    if (j->has_distinct && j->distinct.games)
        snprintf(share, sizeof share, "%.0f%%",
                 100.0 * (double)j->distinct.distinct / (double)j->distinct.games);
    const PairUnits *u = &j->pair_advantage.units;
    snprintf(buf, len, "%llu g, %s distinct, %llu %s%s", (unsigned long long)j->rows, share,
             (unsigned long long)u->units, u->unit == PAIR_UNIT_OPENING ? "openings" : "pairs",
             j->pair_advantage.degenerate ? " alike" : "");
    return buf;
}

/* The widest rung label kept in line with its cells: a longer agent spec (tuned weights
 * make specs of 150 characters) is printed on a line of its own, so the table stays
 * readable in a terminal. */
#define SKILL_LABEL_MAX 44

/* One column of a design's table: padded, but for the last (no trailing spaces). */
static void skill_column(FILE *out, const char *text, bool last)
{
    fprintf(out, last ? "  %s" : "  %-38s", text);
}

/* Whether a job of rung r of design d ran an adaptive root design. */
static bool skill_rung_raced(const Analysis *a, const SkillDesign *d, int r)
{
    for (int k = 0; k < d->nconv; k++) {
        int i = d->cell[r * CONV_NB + d->conv[k]];
        if (i >= 0 && a->jobs[i].has_race)
            return true;
    }
    return false;
}

/* A race's answer as a skill cell: "+72.2 [+62.3, +82.1] hw" (hw: stopped at its
 * half-width; budget: its games spent first). */
static const char *race_cell(char *buf, size_t len, const JobAnalysis *j)
{
    char p[48];   /* "+100.0 [+100.0, +100.0]" and room */
    snprintf(buf, len, "%.47s %s", points(p, sizeof p, analyze_race_answer(j)),
             j->race.stop == ROOT_STOP_HALFWIDTH ? "hw" : "budget");
    return buf;
}

/* Under a rung of a root design (all:N): its best line's advantage, held out, and the
 * rung's rating where the file's matches give one; the adaptive race's answer where the
 * rung ran one; then the simultaneous bounds. */
static void print_skill_root_row(const Analysis *a, const SkillDesign *d, int r, int w,
                                 FILE *out)
{
    char b[EST_LEN];
    double rating, se;
    fprintf(out, "  %-*s", w, "  best line (held out)");
    for (int k = 0; k < d->nconv; k++) {
        int i = d->cell[r * CONV_NB + d->conv[k]];
        skill_column(out, i < 0 || !a->jobs[i].has_root
                              ? "-"
                              : points(b, sizeof b, a->jobs[i].root.held_out),
                     k == d->nconv - 1);
    }
    if (analyze_agent_rating(a, a->jobs[d->rung[r]].agent_a, &rating, &se))
        fprintf(out, "   (rung rated %+.0f Elo, se %.0f)", rating, se);
    if (skill_rung_raced(a, d, r)) {
        fprintf(out, "\n  %-*s", w, "  adaptive race (root)");
        for (int k = 0; k < d->nconv; k++) {
            int i = d->cell[r * CONV_NB + d->conv[k]];
            skill_column(out, i < 0 || !a->jobs[i].has_race
                                  ? "-"
                                  : race_cell(b, sizeof b, &a->jobs[i]),
                         k == d->nconv - 1);
        }
    }
    fprintf(out, "\n  %-*s", w, "  simultaneous bounds");
    for (int k = 0; k < d->nconv; k++) {
        int i = d->cell[r * CONV_NB + d->conv[k]];
        if (i >= 0 && a->jobs[i].has_root)
            snprintf(b, sizeof b, "[%+.1f, %+.1f]", 100 * a->jobs[i].root.minimax.lo,
                     100 * a->jobs[i].root.minimax.hi);
        skill_column(out, i < 0 || !a->jobs[i].has_root ? "-" : b, k == d->nconv - 1);
    }
    fprintf(out, "\n");
}

/* Under a root design's table: what its two rows are. */
static void print_skill_ratings(const Analysis *a, const SkillDesign *d, FILE *out)
{
    if (!a->jobs[d->first].has_root)
        return;
    fprintf(out, "  (first row: every line alike, the uniform mixture of South's first moves, "
                 "\"-\" for an adaptive race, whose lines got unequal pairs; \"best line, "
                 "held out\": South choosing its first move as well as it can, the root "
                 "design's figure, with the rung's rating where the file's matches rate it; "
                 "\"adaptive race (root)\": the race's answer, the best line's mean with the "
                 "race's interval (t intervals with a union over lines and rounds, "
                 "propagated by minimax), stopped at its half-width (hw) or by its budget; "
                 "\"simultaneous bounds\": bounds that cover the minimax of the lines' true "
                 "values with at least 95%% confidence, the choice accounted for)\n");
}

/* One design's table: a row per rung with its advantage under each convention, and under
 * it the sample each cell is over. */
static void print_skill_design(const Analysis *a, const SkillDesign *d, int number, FILE *out)
{
    int w = 24;   /* the rung column: as wide as its labels, up to SKILL_LABEL_MAX */
    for (int r = 0; r < d->nrungs; r++) {
        int len = (int)strlen(a->jobs[d->rung[r]].label_a);
        w = len > w && len <= SKILL_LABEL_MAX ? len : w;
    }
    fprintf(out, "\ndesign %d: openings %s; %s\n  %-*s", number, d->openings, d->variant, w,
            "rung (self-play)");
    for (int k = 0; k < d->nconv; k++)
        skill_column(out, conv_name(d->conv[k]), k == d->nconv - 1);
    fprintf(out, "\n");
    for (int r = 0; r < d->nrungs; r++) {
        char b[EST_LEN];
        const char *label = a->jobs[d->rung[r]].label_a;
        if ((int)strlen(label) > w)   /* a long spec on a line of its own, its cells below */
            fprintf(out, "  %s\n  %-*s", label, w, "");
        else
            fprintf(out, "  %-*s", w, label);
        for (int k = 0; k < d->nconv; k++) {
            int i = d->cell[r * CONV_NB + d->conv[k]];
            skill_column(out, i < 0 || a->jobs[i].has_race
                                  ? "-"
                                  : points(b, sizeof b, a->jobs[i].pair_advantage.advantage),
                         k == d->nconv - 1);
        }
        fprintf(out, "\n  %-*s", w, "");
        for (int k = 0; k < d->nconv; k++) {
            int i = d->cell[r * CONV_NB + d->conv[k]];
            skill_column(out, i < 0 ? "-" : cell_sample(b, sizeof b, &a->jobs[i]),
                         k == d->nconv - 1);
        }
        fprintf(out, "\n");
        if (a->jobs[d->first].has_root)
            print_skill_root_row(a, d, r, w, out);
    }
    print_skill_ratings(a, d, out);
}

/* The first-player advantage against skill: one table per design of self-play jobs. */
static void print_skill(const Analysis *a, FILE *out)
{
    if (a->nskill == 0)
        return;
    fprintf(out, "\nFirst-player advantage against skill (self-play jobs; points per 100 games, "
                 "P(South won) - P(North won) with its 95%% interval, the pair as unit, or the "
                 "opening where pairs repeat openings; \"alike\": every unit gave the same "
                 "result, and the interval bounds the share that could differ)\n");
    for (int d = 0; d < a->nskill; d++)
        print_skill_design(a, &a->skill[d], d + 1, out);
}

/* ---- the variant atlas (analyze_atlas.h) ------------------------------------------------ */

/* A cell's verdict in the grid: "!" contradicts, "?" undecided, nothing else. */
static const char *verdict_mark(AtlasVerdict v)
{
    return v == ATLAS_CONTRADICTS ? " !" : v == ATLAS_UNDECIDED ? " ?" : "";
}

/* A grid cell's text: "+20 [+11,+30] =0 !". */
static const char *atlas_grid_text(const AtlasCell *c, char *buf, size_t len)
{
    char fig[64], exact[16];
    snprintf(buf, len, "%s%s%s%s", atlas_cell_figure(c, fig, sizeof fig),
             c->has_exact ? " " : "", atlas_cell_exact(c, exact, sizeof exact),
             verdict_mark(c->verdict));
    return buf;
}

/* The widest cell of an atlas, for its columns. */
static int atlas_cell_width(const Atlas *t)
{
    int w = 8;   /* "seeds 12" */
    for (int i = 0; i < t->nconv * t->nholes * t->nseeds; i++) {
        char b[96];
        int n = (int)strlen(atlas_grid_text(&t->cells[i], b, sizeof b));
        w = n > w ? n : w;
    }
    return w;
}

/* One column of a grid, w wide; the last one unpadded, ending the line. */
static void atlas_column(FILE *out, const char *text, int w, bool last)
{
    if (last)
        fprintf(out, "  %s\n", text);
    else
        fprintf(out, "  %-*s", w, text);
}

/* One convention's grid: holes as rows, seeds as columns. */
static void print_atlas_grid(const Atlas *t, int k, FILE *out)
{
    int w = atlas_cell_width(t);
    fprintf(out, "  %-12s", conv_name(t->conv[k]));
    for (int s = 0; s < t->nseeds; s++) {
        char head[24];
        snprintf(head, sizeof head, "seeds %d", t->seeds[s]);
        atlas_column(out, head, w, s == t->nseeds - 1);
    }
    for (int h = 0; h < t->nholes; h++) {
        char head[24], b[96];
        snprintf(head, sizeof head, "holes %d", t->holes[h]);
        fprintf(out, "  %-12s", head);
        for (int s = 0; s < t->nseeds; s++)
            atlas_column(out, atlas_grid_text(atlas_cell(t, k, h, s), b, sizeof b), w,
                         s == t->nseeds - 1);
    }
}

/* A cell as a line of a list: its board and convention, its answer with one decimal, its
 * exact value and verdict, its job. */
static void print_atlas_cell_line(const Analysis *a, const AtlasCell *c, FILE *out)
{
    char where[64], fig[EST_LEN], exact[48] = "", value[16];
    snprintf(where, sizeof where, "holes %d, seeds %d, %s", c->holes, c->seeds,
             conv_name(c->conv));
    if (c->has_exact)
        snprintf(exact, sizeof exact, "exact %s%s%s", atlas_cell_exact(c, value, sizeof value) + 1,
                 c->verdict != ATLAS_NO_EXACT ? ": " : "",
                 c->verdict != ATLAS_NO_EXACT ? atlas_verdict_name(c->verdict) : "");
    snprintf(fig, sizeof fig, "%+.1f [%+.1f, %+.1f]", c->answer.value, c->answer.ci.lo,
             c->answer.ci.hi);
    fprintf(out, "%-36s %-24s %-22s job %s\n", where, fig, exact, a->jobs[c->job].name);
}

/* The fairest cells of an atlas. */
static void print_atlas_fairest(const Analysis *a, const Atlas *t, FILE *out)
{
    fprintf(out, "  fairest variants (intervals that hold 0 first, then by the larger of |lo| "
                 "and |hi|, then by |value|; the first %d):\n", ATLAS_FAIREST);
    for (int r = 0; r < t->nfair; r++) {
        fprintf(out, "    %2d  ", r + 1);
        print_atlas_cell_line(a, &t->cells[t->fair[r]], out);
    }
}

/* The check of an atlas's estimates against the exact values: the counts per convention,
 * then every cell that does not agree. */
static void print_atlas_check(const Analysis *a, const Atlas *t, FILE *out)
{
    int exact = 0, misses = 0;
    for (int k = 0; k < t->nconv; k++) {
        exact += t->check[k].exact;
        misses += t->check[k].exact - t->check[k].agrees;
    }
    if (exact == 0) {
        fprintf(out, "  exact-value check: no cell has a known exact value\n");
        return;
    }
    fprintf(out, "  exact-value check (the interval's sign against the exact value's: above 0, "
                 "below 0, or holding 0, which agrees with an exact 0; undecided: it holds 0 "
                 "where the exact value is not 0; contradicts: it excludes 0 on the wrong "
                 "side, or away from an exact 0):\n");
    for (int k = 0; k < t->nconv; k++) {
        const AtlasCheck *x = &t->check[k];
        fprintf(out, "    %-12s %d with an exact value: %d agree, %d undecided, %d contradict\n",
                conv_name(t->conv[k]), x->exact, x->agrees, x->undecided, x->contradicts);
    }
    if (misses == 0)
        return;
    fprintf(out, "    not agreeing:\n");
    for (int i = 0; i < t->nconv * t->nholes * t->nseeds; i++) {
        const AtlasCell *c = &t->cells[i];
        if (c->verdict == ATLAS_UNDECIDED || c->verdict == ATLAS_CONTRADICTS) {
            fprintf(out, "      ");
            print_atlas_cell_line(a, c, out);
        }
    }
}

/* The rung's rating in each cell that has a match of it. */
static void print_atlas_ratings(const Analysis *a, const Atlas *t, FILE *out)
{
    if (t->nratings == 0)
        return;
    fprintf(out, "  the rung's rating in each cell (a match on its board under its convention "
                 "with the rung as A: A's Elo over B, 95%%, in the match's unit):\n");
    for (int r = 0; r < t->nratings; r++) {
        const AtlasRating *x = &t->ratings[r];
        const JobAnalysis *j = &a->jobs[x->job];
        char where[64], fig[EST_LEN];
        snprintf(where, sizeof where, "holes %d, seeds %d, %s", x->holes, x->seeds,
                 final_four_name((FinalFour)x->final_four));
        snprintf(fig, sizeof fig, "%+.0f [%+.0f, %+.0f]", x->elo.value, x->elo.ci.lo,
                 x->elo.ci.hi);
        fprintf(out, "    %-33s %-22s against %s (job %s)\n", where, fig, j->label_b, j->name);
    }
}

/* The variant atlases: per atlas (a rung), a grid per convention, the ratings, the fairest
 * cells and the check against the exact values. */
static void print_atlas(const Analysis *a, FILE *out)
{
    if (a->natlas == 0)
        return;
    fprintf(out, "Variant atlas (self-play jobs of one agent spec that differ only in holes, "
                 "seeds and the convention; each cell the job's answer, South's advantage in "
                 "points per 100 games with its 95%% interval; =V: South's exact margin in seeds "
                 "from the board's start under perfect play, where it is known and the job "
                 "plays from the start; ! the interval contradicts it in sign, ? it holds 0 "
                 "where the exact value is not 0)\n");
    for (int n = 0; n < a->natlas; n++) {
        const Atlas *t = &a->atlas[n];
        char what[1600];
        atlas_describe(a, t, what, sizeof what);
        fprintf(out, "\natlas %d: %s\n", n + 1, what);
        for (int k = 0; k < t->nconv; k++)
            print_atlas_grid(t, k, out);
        print_atlas_ratings(a, t, out);
        print_atlas_fairest(a, t, out);
        print_atlas_check(a, t, out);
    }
    fputc('\n', out);
}

/* An answer's figure: "+7.0 [-1.2, +15.2]" with its scale's decimals. */
static const char *answer_figure(char *buf, size_t len, const JobAnswer *w)
{
    if (isnan(w->value.value))
        snprintf(buf, len, "-");
    else
        snprintf(buf, len, "%+.1f [%+.1f, %+.1f]", w->value.value, w->value.ci.lo,
                 w->value.ci.hi);
    return buf;
}

/* The answers first: a line per job with its figure, the scale and units it is in, and what
 * it estimates; the detail follows. */
void analyze_print_answers(const Analysis *a, FILE *out)
{
    int wn = 3;
    for (int i = 0; i < a->njobs; i++)
        wn = (int)strlen(a->jobs[i].name) > wn ? (int)strlen(a->jobs[i].name) : wn;
    fprintf(out, "Answers (each job's figure with its 95%% interval in the unit its design calls "
                 "for; the detail follows)\n");
    fprintf(out, "  %-*s  %-26s %-21s %-16s %s\n", wn, "job", "answer [95%]", "scale",
            "over", "estimates");
    for (int i = 0; i < a->njobs; i++) {
        JobAnswer w = analyze_job_answer(&a->jobs[i]);
        char fig[96], over[48];
        snprintf(over, sizeof over, "%llu %s", (unsigned long long)w.units,
                 design_unit_plural(w.unit));
        fprintf(out, "  %-*s  %-26s %-21s %-16s %s\n", wn, a->jobs[i].name,
                answer_figure(fig, sizeof fig, &w), w.scale, over, w.estimates);
    }
    fputc('\n', out);
}

void analyze_print(const Analysis *a, FILE *out)
{
    fprintf(out, "results file %s (program %s, commit %s; %s to %s)\n\n", a->path,
            a->program_version ? a->program_version : "?",
            a->git_commit ? a->git_commit : "?", a->started ? a->started : "?",
            a->finished ? a->finished : "not finished");
    analyze_print_answers(a, out);
    print_atlas(a, out);
    for (int i = 0; i < a->njobs; i++)
        print_job(a, &a->jobs[i], out);
    if (a->njobs >= 2) {
        print_job_table(a, out);
        print_pairs(a, out);
        print_skill(a, out);
    }
    print_ratings(a, out);
}
