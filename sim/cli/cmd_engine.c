/* cmd_engine.c: `anywoli engine`, one of the lab's agents as a program that plays: it speaks
 * the line protocol (docs/protocol.md) on its standard input and output, as a program behind
 * the external agent does, so another harness can play the lab's agents and two engines can
 * meet through `external:`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "cli.h"
#include "commands.h"
#include "protocol.h"

enum { OPT_AGENT = OPT_FIRST_FREE };

static const char engine_usage[] =
    "usage: anywoli engine --agent SPEC\n\n"
    "Play as a program over the line protocol (docs/protocol.md) on standard input\n"
    "and output: answer the hello, then each position with the agent's move, drawn\n"
    "from the stream whose key the game's seed gives, so the moves are those the\n"
    "agent plays in the lab's own games. Lines it cannot take are answered with\n"
    "`error TEXT`; it ends at `quit` or at the end of its input (exit status 0).\n\n"
    "  --agent SPEC   the agent, as in runs: greedy, alphabeta:depth=4, ...\n\n"
    "Example: anywoli run --agent-a external:cmd=anywoli,arg=engine,arg=--agent,arg=greedy\n";

/* The engine between lines: its agent and the game under way. */
typedef struct Engine {
    Agent agent;
    char spec[AGENT_FULL_SPEC_MAX];
    ProtoGame game;               /* the last `game` line's (before any: the standard game) */
    Rng stream;                   /* the agent's stream in that game, as far as it has drawn */
    ProtoText out;
} Engine;

/* Write what is in e->out and flush: the other end waits for every answer. */
static void answer(Engine *e)
{
    if (e->out.failed)
        fail("out of memory");
    if (fwrite(e->out.s, 1, e->out.n, stdout) != e->out.n || fflush(stdout) != 0)
        fail("writing the answer: %s", "standard output failed");
    proto_text_clear(&e->out);
}

/* An answer saying why a line cannot be taken. */
static void refuse(Engine *e, const char *why)
{
    proto_error(&e->out, why);
    answer(e);
}

/* A new game: its variant, the agent's side and its stream, which starts at its key. */
static void start_game(Engine *e, ProtoGame *g)
{
    Error why;
    if (agent_check_variant(&e->agent, &g->v, &why) != 0) {
        refuse(e, why.msg);
        return;
    }
    e->game = *g;
    e->stream = (Rng){ g->seed, 0 };
    agent_new_game(&e->agent);
}

/* The agent's move in a position of the game under way. */
static void play_position(Engine *e, const char *rest)
{
    Position p;
    Error why;
    if (proto_parse_position(rest, &e->game.v, &p, &why) != 0) {
        refuse(e, why.msg);
        return;
    }
    AgentStats st = { 0 };
    int move = e->agent.choose(&e->agent, &e->game.v, &p, &e->stream, &st);
    if (move < 0) {
        refuse(e, move == AGENT_NO_MEMORY ? "the agent's search ran out of memory"
                                          : "the agent gave up its search");
        return;
    }
    proto_move(&e->out, move, st.nodes, st.playouts);
    answer(e);
}

/* One line from the other end. Returns false at `quit`. */
static bool take_line(Engine *e, char *line)
{
    const char *rest;
    Error why;
    int version;
    ProtoGame g;
    switch (proto_word(line, &rest)) {
    case PW_HELLO:
        if (proto_parse_hello(rest, &version, &why) != 0) {
            refuse(e, why.msg);
            break;
        }
        proto_name(&e->out, e->spec);
        proto_version(&e->out);   /* the other end says whether it speaks this one */
        answer(e);
        break;
    case PW_GAME:
        if (proto_parse_game(rest, &g, &why) != 0)
            refuse(e, why.msg);
        else
            start_game(e, &g);
        break;
    case PW_POSITION:
        play_position(e, rest);
        break;
    case PW_QUIT:
        return false;
    case PW_SET:
        refuse(e, "this engine takes no options (give them in --agent's spec)");
        break;
    case PW_EMPTY:
    case PW_END:   /* the result changes nothing: the next game line resets the agent */
    case PW_INFO:
        break;
    default:
        snprintf(why.msg, sizeof why.msg, "unknown line '%.60s' (expected anywoli, game, "
                 "position, end or quit)", line);
        refuse(e, why.msg);
    }
    return true;
}

int cmd_engine(int argc, char **argv)
{
    static const struct option opts[] = {
        { "agent", required_argument, NULL, OPT_AGENT },
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    const char *spec = NULL;
    int c;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        if (c == OPT_AGENT)
            spec = optarg;
        else if (c == OPT_HELP) {
            printf("%s", engine_usage);
            return 0;
        }
    }
    if (optind < argc)
        die("unexpected argument '%s' (see --help)", argv[optind]);
    if (!spec)
        die("--agent SPEC is required (see --help)");
    static Engine e;
    Error why;
    if (agent_create(&e.agent, spec, &why) != 0)
        die("--agent: %s", why.msg);
    agent_describe(&e.agent, e.spec, sizeof e.spec);
    variant_default(&e.game.v);
    e.stream = (Rng){ 0, 0 };
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (line[n - 1] == '\n')
            line[n - 1] = '\0';
        if (!take_line(&e, line))
            break;
    }
    free(line);
    proto_text_free(&e.out);
    agent_free(&e.agent);
    return 0;
}
