#!/bin/sh
# make realworld: fetch the corpus of real artifacts (tests/realworld/
# corpus.py: members read from the package index by range requests,
# pinned by sha256, cached in CUENV_CORPUS) and compare cuenv's answers
# with expected.tsv; builds.py runs needs three ways on 30 whole real
# framework wheels (builds-expected.tsv); abi.py compares core/nvidia/cuda_abi.h with NVIDIA's own
# headers and libraries (wheels of CUDA 11, 12, 13), pe.py runs needs on
# real Windows DLLs (pe-expected.tsv). Skips (exit 0,
# saying so) when the index cannot be reached; CUENV_REALWORLD_REQUIRED=1
# makes that a failure.
#
#   CUENV_BIN=/abs/cuenv sh tests/realworld/run.sh
here=$(cd "$(dirname "$0")" && pwd) || exit 1
: "${CUENV_BIN:?set CUENV_BIN to the cuenv binary}"
root=$(python3 "$here/corpus.py" fetch)
rc=$?
if [ "$rc" -eq 77 ]; then
	echo "realworld: skipped: the package index cannot be reached"
	[ "${CUENV_REALWORLD_REQUIRED:-0}" = 1 ] && exit 1
	exit 0
fi
[ "$rc" -eq 0 ] || exit "$rc"
# core/nvidia/cuda_abi.h against NVIDIA's headers and libraries of CUDA 11-13
python3 "$here/abi.py"
rc=$?
if [ "$rc" -eq 77 ]; then
	echo "realworld: abi skipped: the package index cannot be reached"
	[ "${CUENV_REALWORLD_REQUIRED:-0}" = 1 ] && exit 1
elif [ "$rc" -ne 0 ]; then
	exit "$rc"
fi
# cuenv needs on real Windows DLLs: the import tables, as objdump reads them
python3 "$here/pe.py" "$CUENV_BIN"
rc=$?
if [ "$rc" -eq 77 ]; then
	echo "realworld: pe skipped: the package index cannot be reached"
	[ "${CUENV_REALWORLD_REQUIRED:-0}" = 1 ] && exit 1
elif [ "$rc" -ne 0 ]; then
	exit "$rc"
fi
# issue 22: 30 real framework builds, whole wheels cached outside the
# clone (builds.py), needs run on each in place, unpacked and as
# NAME==VERSION against a local index serving the cached wheel
python3 "$here/builds.py" fetch >/dev/null
rc=$?
if [ "$rc" -eq 77 ]; then
	echo "realworld: builds skipped: the package index cannot be reached"
	[ "${CUENV_REALWORLD_REQUIRED:-0}" = 1 ] && exit 1
elif [ "$rc" -ne 0 ]; then
	exit "$rc"
else
	python3 "$here/builds.py" check "$CUENV_BIN" || exit 1
fi
exec python3 "$here/check.py" "$CUENV_BIN" "$root" ${CUENV_PYPI_INDEX:+--index "$CUENV_PYPI_INDEX"}
