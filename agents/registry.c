/* registry.c: the one table that maps agent names to their constructors. */
#include "agent.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agents_internal.h"
#include "learned.h"
#include "nearest.h"

typedef struct AgentEntry {
    const AgentKind *kind;
    int (*init)(Agent *a, void *settings, Error *e);
} AgentEntry;

static const AgentEntry registry[] = {
    { &random_kind, random_agent_init },
    { &greedy_kind, greedy_agent_init },
    { &alphabeta_kind, alphabeta_agent_init },
    { &strong_kind, strong_agent_init },
    { &mcts_kind, mcts_agent_init },
    { &external_kind, external_agent_init },
};

#define REGISTRY_NB ((int)(sizeof registry / sizeof registry[0]))

/* The registry's names as "a, b or c", for the message about an unknown agent. */
static void name_list(char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < REGISTRY_NB && used < len; i++) {
        const char *sep = i == 0 ? "" : i == REGISTRY_NB - 1 ? " or " : ", ";
        used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, registry[i].kind->name);
    }
}

/* Parse the options into fresh settings and build the agent; undo everything on error. */
static int create_from(const AgentEntry *ent, Agent *a, const char *opts, Error *e)
{
    const AgentKind *k = ent->kind;
    void *settings = NULL;
    if (k->settings_size) {
        settings = calloc(1, k->settings_size);
        if (!settings)
            return error_set(e, "agent '%s': out of memory", k->name);
    }
    a->name = k->name;
    if (agent_options_parse(k, opts, settings, e) != 0 || ent->init(a, settings, e) != 0) {
        free(settings);
        memset(a, 0, sizeof *a);
        return -1;
    }
    return 0;
}

/* The entry a spec names (its name: the text before ':'), or NULL. */
static const AgentEntry *entry_of(const char *spec)
{
    size_t n = strcspn(spec, ":");
    for (int i = 0; i < REGISTRY_NB; i++) {
        const char *name = registry[i].kind->name;
        if (strlen(name) == n && strncmp(spec, name, n) == 0)
            return &registry[i];
    }
    return NULL;
}

const AgentKind *agent_kind_of(const char *spec)
{
    const AgentEntry *ent = entry_of(spec);
    return ent ? ent->kind : NULL;
}

int agent_create(Agent *a, const char *spec, Error *e)
{
    memset(a, 0, sizeof *a);
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    const AgentEntry *ent = entry_of(spec);
    if (ent)
        return create_from(ent, a, colon ? colon + 1 : "", e);
    char names[128], word[64], hint[100];
    name_list(names, sizeof names);
    snprintf(word, sizeof word, "%.*s", (int)n, spec);
    return error_set(e, "agent '%s': unknown%s (expected %s)", word,
                     nearest_hint_in(word, names, hint, sizeof hint), names);
}

int agent_check_variant(Agent *a, const Variant *v, Error *e)
{
    return a->check_variant ? a->check_variant(a, v, e) : 0;
}

bool agent_note_position(Agent *a, const Variant *v, const Position *p, char *buf,
                         size_t size)
{
    return a->note_position && a->note_position(a, v, p, buf, size);
}

void agent_new_game(Agent *a)
{
    if (a->new_game)
        a->new_game(a);
}

const char *agent_fault(Agent *a)
{
    return a->fault ? a->fault(a) : "";
}

void agent_free(Agent *a)
{
    if (a->done)
        a->done(a);
    a->data = NULL;
}

const AgentKind *agent_kind(int i)
{
    return i >= 0 && i < REGISTRY_NB ? registry[i].kind : NULL;
}

void agent_describe(const Agent *a, char *buf, size_t len)
{
    char opts[768];
    opts[0] = '\0';
    for (int i = 0; i < REGISTRY_NB; i++) {
        /* Only an agent the registry built (its very name string) has settings to show. */
        const AgentKind *k = registry[i].kind;
        if (a->name == k->name && k->settings_size && a->data)
            agent_options_format(k, ((const AgentData *)a->data)->settings, opts, sizeof opts);
    }
    snprintf(buf, len, "%s%s%s", a->name ? a->name : "?", opts[0] ? ":" : "", opts);
}

int agent_full_spec(const char *spec, char *buf, size_t len, Error *e)
{
    Agent a;
    if (agent_create(&a, spec, e) != 0)
        return -1;
    agent_describe(&a, buf, len);
    agent_free(&a);
    return 0;
}

void agent_play_spec(const char *spec, char *buf, size_t len)
{
    const AgentEntry *ent = entry_of(spec);
    const char *colon = strchr(spec, ':');
    if (!ent || !colon) {
        snprintf(buf, len, "%s", spec);
        return;
    }
    size_t used = (size_t)snprintf(buf, len, "%.*s", (int)(colon - spec), spec);
    char sep = ':';
    for (const char *item = colon + 1, *end; *item && used < len; item = end + (*end == ',')) {
        end = item + strcspn(item, ",");
        size_t key = strcspn(item, "=,");
        if (agent_option_no_play(ent->kind, item, key))
            continue;
        used += (size_t)snprintf(buf + used, len - used, "%c%.*s", sep, (int)(end - item), item);
        sep = ',';
    }
}

int agent_file_digests(const char *spec, const Variant *v, char *buf, size_t len, Error *e)
{
    const AgentEntry *ent = entry_of(spec);
    buf[0] = '\0';
    if (!ent || !ent->kind->settings_size)
        return 0;   /* an unknown name is agent_create's to report */
    void *settings = calloc(1, ent->kind->settings_size);
    if (!settings)
        return error_set(e, "agent '%s': out of memory", ent->kind->name);
    const char *colon = strchr(spec, ':');
    int rc = agent_options_parse(ent->kind, colon ? colon + 1 : "", settings, e);
    size_t used = 0;
    for (const AgentOption *o = ent->kind->options; rc == 0 && o->key; o++) {
        const char *value = (const char *)settings + o->offset;
        uint64_t h = 0;
        if (!o->digest || o->type != AOPT_TEXT || !*value)
            continue;
        Error inner;
        if (o->digest(value, &h, &inner) != 0)
            rc = error_set(e, "agent '%s': %s=%s: %s", ent->kind->name, o->key, value, inner.msg);
        else if (h && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s=%016" PRIx64,
                                     used ? "," : "", o->key, h);
    }
    uint64_t h = 0;
    const char *key = "";
    if (rc == 0 && v && ent->kind->variant_digest &&
        ent->kind->variant_digest(settings, v, &h, &key, e) != 0)
        rc = -1;
    else if (rc == 0 && h && used < len)
        snprintf(buf + used, len - used, "%s%s=%016" PRIx64, used ? "," : "", key, h);
    free(settings);
    return rc;
}

/* agents_defer_builds's flag: one for the process, read by every builder on demand. */
static bool builds_deferred;

void agents_defer_builds(void)
{
    builds_deferred = true;
}

bool agents_builds_deferred(void)
{
    return builds_deferred;
}
