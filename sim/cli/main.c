/* main.c: the `anywoli` entry point and its table of subcommands. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nearest.h"
#include "cluster.h"
#include "commands.h"
#include "results.h"

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    /* Whether it shares its work between MPI ranks when mpirun starts it: always, or only
     * with this subcommand (`tables build`); NULL for both: never. */
    bool ranks;
    const char *ranks_with;
} Command;

/* Under mpirun, stop (rank 0 saying why) unless every rank runs this same build: ranks of
 * other versions could play other games, or exchange messages of other shapes. */
static void same_build_on_every_rank(void)
{
    char build[256];
    snprintf(build, sizeof build, "%s (%s, %s)", results_program_version(),
             results_git_commit(), __VERSION__);
    int other = cluster_first_differing(build);
    if (other >= 0)
        die("rank %d runs another build of anywoli than rank 0's %s: every rank must run the "
            "same one", other, build);
}

static const Command commands[] = {
    { "perft", cmd_perft, "count move paths from a position, to check the rules", false, NULL },
    { "move", cmd_move, "play moves from a position and print each result in APN", false, NULL },
    { "bench", cmd_bench, "time seeded random games; print a deterministic signature",
      false, NULL },
    { "run", cmd_run, "play an experiment's games into a results file (HDF5)", true, NULL },
    { "analyze", cmd_analyze, "analyse a results file: tables, tests, JSON, an HTML report",
      false, NULL },
    { "replay", cmd_replay, "replay a game of a results file, move by move, and check it",
      false, NULL },
    { "export", cmd_export, "write a results file's games as CSV, one row per game", false, NULL },
    { "merge", cmd_merge, "put results files of one experiment's game ranges together",
      false, NULL },
    { "agents", cmd_agents, "list the agents and their options, or check agent specs",
      false, NULL },
    { "engine", cmd_engine, "play an agent as a program over the line protocol (stdin/stdout)",
      false, NULL },
    { "play", cmd_play, "play a game in the terminal: a person or an agent on each side",
      false, NULL },
    { "solve", cmd_solve, "the exact value of a position and of each of its moves", false, NULL },
    { "search", cmd_search, "a position's alpha-beta value, depth by depth, with its line",
      false, NULL },
    { "tables", cmd_tables, "build or describe endgame tables: exact values up to K seeds",
      false, "build" },
    { "openings", cmd_openings, "a balanced book: the N-ply lines a deep search values near 0",
      false, NULL },
    { "tune", cmd_tune, "tune an agent's evaluation weights by self-play (SPSA), then verify",
      true, NULL },
    { "fit", cmd_fit, "fit evaluation weights to stored games' results (Texel's method)",
      false, NULL },
    { "learn", cmd_learn, "the learned evaluation: label positions by deep search, fit it",
      false, NULL },
};

#define COMMANDS_NB ((int)(sizeof commands / sizeof commands[0]))

/* Whether command c, run with these arguments, shares its work between MPI ranks. */
static bool uses_ranks(const Command *c, int argc, char **argv)
{
    return c->ranks || (c->ranks_with && argc > 2 && strcmp(argv[2], c->ranks_with) == 0);
}

/* The top-level help: every subcommand with its one-line summary. */
static void usage(FILE *out)
{
    fprintf(out, "usage: anywoli COMMAND [options]\n\n"
                 "Anywoli lab: self-play experiments for the mancala game Anywoli.\n\n"
                 "Commands:\n");
    for (int i = 0; i < COMMANDS_NB; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'anywoli COMMAND --help', 'anywoli COMMAND -h' or 'anywoli help COMMAND'\n"
                 "describes a command and its options.\n");
}

/* Run the command argv[1] names with its arguments; an unknown one is refused with the
 * nearest name. */
static int run_command(int argc, char **argv)
{
    const char *name = argv[1];
    for (int i = 0; i < COMMANDS_NB; i++) {
        if (strcmp(name, commands[i].name) == 0) {
            static char label[64];
            snprintf(label, sizeof label, "anywoli %s", name);
            cli_command = label;
            if (uses_ranks(&commands[i], argc, argv)) {
                cluster_start(&argc, &argv);
                cluster_set_command(label);
                cli_silent = !cluster_leads();
                same_build_on_every_rank();
            }
            return commands[i].run(argc - 1, argv + 1);
        }
    }
    Nearest n;
    char hint[80];
    nearest_start(&n, name);
    for (int i = 0; i < COMMANDS_NB; i++)
        nearest_consider(&n, commands[i].name, strlen(commands[i].name));
    fprintf(stderr, "anywoli: unknown command '%s'%s (try 'anywoli --help')\n", name,
            nearest_hint(&n, "", hint, sizeof hint));
    return 2;
}

/* `anywoli help COMMAND [ACTION]`: what `anywoli COMMAND [ACTION] --help` prints. */
static int command_help(int argc, char **argv)
{
    char *args[8];
    int n = 0;
    args[n++] = argv[0];
    for (int i = 2; i < argc && n < 6; i++)
        args[n++] = argv[i];
    args[n++] = "--help";
    args[n] = NULL;
    return run_command(n, args);
}

int main(int argc, char **argv)
{
    atexit(cli_check_stdout_at_exit);
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "help") == 0 && argc > 2 && argv[2][0] != '-' &&
        strcmp(argv[2], "help") != 0)
        return command_help(argc, argv);
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("anywoli %s (%s)\n", results_program_version(), results_git_commit());
        return 0;
    }
    return run_command(argc, argv);
}
