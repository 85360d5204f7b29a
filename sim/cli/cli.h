/* cli.h: what every subcommand shares: errors, the variant options, positions from APN. */
#ifndef ANYWOLI_CLI_H
#define ANYWOLI_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdnoreturn.h>

#include "output.h"
#include "position.h"
#include "variant.h"
#include "variant_text.h"

/* The running subcommand's name, for messages ("anywoli perft"). */
extern const char *cli_command;

/* Whether die and fail exit without a message: set on MPI ranks other than 0, which would
 * only repeat rank 0's message (cli_agree_or_die is for errors a rank may meet alone). */
extern bool cli_silent;

/* A bad input: print "anywoli CMD: MESSAGE" on one line to stderr and exit with status 2. */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A failure of the machine (out of memory, I/O): as die, with exit status 1. */
noreturn void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Standard output, flushed: fail (exit status 1, "cannot write standard output: No space
 * left on device") if anything written to it was lost. */
void cli_flush_stdout(void);
/* Standard output as a stream that keeps the reason of its first failed write (a full disk,
 * a closed descriptor), so that the messages above give it: called first thing by main. */
void cli_stdout_init(void);
/* The same check as the program ends, for every command (main registers it with atexit):
 * a lost write turns a successful exit into status 1 with that one line. */
void cli_check_stdout_at_exit(void);

/* Collective over MPI ranks: return if every rank is ok; otherwise every rank exits with
 * status 2, after rank 0's message if it failed, or else each failing rank's (naming it).
 * For inputs that ranks read separately (a config on each machine's disk). */
void cli_agree_or_die(bool ok, const char *msg);

/* Claim the output of a command that writes one file (`tables build`, `openings`, `export`):
 * the lock beside path proves the folder can be written before any work, an existing path is
 * refused without --force, and a PATH.partial left by a writer that died is removed (saying
 * so on stderr); on a failure a one-line error and exit status 2. The caller then creates
 * PATH.partial with door_create and puts it in place with output_publish. */
void cli_claim_output(Output *o, const char *path, bool force, const char *what);
/* cli_claim_output without dying: -1 with the message, o released. */
int cli_try_claim_output(Output *o, const char *path, bool force, const char *what, Error *e);

/* --peer-timeout SECONDS of the commands that share work between MPI ranks (cluster.h):
 * dies on a value that is not 0 (no limit) to a week. */
void cli_peer_timeout(const char *arg);
#define CLI_PEER_TIMEOUT_HELP \
    "  --peer-timeout S under mpirun, end the job if a rank is unheard for S seconds\n" \
    "                   (a frozen or lost node; default 60; 0: no limit)\n"

/* Option codes of the variant options, above any short option letter: --variant, then one
 * per variant parameter (OPT_PARAM + its VariantParam), then --help. */
enum {
    OPT_VARIANT = 256, OPT_PARAM, OPT_HELP = OPT_PARAM + VP_NB, OPT_FIRST_FREE
};

/* How many getopt_long entries the variant options and --help take. */
#define CLI_VARIANT_OPTIONS_NB (VP_NB + 2)

/* Help text for the variant options, for each subcommand's --help (from variant_params). */
const char *cli_variant_help(void);

/* getopt_long over opts (ended by a zero entry; `shortopts` without a leading ':'): the next
 * option's code (optarg set) or -1 at the end; -h is --help (OPT_HELP) where opts has it. Dies with a one-line message for an unknown
 * option (naming the nearest known one when it looks like a slip: "did you mean
 * '--agent-a'?"), a prefix of several, or a missing value. */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *opts);

/* The next option of a command that takes the variant options besides its own (`own`, ended
 * by a zero entry, at most CLI_OWN_OPTIONS_MAX; `shortopts` as for getopt_long): variant
 * options are recorded in vt (--variant as its preset) and passed over; returns the next
 * other option's code (optarg set) or -1 at the end; dies on a bad option as cli_getopt. */
int cli_next_option(int argc, char **argv, const char *shortopts, const struct option *own,
                    VariantText *vt);
#define CLI_OWN_OPTIONS_MAX 24

/* The variant: the preset (or the standard game), then every explicit option. Dies on error,
 * naming the option at fault. */
void cli_variant(const VariantText *t, Variant *v);

/* The variant and a position: the start, or the APN fitted to the options. Dies on error. */
void cli_variant_position(const VariantText *t, const char *apn, Variant *v, Position *p);

/* Parse a whole number in [lo, hi] for an option; dies naming the option otherwise. */
long long cli_number(const char *option, const char *text, long long lo, long long hi);

#endif
