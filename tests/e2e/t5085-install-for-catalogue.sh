#!/bin/sh
# cuenv install --for FRAMEWORK picks the newest framework build whose CUDA
# and cuDNN the catalogue can install, and --for FRAMEWORK==VERSION fails,
# pointing at `cuenv update`, when it can install none of that release's.
#
# A small catalogue made here ($CUENV_MANIFESTS): CUDA 12.6.3, 13.0.0 and
# 13.2.1 and cuDNN 9.20.0.48, NVIDIA's manifests copied from the shipped
# ones, under a frameworks.tsv written here, shaped like PyTorch's rows:
# 2.14 wants cuDNN 9.24.0.43 (or 9.10.2.21 with CUDA 12.6), neither of
# which is there, so `--for torch` falls back to 2.13's stable CUDA 13.0
# build. The mirror is a missing folder: an install stops at its first
# download (exit 4) once the versions are chosen, and nothing is fetched.
# Then the shipped catalogue and table: whatever `--for torch` (and
# tensorflow, jax) picks there must be installable, that is, get as far as
# downloading.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"

src=$e2e/../../manifests
m=$HOME/manifests
mkdir -p "$m/cuda" "$m/cudnn" "$m/compat" &&
	cp "$src/cuda/redistrib_12.6.3.json" "$src/cuda/redistrib_13.0.0.json" \
		"$src/cuda/redistrib_13.2.1.json" "$m/cuda/" &&
	cp "$src/cudnn/redistrib_9.20.0.json" "$m/cudnn/" || exit 1
tab=$(printf '\t')
st="stable CUDA variant"
ex="experimental CUDA variant"
cat >"$m/compat/frameworks.tsv" <<EOF || exit 1
framework${tab}version${tab}cuda${tab}cudnn${tab}source${tab}notes
pytorch${tab}2.14${tab}12.6${tab}9.10.2.21${tab}test${tab}$st
pytorch${tab}2.14${tab}13.0${tab}9.24.0.43${tab}test${tab}$st
pytorch${tab}2.14${tab}13.2${tab}9.24.0.43${tab}test${tab}$st
pytorch${tab}2.13${tab}12.6${tab}9.10.2.21${tab}test${tab}$st
pytorch${tab}2.13${tab}13.0${tab}9.20.0.48${tab}test${tab}$st
pytorch${tab}2.13${tab}13.2${tab}9.20.0.48${tab}test${tab}$ex
EOF

CUENV_MANIFESTS=$m
CUENV_MIRROR=file://$HOME/no-mirror
CUENV_FETCH_BACKOFF_MS=10
export CUENV_MANIFESTS CUENV_MIRROR CUENV_FETCH_BACKOFF_MS

expect_code 0 cuenv list-remote cudnn &&
	stdout_has "cudnn  9.20.0.48    for CUDA 13 (redist)" &&
	stdout_lacks "9.24" &&
	# No version: the newest release the catalogue can install, its
	# stable row before the experimental one.
	expect_code 4 cuenv install --for torch &&
	stderr_has "cuenv: skipped pytorch 2.14 with CUDA 13.2 and 2 more builds: no cuDNN 9.24.0.43 for CUDA 13 in the catalogue" &&
	stderr_has "cuenv: pytorch 2.13 was built and tested with CUDA 13.0 and cuDNN 9.20.0.48" &&
	stderr_has "cuenv: installing cuda 13.0.0 (redist)" &&
	stderr_has "cuenv: error: cannot download 'file://$HOME/no-mirror/" &&
	# A version: only its rows; none can be installed, so it fails
	# before fetching anything, naming what the preferred row lacks.
	expect_code 17 cuenv install --for torch==2.14 &&
	stderr_has "cuenv: pytorch 2.14 was built and tested with CUDA 13.2 and cuDNN 9.24.0.43" &&
	stderr_has "cuenv: error: no cuDNN 9.24.0.43 for CUDA 13 in the catalogue" &&
	stderr_has "hint: see: cuenv list-remote cudnn; newer releases from NVIDIA: cuenv update" &&
	stderr_lacks "skipped" &&
	stderr_lacks "installing" &&
	expect_code 17 cuenv install --for torch==2.14 --quiet &&
	stderr_lacks "was built and tested" &&
	stderr_has "cuenv: error: no cuDNN 9.24.0.43 for CUDA 13 in the catalogue" &&
	# --cudnn replaces the rows' cuDNN when choosing, too.
	expect_code 4 cuenv install --for torch==2.14 --cudnn 9.20 &&
	stderr_lacks "skipped" &&
	stderr_has "cuenv: pytorch 2.14 was built and tested with CUDA 13.2 and cuDNN 9.24.0.43" &&
	stderr_has "cuenv: installing cuda 13.2.1 (redist)" &&
	# The preferred row is there: nothing skipped.
	expect_code 4 cuenv install --for torch==2.13 &&
	stderr_lacks "skipped" &&
	stderr_has "cuenv: pytorch 2.13 was built and tested with CUDA 13.0 and cuDNN 9.20.0.48" &&
	expect_code 17 cuenv install --for torch --source runfile &&
	stderr_has "cuenv: error: no CUDA 13.2 from runfile in the catalogue" &&
	stderr_has "hint: see: cuenv list-remote cuda; newer releases from NVIDIA: cuenv update" &&
	expect_code 2 cuenv install --for torch --cudnn ../9 &&
	stderr_lacks "was built and tested" &&
	expect_stdout "" cuenv versions || exit 1

# The shipped catalogue and table: every pick can be installed.
unset CUENV_MANIFESTS
for f in torch tensorflow jax; do
	expect_code 4 cuenv install --for "$f" || exit 1
	stderr_has "was built and tested with CUDA"
	stderr_has "cuenv: installing cuda "
	stderr_lacks "cuenv: error: no "
done
