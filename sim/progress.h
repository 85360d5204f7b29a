/* progress.h: the progress line on stderr: live (rewritten in place) when stderr is a
 * terminal, a plain line every few seconds when it is not, a JSON object a line when asked
 * (--progress json, for dashboards), nothing when asked to be quiet. */
#ifndef ANYWOLI_PROGRESS_H
#define ANYWOLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "elo.h"
#include "stats.h"

typedef enum ProgressMode {
    PROGRESS_NONE = 0, PROGRESS_LIVE, PROGRESS_PLAIN, PROGRESS_JSON
} ProgressMode;

typedef struct Progress {
    ProgressMode mode;
    double interval;         /* seconds between lines */
    double next;             /* when the next line is due (seconds, any fixed origin) */
    bool shown;              /* a live line is on the terminal */
    bool started;            /* the JSON start record is written: an end record is owed */
    double t0;               /* when it was (the origin of elapsed_s) */
} Progress;

/* How a run begins, for its JSON start record. */
typedef struct ProgressStart {
    int njobs;
    int64_t planned;         /* games the experiment asks for, every job */
    int64_t in_file;         /* games already in the file (recovered by --resume, or a grow's) */
    int threads;             /* OpenMP threads (rank 0's) */
    int ranks;               /* MPI ranks (1 without MPI) */
} ProgressStart;

/* One job at the end of a run, for the JSON end record. */
typedef struct ProgressJobEnd {
    const char *job;
    int64_t games, planned;  /* in the file; asked for */
    const char *stopped_by;  /* "sprt" or "root_design" when its rule ended it before its
                              * planned games, else NULL */
} ProgressJobEnd;

/* How a run ended, for the JSON end record. */
typedef struct ProgressEnd {
    const char *outcome;     /* "complete", "stopped_early", "interrupted" or "failed" */
    int signal;              /* the signal that interrupted it, or 0 */
    const char *error;       /* why it failed, or NULL */
    int64_t games, planned;  /* games in the file at the end, every job; asked for */
    int64_t played;          /* of them, played in this session */
    const ProgressJobEnd *jobs;
    int njobs;
} ProgressEnd;

/* What a job's games so far say, in the unit its design calls for: the pair (games 2k and
 * 2k+1, colours swapped), or the opening where pairs repeat openings. */
typedef struct ProgressFigure {
    const char *name;        /* "score": A's per game, with its Elo; "advantage": South's
                              * points minus North's per game (a job of one agent against
                              * itself); NULL before a pair is counted */
    Estimate value;          /* with its 95% interval */
    Estimate elo;            /* the score's; NaN for the advantage */
    const char *unit;        /* "pair" or "opening" */
    uint64_t units, pairs;
    bool has_test;           /* the job has a sequential test: */
    Sprt test;               /* its state over the pairs so far */
    uint64_t min_pairs;      /* the pairs it needs before it may stop the job */
} ProgressFigure;

/* Where a run stands. */
typedef struct ProgressInfo {
    const char *job;
    int jobno, njobs;        /* 1-based */
    int64_t done, total;     /* games of this job */
    double rate;             /* games per second, this session */
    double left;             /* seconds left for the jobs timed so far, or < 0 if unknown */
    int untimed;             /* jobs still to play that `left` leaves out: not timed yet */
    ProgressFigure figure;   /* the job's figure so far (name NULL: none) */
} ProgressInfo;

/* One job's part in the time left (progress_time_left). */
typedef struct EtaJob {
    int64_t games_left;      /* games of it still to play */
    double seconds;          /* time spent playing it in this session */
    int64_t played;          /* games of it played in that time */
    int like;                /* the first job whose games cost as much as its own (the same
                              * agents on the same board), perhaps itself */
} EtaJob;

/* The run's seconds left: each job's games left at its own time per game, measured in this
 * session, or else at that of a job like it. A job with neither is not timed yet: it adds
 * nothing, and is counted in *untimed. Jobs differ in cost by orders of magnitude (random
 * games against deep searches), so no job is guessed from unlike ones. -1 (unknown) when
 * out of memory. */
double progress_time_left(const EtaJob *jobs, int njobs, int *untimed);

/* Choose the mode from stderr, quiet and json; plain and JSON lines come every
 * ANYWOLI_PROGRESS_SECONDS seconds (default 5). */
void progress_init(Progress *p, bool quiet, bool json);

/* Whether a line is due at time now. */
bool progress_due(const Progress *p, double now);

/* Show where the run stands, and schedule the next line. */
void progress_show(Progress *p, double now, const ProgressInfo *i);

/* Show a line of the caller's own (`what`, then the time left when left >= 0), and schedule
 * the next line. */
void progress_text(Progress *p, double now, const char *what, double left);

/* With --progress json: the start record (`"record": "start"`), which starts the clock of
 * elapsed_s and of the periodic records. Nothing in the other modes. */
void progress_start(Progress *p, double now, const ProgressStart *s);

/* With --progress json and a start record written: the end record (`"record": "end"`), the
 * run's last line on stderr but for the error that a failure prints after it. */
void progress_end(Progress *p, double now, const ProgressEnd *e);

/* Clear a live line, so that what follows starts on a clean line. */
void progress_clear(Progress *p);

#endif
