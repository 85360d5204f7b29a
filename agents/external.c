/* external.c: a program that plays, spoken to over the line protocol (protocol.h,
 * docs/protocol.md) on its standard input and output. Each Agent object starts its own
 * process at its first choice and keeps it for every later game; agent_free says quit and
 * reaps it. Whatever the program does wrong (it will not start, dies, hangs, floods, answers
 * garbage or an illegal move) ends the choice with AGENT_FAULT and one line saying what, never
 * a hang: every wait is a poll bounded by `timeout`. */
#define _GNU_SOURCE   /* pipe2, accept of SOCK_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "agents_internal.h"
#include "protocol.h"

extern char **environ;

/* How long a program has to exit after `quit` (and the end of its input) before it is
 * killed: exiting takes no thought. */
#define QUIT_GRACE_MS 2000

/* The most a program may write while the lab waits for one answer (info lines included):
 * more is a flood, however it is cut into lines. */
#define ANSWER_BYTES_MAX (64 * 1024)

/* A wait is polled in slices this long, so a stop request (a signal to the run) is seen. */
#define POLL_SLICE_MS 100

/* How long a wait for an answer tries reads before it sleeps in poll. A program on another
 * core answers a trivial position within tens of microseconds; sleeping lets this core go
 * idle, and waking it again (on a virtual machine, the hypervisor's round trip) cost more
 * than the answer itself: 12,000 moves a second against 80,000 on one core. */
#define SPIN_NS 200000

typedef struct ExternalSettings {
    char cmd[AGENT_TEXT_MAX];     /* the program: a path, or a name looked up in PATH */
    char arg[AGENT_TEXT_MAX];     /* its arguments, an AOPT_LIST */
    char set[AGENT_TEXT_MAX];     /* NAME=VALUE options sent to it, an AOPT_LIST */
    double timeout;               /* seconds a program may stay silent when an answer is due */
} ExternalSettings;

typedef struct External {
    AgentData base;               /* first: agent_describe finds the settings there */
    const ExternalSettings *s;
    char spec[AGENT_FULL_SPEC_MAX]; /* the full spec, for messages */
    pid_t pid;                    /* the program's process (its own group), 0: none */
    int to, from;                 /* its standard input (a socket: written without SIGPIPE)
                                   * and output (a pipe), both non-blocking */
    char in[PROTOCOL_LINE_MAX];   /* what it wrote that is not yet a whole line */
    size_t have;
    size_t answer_bytes;          /* written since the lab began waiting for an answer */
    char last[96];                /* the last line it wrote, for a fault's message ("": none) */
    ProtoText out;                /* the lines to send */
    /* The game under way, as game_begin and game_move told it. */
    bool game_known;              /* a game_begin since the last game end */
    bool game_sent;               /* and its `game` line sent to the program */
    Variant v;
    Position start;
    int side;
    uint64_t seed;
    uint8_t *history;
    size_t n_history, cap_history;
    size_t n_told;                /* of them, those sent in position lines so far */
    bool history_lost;            /* no memory to follow the game */
    bool starting;                /* in the handshake: the start's allowance applies */
    char fault[AGENT_FAULT_MAX];
} External;

/* Seconds a program may take to answer the hello when its timeout is shorter: starting an
 * interpreter and loading its libraries is no move, and a loaded machine can take seconds
 * over it; a program that never answers is still a fault, only later. */
#define START_ALLOWANCE_S 30.0

static const AgentOption external_options[] = {
    { "cmd", AOPT_TEXT, offsetof(ExternalSettings, cmd), 0, 0, "", NULL,
      "the program to start: a path, or a name looked up in PATH; run without a shell",
      .changes_play = true },
    { "arg", AOPT_LIST, offsetof(ExternalSettings, arg), 0, 0, "", NULL,
      "one argument of the program, as is (no splitting, no quotes); give arg= again for "
      "each, in order", .changes_play = true },
    { "set", AOPT_LIST, offsetof(ExternalSettings, set), 0, 0, "", NULL,
      "NAME=VALUE, sent as `set NAME VALUE` after the handshake: an option the program "
      "declared; give set= again for each", .changes_play = true },
    { "timeout", AOPT_REAL, offsetof(ExternalSettings, timeout), 0.001, 86400, "10", NULL,
      "seconds the program may stay silent when an answer is due, then it is a fault: a "
      "safety limit, never a thinking budget", .changes_play = false },
    { .key = NULL },
};

const AgentKind external_kind = {
    "external",
    "a program of any language, started once per agent and spoken to over the line protocol "
    "on its standard input and output (docs/protocol.md)",
    external_options, sizeof(ExternalSettings),
    .example = "external:cmd=PROGRAM",
};

/* Milliseconds on a monotonic clock. */
static int64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* How a reaped process ended, for a message. */
static void describe_status(int status, char *buf, size_t len)
{
    if (WIFEXITED(status))
        snprintf(buf, len, "exited with status %d", WEXITSTATUS(status));
    else if (WIFSIGNALED(status))
        snprintf(buf, len, "was killed by signal %d (%s)", WTERMSIG(status),
                 strsignal(WTERMSIG(status)));
    else
        snprintf(buf, len, "ended");
}

/* Whether the program's process has ended, without reaping it: it stays a zombie, so its id,
 * which is its process group's, cannot be given to another process while the group is
 * killed. */
static bool has_ended(pid_t pid)
{
    siginfo_t info;
    info.si_pid = 0;
    int r;
    while ((r = waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT)) < 0 &&
           errno == EINTR)
        ;
    return r < 0 || info.si_pid == pid;   /* r < 0: not a child to wait for any more */
}

/* Whether the process ends within ms (not reaped: has_ended). */
static bool ended_within(pid_t pid, int ms)
{
    for (int64_t until = now_ms() + ms;;) {
        if (has_ended(pid))
            return true;
        if (now_ms() >= until)
            return false;
        nanosleep(&(struct timespec){ 0, 5 * 1000 * 1000 }, NULL);
    }
}

/* Close the pipes and end the program: its process is given grace_ms to exit by itself, then
 * its whole process group is killed and the process reaped. The group goes at every end, a
 * clean exit included: whatever the program started (a wrapper script's children, a forked
 * helper) would otherwise outlive the run, holding the lab's standard error open. Its status
 * in *status (when not NULL); true if it exited by itself. */
static bool end_process(External *x, int grace_ms, int *status)
{
    int st = 0;
    bool by_itself = true;
    if (x->to >= 0)
        close(x->to);
    if (x->pid > 0) {
        by_itself = ended_within(x->pid, grace_ms);
        kill(-x->pid, SIGKILL);   /* the group: its id is the process's, not yet reaped */
        if (!by_itself)
            kill(x->pid, SIGKILL);   /* in case it left its group */
        while (waitpid(x->pid, &st, 0) < 0 && errno == EINTR)
            ;
    }
    if (x->from >= 0)
        close(x->from);
    x->to = x->from = -1;
    x->pid = 0;
    x->have = 0;
    x->game_sent = false;
    if (status)
        *status = st;
    return by_itself;
}

/* Record a fault, end the process (at once: it is not to be trusted with more time) and
 * return AGENT_FAULT. The next choice starts a fresh process. */
static int fault(External *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fault(External *x, const char *fmt, ...)
{
    char why[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(x->fault, sizeof x->fault, "agent '%s': %s", x->spec, why);
    end_process(x, 0, NULL);
    return AGENT_FAULT;
}

/* The fault of a program that ended, or closed the stream the lab was using (`closed`: "its
 * standard output" or "its standard input"): reaped to say how, with the last line it wrote
 * (what it was doing when it went). */
static int ended_fault(External *x, const char *closed, const char *waiting_for)
{
    int st;
    bool exited = end_process(x, QUIT_GRACE_MS, &st);
    char how[96], last[sizeof x->last + 32] = "";
    describe_status(st, how, sizeof how);
    if (x->last[0])
        snprintf(last, sizeof last, " (its last line: '%s')", x->last);
    snprintf(x->fault, sizeof x->fault, "agent '%s': the program %s%s while the lab waited for "
             "%s%s", x->spec, exited ? how : "closed ", exited ? "" : closed, waiting_for, last);
    return AGENT_FAULT;
}

/* What wait_ready saw. */
enum { WAIT_STOP = -1, WAIT_TIMEOUT = 0, WAIT_READY = 1, WAIT_ENDED = 2 };

/* Wait until fd is ready for events or until the deadline, or until the program's process
 * ends (a process can end while what it started holds its output open: that is no reason to
 * wait out the timeout), or a stop request (AGENT_STOPPED's cause). */
static int wait_ready(const External *x, int fd, short events, int64_t deadline)
{
    for (;;) {
        if (agent_stop_requested())
            return WAIT_STOP;
        int64_t left = deadline - now_ms();
        if (left <= 0)
            return WAIT_TIMEOUT;
        struct pollfd pfd = { fd, events, 0 };
        int r = poll(&pfd, 1, (int)(left < POLL_SLICE_MS ? left : POLL_SLICE_MS));
        if (r > 0)
            return WAIT_READY;
        if (r < 0 && errno != EINTR)
            return WAIT_READY;   /* let the read or write itself say what is wrong */
        if (r == 0 && has_ended(x->pid))
            return WAIT_ENDED;
    }
}

/* Seconds the program may stay silent now: its timeout, or in the handshake at least the
 * start's allowance. */
static double silence_limit(const External *x)
{
    return x->starting && x->s->timeout < START_ALLOWANCE_S ? START_ALLOWANCE_S
                                                             : x->s->timeout;
}

/* The silence limit as milliseconds from now. */
static int64_t deadline_of(const External *x)
{
    return now_ms() + (int64_t)(silence_limit(x) * 1000 + 0.5);
}

/* Send x->out whole; 0, or AGENT_FAULT or AGENT_STOPPED. */
static int send_out(External *x, const char *what)
{
    if (x->out.failed) {
        proto_text_clear(&x->out);
        return AGENT_NO_MEMORY;
    }
    int64_t deadline = deadline_of(x);
    for (size_t done = 0; done < x->out.n;) {
        ssize_t w = send(x->to, x->out.s + done, x->out.n - done, MSG_NOSIGNAL);
        if (w > 0) {
            done += (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
            proto_text_clear(&x->out);
            return ended_fault(x, "its standard input", what);
        }
        int r = wait_ready(x, x->to, POLLOUT, deadline);
        if (r != WAIT_READY) {
            proto_text_clear(&x->out);
            if (r == WAIT_STOP)
                return AGENT_STOPPED;
            if (r == WAIT_ENDED)
                return ended_fault(x, "its standard input", what);
            return fault(x, "the program read nothing for %g s (timeout=%g) while the lab sent "
                         "%s", silence_limit(x), x->s->timeout, what);
        }
    }
    proto_text_clear(&x->out);
    return 0;
}

/* Whether a wait that began at t0 and has tried `tries` reads is still to spin (SPIN_NS). */
static bool spinning(const struct timespec *t0, int tries)
{
    if (tries % 16 != 15)   /* the clock is read now and then: a read is the cheaper call */
        return true;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000000000L + (t.tv_nsec - t0->tv_nsec) < SPIN_NS;
}

/* The next whole line in what the program wrote, '\n' replaced by '\0', into *line (valid
 * until the next read): 1; 0 when there is none yet; AGENT_FAULT for a line that holds a NUL
 * byte (C's strings would cut it there: `move 8\0junk` read as `move 8`). */
static int buffered_line(External *x, char **line, const char *waiting_for)
{
    char *nl = memchr(x->in, '\n', x->have);
    if (!nl)
        return 0;
    size_t len = (size_t)(nl - x->in);
    static _Thread_local char got[PROTOCOL_LINE_MAX];
    memcpy(got, x->in, len);
    got[len] = '\0';
    memmove(x->in, nl + 1, x->have - len - 1);
    x->have -= len + 1;
    if (strlen(got) != len)
        return fault(x, "the program wrote a NUL byte in its line ('%.80s...') while the lab "
                     "waited for %s", got, waiting_for);
    if (got[strspn(got, " \t\r")])
        snprintf(x->last, sizeof x->last, "%.80s%s", got, len > 80 ? "..." : "");
    *line = got;
    return 1;
}

/* The next whole line the program writes into *line (buffered_line's); 0, or AGENT_FAULT or
 * AGENT_STOPPED. */
static int read_line(External *x, char **line, const char *waiting_for, int64_t deadline)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int tries = 0;; tries++) {
        int got = buffered_line(x, line, waiting_for);
        if (got != 0)
            return got > 0 ? 0 : got;
        if (x->have == sizeof x->in)
            return fault(x, "the program wrote a line longer than %d bytes while the lab "
                         "waited for %s (a flood)", PROTOCOL_LINE_MAX - 1, waiting_for);
        if (x->answer_bytes > ANSWER_BYTES_MAX)
            return fault(x, "the program wrote more than %d bytes without %s (a flood)",
                         ANSWER_BYTES_MAX, waiting_for);
        ssize_t r = read(x->from, x->in + x->have, sizeof x->in - x->have);
        if (r > 0) {
            x->have += (size_t)r;
            x->answer_bytes += (size_t)r;
            continue;
        }
        if (r == 0)
            return ended_fault(x, "its standard output", waiting_for);
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return fault(x, "reading the program's output: %s", strerror(errno));
        if (spinning(&t0, tries))
            continue;
        int ready = wait_ready(x, x->from, POLLIN, deadline);
        if (ready == WAIT_STOP)
            return AGENT_STOPPED;
        if (ready == WAIT_ENDED)
            return ended_fault(x, "its standard output", waiting_for);
        if (ready == WAIT_TIMEOUT)
            return fault(x, "the program wrote nothing for %g s (timeout=%g) while the lab "
                         "waited for %s", silence_limit(x), x->s->timeout, waiting_for);
    }
}

/* A program speaks only when asked: before a question, any whole line it has already written
 * but `info` and empty lines is a fault (an answer written ahead would otherwise be read as
 * the answer to this question; `error` is the fault it says). What is not yet a whole line,
 * and an end of output, are left for the read of the answer. 0, or AGENT_FAULT. */
static int nothing_ahead(External *x, const char *question)
{
    for (;;) {
        char *line;
        const char *rest;
        int got = buffered_line(x, &line, question);
        if (got < 0)
            return got;
        if (got > 0) {
            ProtoWord w = proto_word(line, &rest);
            if (w == PW_ERROR)
                return fault(x, "the program said: %.300s", rest);
            if (w != PW_INFO && w != PW_EMPTY)
                return fault(x, "the program wrote '%.80s' before the lab sent %s (an answer "
                             "ahead of its question)", line, question);
            continue;
        }
        if (x->have == sizeof x->in)
            return 0;
        ssize_t r = read(x->from, x->in + x->have, sizeof x->in - x->have);
        if (r > 0)
            x->have += (size_t)r;
        else if (r == 0 || errno != EINTR)
            return 0;
    }
}

/* The next line that is not `info` (nor empty): its word, its text in *rest. A line a
 * program may write at any time (info) is read past; `error` is a fault with its text. */
static int read_answer(External *x, const char *waiting_for, ProtoWord *word, char **line,
                       const char **rest)
{
    int64_t deadline = deadline_of(x);
    x->answer_bytes = x->have;
    for (;;) {
        int rc = read_line(x, line, waiting_for, deadline);
        if (rc != 0)
            return rc;
        *word = proto_word(*line, rest);
        if (*word == PW_ERROR)
            return fault(x, "the program said: %.300s", *rest);
        if (*word != PW_INFO && *word != PW_EMPTY)
            return 0;
    }
}

/* The program's argv: cmd, then each arg= in order (pointers into args, which is changed). */
static char **program_argv(const ExternalSettings *s, char *args)
{
    size_t n = 2;
    for (const char *p = args; *p; p++)
        n += *p == '\n';
    char **argv = calloc(n, sizeof *argv);
    if (!argv)
        return NULL;
    size_t i = 0;
    argv[i++] = (char *)s->cmd;
    for (char *item = args, *end; *item; item = end + 1) {
        end = strchr(item, '\n');
        *end = '\0';
        argv[i++] = item;
    }
    argv[i] = NULL;
    return argv;
}

/* Start the program with a socket as its standard input and a pipe as its output (each end
 * close-on-exec, so another agent's program, started by another thread, holds none of them:
 * an end of input is then seen). 0, or AGENT_FAULT. */
static int spawn_program(External *x)
{
    int in[2], out[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0)
        return fault(x, "cannot make its input: %s", strerror(errno));
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return fault(x, "cannot make its output: %s", strerror(errno));
    }
    char args[AGENT_TEXT_MAX];
    strcpy(args, x->s->arg);
    char **argv = program_argv(x->s, args);
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t at;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[1], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawnattr_init(&at);
    /* Its own process group: a Ctrl-C at the terminal stops the run cleanly (the lab's
     * handler) rather than killing the programs under a game in flight. */
    posix_spawnattr_setpgroup(&at, 0);
    posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP);
    pid_t pid = 0;
    int rc = argv ? posix_spawnp(&pid, x->s->cmd, &fa, &at, argv, environ) : ENOMEM;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&at);
    free(argv);
    close(in[1]);
    close(out[1]);
    if (rc != 0) {
        close(in[0]);
        close(out[0]);
        return fault(x, "cannot start '%s': %s", x->s->cmd, strerror(rc));
    }
    x->pid = pid;
    x->to = in[0];
    x->from = out[0];
    x->have = 0;
    x->last[0] = '\0';
    fcntl(x->to, F_SETFL, fcntl(x->to, F_GETFL) | O_NONBLOCK);
    fcntl(x->from, F_SETFL, fcntl(x->from, F_GETFL) | O_NONBLOCK);
    return 0;
}

/* Whether the len bytes at name are one of the options the program declared (`option NAME
 * ...` lines, kept in declared_names as "NAME\nNAME\n..."). */
static bool declared(const char *declared_names, const char *name, size_t len)
{
    for (const char *p = declared_names; *p; p += strcspn(p, "\n") + 1)
        if (strcspn(p, "\n") == len && strncmp(p, name, len) == 0)
            return true;
    return false;
}

/* Send each set=NAME=VALUE as `set NAME VALUE`, NAME being an option the program declared. */
static int send_settings(External *x, const char *declared_names)
{
    for (const char *item = x->s->set, *end; *item; item = end + 1) {
        end = strchr(item, '\n');
        size_t len = strcspn(item, "=\n");
        if (item[len] != '=')
            return fault(x, "set=%.*s is not NAME=VALUE", (int)(end - item), item);
        if (!declared(declared_names, item, len))
            return fault(x, "set=%.*s: the program declares no option '%.*s'",
                         (int)(end - item), item, (int)len, item);
        char name[AGENT_TEXT_MAX], value[AGENT_TEXT_MAX];
        snprintf(name, sizeof name, "%.*s", (int)len, item);
        snprintf(value, sizeof value, "%.*s", (int)(end - item - (ptrdiff_t)len - 1),
                 item + len + 1);
        proto_set(&x->out, name, value);
    }
    return x->out.n ? send_out(x, "its options") : 0;
}

static int handshake_lines(External *x);

/* The handshake: hello, then the program's name and options up to its `protocol N`, under
 * the start's allowance. */
static int handshake(External *x)
{
    x->starting = true;
    int rc = handshake_lines(x);
    x->starting = false;
    return rc;
}

/* handshake's lines. */
static int handshake_lines(External *x)
{
    proto_hello(&x->out);
    int rc = send_out(x, "the hello");
    char names[AGENT_TEXT_MAX * 2] = "";
    size_t used = 0;
    while (rc == 0) {
        ProtoWord w;
        char *line;
        const char *rest;
        if ((rc = read_answer(x, "its answer to the hello", &w, &line, &rest)) != 0)
            break;
        if (w == PW_PROTOCOL) {
            int version;
            Error e;
            if (proto_parse_version(rest, &version, &e) != 0)
                return fault(x, "answered the hello with %s", e.msg);
            if (version != PROTOCOL_VERSION)
                return fault(x, "speaks protocol %d; the lab speaks protocol %d", version,
                             PROTOCOL_VERSION);
            return send_settings(x, names);
        }
        if (w == PW_OPTION) {
            char name[AGENT_TEXT_MAX];
            Error e;
            if (proto_parse_option(rest, name, sizeof name, &e) != 0)
                return fault(x, "answered the hello with %s", e.msg);
            if (used + strlen(name) + 2 < sizeof names)
                used += (size_t)snprintf(names + used, sizeof names - used, "%s\n", name);
        } else if (w != PW_NAME) {
            return fault(x, "answered the hello with '%.80s' (expected name, option and "
                         "protocol lines)", line);
        }
    }
    return rc;
}

/* The process, started and through the handshake if it was not running. */
static int ensure_program(External *x)
{
    if (x->pid > 0)
        return 0;
    int rc = spawn_program(x);
    return rc != 0 ? rc : handshake(x);
}

static void external_game_begin(Agent *a, const Variant *v, const Position *start, int side,
                                uint64_t seed)
{
    External *x = a->data;
    x->game_known = true;
    x->game_sent = false;
    x->v = *v;
    x->start = *start;
    x->side = side;
    x->seed = seed;
    x->n_history = x->n_told = 0;
    x->history_lost = false;
}

static void external_game_move(Agent *a, int move)
{
    External *x = a->data;
    if (x->n_history == x->cap_history) {
        size_t cap = x->cap_history ? 2 * x->cap_history : 256;
        uint8_t *grown = realloc(x->history, cap);
        if (!grown) {
            x->history_lost = true;
            return;
        }
        x->history = grown;
        x->cap_history = cap;
    }
    x->history[x->n_history++] = (uint8_t)move;
}

static void external_game_end(Agent *a, const char *outcome, unsigned south, unsigned north)
{
    External *x = a->data;
    if (x->pid > 0 && x->game_sent) {
        proto_end(&x->out, outcome, south, north);
        send_out(x, "the end of a game");   /* a fault here shows at the next choice */
    }
    x->game_known = x->game_sent = false;
}

/* The `game` line for the game under way. A caller without a game loop (positions to move
 * in, one at a time) gets a game for each position, starting there and seeded by the stream
 * it passes: nothing tells it which of its positions belong to one game. */
static int send_game(External *x, const Variant *v, const Position *p, const Rng *rng)
{
    bool alone = !x->game_known;
    if (alone)
        external_game_begin(&(Agent){ .data = x }, v, p, p->side, rng->key);
    proto_game(&x->out, &x->v, x->side, x->seed, &x->start);
    int rc = send_out(x, "a new game");
    x->game_sent = rc == 0 && !alone;
    x->game_known = !alone;
    return rc;
}

/* Ask for a move in p and read it: a legal move, or a fault. */
static int ask_move(External *x, const Variant *v, const Position *p, AgentStats *st)
{
    int rc = nothing_ahead(x, "a position");
    if (rc != 0)
        return rc;
    /* Only the moves since the last position line: a program keeps the history whole by
     * adding them up, and a long game's lines stay short (the whole history in every line
     * made the protocol's cost grow with the square of a game's length). */
    proto_position(&x->out, v, p, x->history + x->n_told, x->n_history - x->n_told);
    x->n_told = x->n_history;
    rc = send_out(x, "a position");
    ProtoWord w;
    char *line;
    const char *rest;
    if (rc == 0)
        rc = read_answer(x, "a move", &w, &line, &rest);
    if (rc != 0)
        return rc;
    int move;
    Error e;
    if (w != PW_MOVE)
        return fault(x, "answered '%.80s' where a move was due (expected move N)", line);
    if (proto_parse_move(rest, &move, &st->nodes, &st->playouts, &e) != 0)
        return fault(x, "answered %s", e.msg);
    if (move >= v->pits || !(pos_legal_mask(v, p) >> move & 1)) {
        char apn[APN_MAX];
        apn_format(v, p, apn);
        return fault(x, "answered move %d, which is not legal in %s", move, apn);
    }
    return move;
}

static int external_choose(Agent *a, const Variant *v, const Position *p, Rng *rng,
                           AgentStats *st)
{
    External *x = a->data;
    x->fault[0] = '\0';
    if (x->history_lost)
        return AGENT_NO_MEMORY;
    int rc = ensure_program(x);
    if (rc == 0 && !x->game_sent)
        rc = send_game(x, v, p, rng);
    if (rc == 0)
        rc = ask_move(x, v, p, st);
    /* Given up mid-exchange (a stop request): an answer may still come, so the program is out
     * of step from now on; the next choice starts a fresh one. */
    if (rc == AGENT_STOPPED || rc == AGENT_NO_MEMORY)
        end_process(x, 0, NULL);
    return rc;
}

static const char *external_fault(Agent *a)
{
    return ((External *)a->data)->fault;
}

/* Say quit, close its input (so a program that ignores quit still sees the end of it), and
 * end it (end_process: after its grace to exit, its whole group). */
static void quit_program(External *x)
{
    if (x->pid <= 0)
        return;
    proto_quit(&x->out);
    if (send(x->to, x->out.s, x->out.n, MSG_NOSIGNAL | MSG_DONTWAIT) < 0) {
        /* it is gone or not reading: the close and the grace below deal with it */
    }
    proto_text_clear(&x->out);
    end_process(x, QUIT_GRACE_MS, NULL);
}

static void external_done(Agent *a)
{
    External *x = a->data;
    if (!x)
        return;
    quit_program(x);
    proto_text_free(&x->out);
    free(x->history);
    free(x->base.settings);
    free(x);
}

/* The full specs (their hashes) whose programs started and took their options in this
 * process: a config's jobs name the same spec again and again, and one start says it all. */
#define CHECKED_MAX 64
static uint64_t checked[CHECKED_MAX];
static int n_checked;
static pthread_mutex_t checked_lock = PTHREAD_MUTEX_INITIALIZER;

/* The FNV-1a of a full spec (the lab's one FNV, position.h's). */
static uint64_t spec_hash(const char *spec)
{
    uint64_t h = PLAYOUT_HASH_START;
    for (const unsigned char *p = (const unsigned char *)spec; *p; p++)
        h = (h ^ *p) * PLAYOUT_HASH_MULT;
    return h;
}

/* Whether the program of the spec hashing to h was checked already in this process. */
static bool was_checked(uint64_t h)
{
    pthread_mutex_lock(&checked_lock);
    bool seen = false;
    for (int i = 0; i < n_checked && !seen; i++)
        seen = checked[i] == h;
    pthread_mutex_unlock(&checked_lock);
    return seen;
}

/* Note that it was (beyond CHECKED_MAX specs, the later ones are checked each time). */
static void note_checked(uint64_t h)
{
    pthread_mutex_lock(&checked_lock);
    if (n_checked < CHECKED_MAX)
        checked[n_checked++] = h;
    pthread_mutex_unlock(&checked_lock);
}

/* The spec's check, before any game is played or any file made: the program is started, goes
 * through the handshake with its set= options, and is told quit. A program that will not
 * start, fails its handshake or declares no option a set= names is refused here, with the
 * fault's line, rather than at the run's first move. Once per distinct spec in a process.
 * The variant is the program's to judge at its first game: the lab cannot ask it earlier. */
static int external_check_variant(Agent *a, const Variant *v, Error *e)
{
    (void)v;
    External *x = a->data;
    uint64_t h = spec_hash(x->spec);
    if (x->pid > 0 || was_checked(h))   /* running: it started and took its options */
        return 0;
    x->fault[0] = '\0';
    int rc = ensure_program(x);
    if (rc == AGENT_STOPPED)
        return error_set(e, "agent '%s': stopped while checking its program", x->spec);
    if (rc == AGENT_NO_MEMORY)
        return error_set(e, "agent '%s': out of memory", x->spec);
    if (rc != 0)
        return error_set(e, "%s", x->fault);
    quit_program(x);
    note_checked(h);
    return 0;
}

int external_agent_init(Agent *a, void *settings, Error *e)
{
    ExternalSettings *s = settings;
    if (!s->cmd[0])
        return error_set(e, "agent 'external': cmd= is required (the program to start, "
                         "e.g. external:cmd=./my_agent.py)");
    External *x = calloc(1, sizeof *x);
    if (!x)
        return error_set(e, "agent 'external': out of memory");
    x->base.settings = s;
    x->s = s;
    x->to = x->from = -1;
    a->data = x;
    a->choose = external_choose;
    a->done = external_done;
    a->check_variant = external_check_variant;
    a->game_begin = external_game_begin;
    a->game_move = external_game_move;
    a->game_end = external_game_end;
    a->fault = external_fault;
    agent_describe(a, x->spec, sizeof x->spec);
    return 0;
}
