#!/usr/bin/env bash
# Installs what the `mpi` feature needs, with apt, when it is missing: Open MPI
# (mpirun and its headers) and libclang for the bindings. Exits 0 when everything
# is there; otherwise says why loudly and exits 1.
set -u
missing=()
command -v mpirun >/dev/null || missing+=(openmpi-bin)
command -v mpicc >/dev/null || missing+=(libopenmpi-dev)
# libclang itself, which bindgen loads (libclang-cpp, which other packages bring, is not it).
compgen -G '/usr/lib/llvm-*/lib/libclang.so*' >/dev/null \
    || compgen -G '/usr/lib/*/libclang-[0-9]*.so*' >/dev/null \
    || missing+=(libclang-dev)
[ ${#missing[@]} -eq 0 ] && exit 0
"$(dirname "$0")/apt-install.sh" "MPI tests" "${missing[@]}" || exit 1
command -v mpirun >/dev/null && command -v mpicc >/dev/null && exit 0
echo "MPI TESTS CANNOT RUN: mpirun or mpicc still missing after apt" >&2
exit 1
