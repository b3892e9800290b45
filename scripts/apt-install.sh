#!/usr/bin/env bash
# apt-install.sh WHAT PACKAGE...: installs Debian packages with apt for WHAT (the
# tests that need them), as root or with sudo. Exits 0 when installed; otherwise
# says loudly that WHAT cannot run, and why, and exits 1.
set -u
what=$1
shift
echo "installing $* for the $what ..." >&2
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo -n"; else
    echo "${what^^} CANNOT RUN: $* missing and no root to install them" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if $sudo apt-get update -qq >/dev/null 2>&1 \
    && $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; then
    echo "installed $*" >&2
    exit 0
fi
echo "${what^^} CANNOT RUN: apt-get could not install $*" >&2
exit 1
