#!/usr/bin/env bash
# Makes a Python virtual environment at $1 with the lichess client `berserk`, for
# the test that points it at our lichess tablebase API. Exits 0 when it is
# there; otherwise says why loudly and exits 1.
set -u
venv="${1:?usage: install-berserk.sh VENV_DIR}"
"$venv/bin/python" -c 'import berserk' 2>/dev/null && exit 0
python3 -m venv "$venv" || { echo "BERSERK CANNOT BE INSTALLED: python3 -m venv failed" >&2; exit 1; }
"$venv/bin/pip" install --quiet --disable-pip-version-check 'berserk==0.14.0' \
    || { echo "BERSERK CANNOT BE INSTALLED: pip install berserk failed (is PyPI reachable?)" >&2; exit 1; }
"$venv/bin/python" -c 'import berserk' || exit 1
