#!/usr/bin/env bash
# python_install.sh: the README's two lines install the package offline.
#
#   python_install.sh SOURCE_DIR PYTHON [ANYWOLI_BIN]
#
# Makes a virtual environment that sees the system's packages, installs python/ into it with
# pip (editable, without build isolation or any index: Debian's setuptools builds it), and
# imports it from another folder. Given the anywoli binary, the installed package also finds
# libanywoli_game.so beside it (ANYWOLI_LIB unset) and plays a game on it.
set -u
src=$1
python=$2
bin=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$python" -m venv --system-site-packages "$tmp/venv" || { echo "FAIL: venv" >&2; exit 1; }
if ! "$tmp/venv/bin/pip" install --no-index --no-build-isolation -q -e "$src/python" \
        >"$tmp/log" 2>&1; then
    echo "FAIL: pip install: $(grep -iE 'error|not found|no module' "$tmp/log" | head -5)" >&2
    tail -5 "$tmp/log" >&2
    exit 1
fi
cd "$tmp" || exit 1
where=$("$tmp/venv/bin/python" -c 'import anywoli; print(anywoli.__file__)') ||
    { echo "FAIL: import anywoli from the venv" >&2; exit 1; }
[[ $where == "$src/python/anywoli/__init__.py" ]] ||
    { echo "FAIL: anywoli imported from $where" >&2; exit 1; }
passed=1
if [[ -n $bin ]]; then
    lib=$(env -u ANYWOLI_LIB ANYWOLI_BIN="$bin" "$tmp/venv/bin/python" -c '
import anywoli
g = anywoli.Game(variant="yit-nuri")
g.random_playout(1)
assert g.is_over() and sum(g.result()[1:]) == 56
print(anywoli.game.library_path())') || { echo "FAIL: a game from the venv" >&2; exit 1; }
    [[ $lib -ef $(dirname "$bin")/libanywoli_game.so ]] ||
        { echo "FAIL: the library found is $lib, not the one beside $bin" >&2; exit 1; }
    passed=2
fi
echo "python_install: $passed passed, 0 failed"
