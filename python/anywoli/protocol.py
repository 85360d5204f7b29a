"""anywoli.protocol: a Python function served as a program that plays, over the lab's line
protocol (docs/protocol.md), with the standard library alone.

    import anywoli

    def choose(position, legal_moves, game):
        return game.random.choice(legal_moves)

    anywoli.serve(choose)

Then, in the lab: anywoli run --agent-a external:cmd=python3,arg=my_agent.py ...

`position` is the position's APN (docs/rules.md), `legal_moves` the legal holes ascending,
`game` a Game: its variant (a dict of every parameter, by the lab's names), seed, side ('S'
or 'N'), start (APN), history (every move since the start, the lab's lines added up), options
(what `set=NAME=VALUE` in the agent's spec sent) and random, a random.Random seeded with the
game's seed, so a program that draws from it plays the same game again for the same seed.

choose returns a legal hole, or (hole, {"nodes": K, "playouts": K}) to report the work it
spent. Optional hooks hear a game's start and end. docs/python.md has the whole contract.
"""
import contextlib
import os
import random
import sys
import sysconfig
import traceback
from collections import namedtuple

from .arguments import C_INT, C_UINT64, as_int

VERSION = 1
WORK = ("nodes", "playouts")    # the counts a `move` line may carry, in the line's order
_TEXT_MAX = 1000                # of a message quoted in an `error` line (lines stay < 4096)


class ProtocolError(Exception):
    """A line the program cannot take or an answer it cannot give: answered with
    `error TEXT`."""


Result = namedtuple("Result", "outcome south north")
Result.__doc__ = """A game's end as the lab's `end` line tells it: `outcome` (south, north,
draw, endless, unfinished) and each side's seeds."""


class Game:
    """The game under way, as the lab's `game` and `position` lines tell it."""

    def __init__(self, variant=None, seed=0, side="S", start=None):
        self.variant = variant or {}
        self.seed = seed
        self.side = side
        self.start = start
        self.history = []
        self.result = None          # a Result once `end` came
        self.options = {}
        self.random = random.Random(seed)


def parse_game(rest):
    """The words after `game`: keys and values, the start position (an APN) last."""
    words = rest.split()
    game = Game()
    i = 0
    while i < len(words):
        key = words[i]
        if key == "start":
            game.start = " ".join(words[i + 1:])
            break
        if i + 1 >= len(words):
            raise ProtocolError("game: '%s' has no value" % key)
        value = words[i + 1]
        if key == "seed":
            if not value.isdigit():
                raise ProtocolError("game: seed '%s' is not a whole number" % value)
            game.seed = int(value)
        elif key == "side":
            game.side = value
        else:
            game.variant[key] = int(value) if value.isdigit() else value
        i += 2
    game.random = random.Random(game.seed)
    return game


def parse_position(rest):
    """The words after `position`: (APN, legal moves, the moves since the last position)."""
    words = rest.split()
    if len(words) < 5:
        raise ProtocolError("position: expected an APN (five fields)")
    apn, moves, history, into = " ".join(words[:5]), [], [], None
    for word in words[5:]:
        if word in ("moves", "history"):
            into = moves if word == "moves" else history
        elif into is None or not word.isdigit():
            raise ProtocolError("position: unexpected '%s'" % word)
        else:
            into.append(int(word))
    return apn, moves, history


def parse_end(rest):
    """The words after `end`: the Result."""
    words = rest.split()
    if len(words) != 3 or not (words[1].isdigit() and words[2].isdigit()):
        raise ProtocolError("end: expected OUTCOME SOUTH NORTH, got '%s'" % rest.strip())
    return Result(words[0], int(words[1]), int(words[2]))


def move_line(answer, legal_moves):
    """The `move` line of what choose returned: a legal hole, or (hole, work) with work a dict
    of non-negative int counts under "nodes" and "playouts". ProtocolError naming what was
    returned for anything else (the arguments' rule of integers: no bool, no float)."""
    move, work = answer if isinstance(answer, tuple) and len(answer) == 2 else (answer, {})
    if move is None:
        raise ProtocolError("choose returned None; expected a legal hole number")
    try:
        move = as_int(move, "choose's move", C_INT)
    except (TypeError, ValueError):
        raise ProtocolError("choose returned %r (%s); expected a legal hole number"
                            % (move, type(move).__name__)) from None
    if move not in legal_moves:
        raise ProtocolError("choose returned %d, which is not a legal hole (legal: %s)"
                            % (move, " ".join(map(str, legal_moves))))
    if not isinstance(work, dict) or set(work) - set(WORK):
        raise ProtocolError("choose returned (%d, %r); the work beside a move is a dict of "
                            "'nodes' and 'playouts'" % (move, work))
    line = "move %d" % move
    for key in WORK:
        if key in work:
            try:
                line += " %s %d" % (key, as_int(work[key], "choose's " + key, C_UINT64))
            except (TypeError, ValueError) as e:
                raise ProtocolError("%s (expected a count, 0 or more)" % e) from None
    return line


def _library_paths():
    """The folders of code that is not the user's: this package and Python's own library."""
    paths = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib")}
    paths.add(os.path.dirname(os.path.abspath(__file__)))
    return tuple(os.path.join(os.path.realpath(p), "") for p in paths)


def raised_where(error):
    """file:line of the innermost frame of the user's code in error's traceback: the line to
    look at, even when the exception came from deeper (a Game refusing a move, random.choice
    of an empty list); the innermost frame of all when every frame is a library's."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return "?"
    libraries = _library_paths()
    mine = [f for f in frames if not os.path.realpath(f.filename).startswith(libraries)]
    frame = (mine or frames)[-1]
    return "%s:%d" % (frame.filename, frame.lineno)


def failure_text(what, error):
    """The one line that tells the lab what the user's code raised: what raised it, the
    exception's type and message, and where."""
    message = " ".join(str(error).split()) or "(no message)"
    if len(message) > _TEXT_MAX:
        message = message[:_TEXT_MAX] + "..."
    return "%s raised %s: %s (%s)" % (what, type(error).__name__, message, raised_where(error))


@contextlib.contextmanager
def private_stdout():
    """The process's standard output as a stream for the protocol alone: while it is open,
    file descriptor 1 is standard error's and sys.stdout is sys.stderr, so that whatever the
    user's code prints (print(), a C library's printf, a child process) goes to standard
    error, which the lab passes on, instead of breaking the protocol. Both come back at the
    end."""
    sys.stdout.flush()
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        yield protocol
    finally:
        sys.stdout = saved
        protocol.flush()
        os.dup2(protocol.fileno(), 1)
        protocol.close()


def _hooks(player, on_game_start, on_game_end):
    """choose and the two hooks (None when not given): from the keywords, else the player's
    methods of those names; the player itself is choose when it is a function."""
    choose = getattr(player, "choose", player)
    if not callable(choose):
        raise TypeError("serve: expected a choose function or an object with a choose "
                        "method, got %s" % type(player).__name__)
    start = on_game_start or getattr(player, "on_game_start", None)
    end = on_game_end or getattr(player, "on_game_end", None)
    return choose, start, end


def serve(player, name=None, options=None, *, on_game_start=None, on_game_end=None,
          stdin=None, stdout=None):
    """Answer the lab's lines on stdin with the player's moves on stdout until `quit` or the
    end of the input.

    player: choose(position, legal_moves, game), or an object with a choose method and,
    optionally, on_game_start(game) and on_game_end(game, result) methods; the keywords of
    the same names give (or replace) the hooks. name: the program's, for people (default:
    the function's or the object's class's). options: {name: default} the program declares
    (`set` lines change them). With stdout None the protocol has the process's
    standard output to itself while serve runs (private_stdout)."""
    choose, start_hook, end_hook = _hooks(player, on_game_start, on_game_end)
    _check_options(options)
    if name is None:     # a function's name, or a player object's class
        name = getattr(player, "__name__", None) or type(player).__name__
    if stdout is None:
        with private_stdout() as protocol:
            return _answer(choose, start_hook, end_hook, name, options, stdin or sys.stdin,
                           protocol)
    return _answer(choose, start_hook, end_hook, name, options, stdin or sys.stdin, stdout)


def _check_options(options):
    """The declared options as the protocol's `option NAME DEFAULT` line can carry them: each
    name and default one word (no white space), else ValueError before anything is said."""
    for key, default in (options or {}).items():
        for what, text in (("name", str(key)), ("default", str(default))):
            if not text or len(text.split()) != 1 or text != text.strip():
                raise ValueError("serve: option %r: its %s %r must be one word without white "
                                 "space (the line is `option NAME DEFAULT`)" % (key, what, text))


def _answer(choose, start_hook, end_hook, name, options, stdin, stdout):
    """serve's loop: each line of stdin read and answered."""
    declared = dict(options or {})
    game = Game()

    def say(text):
        stdout.write(text + "\n")
        stdout.flush()      # the lab waits for each answer

    def call(what, function, *args):
        """The user's function: what it returns, or ProtocolError saying what it raised and
        where (the whole traceback to standard error)."""
        try:
            return function(*args)
        except Exception as e:
            traceback.print_exc(file=sys.stderr)
            raise ProtocolError(failure_text(what, e)) from None

    for line in stdin:
        word, _, rest = line.strip().partition(" ")
        try:
            if word == "anywoli":
                say("name %s" % name)
                for key, default in declared.items():
                    say("option %s %s" % (key, default))
                say("protocol %d" % VERSION)
            elif word == "set":
                key, _, value = rest.partition(" ")
                declared[key] = value
            elif word == "game":
                game = parse_game(rest)
                game.options = declared
                if start_hook:
                    call("on_game_start", start_hook, game)
            elif word == "position":
                apn, moves, history = parse_position(rest)
                game.history.extend(history)
                game.options = declared
                say(move_line(call("choose", choose, apn, moves, game), moves))
            elif word == "end":
                game.result = parse_end(rest)
                if end_hook:
                    call("on_game_end", end_hook, game, game.result)
            elif word == "quit":
                return
        except ProtocolError as e:
            say("error %s" % e)
