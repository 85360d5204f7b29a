/* match.c: a match of colour-swapped game pairs from shared random openings (plies:N of
 * sim/openings.c), on an OpenMP team and shared between MPI ranks, summed in integers. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cluster.h"
#include "game.h"
#include "match.h"
#include "openings.h"
#include "stop.h"

/* A's result in one game into *result: 1 win, 0 draw (endless too), -1 loss; a game stopped
 * at the ply cap is adjudicated by the stores. Game 2*pair + colour of the match, as a run
 * plays game `game` of job `stream` (A South when colour is 0), from the pair's opening.
 * Returns 0, or what an agent that gave up its search returned (AGENT_STOPPED,
 * AGENT_NO_MEMORY): the game is then abandoned. */
static int play_game(const Match *m, const Opening *opening, uint64_t pair, int colour,
                     Agent *a, Agent *b, int *result)
{
    GameOptions o = { .max_plies = m->max_plies, .unfinished = UNFINISHED_BY_STORES };
    GameRecord r;
    int rc = game_play_indexed(m->v, m->seed, m->stream, 2 * pair + (uint64_t)colour, opening,
                               -1, a, b, &o, &r, NULL);
    if (rc != 0)
        return rc;
    int a_side = colour ? NORTH : SOUTH;
    *result = r.outcome == OUT_SOUTH   ? (a_side == SOUTH ? 1 : -1)
              : r.outcome == OUT_NORTH ? (a_side == NORTH ? 1 : -1)
                                       : 0;
    return 0;
}

int match_openings(OpeningSet *s, const Variant *v, int opening_plies, int64_t max_plies,
                   Error *e)
{
    char spec[32];
    Variant capped = *v;   /* openings_load checks the openings against the games' cap */
    if (max_plies > 0)
        capped.max_plies = max_plies;
    if (opening_plies > 0)
        snprintf(spec, sizeof spec, "plies:%d", opening_plies);
    else
        snprintf(spec, sizeof spec, "start");
    return openings_load(s, spec, &capped, e);
}

/* Build one agent pair per thread; -1 with a message. */
static int make_agents(const Match *m, Agent *agents, int threads, Error *e)
{
    for (int i = 0; i < 2 * threads; i++) {
        if (agent_create(&agents[i], i % 2 ? m->spec_b : m->spec_a, e) != 0) {
            while (i-- > 0)
                agent_free(&agents[i]);
            return -1;
        }
    }
    return 0;
}

int match_play_pairs(const Match *m, uint64_t first, uint64_t n, volatile const int *stop,
                    MatchSums *out, PairGames *each, Error *e)
{
    int threads = m->threads > 0 ? m->threads : omp_get_num_procs();
    OpeningSet openings;
    memset(out, 0, sizeof *out);
    if (each)   /* defined even where a failure leaves pairs unplayed (MPI sums them) */
        memset(each, 0, (size_t)n * sizeof *each);
    if (match_openings(&openings, m->v, m->opening_plies, m->max_plies, e) != 0)
        return -1;
    Agent *agents = calloc((size_t)threads * 2, sizeof *agents);
    if (!agents) {
        openings_free(&openings);
        return error_set(e, "out of memory for the agents");
    }
    if (make_agents(m, agents, threads, e) != 0) {
        openings_free(&openings);
        free(agents);
        return -1;
    }
    int64_t w = 0, d = 0, l = 0, p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0;
    int skipped = 0, no_memory = 0, faulted = 0;
    char fault[AGENT_FAULT_MAX] = "";
    #pragma omp parallel for num_threads(threads) schedule(dynamic, 1) \
        reduction(+ : w, d, l, p0, p1, p2, p3, p4) reduction(| : skipped, no_memory, faulted)
    for (uint64_t i = 0; i < n; i++) {
        if (stop && *stop) {
            skipped = 1;
            continue;
        }
        Agent *mine = &agents[2 * omp_get_thread_num()];
        Opening opening;   /* the pair's, for both of its games */
        openings_pair(&openings, m->v, m->seed, m->stream, first + i, &opening);
        int r0 = 0, r1 = 0;
        int rc = play_game(m, &opening, first + i, 0, mine, mine + 1, &r0);
        if (rc == 0)
            rc = play_game(m, &opening, first + i, 1, mine, mine + 1, &r1);
        if (rc != 0) {   /* an abandoned game: the pair, and so the match, is incomplete */
            skipped = 1;
            no_memory |= rc == AGENT_NO_MEMORY;
            if (rc == AGENT_FAULT && !(stop && *stop)) {   /* the first one says it */
                faulted = 1;
                #pragma omp critical(anywoli_match_fault)
                if (!fault[0])
                    snprintf(fault, sizeof fault, "%s", agent_fault(mine)[0]
                                                            ? agent_fault(mine)
                                                            : agent_fault(mine + 1));
            }
            continue;
        }
        if (each)
            each[i] = (PairGames){ { (int8_t)r0, (int8_t)r1 } };
        w += (r0 > 0) + (r1 > 0);
        d += (r0 == 0) + (r1 == 0);
        l += (r0 < 0) + (r1 < 0);
        int half_points = r0 + r1 + 2;   /* 0 .. 4 */
        p0 += half_points == 0;
        p1 += half_points == 1;
        p2 += half_points == 2;
        p3 += half_points == 3;
        p4 += half_points == 4;
    }
    for (int i = 0; i < 2 * threads; i++)
        agent_free(&agents[i]);
    free(agents);
    openings_free(&openings);
    *out = (MatchSums){ w, d, l, { p0, p1, p2, p3, p4 } };
    if (no_memory)
        return error_set(e, "an agent's search ran out of memory in a match (%s against %s)",
                         m->spec_a, m->spec_b);
    if (faulted)
        return error_set(e, "a match (%s against %s): %s", m->spec_a, m->spec_b, fault);
    return skipped ? 1 : 0;
}

int pair_half_points(PairGames p)
{
    return p.game[0] + p.game[1] + 2;
}

void match_sums_add_pair(MatchSums *a, PairGames p)
{
    for (int c = 0; c < 2; c++) {
        a->wins += p.game[c] > 0;
        a->draws += p.game[c] == 0;
        a->losses += p.game[c] < 0;
    }
    a->pairs[pair_half_points(p)]++;
}

void match_sums_add(MatchSums *a, const MatchSums *b)
{
    a->wins += b->wins;
    a->draws += b->draws;
    a->losses += b->losses;
    for (int i = 0; i < 5; i++)
        a->pairs[i] += b->pairs[i];
}

double match_score(const MatchSums *s)
{
    int64_t n = s->wins + s->draws + s->losses;
    return n ? ((double)s->wins + 0.5 * (double)s->draws) / (double)n : 0.5;
}

/* MatchSums as an array of its counts, and back, for the sum over ranks. */
enum { SUMS_NB = 8 };

static void sums_to_array(const MatchSums *s, int64_t *v)
{
    v[0] = s->wins;
    v[1] = s->draws;
    v[2] = s->losses;
    memcpy(v + 3, s->pairs, sizeof s->pairs);
}

static void sums_from_array(const int64_t *v, MatchSums *s)
{
    s->wins = v[0];
    s->draws = v[1];
    s->losses = v[2];
    memcpy(s->pairs, v + 3, sizeof s->pairs);
}

/* Every rank's pairs' games into each (n pairs, this rank's [lo, hi) filled): the shares are
 * disjoint, so a sum over the ranks of arrays zero outside each share is the whole. In chunks
 * of a fixed buffer, the same number on every rank, so that nothing can fail part-way. */
static void gather_pairs(PairGames *each, uint64_t n, uint64_t lo, uint64_t hi)
{
    enum { CHUNK = 128 };
    int64_t v[2 * CHUNK];
    for (uint64_t at = 0; at < n; at += CHUNK) {
        uint64_t k = n - at < CHUNK ? n - at : CHUNK;
        for (uint64_t i = 0; i < k; i++)
            for (int c = 0; c < 2; c++)
                v[2 * i + (uint64_t)c] = at + i >= lo && at + i < hi ? each[at + i].game[c] : 0;
        cluster_sum_array(v, (int)(2 * k));
        for (uint64_t i = 0; i < k; i++)
            each[at + i] = (PairGames){ { (int8_t)v[2 * i], (int8_t)v[2 * i + 1] } };
    }
}

int match_play_shared(const Match *m, uint64_t first, uint64_t n, MatchSums *out,
                      PairGames *each, Error *e)
{
    uint64_t lo, hi;
    cluster_share(n, cluster_rank(), cluster_size(), &lo, &hi);
    int rc = match_play_pairs(m, first + lo, hi - lo, &stop_signal, out, each ? each + lo : NULL,
                              e);
    if (cluster_size() == 1)
        return rc;
    int64_t v[SUMS_NB];
    sums_to_array(out, v);
    cluster_sum_array(v, SUMS_NB);
    sums_from_array(v, out);
    if (each)
        gather_pairs(each, n, lo, hi);
    int64_t worst = cluster_max(rc < 0 ? 2 : rc);
    stop_share();
    if (worst == 2 && rc >= 0)
        error_set(e, "another rank could not play its share of a match (its message says why)");
    return worst == 2 ? -1 : (int)worst;
}
