/* analyze.h: a results file analysed: per job its outcomes, first-player advantage, the three
 * endgame conventions on the same games, lengths and margins, the agents' match, the games
 * as colour-swapped pairs (pairs.h), distinct games and openings where the file records
 * them (distinct.h), Ludii-style metrics; between jobs, tests of difference, the
 * first-player advantage against skill (SkillDesign) and Bradley-Terry-Davidson ratings.
 *
 * One pass streams each job's table in chunks (memory: the histograms, never the games, but
 * for the moves_hash and opening columns, read whole: 8 bytes a game each); the
 * tables (analyze_print), the JSON (analyze_json) and the report (report.h) are drawn from the
 * same Analysis, so they agree. Every interval is at ANALYZE_CONFIDENCE. */
#ifndef ANYWOLI_ANALYZE_H
#define ANYWOLI_ANALYZE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze_atlas.h"
#include "distinct.h"
#include "elo.h"
#include "error.h"
#include "histogram.h"
#include "hypothesis.h"
#include "metrics.h"
#include "pairs.h"
#include "ratings.h"
#include "results_read.h"      /* the one reader of results files */
#include "root.h"
#include "stats.h"
#include "variant.h"

#define ANALYZE_CONFIDENCE 0.95
#define AGENT_LABEL_MAX 1100      /* analyze_agent_label's room: a full spec and the set */
#define CONV_NB FF_NB             /* the final_four conventions, in FinalFour order */
#define CONV_PAIRS_NB 3           /* (penultimate, first-final), (penultimate, lottery),
                                     (first-final, lottery) */

/* The pair of conventions of CONV_PAIRS_NB index p. */
void conv_pair(int p, int *c1, int *c2);

/* What to analyse. */
typedef struct AnalyzeOptions {
    const char *job;              /* one job's name, or NULL for every job */
    bool sprt;                    /* run the sequential test on each job's match */
    double elo0, elo1, alpha, beta;
} AnalyzeOptions;

/* The unit every interval and test of a job is over, as its design calls for: the game
 * where its games may be taken one by one (job_games_independent: played from the start,
 * distinct, following many lines); else the colour-swapped pair (games 2k and 2k+1 share
 * an opening, or play the same agents twice); or the opening where pairs repeat openings (a
 * book cycled through, all:N). */
typedef enum DesignUnit { UNIT_GAME, UNIT_PAIR, UNIT_OPENING } DesignUnit;

/* The unit's name, "game", "pair" or "opening", and its plural. */
const char *design_unit_name(DesignUnit u);
const char *design_unit_plural(DesignUnit u);

/* McNemar's exact test of two conventions on the same finished games. */
typedef struct PairedTest {
    uint64_t only_first, only_second;   /* discordant games: yes under the first only, ... */
    double p_value;
} PairedTest;

/* One job analysed. */
typedef struct JobAnalysis {
    char *name, *agent_a, *agent_b;
    char *played_a, *played_b;    /* the full specs played; NULL in older files: not known */
    char *label_a, *label_b;      /* what figures call each player (analyze_agent_label) */
    char *openings_spec;          /* the job's `openings` ("start" in older files) */
    OpeningsOrder openings_order; /* its `openings_order`, and what it was shuffled by: */
    int64_t seed;                 /* the experiment's seed */
    uint64_t job_index;           /* and the job's index */
    Variant variant;
    int64_t games_planned;        /* the job's `games` attribute */
    StoredTest seq;               /* the sequential test the job ran with, if any */
    uint64_t rows;                /* games in its table */
    bool two_agents;              /* agent_a and agent_b differ */
    bool blind_a, blind_b;        /* the agent ignores the convention (random) */
    bool stored_histogram;        /* the job had a length_histogram, equal to the table's */
    uint64_t inconsistent;        /* finished rows whose scores disagree with their outcome */
    bool adjudicate;              /* the job adjudicated decided games (`adjudicate`) */
    uint64_t adjudicated;         /* its games that ended so: won, their margins not known */

    /* Counts. */
    Outcomes all;                 /* every game, under the job's convention */
    Outcomes by_south[2];         /* [0] A as South, [1] B as South */
    Outcomes conv[CONV_NB];       /* every game re-scored under each convention */
    PairedTest mc_south[CONV_PAIRS_NB], mc_north[CONV_PAIRS_NB];
    uint64_t a_wins, a_draws, a_losses;          /* finished games, for agent A */
    uint64_t *lengths;            /* games by plies, 0 .. lengths_len - 1 */
    size_t lengths_len;
    uint64_t censored;            /* games stopped at max_plies (unfinished): right-censored,
                                     all in the last bin of lengths (histogram.h) */
    uint64_t *margins;            /* finished games by South's seeds minus North's */
    size_t margins_len;
    int64_t margin_origin;        /* the margin of margins[0] */

    /* Estimates. */
    Estimate rate[3];             /* South won, North won, draw: over finished games */
    Estimate endless_rate, unfinished_rate;      /* over all games */
    Estimate advantage;           /* P(South) - P(North), Tango interval */
    double advantage_p;           /* exact binomial test of P(S) = P(N) on decisive games */
    Estimate split_advantage[2];  /* with A as South, with B as South */
    Estimate balanced;            /* colour-balanced advantage (two agents) */
    Estimate conv_rate[CONV_NB][3];
    Estimate conv_advantage[CONV_NB];
    double conv_advantage_p[CONV_NB];
    HistSummary length, margin;   /* length: by Kaplan-Meier (km_summary) when censored > 0 */
    EloEstimate elo;              /* agent A against B */
    GameMetrics metrics;
    Sprt sprt;                    /* when AnalyzeOptions.sprt */

    /* Pairs: games 2k and 2k+1, colours swapped (pairs.h). */
    PairTally tally;              /* the pairs counted (penta), left out (unfinished) */
    bool unpaired_game;           /* the table's last game has no partner (left out) */
    PairResult *pair_results;     /* the counted pairs with their openings, while estimating
                                     (freed after: 16 bytes a pair) */
    size_t npair_results;
    int pending_conv_sn[CONV_NB]; /* the even game's South minus North under each convention */
    int pending_outcome;          /* and its outcome */
    PairAdvantage conv_pair_advantage[CONV_NB];   /* the advantage under each convention with
                                                     the job's unit (pair or opening) */
    PairEstimate pairs;           /* A's score and Elo over the pairs (or openings) */
    PairAdvantage pair_advantage; /* South's advantage with the pair (or opening) as unit */
    Sprt sprt_pairs;              /* the pentanomial GSPRT, when AnalyzeOptions.sprt */

    /* Distinct games by moves_hash, distinct lines (the first LINE_PLIES plies) by
     * line_hash, and distinct openings by opening (-1: from the start), where the file has
     * those columns. */
    bool has_distinct, has_lines, has_openings;
    DistinctGames distinct;
    DistinctGames lines;
    double lines_colour_share;    /* the larger of the two colour assignments' (A South, A
                                   * North) shares of games that follow their most common line */
    bool lines_few;               /* most games follow one line, overall or in one colour */
    DistinctGames openings;       /* over the games with an opening (opening >= 0) */
    bool games_independent;       /* the games may be taken one by one (job_games_independent):
                                     tests that count games hold */

    /* The design's unit, and what the figures that count games need to use it: every
     * interval and test above is over it (analyze.c's job_estimates_in_unit). */
    DesignUnit unit;
    uint64_t units;               /* how many (finished games, counted pairs or openings) */
    double share_deff[3];         /* South won, North won, draw: each share's design effect
                                     with the unit, measured over its units (1 for games) */
    double deff_bound;            /* the design effect of a figure the pairs do not carry
                                     (endless games, lengths, re-scored shares): at most the
                                     games of the largest unit, its bound (1 for games) */
    double split_p[2];            /* the binomial test of each colour split (NaN where the unit
                                     does not allow it) */

    /* The root design (root.h), for a self-play job from every line of N plies (all:N):
     * each line's advantage and South's best line, naive and held out. */
    bool has_root;
    RootAnalysis root;

    /* The adaptive root design the job ran with (root_race.h; a job with `root_design`): its
     * race re-derived from the games as the run's was (each line's pairs, interval and the
     * round it went out, the root's interval), held to the rounds and stop the file stores;
     * why it ended: its half-width reached, its budget (games) spent, or neither (the run
     * is not complete). */
    StoredRace stored_race;
    bool has_race;
    bool race_fault;              /* a pair off the race's schedule (a damaged file) */
    RootRace race;

    /* The agents' work, where the file has nodes and choices: [0] A's, [1] B's, summed over
     * every game (nodes, or playouts for MCTS; the moves each chose). */
    bool has_work;
    uint64_t work[2], choices[2];
} JobAnalysis;

/* Two jobs compared. */
typedef struct JobPair {
    int i, j;
    const char *differs;          /* the variant parameter they differ in, or NULL */
    AdvantageDifference advantage;   /* the advantages' difference, each with its job's unit */
    double advantage_holm;
    bool game_tests;              /* both jobs' games are independent: chi-square and the
                                     length tests hold; else they are not made (NaN) */
    TestResult chi;               /* chi-square on the 2 x 3 table of S/N/draw counts */
    double chi_holm;
    bool lengths_censored;        /* a job has censored games: the log-rank test, not MW */
    MannWhitney lengths;          /* Mann-Whitney on the length histograms (no censoring) */
    LogRank log_rank;             /* the log-rank test on them (lengths_censored) */
    double lengths_holm;          /* Holm-adjusted p of the test used */
} JobPair;

/* One design of the study "first-player advantage against skill": the self-play jobs
 * (agent A = agent B) that agree in their openings spec and in every variant parameter but
 * final_four. Its rungs are their distinct agent specs in job order, its lines the
 * conventions among them; a cell is the job of one rung under one convention. */
typedef struct SkillDesign {
    const char *openings;         /* the jobs' openings spec (a job's string) */
    char variant[160];            /* the variant without final_four, variant_describe's form */
    int first;                    /* the design's first job: its variant and openings */
    int nconv;
    int conv[CONV_NB];            /* the conventions present (FinalFour values), in order */
    int nrungs;
    int *rung;                    /* [r]: the first job of rung r (its agent spec is agent_a) */
    int *cell;                    /* [r * CONV_NB + c] for FinalFour c: the job, -1 if none */
} SkillDesign;

/* One cell of the crosstable: the row agent's finished games against the column agent, over
 * every job of the two (both colour orders), and its points in them (a win 2 half-points, a
 * draw 1). */
typedef struct CrossCell {
    uint64_t games, half_points;
} CrossCell;

/* A whole file analysed. */
typedef struct Analysis {
    char *path, *program_version, *git_commit, *started, *finished;
    int njobs;
    JobAnalysis *jobs;
    AnalyzeOptions opt;

    TestResult omnibus;           /* chi-square on jobs x (S, N, draw), with 2+ jobs, when
                                     every job's games are independent (else NaN) */
    int npairs;
    JobPair *pairs;
    bool pairs_by_parameter;      /* pairs are one parameter apart (else every pair) */

    int nsweep;                   /* the swept variant parameters: two jobs of the same agents
                                     and openings differ in it and in nothing else */
    int sweep[VP_NB];             /* VariantParam, in VariantParam order */

    int nskill;                   /* designs with at least 2 rungs or 2 conventions */
    SkillDesign *skill;

    int natlas;                   /* the variant atlases (analyze_atlas.h): self-play rungs
                                     over two boards or more */
    Atlas *atlas;

    int nagents;                  /* distinct agents of the jobs with two agents */
    char **agents;
    const char **agent_labels;    /* [i]: what figures call agent i (a job's label) */
    int bt_status;                /* bt_fit's status; -1 when not attempted */
    BtFit bt;
    CrossCell *cross;             /* [row * nagents + column], when bt_status >= 0 */
    double bt_design_effect;      /* the largest of the rated jobs' design effects (at least
                                     1; analyze_design_effect): the fit's standard errors are
                                     widened by its square root */
    int bt_design_job;            /* the job it comes from, -1 when 1 (no widening) */
    int bt_few_lines;             /* rated jobs whose games follow few lines (lines_few) */
} Analysis;

/* Analyse an open results file (results_read.h); a one-line message and -1 if a job is
 * damaged (or the named job is not in it), -2 when out of memory. */
int analyze_results(ResultsFile *f, const AnalyzeOptions *opt, Analysis *a, Error *e);

/* The same for the file at path, opened and closed through the same reader: -1 also when it
 * is not a readable results file of format 1. */
int analyze_file(const char *path, const AnalyzeOptions *opt, Analysis *a, Error *e);

/* Free what analyze_results or analyze_file allocated. */
void analysis_free(Analysis *a);

/* The agents' indices in rating order, highest first (in the order met when there is no
 * fit): order[0 .. nagents - 1]. */
void analyze_rating_order(const Analysis *a, int *order);

/* The p-value of the length test of a pair of jobs: log-rank or Mann-Whitney. */
double job_pair_length_p(const JobPair *q);

/* Whether a job's games may be counted one by one, as the tests between jobs that count
 * games (chi-square, Mann-Whitney, log-rank) and McNemar's take them: played from the start
 * (games 2k and 2k+1 of a job with openings share one, and book lines repeat), distinct (95%
 * or more, where the file says) and not following few lines. */
bool job_games_independent(const JobAnalysis *j);

/* A match's design effect: the variance of its score and of its first-player advantage with
 * the job's unit (pair, or opening where pairs repeat openings) over their variance with the
 * game as unit, the larger of the two, and at least 1 (NaN parts left out). The ratings'
 * fit counts games; widening its standard errors by the square root of the largest design
 * effect among the rated jobs gives them the unit the jobs call for. */
double analyze_design_effect(const JobAnalysis *j);

/* Its part for the advantage: the variance of the advantage with the job's pair unit (pair
 * or opening) over its variance with the game as unit (a game's South minus North); NaN
 * where that is not defined (fewer than 2 finished games, no variance). */
double analyze_advantage_design_effect(const JobAnalysis *j);

/* The root design of job j (root.h) from its counted pairs in game order, where j is
 * self-play from all:N (else nothing: has_root stays false); -1 when out of memory. */
int analyze_root(JobAnalysis *j, const PairResult *pairs, size_t npairs);

/* The race of job j's adaptive root design before its first pair (nothing for a job without
 * one): its lines from the job's openings. -1 when out of memory. */
int analyze_race_begin(JobAnalysis *j);

/* The pair that game r (odd) of job j completes into its race: counted or left out, x its
 * per-game advantage. -1 when out of memory. */
int analyze_race_pair(JobAnalysis *j, const GameRecord *r, bool counted, double x);

/* Why job j's race ended, in a few words: "half-width reached", "budget spent" or "not
 * finished" (a run stopped part-way). */
const char *analyze_race_end_text(const JobAnalysis *j);

/* The answer of job j's adaptive root design: the best line's mean (the minimax of the lines'
 * means) with the race's root interval; NAN without a race or a counted pair. Its pairs are
 * spread as the race chose, so the job's pooled advantage is no mixture of its lines. */
Estimate analyze_race_answer(const JobAnalysis *j);

/* Whether the race re-derived from job j's games is the one its file stores (every pair on
 * the schedule, the same rounds, the same stop). */
bool analyze_race_agrees(const JobAnalysis *j);

/* The Bradley-Terry rating (Elo points) of the agent of spec `spec` and its standard error,
 * where the file's matches rated it; false where they did not (a self-play rung rated by
 * no match, or no fit). */
bool analyze_agent_rating(const Analysis *a, const char *spec, double *rating, double *se);

/* Whether two jobs play the same agents from the same openings spec. */
bool analyze_same_setup(const JobAnalysis *x, const JobAnalysis *y);

/* A short name for the player that played spec `given` as `played` (its full spec, NULL when
 * the file does not say): the spec as given, and where the played spec holds evaluation
 * weights that are one of the named sets, that set (`alphabeta:depth=4 [tuned weights]`);
 * `[played spec unknown]` without a played spec. Written into buf. */
void analyze_agent_label(const char *given, const char *played, char *buf, size_t len);

/* Whether an agent spec names an agent that ignores the final_four convention (its kind's
 * convention_blind flag). */
bool agent_is_convention_blind(const char *spec);

/* What a job was run to answer, by its design. */
typedef enum AnswerKind {
    ANSWER_ADVANTAGE,             /* self-play: South's advantage, with the job's unit */
    ANSWER_ROOT,                  /* self-play from all:N: South's best line, held out */
    ANSWER_RACE,                  /* an adaptive root design: its best line, the race's interval */
    ANSWER_MATCH                  /* two agents: A's strength over B in Elo */
} AnswerKind;

/* A job's answer, the first line `analyze` and the report give of it: the figure, its scale
 * (points per 100 games, or Elo) with its interval in the job's unit, the units it is over,
 * and what it estimates, in words. */
typedef struct JobAnswer {
    AnswerKind kind;
    Estimate value;
    char scale[32];               /* "points per 100 games" or "Elo" */
    DesignUnit unit;
    uint64_t units;
    char line[96];                /* a root design's best line ("S5 N5"), else empty */
    char estimates[1600];
} JobAnswer;

/* A root line's moves as people name the holes ("S5 N5"), into buf; returns buf. */
const char *analyze_line_names(const Variant *v, const RootLine *l, char *buf, size_t len);

/* Job j's answer. */
JobAnswer analyze_job_answer(const JobAnalysis *j);

/* An answer kind's name in JSON: "advantage", "root_design", "adaptive_root_design",
 * "match". */
const char *answer_kind_name(AnswerKind k);

/* The aligned tables of every job and the comparisons, on out: the answers first
 * (analyze_print_answers), then each job's detail and the comparisons. */
void analyze_print(const Analysis *a, FILE *out);

/* The table of answers alone: a line per job (analyze_job_answer). */
void analyze_print_answers(const Analysis *a, FILE *out);

/* The same as one JSON document (keys in docs/analyze.md), on out. */
void analyze_json(const Analysis *a, FILE *out);

/* Convention c's name (a FinalFour value, as CONV_* indices are): final_four_name's. */
static inline const char *conv_name(int c)
{
    return final_four_name((FinalFour)c);
}

#endif
