#!/usr/bin/env bash
# Installs what the browser tests need, with apt, when it is missing: Debian's
# chromium, chromium-driver, and the DejaVu fonts (chess glyphs). Exits 0 when
# everything is there; otherwise says why loudly and exits 1.
set -u
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v chromedriver >/dev/null || missing+=(chromium-driver)
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ] || missing+=(fonts-dejavu-core)
[ ${#missing[@]} -eq 0 ] && exit 0
"$(dirname "$0")/apt-install.sh" "browser tests" "${missing[@]}" || exit 1
command -v chromium >/dev/null && command -v chromedriver >/dev/null && exit 0
echo "BROWSER TESTS CANNOT RUN: chromium or chromedriver still missing after apt" >&2
exit 1
