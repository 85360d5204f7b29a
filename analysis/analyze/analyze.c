/* analyze.c: one streamed pass over each job's games, then the estimates and the tests. */
#include "analyze.h"

#include <gsl/gsl_cdf.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eval.h"
#include "results.h"
#include "results_read.h"

#define READ_ROWS 65536u          /* rows decoded per read: about 2.5 MB of records */

/* Every pair of conventions once: a convention added to FinalFour needs its pairs here
 * (and room in CONV_PAIRS_NB), which this check asks for. */
_Static_assert(CONV_PAIRS_NB == CONV_NB * (CONV_NB - 1) / 2,
               "conv_pair must list every pair of the FinalFour conventions");

void conv_pair(int p, int *c1, int *c2)
{
    static const int pairs[CONV_PAIRS_NB][2] = { { FF_PENULTIMATE, FF_FIRST_FINAL },
                                                 { FF_PENULTIMATE, FF_LOTTERY },
                                                 { FF_FIRST_FINAL, FF_LOTTERY } };
    *c1 = pairs[p][0];
    *c2 = pairs[p][1];
}

bool agent_is_convention_blind(const char *spec)
{
    const AgentKind *k = agent_kind_of(spec);
    return k && k->convention_blind;
}

/* The value of `key=` in a full spec (after ':' or ','), or NaN when it has none. */
static double spec_value(const char *spec, const char *key)
{
    size_t n = strlen(key);
    for (const char *s = strchr(spec, ':'); s; s = strchr(s + 1, ',')) {
        if (strncmp(s + 1, key, n) == 0 && s[1 + n] == '=')
            return strtod(s + 2 + n, NULL);
    }
    return NAN;
}

/* Whether a full spec's weights and fade are every one the named set's (tuned or plain). */
static bool spec_has_weight_set(const char *played, bool tuned)
{
    for (int t = 0; t < EVAL_NB; t++) {
        char key[40];
        snprintf(key, sizeof key, "w.%s", eval_terms[t].name);
        double want = tuned ? eval_terms[t].tuned : eval_terms[t].def;
        if (!(fabs(spec_value(played, key) - want) < 1e-9))
            return false;
    }
    double fade = tuned ? EVAL_FADE_TUNED : EVAL_FADE_DEFAULT;
    return fabs(spec_value(played, "fade") - fade) < 1e-9;
}

/* The text of `key=` in a full spec into buf (empty when the spec has none). */
static void spec_text(const char *spec, const char *key, char *buf, size_t len)
{
    size_t n = strlen(key);
    buf[0] = '\0';
    for (const char *s = strchr(spec, ':'); s; s = strchr(s + 1, ',')) {
        if (strncmp(s + 1, key, n) == 0 && s[1 + n] == '=') {
            const char *v = s + 2 + n;
            snprintf(buf, len, "%.*s", (int)strcspn(v, ","), v);
            return;
        }
    }
}

void analyze_agent_label(const char *given, const char *played, char *buf, size_t len)
{
    char set[AGENT_TEXT_MAX + 32] = "", weights[AGENT_TEXT_MAX] = "", file[AGENT_TEXT_MAX];
    if (played)
        spec_text(played, "weights", weights, sizeof weights);
    if (!played) {
        snprintf(set, sizeof set, " [played spec unknown]");
    } else if (strcmp(weights, "learned") == 0) {
        /* The learned evaluation ignores the w.<term> weights (they only order moves). */
        spec_text(played, "learned", file, sizeof file);
        snprintf(set, sizeof set, file[0] ? " [learned weights: %s]" : " [learned weights]",
                 file);
    } else if (strcmp(weights, "net") == 0) {
        /* So does the network: its file, or the compiled-in one. */
        spec_text(played, "net", file, sizeof file);
        snprintf(set, sizeof set, file[0] ? " [network: %s]" : " [network]", file);
    } else if (spec_has_weight_set(played, true)) {
        snprintf(set, sizeof set, " [tuned weights]");
    } else if (spec_has_weight_set(played, false)) {
        snprintf(set, sizeof set, " [plain weights]");
    }
    snprintf(buf, len, "%s%s", given, set);
}

/* Count one game of outcome o. */
static void outcomes_add(Outcomes *x, int o)
{
    switch (o) {
    case OUT_SOUTH: x->south++; break;
    case OUT_NORTH: x->north++; break;
    case OUT_DRAW: x->draw++; break;
    case OUT_ENDLESS: x->endless++; break;
    default: x->unfinished++; break;
    }
}

/* Who receives the seeds left under convention c: 0 South, 1 North, -1 nobody. The rule is
 * the engine's (award_recipient), so analyze re-scores a game as the game itself scores. */
static int recipient(const GameRecord *r, int c)
{
    return award_recipient((FinalFour)c, r->last_capturer, r->first_final, r->lottery);
}

/* The outcomes of a finished game under every convention, from its scores and recipients:
 * the award of the job's convention taken back, then given to each convention's recipient.
 * Returns false when the scores cannot have had that award (an inconsistent row). */
static bool convention_outcomes(const GameRecord *r, int job_conv, int out[CONV_NB])
{
    int given = recipient(r, job_conv);
    long s = r->south - (given == 0 ? r->left : 0);
    long n = r->north - (given == 1 ? r->left : 0);
    for (int c = 0; c < CONV_NB; c++) {
        int to = recipient(r, c);
        long cs = s + (to == 0 ? r->left : 0), cn = n + (to == 1 ? r->left : 0);
        out[c] = cs > cn ? OUT_SOUTH : cs < cn ? OUT_NORTH : OUT_DRAW;
    }
    return s >= 0 && n >= 0 && out[job_conv] == r->outcome;
}

/* Grow a histogram to hold bin i; -1 when out of memory. */
static int hist_reserve(uint64_t **h, size_t *len, size_t i)
{
    if (i < *len)
        return 0;
    size_t want = i + 1 > 2 * *len ? i + 1 : 2 * *len;
    uint64_t *grown = realloc(*h, want * sizeof *grown);
    if (!grown)
        return -1;
    memset(grown + *len, 0, (want - *len) * sizeof *grown);
    *h = grown;
    *len = want;
    return 0;
}

/* Count the paired yes/no of "South won" and "North won" under each pair of conventions. */
static void paired_add(JobAnalysis *j, const int out[CONV_NB])
{
    for (int p = 0; p < CONV_PAIRS_NB; p++) {
        int c1, c2;
        conv_pair(p, &c1, &c2);
        bool s1 = out[c1] == OUT_SOUTH, s2 = out[c2] == OUT_SOUTH;
        bool n1 = out[c1] == OUT_NORTH, n2 = out[c2] == OUT_NORTH;
        j->mc_south[p].only_first += s1 && !s2;
        j->mc_south[p].only_second += s2 && !s1;
        j->mc_north[p].only_first += n1 && !n2;
        j->mc_north[p].only_second += n2 && !n1;
    }
}

/* Agent A's result in a finished game. */
static void agent_add(JobAnalysis *j, const GameRecord *r)
{
    if (r->outcome == OUT_DRAW) {
        j->a_draws++;
        return;
    }
    bool a_won = (r->outcome == OUT_SOUTH) == (r->a_south != 0);
    j->a_wins += a_won;
    j->a_losses += !a_won;
}

/* South's points minus North's in a game under each convention (conv: its outcome under
 * each, from convention_outcomes; an endless or unfinished game 0 under all). */
static void convention_sn(const int conv[CONV_NB], int sn[CONV_NB])
{
    for (int c = 0; c < CONV_NB; c++)
        sn[c] = conv[c] == OUT_SOUTH ? 1 : conv[c] == OUT_NORTH ? -1 : 0;
}

/* Pair the games 2k and 2k+1 (rows come in game order): the even one waits for the odd
 * one, then the pair is counted, or left out when either game is unfinished. A counted pair
 * is also kept with its opening, for the estimates whose unit is the opening, and so under
 * each convention (conv: the game's outcome under each). */
static void pair_add(JobAnalysis *j, const GameRecord *r, const int conv[CONV_NB])
{
    int sn, a = record_a_half_points(r, &sn), csn[CONV_NB];
    convention_sn(conv, csn);
    int8_t even_a = j->tally.waiting_a, even_sn = j->tally.waiting_sn;
    if (r->game % 2 == 0) {
        memcpy(j->pending_conv_sn, csn, sizeof csn);
        j->pending_outcome = (int)r->outcome;
    }
    int counted = pair_tally_add(&j->tally, r->game, a, sn);
    if (r->game % 2 == 1 &&
        analyze_race_pair(j, r, counted, counted ? (sn + even_sn) / 2.0 : 0.0) != 0)
        j->race_fault = true;   /* out of memory: said as a fault, never a wrong race */
    if (!counted || !j->pair_results)
        return;
    PairResult *p = &j->pair_results[j->npair_results++];
    *p = (PairResult){ r->opening, (uint8_t)(a + even_a), (uint8_t)(sn + even_sn + 2), { 0 }, { 0 } };
    for (int c = 0; c < CONV_NB; c++)
        p->rescored[c] = (uint8_t)(csn[c] + j->pending_conv_sn[c] + 2);
    const int shared[PAIR_SHARES_NB] = { OUT_SOUTH, OUT_NORTH, OUT_DRAW };
    for (int k = 0; k < PAIR_SHARES_NB; k++)
        p->shares[k] = (uint8_t)(((int)r->outcome == shared[k]) +
                                 (j->pending_outcome == shared[k]));
}

/* Count one game of a job; -1 when out of memory. */
static int job_add(JobAnalysis *j, const GameRecord *r)
{
    int o = r->outcome;             /* 0 to 4: the reader checked every row */
    int out[CONV_NB] = { o, o, o };
    /* An adjudicated game's winner held more than half the seeds: it wins under every
     * convention, and its final margin was never played out. */
    bool adjudicated = j->adjudicate && record_adjudicated(&j->variant, r);
    bool consistent = o > OUT_DRAW || adjudicated ||
                      convention_outcomes(r, (int)j->variant.final_four, out);
    outcomes_add(&j->all, o);
    outcomes_add(&j->by_south[r->a_south ? 0 : 1], o);
    pair_add(j, r, out);
    j->work[0] += r->nodes_a;
    j->work[1] += r->nodes_b;
    j->choices[0] += r->choices_a;
    j->choices[1] += r->choices_b;
    if (hist_reserve(&j->lengths, &j->lengths_len, r->plies) != 0)
        return -1;
    j->lengths[r->plies]++;
    if (o > OUT_DRAW) {
        for (int c = 0; c < CONV_NB; c++)
            outcomes_add(&j->conv[c], o);
        return 0;
    }
    if (!consistent)
        j->inconsistent++;
    for (int c = 0; c < CONV_NB; c++)
        outcomes_add(&j->conv[c], out[c]);
    paired_add(j, out);
    agent_add(j, r);
    if (adjudicated) {
        j->adjudicated++;
        return 0;
    }
    int64_t m = (int64_t)r->south - (int64_t)r->north - j->margin_origin;
    if (m >= 0 && (size_t)m < j->margins_len)
        j->margins[m]++;
    return 0;
}

/* Trim a histogram's empty bins at the top. */
static void hist_trim(const uint64_t *h, size_t *len)
{
    while (*len > 0 && h[*len - 1] == 0)
        (*len)--;
}

/* Out of memory for job j's table: the file, the job and its rows named. */
static int job_out_of_memory(ResultsFile *f, const JobAnalysis *j, Error *e)
{
    return error_set(e, "%s: job %s: out of memory for its %" PRIu64 " games", rf_path(f),
                     j->name, (uint64_t)j->rows);
}

/* The moves_hash, line_hash and opening of a job's games, gathered as they stream by, for the
 * counts of distinct games, lines and openings (8 bytes a game each: sorting needs them all).
 * A column the file lacks (written before it existed) is not gathered. */
typedef struct Repeats {
    uint64_t *hashes;             /* NULL: no moves_hash column */
    uint64_t *lines;              /* NULL: no line_hash column; A South's games from the
                                   * front, A North's from the back */
    uint64_t *openings;           /* the openings >= 0; NULL: no opening column */
    uint64_t n, used;
    uint64_t south, north;        /* lines gathered with A South, with A North */
} Repeats;

static int repeats_init(ResultsFile *f, const JobAnalysis *j, Repeats *r, Error *e)
{
    memset(r, 0, sizeof *r);
    size_t n = (size_t)j->rows + 1;
    if ((rf_job_has_field(f, j->name, "moves_hash") && !(r->hashes = malloc(n * 8))) ||
        (rf_job_has_field(f, j->name, "line_hash") && !(r->lines = malloc(n * 8))) ||
        (rf_job_has_field(f, j->name, "opening") && !(r->openings = malloc(n * 8))))
        return job_out_of_memory(f, j, e);
    return 0;
}

/* One game's hash and opening; an opening below -1 is damage. */
static int repeats_add(Repeats *r, ResultsFile *f, const JobAnalysis *j, const GameRecord *g,
                       Error *e)
{
    if (r->n >= j->rows)
        return 0;
    if (r->hashes)
        r->hashes[r->n] = g->moves_hash;
    if (r->lines && g->a_south)
        r->lines[r->south++] = g->line_hash;
    else if (r->lines)
        r->lines[j->rows - 1 - r->north++] = g->line_hash;
    if (r->openings && g->opening < -1)
        return error_set(e, "%s: job %s: game %" PRIu64 ": damaged row (opening %" PRId64
                         ", expected -1 or more)", rf_path(f), j->name, r->n,
                         (int64_t)g->opening);
    if (r->openings && g->opening >= 0)
        r->openings[r->used++] = (uint64_t)g->opening;
    r->n++;
    return 0;
}

/* The distinct lines, and whether most games follow one. In a match each colour assignment
 * plays its own line (A's line as South, B's as South), so two deterministic agents follow
 * two lines, each by half the games: the share is taken within each assignment too. */
static void count_lines(Repeats *r, JobAnalysis *j)
{
    uint64_t *south = r->lines, *north = r->lines + (j->rows - r->north);
    DistinctGames s = distinct_games(south, (size_t)r->south);
    DistinctGames n = distinct_games(north, (size_t)r->north);
    double ss = distinct_top_share(&s), ns = distinct_top_share(&n);
    j->lines_colour_share = isnan(ss) ? ns : isnan(ns) ? ss : fmax(ss, ns);
    memmove(r->lines + r->south, north, (size_t)r->north * sizeof *north);
    j->lines = distinct_games(r->lines, (size_t)(r->south + r->north));
    j->lines_few = distinct_lines_few(&j->lines) ||
                   (!isnan(j->lines_colour_share) && j->lines_colour_share >= LINES_WARN_TOP_SHARE);
    j->has_lines = true;
}

/* The counts of distinct games, lines and openings, where the file has their columns. */
static void repeats_count(Repeats *r, JobAnalysis *j)
{
    if (r->hashes) {
        j->distinct = distinct_games(r->hashes, (size_t)r->n);
        j->has_distinct = true;
    }
    if (r->lines)
        count_lines(r, j);
    if (r->openings) {
        j->openings = distinct_games(r->openings, (size_t)r->used);
        j->has_openings = true;
    }
}

static void repeats_free(Repeats *r)
{
    free(r->hashes);
    free(r->lines);
    free(r->openings);
}

/* Stream a job's table through job_add, and gather what the distinct counts need. */
static int job_stream(ResultsFile *f, JobAnalysis *j, GameRecord *buf, Error *e)
{
    RowStream *s = rf_rows_open(f, j->name, e);
    if (!s)
        return -1;
    j->rows = rf_rows_total(s);
    Repeats rep;
    int64_t n = repeats_init(f, j, &rep, e) == 0 ? 1 : -1;
    j->pair_results = malloc(((size_t)j->rows / 2 + 1) * sizeof *j->pair_results);
    if (n > 0 && !j->pair_results)
        n = job_out_of_memory(f, j, e);
    while (n > 0 && (n = rf_rows_next(s, buf, READ_ROWS, e)) > 0) {
        for (int64_t i = 0; i < n && n > 0; i++) {
            if (job_add(j, &buf[i]) != 0)
                n = job_out_of_memory(f, j, e);
            else if (repeats_add(&rep, f, j, &buf[i], e) != 0)
                n = -1;
        }
    }
    rf_rows_close(s);
    if (n == 0)
        repeats_count(&rep, j);
    repeats_free(&rep);
    hist_trim(j->lengths, &j->lengths_len);
    j->unpaired_game = j->tally.waiting;
    return n < 0 ? -1 : 0;
}

/* Compare the table's length histogram with the stored one; a mismatch is damage. */
static int check_stored_histogram(ResultsFile *f, JobAnalysis *j, Error *e)
{
    uint64_t *stored;
    size_t len;
    int rc = rf_length_histogram(f, j->name, j->lengths_len, &stored, &len, e);
    if (rc <= 0)
        return rc;
    bool same = len == j->lengths_len &&
                (len == 0 || memcmp(stored, j->lengths, len * sizeof *stored) == 0);
    free(stored);
    if (!same)
        return error_set(e, "%s: job %s: damaged results file (length_histogram disagrees "
                         "with the games table)", rf_path(f), j->name);
    j->stored_histogram = true;
    return 0;
}

/* A job's metadata: agents, variant, planned games; the margin histogram sized to it. */
static int job_init(ResultsFile *f, const char *name, JobAnalysis *j, Error *e)
{
    StoredJob sj;
    if (rf_read_job(f, name, &sj, e) != 0)
        return -1;
    j->name = strdup(name);
    j->agent_a = sj.agent_a;
    j->agent_b = sj.agent_b;
    j->played_a = sj.played_a;
    j->played_b = sj.played_b;
    free(sj.files_a);   /* the rest is the analysis's now */
    free(sj.files_b);
    char label[AGENT_LABEL_MAX];
    analyze_agent_label(sj.agent_a, sj.played_a, label, sizeof label);
    j->label_a = strdup(label);
    analyze_agent_label(sj.agent_b, sj.played_b, label, sizeof label);
    j->label_b = strdup(label);
    j->openings_spec = sj.openings;
    j->openings_order = sj.openings_order;
    j->adjudicate = sj.adjudicate;
    j->seed = sj.seed;
    j->job_index = sj.index;
    j->variant = sj.variant;
    j->games_planned = sj.games;
    j->seq = sj.seq;
    j->stored_race = sj.race;
    j->two_agents = strcmp(sj.agent_a, sj.agent_b) != 0;
    j->blind_a = agent_is_convention_blind(sj.agent_a);
    j->blind_b = agent_is_convention_blind(sj.agent_b);
    j->has_work = rf_job_has_field(f, name, "nodes_a") && rf_job_has_field(f, name, "choices_a");
    int64_t total = 2 * (int64_t)j->variant.holes * j->variant.seeds;
    j->margin_origin = -total;
    j->margins_len = (size_t)(2 * total + 1);
    j->margins = calloc(j->margins_len, sizeof *j->margins);
    if (!j->name || !j->margins || !j->openings_spec || !j->label_a || !j->label_b)
        return error_set(e, "out of memory") - 1;
    return 0;
}

/* The estimates of the conventions re-scored on the same games. */
static void job_conventions(JobAnalysis *j)
{
    for (int c = 0; c < CONV_NB; c++) {
        const Outcomes *o = &j->conv[c];
        uint64_t fin = outcomes_finished(o);
        j->conv_rate[c][0] = wilson_estimate(o->south, fin, ANALYZE_CONFIDENCE);
        j->conv_rate[c][1] = wilson_estimate(o->north, fin, ANALYZE_CONFIDENCE);
        j->conv_rate[c][2] = wilson_estimate(o->draw, fin, ANALYZE_CONFIDENCE);
        j->conv_advantage[c] = first_player_advantage(o, ANALYZE_CONFIDENCE);
        j->conv_advantage_p[c] = binomial_test(o->south, o->south + o->north, 0.5);
    }
    for (int p = 0; p < CONV_PAIRS_NB; p++) {
        j->mc_south[p].p_value = mcnemar_exact_test(j->mc_south[p].only_first,
                                                    j->mc_south[p].only_second);
        j->mc_north[p].p_value = mcnemar_exact_test(j->mc_north[p].only_first,
                                                    j->mc_north[p].only_second);
    }
}

const char *design_unit_name(DesignUnit u)
{
    return u == UNIT_GAME ? "game" : u == UNIT_PAIR ? "pair" : "opening";
}

const char *design_unit_plural(DesignUnit u)
{
    return u == UNIT_GAME ? "games" : u == UNIT_PAIR ? "pairs" : "openings";
}

/* The two-sided p of the t test that an advantage with its unit is 0: NaN where it has no
 * standard error (every unit alike, or one). */
static double unit_advantage_p(const PairAdvantage *x)
{
    if (x->degenerate || !(x->se > 0) || isnan(x->advantage.value))
        return NAN;
    return 2 * gsl_cdf_tdist_Q(fabs(x->advantage.value) / x->se, x->df);
}

/* k of n games with its Wilson interval over n / deff of them (Kish's effective size). */
static Estimate share_in_unit(uint64_t k, uint64_t n, double deff)
{
    Estimate x = wilson_estimate(k, n, ANALYZE_CONFIDENCE);
    if (n)
        x.ci = wilson_interval_real(x.value, (double)n / deff, ANALYZE_CONFIDENCE);
    return x;
}

/* Job j's figures that count games, where its games are not independent, with the unit its
 * design calls for: the advantage and its test from the pairs (or openings); a share's
 * interval over its effective games, with the design effect measured over the units where
 * the pairs carry the share (the job's own outcomes), its bound elsewhere; A's score and Elo
 * from the pentanomial; the colour split only where each unit gives one game to each side
 * (the pair: with openings repeated, a side's games repeat too). A figure the unit cannot
 * give is NaN, and not shown. */
static void job_estimates_in_unit(JobAnalysis *j)
{
    const PairUnits *u = &j->pair_advantage.units;
    j->unit = j->games_independent ? UNIT_GAME
              : u->unit == PAIR_UNIT_OPENING ? UNIT_OPENING : UNIT_PAIR;
    j->units = j->unit == UNIT_GAME ? outcomes_finished(&j->all) : u->units;
    j->deff_bound = j->unit == UNIT_GAME ? 1.0 : 2.0 * (double)u->most;
    if (j->unit == UNIT_GAME) {
        for (int k = 0; k < 3; k++)
            j->share_deff[k] = 1.0;
        return;
    }
    const Outcomes *o = &j->all;
    uint64_t fin = outcomes_finished(o), games = outcomes_total(o);
    const uint64_t count[3] = { o->south, o->north, o->draw };
    for (int k = 0; k < 3; k++)
        j->rate[k] = share_in_unit(count[k], fin, j->share_deff[k]);
    j->endless_rate = share_in_unit(o->endless, games, j->deff_bound);
    j->unfinished_rate = share_in_unit(o->unfinished, games, j->deff_bound);
    for (int c = 0; c < CONV_NB; c++) {
        const Outcomes *r = &j->conv[c];
        const uint64_t rc[3] = { r->south, r->north, r->draw };
        bool own = c == (int)j->variant.final_four;
        for (int k = 0; k < 3; k++)
            j->conv_rate[c][k] = share_in_unit(rc[k], outcomes_finished(r),
                                               own ? j->share_deff[k] : j->deff_bound);
        j->conv_advantage[c] = j->conv_pair_advantage[c].advantage;
        j->conv_advantage_p[c] = unit_advantage_p(&j->conv_pair_advantage[c]);
    }
    j->advantage = j->pair_advantage.advantage;
    j->advantage_p = unit_advantage_p(&j->pair_advantage);
    j->balanced = j->pair_advantage.advantage;   /* a pair's two games: one per colour */
    if (j->unit == UNIT_OPENING) {
        for (int s = 0; s < 2; s++) {
            j->split_advantage[s].ci = (Interval){ NAN, NAN };
            j->split_p[s] = NAN;
        }
    }
    j->elo.score = j->pairs.score;
    j->elo.score_ci = j->pairs.score_ci;
    j->elo.elo = j->pairs.elo;
    j->elo.elo_ci = j->pairs.elo_ci;
    j->elo.los = j->pairs.se > 0 ? gsl_cdf_ugaussian_P((j->pairs.score - 0.5) / j->pairs.se)
                                 : NAN;
    MetricDesign d = { j->share_deff[0], j->deff_bound, j->advantage };
    j->metrics = game_metrics_clustered(o, j->lengths, j->lengths_len, ANALYZE_CONFIDENCE, &d);
    if (j->has_race) {
        /* The race spread its pairs over its lines as it chose: their pooled advantage is no
         * mixture of the lines and estimates nothing (its answer is analyze_race_answer). */
        j->advantage = (Estimate){ NAN, { NAN, NAN } };
        j->advantage_p = NAN;
        j->metrics.balance = j->advantage;
    }
}

/* Every estimate of a job from its counts. */
static void job_estimate(JobAnalysis *j, const AnalyzeOptions *opt)
{
    const Outcomes *o = &j->all;
    uint64_t fin = outcomes_finished(o), games = outcomes_total(o);
    j->rate[0] = wilson_estimate(o->south, fin, ANALYZE_CONFIDENCE);
    j->rate[1] = wilson_estimate(o->north, fin, ANALYZE_CONFIDENCE);
    j->rate[2] = wilson_estimate(o->draw, fin, ANALYZE_CONFIDENCE);
    j->endless_rate = wilson_estimate(o->endless, games, ANALYZE_CONFIDENCE);
    j->unfinished_rate = wilson_estimate(o->unfinished, games, ANALYZE_CONFIDENCE);
    j->advantage = first_player_advantage(o, ANALYZE_CONFIDENCE);
    j->advantage_p = binomial_test(o->south, o->south + o->north, 0.5);
    for (int s = 0; s < 2; s++)
        j->split_advantage[s] = first_player_advantage(&j->by_south[s], ANALYZE_CONFIDENCE);
    j->balanced = colour_balanced_advantage(&j->by_south[0], &j->by_south[1],
                                            ANALYZE_CONFIDENCE);
    job_conventions(j);
    /* Games stopped at max_plies are right-censored: with any, the lengths' figures come from
     * the Kaplan-Meier estimate (its restricted mean is the histogram's mean, stopped games
     * counted at max_plies); with none, from the histogram itself. */
    j->censored = o->unfinished;
    j->length = j->censored ? km_summary(j->lengths, j->lengths_len, j->censored)
                            : hist_summary(j->lengths, j->lengths_len, 0);
    j->margin = hist_summary(j->margins, j->margins_len, j->margin_origin);
    j->elo = elo_estimate(j->a_wins, j->a_draws, j->a_losses, ANALYZE_CONFIDENCE);
    j->metrics = game_metrics(o, j->lengths, j->lengths_len, ANALYZE_CONFIDENCE);
    j->pairs = pentanomial_estimate_pairs(j->pair_results, j->npair_results,
                                          ANALYZE_CONFIDENCE);
    j->pair_advantage = pair_advantage_pairs(j->pair_results, j->npair_results,
                                             ANALYZE_CONFIDENCE);
    for (int k = 0; k < PAIR_SHARES_NB; k++)   /* the pairs sorted by their unit, above */
        j->share_deff[k] = pair_share_design_effect(j->pair_results, j->npair_results,
                                                    &j->pair_advantage.units, k);
    /* The same pairs re-scored under each convention (the job's own is its pairs). */
    for (int c = 0; c < CONV_NB; c++) {
        for (size_t k = 0; k < j->npair_results; k++)
            j->pair_results[k].south_minus_north = j->pair_results[k].rescored[c];
        j->conv_pair_advantage[c] = pair_advantage_pairs(j->pair_results, j->npair_results,
                                                         ANALYZE_CONFIDENCE);
    }
    free(j->pair_results);
    j->pair_results = NULL;
    j->games_independent = job_games_independent(j);
    j->split_p[0] = binomial_test(j->by_south[0].south,
                                  j->by_south[0].south + j->by_south[0].north, 0.5);
    j->split_p[1] = binomial_test(j->by_south[1].south,
                                  j->by_south[1].south + j->by_south[1].north, 0.5);
    job_estimates_in_unit(j);
    if (opt->sprt) {
        j->sprt = sprt_trinomial(j->a_wins, j->a_draws, j->a_losses, opt->elo0, opt->elo1,
                                 opt->alpha, opt->beta);
        j->sprt_pairs = sprt_pentanomial(j->tally.penta, opt->elo0, opt->elo1, opt->alpha,
                                         opt->beta);
    }
}

/* Read and analyse one job. */
static int job_analyze(ResultsFile *f, const char *name, JobAnalysis *j, GameRecord *buf,
                       const AnalyzeOptions *opt, Error *e)
{
    int rc = job_init(f, name, j, e);
    if (rc == 0 && analyze_race_begin(j) != 0)
        rc = job_out_of_memory(f, j, e);
    rc = rc ? rc : job_stream(f, j, buf, e);
    if (rc == 0 && j->stored_race.has && !analyze_race_agrees(j))
        rc = error_set(e, "%s: job %s: damaged results file (its root design's rounds or stop "
                       "are not those its games give)", rf_path(f), name);
    rc = rc ? rc : check_stored_histogram(f, j, e);
    /* Before job_estimate, which sorts the pairs by opening: the root design's halves
     * follow each line's pairs in game order. */
    if (rc == 0 && analyze_root(j, j->pair_results, j->npair_results) != 0)
        rc = job_out_of_memory(f, j, e);
    if (rc == 0)
        job_estimate(j, opt);
    return rc;
}

bool job_games_independent(const JobAnalysis *j)
{
    return strcmp(j->openings_spec, "start") == 0 && !j->lines_few &&
           !(j->has_distinct && distinct_games_few(&j->distinct));
}

/* The one parameter in which two variants differ: its index, -1 if none, -2 if several. */
static int differing_param(const Variant *x, const Variant *y)
{
    int found = -1;
    for (int p = 0; p < VP_NB; p++) {
        if ((long)variant_get(x, p) != (long)variant_get(y, p))
            found = found == -1 ? p : -2;
    }
    return found;
}

/* Whether two jobs play the same agents from the same openings: one series of a sweep, and
 * a pair to test when their variants differ in one parameter (a book job and a start job of
 * the same agents are different designs, not a sweep). */
bool analyze_same_setup(const JobAnalysis *x, const JobAnalysis *y)
{
    return strcmp(x->agent_a, y->agent_a) == 0 && strcmp(x->agent_b, y->agent_b) == 0 &&
           strcmp(x->openings_spec, y->openings_spec) == 0;
}

/* Whether no job has a value of numeric parameter p strictly between jobs i and j's (with
 * the other parameters, the agents and the openings equal); final_four has no order: always
 * true. */
static bool neighbours(const Analysis *a, int i, int j, int p)
{
    if (variant_params[p].kind == VK_CONVENTION)
        return true;
    long lo = (long)variant_get(&a->jobs[i].variant, p);
    long hi = (long)variant_get(&a->jobs[j].variant, p);
    if (lo > hi) {
        long t = lo;
        lo = hi;
        hi = t;
    }
    for (int k = 0; k < a->njobs; k++) {
        long v = (long)variant_get(&a->jobs[k].variant, p);
        if (v > lo && v < hi && differing_param(&a->jobs[k].variant, &a->jobs[i].variant) == p &&
            analyze_same_setup(&a->jobs[k], &a->jobs[i]))
            return false;
    }
    return true;
}

/* Whether jobs i and j form a pair to test: same agents and openings, one parameter apart
 * (neighbouring values), or any two jobs when by_param is false. Sets *p to the parameter or
 * -1. */
static bool is_pair(const Analysis *a, int i, int j, bool by_param, int *p)
{
    const JobAnalysis *x = &a->jobs[i], *y = &a->jobs[j];
    *p = differing_param(&x->variant, &y->variant);
    if (!by_param)
        return true;
    return *p >= 0 && analyze_same_setup(x, y) && neighbours(a, i, j, *p);
}

/* The chi-square test of two jobs' S/N/draw counts. */
static TestResult outcome_test(const JobAnalysis *x, const JobAnalysis *y)
{
    uint64_t t[6] = { x->all.south, x->all.north, x->all.draw,
                      y->all.south, y->all.north, y->all.draw };
    return chi_square_independence(t, 2, 3);
}

/* The test of two jobs' lengths: Mann-Whitney, or the log-rank test when either has games
 * stopped at max_plies (censored), as Mann-Whitney would take them as ended there. */
static void compare_lengths(const JobAnalysis *x, const JobAnalysis *y, JobPair *q)
{
    q->lengths_censored = x->censored > 0 || y->censored > 0;
    if (q->lengths_censored)
        q->log_rank = log_rank_hist(x->lengths, x->lengths_len, x->censored, y->lengths,
                                    y->lengths_len, y->censored);
    else
        q->lengths = mann_whitney_hist(x->lengths, x->lengths_len, y->lengths,
                                       y->lengths_len);
}

/* Two jobs compared: their advantages, each with its own unit; and, where both jobs' games
 * are independent, their outcome counts (chi-square) and lengths, which count games. */
static void compare_jobs(const JobAnalysis *x, const JobAnalysis *y, JobPair *q)
{
    q->advantage = advantage_difference(&x->pair_advantage, &y->pair_advantage,
                                        ANALYZE_CONFIDENCE);
    q->game_tests = x->games_independent && y->games_independent;
    if (q->game_tests) {
        q->chi = outcome_test(x, y);
        compare_lengths(x, y, q);
        return;
    }
    q->chi = (TestResult){ NAN, NAN, NAN };
    q->lengths_censored = x->censored > 0 || y->censored > 0;
    q->lengths = (MannWhitney){ .p_value = NAN };
    q->log_rank.chi = q->chi;
}

double job_pair_length_p(const JobPair *q)
{
    return q->lengths_censored ? q->log_rank.chi.p_value : q->lengths.p_value;
}

/* The pairs to test and their tests; pairs one parameter apart when there are any, else
 * every pair of up to 10 jobs. */
static int build_pairs(Analysis *a)
{
    int n = a->njobs, cap = n * (n - 1) / 2, p;
    a->pairs = calloc(cap ? (size_t)cap : 1, sizeof *a->pairs);
    if (!a->pairs)
        return -1;
    a->pairs_by_parameter = true;
    for (int pass = 0; pass < 2 && a->npairs == 0; pass++) {
        bool by_param = pass == 0;
        if (!by_param && n > 10)
            break;
        a->pairs_by_parameter = by_param;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (!is_pair(a, i, j, by_param, &p))
                    continue;
                JobPair *q = &a->pairs[a->npairs++];
                q->i = i;
                q->j = j;
                q->differs = p >= 0 ? variant_param_name((VariantParam)p) : NULL;
                compare_jobs(&a->jobs[i], &a->jobs[j], q);
            }
        }
    }
    return 0;
}

/* The p-value of test t (0 outcomes, 1 lengths, 2 advantages) of a pair of jobs. */
static double pair_test_p(const JobPair *q, int t)
{
    return t == 0 ? q->chi.p_value : t == 1 ? job_pair_length_p(q) : q->advantage.p_value;
}

/* Where the Holm-adjusted p of test t goes. */
static double *pair_test_holm(JobPair *q, int t)
{
    return t == 0 ? &q->chi_holm : t == 1 ? &q->lengths_holm : &q->advantage_holm;
}

/* Holm's correction within each family of pair tests (outcomes; lengths; advantages), over
 * the tests made: a test not made (NaN) stays NaN and does not count. */
static int holm_pairs(Analysis *a)
{
    int m = a->npairs;
    double *p = malloc((size_t)(m ? m : 1) * 2 * sizeof *p);
    if (!p)
        return -1;
    double *q = p + m;
    int rc = 0;
    for (int t = 0; t < 3 && rc == 0; t++) {
        int made = 0;
        for (int k = 0; k < m; k++)
            if (!isnan(pair_test_p(&a->pairs[k], t)))
                p[made++] = pair_test_p(&a->pairs[k], t);
        rc = made ? holm_adjust(p, (size_t)made, q) : 0;
        for (int k = 0, i = 0; rc == 0 && k < m; k++)
            *pair_test_holm(&a->pairs[k], t) =
                isnan(pair_test_p(&a->pairs[k], t)) ? NAN : q[i++];
    }
    free(p);
    return rc;
}

/* The chi-square test over every job's S/N/draw counts, when every job's games are
 * independent (it counts games); else NaN. */
static int omnibus_test(Analysis *a)
{
    a->omnibus = (TestResult){ NAN, NAN, NAN };
    for (int i = 0; i < a->njobs; i++)
        if (!a->jobs[i].games_independent)
            return 0;
    uint64_t *t = malloc((size_t)a->njobs * 3 * sizeof *t);
    if (!t)
        return -1;
    for (int i = 0; i < a->njobs; i++) {
        t[3 * i] = a->jobs[i].all.south;
        t[3 * i + 1] = a->jobs[i].all.north;
        t[3 * i + 2] = a->jobs[i].all.draw;
    }
    a->omnibus = chi_square_independence(t, (size_t)a->njobs, 3);
    free(t);
    return 0;
}

/* The swept variant parameters: those in which two jobs of the same agents and openings
 * differ, and in nothing else. A parameter that differs only between jobs of different
 * agents (agent-ladder.cfg's max_plies for the matches against random) is a per-job
 * override, not a sweep. */
static void find_sweep(Analysis *a)
{
    bool swept[VP_NB] = { false };
    for (int i = 0; i < a->njobs; i++) {
        for (int k = i + 1; k < a->njobs; k++) {
            int p = differing_param(&a->jobs[i].variant, &a->jobs[k].variant);
            if (p >= 0 && analyze_same_setup(&a->jobs[i], &a->jobs[k]))
                swept[p] = true;
        }
    }
    a->nsweep = 0;
    for (int p = 0; p < VP_NB; p++)
        if (swept[p])
            a->sweep[a->nsweep++] = p;
}

/* ---- the first-player advantage against skill ------------------------------------------ */

/* Whether two variants agree in every parameter but final_four. */
static bool same_but_convention(const Variant *x, const Variant *y)
{
    for (int p = 0; p < VP_NB; p++)
        if (p != VP_FINAL_FOUR && (long)variant_get(x, p) != (long)variant_get(y, p))
            return false;
    return true;
}

/* v in variant_describe's words, its final_four taken out, into buf. */
static void describe_without_convention(const Variant *v, char *buf, int len)
{
    variant_describe_without(v, VP_BIT(VP_FINAL_FOUR), buf, (size_t)len);
}

/* The design of self-play job i: an existing one it belongs to, or a new one; NULL when out
 * of memory. */
static SkillDesign *skill_design_of(Analysis *a, int i, int *ndesigns)
{
    const JobAnalysis *j = &a->jobs[i];
    for (int d = 0; d < *ndesigns; d++) {
        const JobAnalysis *f = &a->jobs[a->skill[d].first];
        if (strcmp(f->openings_spec, j->openings_spec) == 0 &&
            same_but_convention(&f->variant, &j->variant))
            return &a->skill[d];
    }
    SkillDesign *d = &a->skill[(*ndesigns)++];
    d->openings = j->openings_spec;
    d->first = i;
    describe_without_convention(&j->variant, d->variant, (int)sizeof d->variant);
    d->rung = malloc((size_t)a->njobs * sizeof *d->rung);
    d->cell = malloc((size_t)a->njobs * CONV_NB * sizeof *d->cell);
    if (!d->rung || !d->cell)
        return NULL;
    for (int k = 0; k < a->njobs * CONV_NB; k++)
        d->cell[k] = -1;
    return d;
}

/* Self-play job i in its design: its rung (new when its agent is), its convention's cell
 * (the first job there keeps it). */
static void skill_place(Analysis *a, SkillDesign *d, int i)
{
    const JobAnalysis *j = &a->jobs[i];
    int r = 0;
    while (r < d->nrungs && strcmp(a->jobs[d->rung[r]].agent_a, j->agent_a) != 0)
        r++;
    if (r == d->nrungs)
        d->rung[d->nrungs++] = i;
    int c = (int)j->variant.final_four;
    if (d->cell[r * CONV_NB + c] < 0)
        d->cell[r * CONV_NB + c] = i;
}

/* The conventions a design has a job under, in FinalFour order. */
static void skill_conventions(SkillDesign *d)
{
    d->nconv = 0;
    for (int c = 0; c < CONV_NB; c++) {
        bool present = false;
        for (int r = 0; r < d->nrungs; r++)
            present |= d->cell[r * CONV_NB + c] >= 0;
        if (present)
            d->conv[d->nconv++] = c;
    }
}

static void skill_design_free(SkillDesign *d)
{
    free(d->rung);
    free(d->cell);
}

/* The designs of the self-play jobs, those with 2 rungs or 2 conventions or more kept (a
 * single player under several conventions is a design too; one job alone is not); -1 when
 * out of memory. */
static int build_skill(Analysis *a)
{
    int n = 0;
    a->skill = calloc(a->njobs ? (size_t)a->njobs : 1, sizeof *a->skill);
    if (!a->skill)
        return -1;
    for (int i = 0; i < a->njobs; i++) {
        if (a->jobs[i].two_agents)
            continue;
        SkillDesign *d = skill_design_of(a, i, &n);
        if (!d) {
            a->nskill = n;
            return -1;
        }
        skill_place(a, d, i);
    }
    a->nskill = 0;
    for (int k = 0; k < n; k++) {
        skill_conventions(&a->skill[k]);
        if (a->skill[k].nrungs < 2 && a->skill[k].nconv < 2) {
            skill_design_free(&a->skill[k]);
            continue;
        }
        a->skill[a->nskill++] = a->skill[k];
    }
    return 0;
}

/* The index of an agent spec in a->agents, added with its label when new; -1 when out of
 * memory. */
static int agent_index(Analysis *a, const char *spec, const char *label)
{
    for (int i = 0; i < a->nagents; i++)
        if (strcmp(a->agents[i], spec) == 0)
            return i;
    char **grown = realloc(a->agents, ((size_t)a->nagents + 1) * sizeof *grown);
    if (grown)
        a->agents = grown;
    const char **labels = realloc(a->agent_labels, ((size_t)a->nagents + 1) * sizeof *labels);
    if (labels)
        a->agent_labels = labels;
    if (!grown || !labels || !(grown[a->nagents] = strdup(spec)))
        return -1;
    labels[a->nagents] = label;
    return a->nagents++;
}

/* Add a job's games of agent row against agent col to the crosstable, from row's side: w
 * wins, d draws, l losses. */
static void cross_add(Analysis *a, int row, int col, uint64_t w, uint64_t d, uint64_t l)
{
    CrossCell *c = &a->cross[row * a->nagents + col], *t = &a->cross[col * a->nagents + row];
    c->games += w + d + l;
    c->half_points += 2 * w + d;
    t->games += w + d + l;
    t->half_points += 2 * l + d;
}

/* The crosstable of the agents over the jobs with two agents (the pairings of the fit);
 * -1 when out of memory. */
static int count_crosstable(Analysis *a, const BtPairing *pairs, size_t np)
{
    a->cross = calloc((size_t)a->nagents * (size_t)a->nagents, sizeof *a->cross);
    if (!a->cross)
        return -1;
    for (size_t k = 0; k < np; k++)
        cross_add(a, pairs[k].south, pairs[k].north, pairs[k].south_wins, pairs[k].draws,
                  pairs[k].north_wins);
    return 0;
}

/* The ratings of agents i and j compared for rating order: the higher first, then the one
 * met first. */
static int rating_before(const Analysis *a, int i, int j)
{
    if (a->bt_status == BT_OK && a->bt.rating[i] != a->bt.rating[j])
        return a->bt.rating[i] > a->bt.rating[j];
    return i < j;
}

void analyze_rating_order(const Analysis *a, int *order)
{
    for (int k = 0; k < a->nagents; k++) {
        int i = k;
        while (i > 0 && rating_before(a, k, order[i - 1])) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = k;
    }
}

double analyze_advantage_design_effect(const JobAnalysis *j)
{
    double f = (double)outcomes_finished(&j->all);
    double adv = j->pair_advantage.advantage.value;
    double var_a = ((double)j->all.south + (double)j->all.north) / f - adv * adv;
    if (f < 2 || !(var_a > 0))
        return NAN;
    return j->pair_advantage.se * j->pair_advantage.se / (var_a / f);
}

double analyze_design_effect(const JobAnalysis *j)
{
    double f = (double)outcomes_finished(&j->all), d = 1.0;
    if (f < 2)
        return d;
    /* The score: a game's variance from A's wins and draws, over the finished games. */
    double s = j->elo.score;
    double var_s = ((double)j->a_wins + (double)j->a_draws / 4) / f - s * s;
    double ratio_s = j->pairs.se * j->pairs.se / (var_s / f);
    double ratio_a = analyze_advantage_design_effect(j);
    if (var_s > 0 && ratio_s > d)
        d = ratio_s;
    if (ratio_a > d)
        d = ratio_a;
    return d;
}

/* The fit's standard errors and covariance widened by the largest design effect among the
 * rated jobs (analyze_design_effect), and the rated jobs that follow few lines counted. */
static void widen_ratings(Analysis *a)
{
    a->bt_design_effect = 1.0;
    a->bt_design_job = -1;
    a->bt_few_lines = 0;
    for (int i = 0; i < a->njobs; i++) {
        if (!a->jobs[i].two_agents)
            continue;
        double d = analyze_design_effect(&a->jobs[i]);
        if (d > a->bt_design_effect) {
            a->bt_design_effect = d;
            a->bt_design_job = i;
        }
        a->bt_few_lines += a->jobs[i].lines_few;
    }
    if (a->bt_status != BT_OK || a->bt_design_job < 0)
        return;
    double w = sqrt(a->bt_design_effect);
    BtFit *f = &a->bt;
    for (int i = 0; i < f->agents; i++)
        f->rating_se[i] *= w;
    f->home_se *= w;
    f->draw_nu_se *= w;
    for (int k = 0; k < f->params * f->params; k++)
        f->cov[k] *= a->bt_design_effect;
}

/* The Bradley-Terry-Davidson fit over the jobs with two agents, when 3+ agents met, with its
 * weak prior (ratings.h), and the crosstable of the same games. */
static int fit_ratings(Analysis *a)
{
    a->bt_status = -1;
    BtPairing *pairs = calloc((size_t)a->njobs * 2 + 1, sizeof *pairs);
    size_t np = 0;
    if (!pairs)
        return -1;
    for (int i = 0; i < a->njobs; i++) {
        const JobAnalysis *j = &a->jobs[i];
        if (!j->two_agents)
            continue;
        int ia = agent_index(a, j->agent_a, j->label_a);
        int ib = agent_index(a, j->agent_b, j->label_b);
        if (ia < 0 || ib < 0) {
            free(pairs);
            return -1;
        }
        pairs[np++] = (BtPairing){ ia, ib, j->by_south[0].south, j->by_south[0].draw,
                                   j->by_south[0].north };
        pairs[np++] = (BtPairing){ ib, ia, j->by_south[1].south, j->by_south[1].draw,
                                   j->by_south[1].north };
    }
    int rc = 0;
    if (a->nagents >= 3) {
        a->bt_status = bt_fit(pairs, np, a->nagents, 0, BT_PRIOR_SD_ELO, &a->bt);
        widen_ratings(a);
        rc = a->bt_status == BT_NO_MEMORY ? -1 : count_crosstable(a, pairs, np);
    }
    free(pairs);
    return rc;
}

/* The comparisons between jobs: tests, sweep parameters, the advantage against skill, the
 * variant atlas, ratings. */
static int between_jobs(Analysis *a)
{
    if (omnibus_test(a) != 0 || build_pairs(a) != 0 || holm_pairs(a) != 0 ||
        build_skill(a) != 0 || analyze_atlas_build(a) != 0)
        return -1;
    find_sweep(a);
    return fit_ratings(a);
}

/* The root's descriptive attributes. */
static int read_root(ResultsFile *f, Analysis *a)
{
    a->program_version = rf_root_text(f, "program_version");
    a->git_commit = rf_root_text(f, "git_commit");
    a->started = rf_root_text(f, "started");
    a->finished = rf_root_text(f, "finished");
    a->path = strdup(rf_path(f));
    return a->path ? 0 : -1;
}

/* Choose the jobs to analyse: all, or the one named. */
static int select_jobs(ResultsFile *f, const AnalyzeOptions *opt, Error *e)
{
    if (!opt->job)
        return rf_job_count(f);
    for (int i = 0; i < rf_job_count(f); i++)
        if (strcmp(rf_job_name(f, i), opt->job) == 0)
            return 1;
    return rf_no_such_job(f, opt->job, e);
}

int analyze_results(ResultsFile *f, const AnalyzeOptions *opt, Analysis *a, Error *e)
{
    memset(a, 0, sizeof *a);
    a->opt = *opt;
    a->bt_status = -1;
    int n = select_jobs(f, opt, e), rc = n < 0 ? -1 : 0;
    GameRecord *buf = rc == 0 ? malloc(READ_ROWS * sizeof *buf) : NULL;
    a->jobs = rc == 0 ? calloc(n ? (size_t)n : 1, sizeof *a->jobs) : NULL;
    if (rc == 0 && (!buf || !a->jobs || read_root(f, a) != 0))
        rc = error_set(e, "out of memory") - 1;
    for (int i = 0; rc == 0 && i < rf_job_count(f); i++) {
        const char *name = rf_job_name(f, i);
        if (opt->job && strcmp(name, opt->job) != 0)
            continue;
        rc = job_analyze(f, name, &a->jobs[a->njobs++], buf, opt, e);
    }
    free(buf);
    if (rc == 0 && between_jobs(a) != 0)
        rc = error_set(e, "out of memory") - 1;
    return rc;
}

int analyze_file(const char *path, const AnalyzeOptions *opt, Analysis *a, Error *e)
{
    memset(a, 0, sizeof *a);
    ResultsFile *f = rf_open(path, e);
    if (!f)
        return -1;
    int rc = analyze_results(f, opt, a, e);
    rf_close(f);
    return rc;
}

/* Free one job's strings and histograms. */
static void job_free(JobAnalysis *j)
{
    free(j->name);
    free(j->agent_a);
    free(j->agent_b);
    free(j->played_a);
    free(j->played_b);
    free(j->label_a);
    free(j->label_b);
    free(j->openings_spec);
    free(j->pair_results);
    root_free(&j->root);
    root_race_free(&j->race);
    free(j->stored_race.round_first);
    free(j->stored_race.round_lines);
    free(j->lengths);
    free(j->margins);
}

void analysis_free(Analysis *a)
{
    for (int i = 0; i < a->njobs; i++)
        job_free(&a->jobs[i]);
    free(a->jobs);
    free(a->pairs);
    for (int d = 0; d < a->nskill; d++)
        skill_design_free(&a->skill[d]);
    free(a->skill);
    analyze_atlas_free(a);
    for (int i = 0; i < a->nagents; i++)
        free(a->agents[i]);
    free(a->agents);
    free(a->agent_labels);
    if (a->bt_status == BT_OK)
        bt_fit_free(&a->bt);
    free(a->cross);
    free(a->path);
    free(a->program_version);
    free(a->git_commit);
    free(a->started);
    free(a->finished);
    memset(a, 0, sizeof *a);
}
