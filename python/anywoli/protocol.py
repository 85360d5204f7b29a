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
"""
import random
import sys

VERSION = 1


class ProtocolError(Exception):
    """A line the program cannot take: answered with `error TEXT`."""


class Game:
    """The game under way, as the lab's `game` and `position` lines tell it."""

    def __init__(self, variant=None, seed=0, side="S", start=None):
        self.variant = variant or {}
        self.seed = seed
        self.side = side
        self.start = start
        self.history = []
        self.result = None          # (outcome, south, north) once `end` came
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


def serve(choose, name=None, options=None, stdin=None, stdout=None):
    """Answer the lab's lines on stdin with choose's moves on stdout until `quit` or the end of
    the input. options: {name: default} the program declares (`set` lines change them)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    declared = dict(options or {})
    game = Game()

    def say(text):
        stdout.write(text + "\n")
        stdout.flush()      # the lab waits for each answer

    for line in stdin:
        word, _, rest = line.strip().partition(" ")
        try:
            if word == "anywoli":
                say("name %s" % (name or getattr(choose, "__name__", "python")))
                for key, default in declared.items():
                    say("option %s %s" % (key, default))
                say("protocol %d" % VERSION)
            elif word == "set":
                key, _, value = rest.partition(" ")
                declared[key] = value
            elif word == "game":
                game = parse_game(rest)
            elif word == "position":
                apn, moves, history = parse_position(rest)
                game.history.extend(history)
                game.options = declared
                say("move %d" % choose(apn, moves, game))
            elif word == "end":
                outcome, south, north = rest.split()
                game.result = (outcome, int(south), int(north))
            elif word == "quit":
                return
        except (ProtocolError, ValueError) as e:
            say("error %s" % e)
