"""arguments.py: the one check of every integer and string the package hands to C.

ctypes converts a Python int to a C integer by wrapping it (2**32 + 1 becomes 1), takes a
bool as an int and a str with a NUL in it as the shorter string before the NUL. So every
value bound for the library, and every count bound for the lab's protocol, passes here
first, under one rule (docs/python.md, "Integers and strings"):

- an integer argument takes an int, or a numpy integer (what numpy's random generators
  return); bool and float are refused, even 1.0 or True, with TypeError, as is anything else;
- it must lie within its C type's range (or the narrower range the caller gives), else
  ValueError (or the caller's subclass of it, such as IllegalMove);
- a string argument takes a str without NUL characters: TypeError for anything else (None
  included), ValueError for a NUL.
"""
import numbers

# The C types' ranges, as (lowest, highest).
C_INT = (-2**31, 2**31 - 1)
C_INT64 = (-2**63, 2**63 - 1)
C_UINT64 = (0, 2**64 - 1)


def as_int(value, what, bounds, error=ValueError):
    """value as a Python int within bounds (lowest, highest). TypeError unless value is an int
    or a numpy integer (never a bool or a float); `error` (a ValueError) outside bounds."""
    # numbers.Integral covers int and numpy's integer types, but not numpy's bool_; bool is
    # an int to Python, but True as a hole or a seed is a mistake, never a meaning.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what}: expected an int, got {type(value).__name__} {value!r}")
    number = int(value)
    low, high = bounds
    if not low <= number <= high:
        raise error(f"{what}: {number} is out of range ({low} to {high})")
    return number


def as_text(value, what):
    """value encoded as UTF-8 for a C string: TypeError unless a str, ValueError for a NUL
    (C would read the string as ending there)."""
    if not isinstance(value, str):
        raise TypeError(f"{what}: expected a str, got {type(value).__name__} {value!r}")
    if "\0" in value:
        raise ValueError(f"{what}: {value!r} holds a NUL character")
    return value.encode("utf-8")
