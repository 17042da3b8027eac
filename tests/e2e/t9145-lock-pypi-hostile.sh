#!/bin/sh
# A lockfile comes with a clone: it is outside data. Each wheel it pins
# must be what the catalogue and the index in force say that component
# is (lockfile.c lock_verify, pypi_names.c pypi_pin_check): the index's
# project for the component and the catalogue's CUDA major, at the
# catalogue's version, for the lock's platform, on the index's own host
# and scheme; the lock's releases what its selection asks for; no part
# twice. Every edit below once installed with exit 0 (an attacker's
# libcudart.so.12 among them) and `lock --check` said "matches"; now
# each is refused before anything is fetched, naming what is wrong, and
# leaves the store as it was.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

index_only &&
	printf 'cuda = 12.4\n' >.cuenv &&
	expect_code 0 cuenv install --source pypi --components cuda_cudart &&
	expect_code 0 cuenv lock --components cuda_cudart &&
	expect_code 0 cuenv lock --check &&
	cp .cuenv.lock good.lock || exit 1
evil=$HOME/evil.whl
printf 'not a wheel' >"$evil"
evilsha=$(sha256sum "$evil" | cut -d' ' -f1)
n=0

# refused LOCK-EDIT... MESSAGE: the lock with each sed edit applied;
# install --locked into a fresh root fails (exit 5: integrity) before any
# fetch, saying MESSAGE; lock --check in the first root says the same.
refused() {
	rf_msg=$1
	shift
	n=$((n + 1))
	cp good.lock .cuenv.lock &&
		for rf_e; do sed -i "$rf_e" .cuenv.lock || return 1; done &&
		: >"$PYPI_LOG" &&
		expect_code 5 env CUENV_ROOT="$HOME/node$n" cuenv install --locked &&
		stderr_has "$rf_msg" &&
		stderr_has "hint: lock again" &&
		check "node$n got a version" [ ! -e "$HOME/node$n/versions/cuda" ] &&
		check "a wheel was fetched: $(cat "$PYPI_LOG")" [ ! -s "$PYPI_LOG" ] &&
		expect_code 5 cuenv lock --check &&
		stderr_has "$rf_msg" &&
		stdout_lacks "matches"
}

# another host, plain http, the attacker's file and its own sha256
refused "is not on the package index in force ('$PYPI_URL/simple')" \
	"s|\"url\": \"[^\"]*$rt\"|\"url\": \"http://127.0.0.2:${PYPI_URL##*:}/packages/$rt\"|" \
	"s|\"sha256\": \"[^\"]*\"|\"sha256\": \"$evilsha\"|" &&
	# a later version than the catalogue's for that release
	refused "'nvidia_cuda_runtime_cu12-12.4.99-py3-none-manylinux2014_x86_64.whl' is nvidia-cuda-runtime-cu12 12.4.99, not 12.4.127" \
		"s|/packages/$rt|/packages/nvidia_cuda_runtime_cu12-12.4.99-py3-none-manylinux2014_x86_64.whl|" &&
	# cuDNN's wheel in the place of cudart's
	refused "'nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl' is not a wheel of nvidia-cuda-runtime-cu12" \
		"s|/packages/$rt|/packages/nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64.whl|" &&
	# Windows' wheel for a Linux lock
	refused "is not a wheel for linux-x86_64" \
		"s|/packages/$rt|/packages/nvidia_cuda_runtime_cu12-12.4.127-py3-none-win_amd64.whl|" &&
	# the lock's version field, not the file's
	refused "the lock says cuda 12.4.1 cuda_cudart is version 12.4.99; the catalogue says 12.4.127" \
		's|"version": "12.4.127"|"version": "12.4.99"|' &&
	# a CUDA 11 release over its CUDA 12 wheel
	refused "the lock pins cuda 11.8.0, which its selection (cuda 12.4) does not ask for" \
		's|"release": "12.4.1"|"release": "11.8.0"|' 's|"cuda_major": 12|"cuda_major": 11|' || exit 1

# the same part twice, and an https index with an http lock
cp good.lock .cuenv.lock &&
	python3 -c 'import json, sys
d = json.load(open(".cuenv.lock"))
d["components"] = d["components"] * 600
json.dump(d, open(".cuenv.lock", "w"))' &&
	expect_code 3 env CUENV_ROOT="$HOME/dup" cuenv install --locked &&
	stderr_has "bad lock file '$PWD/.cuenv.lock': more components than any release has" &&
	python3 -c 'import json, sys
d = json.load(open("good.lock"))
d["components"] = d["components"] * 2
json.dump(d, open(".cuenv.lock", "w"))' &&
	expect_code 3 env CUENV_ROOT="$HOME/dup" cuenv install --locked &&
	stderr_has "bad lock file '$PWD/.cuenv.lock': cuda_cudart pinned twice" &&
	cp good.lock .cuenv.lock &&
	expect_code 5 env CUENV_ROOT="$HOME/https" \
		CUENV_PYPI_INDEX="https://${PYPI_URL#http://}/simple" cuenv install --locked &&
	stderr_has "is not on the package index in force ('https://${PYPI_URL#http://}/simple')" &&
	check "a version was installed" [ ! -e "$HOME/dup/versions/cuda" ] || exit 1

# the lock as written still installs, in a fresh root
expect_code 0 env CUENV_ROOT="$HOME/ok" cuenv install --locked &&
	stdout_has "installed cuda 12.4.1 in $HOME/ok/versions/cuda/12.4.1"
