/* analyze_answer.c: each job's answer in one line, what `analyze` and the report begin with:
 * the figure the job's design was run for, with its unit and interval, and what it
 * estimates. The detail that follows it is drawn from the same JobAnalysis. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analyze.h"

const char *analyze_line_names(const Variant *v, const RootLine *l, char *buf, size_t len)
{
    return hole_names(v, l->moves, l->n_moves, buf, len);
}

/* Where a job's games start, in words. */
static void openings_text(const char *spec, char *buf, size_t len)
{
    if (strcmp(spec, "start") == 0)
        snprintf(buf, len, "from the start");
    else if (strncmp(spec, "file:", 5) == 0)
        snprintf(buf, len, "from the lines of the book %s", spec + 5);
    else if (strncmp(spec, "plies:", 6) == 0)
        snprintf(buf, len, "from random %s-ply openings", spec + 6);
    else if (strncmp(spec, "all:", 4) == 0)
        snprintf(buf, len, "from every %s-ply line", spec + 4);
    else
        snprintf(buf, len, "from the openings %s", spec);
}

/* Points per 100 games (an advantage in [-1, 1] times 100). */
static Estimate points(Estimate x)
{
    return (Estimate){ 100 * x.value, { 100 * x.ci.lo, 100 * x.ci.hi } };
}

/* The units an answer is over, from the job's unit; a root design's answers are over its
 * lines' pairs. */
static void answer_units(const JobAnalysis *j, JobAnswer *w)
{
    w->unit = j->unit;
    w->units = j->units;
}

/* A match's answer: A's strength over B in Elo, from its score with the job's unit. */
static void match_answer(const JobAnalysis *j, const char *from, JobAnswer *w)
{
    w->kind = ANSWER_MATCH;
    w->value = (Estimate){ j->elo.elo, j->elo.elo_ci };
    snprintf(w->scale, sizeof w->scale, "Elo");
    snprintf(w->estimates, sizeof w->estimates, "A's strength over B (Elo, from A's score "
             "%.4f): %s vs %s, %s", j->elo.score, j->label_a, j->label_b, from);
    answer_units(j, w);
}

/* A self-play job's answer: South's advantage with the job's unit. */
static void advantage_answer(const JobAnalysis *j, const char *from, JobAnswer *w)
{
    w->kind = ANSWER_ADVANTAGE;
    w->value = points(j->advantage);
    snprintf(w->scale, sizeof w->scale, "points per 100 games");
    snprintf(w->estimates, sizeof w->estimates, "South's advantage per 100 games, P(South won) "
             "- P(North won): self-play of %s %s under %s", j->label_a, from,
             final_four_name(j->variant.final_four));
    answer_units(j, w);
}

/* A root design's answer: South's best line, by the adaptive race's interval where the job
 * ran one, else held out (two halves), with the line the minimax over all pairs chose. */
static void root_answer(const JobAnalysis *j, const char *from, JobAnswer *w)
{
    const RootLine *best = NULL;
    if (j->has_race) {
        w->kind = ANSWER_RACE;
        w->value = points(analyze_race_answer(j));
        best = j->race.best >= 0 ? &j->race.lines[j->race.best] : NULL;
        w->unit = UNIT_PAIR;
        w->units = 0;
        for (int i = 0; i < j->race.nlines; i++)
            w->units += j->race.sum[i].n;
    } else {
        w->kind = ANSWER_ROOT;
        w->value = points(j->root.held_out);
        best = j->root.naive_line >= 0 ? &j->root.lines[j->root.naive_line] : NULL;
        answer_units(j, w);
    }
    snprintf(w->scale, sizeof w->scale, "points per 100 games");
    char line[96] = "none";
    if (best)
        analyze_line_names(&j->variant, best, line, sizeof line);
    snprintf(w->line, sizeof w->line, "%s", line);
    char who[64] = "the first plies are chosen";
    if (best && best->n_moves == 1)
        snprintf(who, sizeof who, "South chooses its first move");
    else if (best)
        snprintf(who, sizeof who, "both sides choose the first %d plies (minimax)",
                 best->n_moves);
    snprintf(w->estimates, sizeof w->estimates, "South's advantage per 100 games when %s and "
             "%s plays on: the best line (%s), %s; %s under %s", who, j->label_a, line,
             j->has_race ? "the adaptive race's interval" : "held out (two halves)", from,
             final_four_name(j->variant.final_four));
}

/* What the answer must be read with: a sequential stop's bias, games that repeat or follow
 * few lines (then the job's figures describe those games or lines). */
static void answer_cautions(const JobAnalysis *j, JobAnswer *w)
{
    size_t at = strlen(w->estimates), len = sizeof w->estimates;
    if (j->seq.has && j->seq.stopped && at < len)
        at += (size_t)snprintf(w->estimates + at, len - at, "; stopped by its sequential "
                               "test, so biased toward the hypothesis it accepted");
    if (j->has_distinct && distinct_games_few(&j->distinct) && at < len)
        at += (size_t)snprintf(w->estimates + at, len - at, "; warning: few distinct games, "
                               "the interval is too narrow");
    if (j->lines_few && at < len)
        snprintf(w->estimates + at, len - at, "; warning: the games follow few lines");
}

JobAnswer analyze_job_answer(const JobAnalysis *j)
{
    JobAnswer w;
    memset(&w, 0, sizeof w);
    char from[600];
    openings_text(j->openings_spec, from, sizeof from);
    if (j->two_agents)
        match_answer(j, from, &w);
    else if (j->has_race || j->has_root)
        root_answer(j, from, &w);
    else
        advantage_answer(j, from, &w);
    answer_cautions(j, &w);
    return w;
}


const char *answer_kind_name(AnswerKind k)
{
    static const char *const names[] = { "advantage", "root_design", "adaptive_root_design",
                                         "match" };
    return names[k];
}
