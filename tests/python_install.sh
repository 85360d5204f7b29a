#!/usr/bin/env bash
# python_install.sh: the README's two lines install the package offline.
#
#   python_install.sh SOURCE_DIR PYTHON
#
# Makes a virtual environment that sees the system's packages, installs python/ into it with
# pip (editable, without build isolation or any index: Debian's setuptools builds it), and
# imports it from another folder.
set -u
src=$1
python=$2
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
echo "python_install: 1 passed, 0 failed"
