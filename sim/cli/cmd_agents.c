/* cmd_agents.c: `anywoli agents`, the players the registry can build and their options. */
#include <stdio.h>
#include <string.h>

#include "agent.h"
#include "cli.h"
#include "commands.h"
#include "eval.h"

static const char agents_usage[] =
    "usage: anywoli agents [SPEC...]\n\n"
    "With no SPEC, list every agent with its options: key, default, range and\n"
    "meaning. With SPECs (`name` or `name:key=value,...`), check each and print it\n"
    "in full, every option with the value it takes (`alphabeta:depth=6,nodes=0,...`).\n";

/* The allowed values of an option, as text: a range or the choices. */
static void option_range(const AgentKind *k, const AgentOption *o, char *buf, size_t len)
{
    size_t used = 0;
    char required[80];
    snprintf(required, sizeof required, ":%s=", o->key);
    buf[0] = '\0';
    if (k->example && strstr(k->example, required)) {
        snprintf(buf, len, "required");
    } else if (o->type == AOPT_LIST) {
        snprintf(buf, len, "text; none by default; may be given again");
    } else if (o->type == AOPT_CHOICE) {
        for (int i = 0; o->choices[i] && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "|" : "",
                                     o->choices[i]);
    } else if (o->type == AOPT_TEXT) {
        snprintf(buf, len, "a file; none by default");
    } else {
        snprintf(buf, len, "%.15g to %.15g", o->lo, o->hi);
    }
}

/* The value `key` takes in a full spec (`name:key=value,...`), into buf. */
static void described_value(const char *full, const char *key, char *buf, size_t len)
{
    size_t n = strlen(key);
    for (const char *p = strchr(full, ':'); p; p = strchr(p + 1, ',')) {
        if (strncmp(p + 1, key, n) == 0 && p[1 + n] == '=') {
            snprintf(buf, len, "%.*s", (int)strcspn(p + 2 + n, ","), p + 2 + n);
            return;
        }
    }
    buf[0] = '\0';
}

/* The summary with each `{key}` written as `key=value`, the value the agent's full default
 * spec gives (AgentKind.summary), into buf. */
static void expand_summary(const char *summary, const char *full, char *buf, size_t len)
{
    size_t used = 0;
    for (const char *p = summary; *p && used + 1 < len;) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (!close) {
            buf[used++] = *p++;
            continue;
        }
        char key[64], value[64];
        snprintf(key, sizeof key, "%.*s", (int)(close - p - 1), p + 1);
        described_value(full, key, value, sizeof value);
        used += (size_t)snprintf(buf + used, len - used, "%s=%s", key, value);
        p = close + 1;
    }
    buf[used < len ? used : len - 1] = '\0';
}

/* One agent's entry: name and summary, then an indented line per option with the value it
 * takes in a spec that gives none (read from that agent's full spec, so that a default that
 * depends on another option, as alphabeta's weights on its depth, shows as it plays). */
static void list_agent(const AgentKind *k)
{
    Agent a;
    Error e;
    char full[1024];
    if (agent_create(&a, k->example ? k->example : k->name, &e) != 0)
        die("%s", e.msg);   /* every kind builds with its defaults (test_agents checks it) */
    agent_describe(&a, full, sizeof full);
    agent_free(&a);
    char summary[1024];
    expand_summary(k->summary, full, summary, sizeof summary);
    printf("%-10s %s\n", k->name, summary);
    for (const AgentOption *o = k->options; o && o->key; o++) {
        char range[96], key[112], value[64];
        option_range(k, o, range, sizeof range);
        if (o->type != AOPT_WEIGHTS) {
            described_value(full, o->key, value, sizeof value);
            snprintf(key, sizeof key, "%s=%s", o->key, value);
            printf("  %-18s %s (%s)\n", key, o->help, range);
            continue;
        }
        for (int t = 0; t < EVAL_NB; t++) {
            char name[32];
            snprintf(name, sizeof name, "w.%s", eval_terms[t].name);
            described_value(full, name, value, sizeof value);
            snprintf(key, sizeof key, "%s=%s", name, value);
            printf("  %-18s weight of: %s (%s)\n", key, eval_terms[t].help, range);
        }
    }
}

int cmd_agents(int argc, char **argv)
{
    static const struct option opts[] = {
        { "help", no_argument, NULL, OPT_HELP },
        { NULL, 0, NULL, 0 },
    };
    int c;
    while ((c = cli_getopt(argc, argv, "", opts)) != -1) {
        if (c == OPT_HELP) {
            printf("%s", agents_usage);
            return 0;
        }
    }
    if (optind == argc) {
        for (int i = 0; agent_kind(i); i++)
            list_agent(agent_kind(i));
        return 0;
    }
    for (int i = optind; i < argc; i++) {
        Error e;
        char full[AGENT_FULL_SPEC_MAX];
        if (agent_full_spec(argv[i], full, sizeof full, &e) != 0)
            die("%s", e.msg);
        printf("%s\n", full);
    }
    return 0;
}
