#!/usr/bin/env bash
# Installs what the `mpi` feature needs, with apt, when it is missing: Open MPI
# (mpirun and its headers) and libclang for the bindings. Exits 0 when everything
# is there; otherwise says why loudly and exits 1.
set -u
missing=()
command -v mpirun >/dev/null || missing+=(openmpi-bin)
command -v mpicc >/dev/null || missing+=(libopenmpi-dev)
ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1 || missing+=(libclang-dev)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing ${missing[*]} for the mpi feature ..." >&2
if [ "$(id -u)" = 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo -n"; else
    echo "MPI TESTS CANNOT RUN: ${missing[*]} missing and no root to install them" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if $sudo apt-get update -qq >/dev/null 2>&1 \
    && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null 2>&1 \
    && command -v mpirun >/dev/null && command -v mpicc >/dev/null; then
    echo "installed ${missing[*]}" >&2
    exit 0
fi
echo "MPI TESTS CANNOT RUN: apt-get could not install ${missing[*]}" >&2
exit 1
