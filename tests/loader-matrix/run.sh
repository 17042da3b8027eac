#!/bin/sh
# make loader-matrix: the loader model (cuenv doctor --python) against
# the real loader in venvs with torch 2.7.1, tensorflow[and-cuda] 2.16.1,
# jax[cuda12] 0.4.31, torch 2.0.1 (CUDA 11), onnxruntime-gpu 1.20.2 and
# 1.18.0, cupy-cuda12x 13.6.0 and ctranslate2 4.6.0 from the package
# index, some cases through a real selection and `cuenv exec` (matrix.py).
# Online the first time (about 9 GB of pinned wheels,
# cached in ${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/loader-matrix); skips
# (exit 0, saying so) when the index cannot be reached or there is no
# CPython 3.11; CUENV_REALWORLD_REQUIRED=1 makes that a failure.
#
#   CUENV_BIN=/abs/cuenv sh tests/loader-matrix/run.sh
here=$(cd "$(dirname "$0")" && pwd) || exit 1
: "${CUENV_BIN:?set CUENV_BIN to the cuenv binary}"
python3 "$here/matrix.py" "$CUENV_BIN"
rc=$?
if [ "$rc" -eq 77 ]; then
	echo "loader-matrix: skipped: the package index cannot be reached"
	[ "${CUENV_REALWORLD_REQUIRED:-0}" = 1 ] && exit 1
	exit 0
fi
exit "$rc"
