"""game.py: one game of the Anywoli family, stepped from Python on the lab's own engine.

    g = anywoli.Game(variant="yit-nuri", final_four="lottery")
    while not g.is_over():
        g.play(random.choice(g.legal_moves()))
    g.result(), g.returns()

Every rule is the C engine's (libanywoli_game.so, the C API of api/anywoli_game.h, through
ctypes): this module keeps no rule of its own. docs/python.md says where the library is
looked for and what each method gives.
"""
import ctypes
import os
import shutil
from collections import namedtuple

from .arguments import C_INT, C_INT64, C_UINT64, as_int, as_text
from .codes import OUTCOMES

LIBRARY = "libanywoli_game.so"
API_VERSION = 1          # the AW_API_VERSION this module was written for

# The words of the C API's codes, in code order (anywoli_game.h).
EVENTS = ("next", "extra", "over", "endless")
STATUSES = ("playing", "over", "endless", "unfinished")
PLAYERS = ("south", "north")   # the players, in side order (0 South, 1 North)

_MAX_PITS = 64           # AW_MAX_PITS: room for every legal move
_APN_MAX = 448           # AW_APN_MAX
_INFO_N = 10             # AW_INFO_N
_STATUS, _N_MOVES = 8, 9 # AW_INFO_STATUS, AW_INFO_N_MOVES


class GameError(ValueError):
    """A game refused what it was asked (a bad variant or APN, a move in a stopped game...),
    with the library's one-line message."""


class IllegalMove(GameError):
    """A move that is not legal in the position (the state is unchanged)."""


class Event(namedtuple("Event", "event mover mid_captures final_capture passed gain_south "
                                "gain_north laps status")):
    """What one move did, as the engine reports it: `event` (next, extra, over, endless), the
    `mover` (0 South, 1 North), the mid-sow captures, 1 for a final-seed capture, 1 if the
    player due next had to pass, the seeds each store gained, the laps sown and the game's
    `status` after the move (playing, over, endless, unfinished)."""
    __slots__ = ()

    @classmethod
    def _from_codes(cls, info):
        return cls(EVENTS[info[0]], info[1], info[2], info[3], info[4], info[5], info[6],
                   info[7], STATUSES[info[_STATUS]])

    @property
    def extra(self):
        """True when the mover moves again (a final-seed capture with extra_turn)."""
        return self.event == "extra"

    @property
    def over(self):
        """True when the move ended the game by the rules."""
        return self.event == "over"


Result = namedtuple("Result", "outcome south north")
Result.__doc__ = """A stopped game's result: `outcome` (south, north, draw, endless,
unfinished, the results files' words) and each side's final seeds."""


def _candidates():
    """Where the library is looked for, in order (docs/python.md)."""
    if os.environ.get("ANYWOLI_LIB"):
        return [os.environ["ANYWOLI_LIB"]]
    found = []
    binary = os.environ.get("ANYWOLI_BIN") or shutil.which("anywoli")
    if binary and os.path.isfile(binary):
        here = os.path.dirname(os.path.realpath(binary))
        found += [os.path.join(here, LIBRARY), os.path.join(here, "..", "lib", LIBRARY)]
    package = os.path.dirname(os.path.abspath(__file__))
    found.append(os.path.join(package, "..", "..", "build", LIBRARY))   # a checkout's build
    found.append(os.path.join(package, LIBRARY))
    return found


def library_path():
    """The path of the libanywoli_game.so this module uses: ANYWOLI_LIB when set, else beside
    the anywoli binary (ANYWOLI_BIN, or the one on PATH; or its ../lib), else the checkout's
    build/ folder, else the package's own folder. GameError when none is there."""
    tried = _candidates()
    for path in tried:
        if os.path.isfile(path):
            return os.path.normpath(path)
    raise GameError(f"{LIBRARY} not found (tried {', '.join(tried)}): build the lab "
                    "(cmake --build build) or set ANYWOLI_LIB to its path")


_lib = None


def _declare(lib):
    """The C API's signatures, so that ctypes converts every argument and result."""
    P, I, I64, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_char_p
    IP = ctypes.POINTER(ctypes.c_int)
    SP = ctypes.POINTER(ctypes.c_char_p)
    table = {
        "aw_api_version": (I, []), "aw_last_error": (S, []),
        "aw_new": (P, [S, I, SP, SP, S]), "aw_free": (None, [P]), "aw_clone": (P, [P]),
        "aw_set_seed": (None, [P, ctypes.c_uint64]),
        "aw_legal_moves": (I, [P, IP, I]), "aw_play": (I, [P, I, IP]),
        "aw_play_moves": (I, [P, I, IP, IP]),
        "aw_random_playout": (I, [P, ctypes.c_uint64, ctypes.POINTER(I64)]),
        "aw_to_apn": (I, [P, S, I]), "aw_board": (I, [P, IP, I]), "aw_holes": (I, [P]),
        "aw_variant": (I, [P, S, I]), "aw_side_to_move": (I, [P]), "aw_store": (I, [P, I]),
        "aw_plies": (I64, [P]), "aw_status": (I, [P]), "aw_is_over": (I, [P]),
        "aw_result": (I, [P, S, IP]),
    }
    for name, (res, args) in table.items():
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args


def library():
    """The loaded library (loaded on first use, so that reading results files needs none)."""
    global _lib
    if _lib is None:
        path = library_path()
        try:
            lib = ctypes.CDLL(path)
            _declare(lib)
        except (OSError, AttributeError) as e:
            raise GameError(f"{path}: not a usable {LIBRARY} ({e})") from None
        if lib.aw_api_version() != API_VERSION:
            raise GameError(f"{path}: C API version {lib.aw_api_version()}, this package "
                            f"reads version {API_VERSION}: rebuild the lab")
        _lib = lib
    return _lib


def _message():
    return _lib.aw_last_error().decode("utf-8", "replace")


_kinds = None


def _parameter_kinds():
    """Each variant parameter's kind, "int", "bool" or "word", read once from the engine's
    own description of its default variant (`holes=12 ... extra_turn=yes ...`), so that this
    module keeps no second table of the parameters."""
    global _kinds
    if _kinds is None:
        lib = library()
        handle = lib.aw_new(None, 0, None, None, None)
        if not handle:
            raise GameError(_message())
        buf = ctypes.create_string_buffer(512)
        lib.aw_variant(handle, buf, 512)
        lib.aw_free(handle)
        _kinds = {}
        for pair in buf.value.decode().split():
            name, _, value = pair.partition("=")
            _kinds[name] = ("bool" if value in ("yes", "no") else
                            "int" if value.lstrip("-").isdigit() else "word")
    return _kinds


def _parameter_text(name, value):
    """A variant parameter's value as the engine reads it, under the package's rule for
    arguments (arguments.py): an integer parameter takes an int (the engine checks its own
    range), a yes/no one a bool or its word, the convention a word."""
    kind = _parameter_kinds().get(name.replace("-", "_"))
    if kind == "int":
        return str(as_int(value, name, C_INT64)).encode()
    if kind == "word":
        return as_text(value, name)
    if isinstance(value, bool):
        return b"yes" if value else b"no"
    if kind == "bool":
        return as_text(value, name)
    return as_text(str(value), name)    # an unknown name: the engine refuses it by name


class Game:
    """A game's state: the variant's start (or an APN's position), stepped move by move.

    Game(variant="anywoli", holes=..., seeds=..., capture=..., final_four=..., extra_turn=...,
    skip_origin=..., max_plies=..., seed=1): variant is a preset (`anywoli`, `yit-nuri`,
    `yit-jani`, or None for the standard game), the keywords the variant parameters (as the
    command line's options take them), seed the lottery coin's (that of game 0 of job 0 of an
    experiment with this seed). Moves are absolute hole indices, 0 .. 2 x holes - 1. Every
    argument is checked by arguments.py's rule: TypeError for a value of the wrong type (a
    bool or a float for an int), ValueError for one out of its C type's range.
    """
    __slots__ = ("_h", "_lib", "_info", "_moves", "_n", "_status", "_seed", "__weakref__")

    def __init__(self, variant=None, *, seed=1, **params):
        self._start(variant, seed, None, params)

    @classmethod
    def from_apn(cls, apn, variant=None, *, seed=1, **params):
        """The game from a position in APN (RULES: "Position notation"); holes and seeds,
        unless given (or a preset named), come from the position. Plies count from it."""
        game = cls.__new__(cls)
        game._start(variant, seed, as_text(apn, "APN"), params)
        return game

    def _start(self, variant, seed, apn, params):
        """A new state of the variant (a preset name or None, and the parameters), from the
        APN (UTF-8, checked) or, when None, the variant's start."""
        lib = library()
        seed = as_int(seed, "seed", C_UINT64)      # before anything is allocated
        names = [as_text(k, "parameter") for k in params]
        values = [_parameter_text(k, v) for k, v in params.items()]
        arr = ctypes.c_char_p * max(1, len(names))
        preset = None if variant is None else as_text(variant, "variant")
        handle = lib.aw_new(preset, len(names), arr(*names), arr(*values), apn)
        if not handle:
            raise GameError(_message())
        self._adopt(lib, handle)
        self.seed = seed

    def _adopt(self, lib, handle):
        self._lib = lib
        self._h = ctypes.c_void_p(handle)
        self._info = (ctypes.c_int * _INFO_N)()
        self._moves = (ctypes.c_int * _MAX_PITS)()
        self._refresh()

    def _refresh(self):
        """Read the legal moves and the status again (after anything but play)."""
        self._n = self._lib.aw_legal_moves(self._h, self._moves, _MAX_PITS)
        self._status = self._lib.aw_status(self._h)

    def __del__(self):
        h = getattr(self, "_h", None)
        if h is not None and h.value:
            self._lib.aw_free(h)
            self._h = None

    def clone(self):
        """An independent copy (position, plies, status and coin)."""
        handle = self._lib.aw_clone(self._h)
        if not handle:
            raise GameError(_message())
        c = Game.__new__(Game)
        c._adopt(self._lib, handle)
        c._seed = self._seed
        return c

    __copy__ = clone

    def __deepcopy__(self, memo):
        return self.clone()

    @property
    def seed(self):
        """The lottery coin's seed: the coin of game 0 of job 0 of an experiment so seeded."""
        return self._seed

    @seed.setter
    def seed(self, value):
        self._seed = as_int(value, "seed", C_UINT64)
        self._lib.aw_set_seed(self._h, self._seed)

    def legal_moves(self):
        """The legal moves, ascending ([] once the game has stopped)."""
        return self._moves[:self._n]

    def play(self, move):
        """Play a legal move: its Event. IllegalMove (the state unchanged) if it is not legal,
        GameError if the game has stopped."""
        move = as_int(move, "move", C_INT, IllegalMove)
        ev = self._lib.aw_play_moves(self._h, move, self._info, self._moves)
        if ev < 0:
            raise (GameError if self._status else IllegalMove)(_message())
        info = self._info
        self._n = info[_N_MOVES]
        self._status = info[_STATUS]
        return Event._from_codes(info)

    def random_playout(self, seed):
        """Play uniformly random moves to the end (the engine's own playout loop, each side on
        its stream of `seed`): the plies made. For fast rollouts."""
        plies = ctypes.c_int64()
        seed = as_int(seed, "seed", C_UINT64)
        if self._lib.aw_random_playout(self._h, seed, plies) < 0:
            raise GameError(_message())
        self._refresh()
        return plies.value

    def to_apn(self):
        """The position in APN."""
        buf = ctypes.create_string_buffer(_APN_MAX)
        self._lib.aw_to_apn(self._h, buf, _APN_MAX)
        return buf.value.decode()

    def board(self):
        """The 2 x holes pits in index order (South's row, then North's), then the stores."""
        out = (ctypes.c_int * (_MAX_PITS + 2))()
        n = self._lib.aw_board(self._h, out, _MAX_PITS + 2)
        return out[:n]

    @property
    def holes(self):
        return self._lib.aw_holes(self._h)

    @property
    def variant(self):
        """The variant's parameters as `holes=12 seeds=4 ...`."""
        buf = ctypes.create_string_buffer(512)
        self._lib.aw_variant(self._h, buf, 512)
        return buf.value.decode()

    @property
    def side_to_move(self):
        """0 for South, 1 for North (once the game has stopped: the last mover)."""
        return self._lib.aw_side_to_move(self._h)

    @property
    def stores(self):
        """(South's store, North's store)."""
        return (self._lib.aw_store(self._h, 0), self._lib.aw_store(self._h, 1))

    @property
    def plies(self):
        """Moves made since the start (the variant's, or the APN's)."""
        return self._lib.aw_plies(self._h)

    @property
    def status(self):
        """playing, over (by the rules), endless, or unfinished (at max_plies)."""
        return STATUSES[self._status]

    def is_over(self):
        """True once the game has stopped: over by the rules, endless, or unfinished."""
        return self._status != 0

    def result(self, convention=None):
        """The Result of a stopped game under a final_four convention (`penultimate`,
        `first-final`, `lottery`; None: the variant's own). GameError while it is playing."""
        scores = (ctypes.c_int * 2)()
        conv = None if convention is None else as_text(convention, "convention")
        outcome = self._lib.aw_result(self._h, conv, scores)
        if outcome < 0:
            raise GameError(_message())
        return Result(OUTCOMES[outcome], scores[0], scores[1])

    def returns(self, convention=None):
        """[South's, North's] returns, OpenSpiel-style: +1 for the winner, -1 for the loser,
        0 each for a draw, an endless or unfinished game, or one still playing."""
        if not self._status:
            return [0.0, 0.0]
        outcome = self.result(convention).outcome
        return {"south": [1.0, -1.0], "north": [-1.0, 1.0]}.get(outcome, [0.0, 0.0])

    # OpenSpiel's names for the same.
    legal_actions = legal_moves
    apply_action = play
    is_terminal = is_over

    def current_player(self):
        return self.side_to_move

    def __repr__(self):
        return f"Game.from_apn({self.to_apn()!r})  # {self.variant}, {self.status}"
