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
echo "installing ${missing[*]} for the browser tests ..." >&2
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo -n"; else
    echo "BROWSER TESTS CANNOT RUN: ${missing[*]} missing and no root to install them" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if $sudo apt-get update -qq >/dev/null 2>&1 \
    && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
    && command -v chromium >/dev/null && command -v chromedriver >/dev/null; then
    echo "installed ${missing[*]}" >&2
    exit 0
fi
echo "BROWSER TESTS CANNOT RUN: apt-get could not install ${missing[*]}" >&2
exit 1
