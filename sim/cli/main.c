/* main.c: the `anywoli` entry point and its table of subcommands. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nearest.h"
#include "cluster.h"
#include "commands.h"
#include "h5util.h"
#include "learn_auto.h"
#include "results.h"

typedef struct Command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    /* Whether it shares its work between MPI ranks when mpirun starts it: always, or only
     * with this subcommand (`tables build`); NULL for both: never. */
    bool ranks;
    const char *ranks_with;
    /* Every file argument the command takes, as command lines in which each file is a
     * placeholder naming its role and what it holds: {in:KIND} a file read, {out:KIND} a
     * file written (claimed, written as NAME.partial, renamed into place), {outdir:KIND} a
     * folder written into (made if missing), {dir:KIND} a folder that must exist, written
     * into (work files); a line is split as a shell would (quotes hold spaces).
     * `anywoli --file-arguments` prints them, and the test of hostile files
     * (tests/door_matrix_test.py) makes each KIND and runs every line against links, FIFOs,
     * folders, devices, an input named as an output, a full disk, SIGTERM, stray partial
     * files and a lost standard output; it also holds every file option of each command's
     * --help to these lines. A file argument added to a command is listed here, and so is
     * tested the day it is added. */
    const char *const *files;
} Command;

/* The file arguments of each command (Command.files); the variant options keep the
 * fixtures' boards small. */
static const char *const run_files[] = {
    "run {in:config} -o {out:results} --threads 1 --quiet",
    "run --holes 6 --agent-a alphabeta:depth=1,tables={in:tables} --agent-b random --games 4 "
    "--seed 1 -o {out:results} --quiet",
    "run --holes 6 --agent-a alphabeta:depth=1,weights=learned,learned={in:weights} "
    "--agent-b random --games 4 --seed 1 -o {out:results} --quiet",
    "run --holes 6 --agent-a alphabeta:depth=1,weights=net,net={in:net} --agent-b random "
    "--games 4 --seed 1 -o {out:results} --quiet",
    "run --holes 6 --agent-a greedy --agent-b random --openings file:{in:book} --games 4 "
    "--seed 1 -o {out:results} --quiet",
    NULL
};
static const char *const analyze_files[] = {
    "analyze {in:results}",
    "analyze {in:results} --report {outdir:report}",
    NULL
};
static const char *const replay_files[] = {
    "replay {in:results} --job main --game 1 --quiet",
    "replay {in:results} --job main --game 1 --quiet --html {out:html}",
    NULL
};
static const char *const export_files[] = { "export {in:results} -o {out:csv}", NULL };
static const char *const merge_files[] = {
    "merge -o {out:results} {in:slice0} {in:slice1} --quiet", NULL
};
static const char *const agents_files[] = {
    "agents alphabeta:tables={in:tables}", "agents alphabeta:weights=learned,learned={in:weights}",
    "agents strong:weights=net,net={in:net}", "agents mcts:weights=net,net={in:net}",
    NULL
};
static const char *const solve_files[] = {
    "solve --holes 6 --tables {in:tables} '2,1,0,1,0,0/0,1,0,1,1,0 20/21 S - -'", NULL
};
static const char *const search_files[] = {
    "search --holes 6 --depth 2 --agent alphabeta:weights=learned,learned={in:weights}",
    "search --holes 6 --depth 4 --agent alphabeta:weights=learned,learned={in:weights} "
    "--html {out:html}",
    NULL
};
static const char *const tables_files[] = {
    "tables build --holes 6 --seeds 4 --max-seeds 8 -o {out:tables} --quiet",
    "tables build --holes 6 --seeds 4 --max-seeds 8 -o {out:tables} "
    "--also lottery={out:tables_lottery} --quiet",
    "tables info {in:tables}",
    "tables build --holes 6 --seeds 4 --max-seeds 8 -o {out:tables} --work-dir {dir:work} "
    "--quiet",
    "tables compare {in:tables} {in:tables_lottery} --games {in:results}",
    "tables agree {in:tables} {in:results} --agent greedy",
    NULL
};
static const char *const openings_files[] = {
    "openings --holes 6 --plies 1 --depth 1 --window 48 -o {out:book}", NULL
};
static const char *const tune_files[] = {
    "tune {in:tune_config} -o {out:results} --threads 1 --quiet", NULL
};
static const char *const fit_files[] = {
    "fit {in:results} --tables {in:tables}",
    "fit {in:results} --dump {out:csv}",
    NULL
};
static const char *const learn_files[] = {
    "learn sample -o {out:data} --holes 6 --games 4 --depth 1 --tables {in:tables} --quiet",
    "learn sample -o {out:data} --holes 6 --games 4 --depth 1 --openings file:{in:book} "
    "--quiet",
    "learn fit {in:data} --weights-out {out:weights} --c-out {out:c}",
    "learn net-error {in:net} {in:data}",
    "learn base {in:std_data}",
    "learn base {in:std_data} --features",
    NULL
};

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

/* The engine and play take agent specs (and so their files) as `agents` checks them, and talk
 * on standard input: their files are the agents' lines. */
static const char *const engine_files[] = {
    "engine --agent alphabeta:depth=1,tables={in:tables}", NULL
};
static const char *const play_files[] = {
    "play --holes 6 --south alphabeta:depth=1,weights=learned,learned={in:weights} "
    "--north random --quiet", NULL
};
static const char *const no_files[] = { NULL };

static const Command commands[] = {
    { "perft", cmd_perft, "count move paths from a position, to check the rules", false, NULL,
      no_files },
    { "move", cmd_move, "play moves from a position and print each result in APN", false, NULL,
      no_files },
    { "bench", cmd_bench, "time seeded random games; print a deterministic signature",
      false, NULL, no_files },
    { "run", cmd_run, "play an experiment's games into a results file (HDF5)", true, NULL,
      run_files },
    { "analyze", cmd_analyze, "analyse a results file: tables, tests, JSON, an HTML report",
      false, NULL, analyze_files },
    { "replay", cmd_replay, "replay a game of a results file, move by move, and check it",
      false, NULL, replay_files },
    { "export", cmd_export, "write a results file's games as CSV, one row per game", false, NULL,
      export_files },
    { "merge", cmd_merge, "put results files of one experiment's game ranges together",
      false, NULL, merge_files },
    { "agents", cmd_agents, "list the agents and their options, or check agent specs",
      false, NULL, agents_files },
    { "engine", cmd_engine, "play an agent as a program over the line protocol (stdin/stdout)",
      false, NULL, engine_files },
    { "play", cmd_play, "play a game in the terminal: a person or an agent on each side",
      false, NULL, play_files },
    { "solve", cmd_solve, "the exact value of a position and of each of its moves", false, NULL,
      solve_files },
    { "search", cmd_search, "a position's alpha-beta value, depth by depth, with its line",
      false, NULL, search_files },
    { "tables", cmd_tables, "build or describe endgame tables: exact values up to K seeds",
      false, "build", tables_files },
    { "openings", cmd_openings, "a balanced book: the N-ply lines a deep search values near 0",
      false, NULL, openings_files },
    { "tune", cmd_tune, "tune an agent's evaluation weights by self-play (SPSA), then verify",
      true, NULL, tune_files },
    { "fit", cmd_fit, "fit evaluation weights to stored games' results (Texel's method)",
      false, NULL, fit_files },
    { "learn", cmd_learn, "the learned evaluation: label positions by deep search, fit it",
      false, NULL, learn_files },
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

/* `anywoli --file-arguments`: each command's file arguments (Command.files), one line each:
 * the command's name, a tab, the line with its placeholders. For the tests and for tools. */
static void print_file_arguments(void)
{
    for (int i = 0; i < COMMANDS_NB; i++) {
        printf("%s\t\n", commands[i].name);
        for (int f = 0; commands[i].files[f]; f++)
            printf("%s\t%s\n", commands[i].name, commands[i].files[f]);
    }
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
    cli_stdout_init();
    /* No HDF5 clean-up at exit: the library's own would close, and crash on, a file whose
     * write failed (a full disk) after the command has already said why it stops. */
    h5u_quiet();
    atexit(cli_check_stdout_at_exit);
    /* learned=auto's fit (weights=learned on a board the compiled-in set is not for). */
    learn_auto_install();
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
    if (strcmp(name, "--file-arguments") == 0) {
        print_file_arguments();
        return 0;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("anywoli %s (%s)\n", results_program_version(), results_git_commit());
        return 0;
    }
    return run_command(argc, argv);
}
