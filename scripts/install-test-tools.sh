#!/usr/bin/env bash
# Installs what the tests need beyond Rust, each only when missing: Debian's
# chromium and chromedriver for the browser tests (install-browser.sh) and a
# virtual environment with the lichess client berserk under the target folder
# (install-berserk.sh). The tests never install anything: a missing tool fails
# its test by name, unless TBQUERY_SKIP_BROWSER=1 or TBQUERY_SKIP_BERSERK=1
# says to skip it; what a variable skips is not installed here either. Exits 0
# when everything not skipped is there, 1 (after trying all) if not.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
target="${CARGO_TARGET_DIR:-$here/../target}"
status=0
if [ "${TBQUERY_SKIP_BROWSER:-}" = 1 ]; then
    echo "TBQUERY_SKIP_BROWSER=1: chromium and chromedriver not installed; the browser tests skip" >&2
else
    "$here/install-browser.sh" || status=1
fi
if [ "${TBQUERY_SKIP_BERSERK:-}" = 1 ]; then
    echo "TBQUERY_SKIP_BERSERK=1: berserk not installed; the lichess client test skips" >&2
else
    "$here/install-berserk.sh" "$target/tmp/berserk-venv" || status=1
fi
exit $status
