#!/bin/sh
# A CUENV_SYSTEM_ROOTS entry owned by another user and writable by others
# is refused for activation, naming it and the chown + chmod that fix it
# (run as printed, they do); a receipt in the user's own root rewritten by
# another user (owned by them) is refused and changes nothing in the
# shell. Needs root, to give files to nobody.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (chown nobody)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
t=$HOME/toolkits
sys=$HOME/system-root
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	CUENV_ROOT=$sys cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	export CUENV_SYSTEM_ROOTS="$sys" &&
	mkdir -p proj evil/lib64 &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	cd proj &&
	expect_stdout "$t/cuda-12.4/bin/nvcc" cuenv which nvcc &&
	chown nobody "$sys" && chmod 777 "$sys" &&
	expect_code 7 cuenv which nvcc &&
	stderr_has "cuenv: error: '$sys' is owned by uid $(id -u nobody) and writable by others (mode 0777)" &&
	stderr_has "hint: fix it with: chown 0 '$sys' && chmod go-w '$sys'" &&
	# Refused even where the user's own root would do.
	expect_code 7 cuenv versions &&
	fix=$(sed -n 's/^hint: fix it with: //p' "$E2E_ERR") &&
	sh -c "$fix" &&
	expect_stdout "$t/cuda-12.4/bin/nvcc" cuenv which nvcc &&
	# Owned by another user, even unwritable by others: refused.
	chown nobody "$sys/versions/cuda" &&
	expect_code 7 cuenv which nvcc &&
	stderr_has "hint: fix it with: chown 0 '$sys/versions/cuda'" &&
	chown 0 "$sys/versions/cuda" &&
	# Another user rewrote a receipt in the user's own root.
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	printf 'cuda = 11.8\n' >.cuenv &&
	v=$CUENV_ROOT/versions/cuda/11.8.0 &&
	sed "s|$t/cuda-11.8|$HOME/evil|" "$v/.cuenv-receipt" >"$HOME/r.json" &&
	cat "$HOME/r.json" >"$v/.cuenv-receipt" &&
	chown nobody "$v/.cuenv-receipt" &&
	expect_stdout "in: /mine|unset" hook_session bash <<'EOF_SESSION' &&
export LD_LIBRARY_PATH=/mine
eval "$(cuenv init bash)"
cd "$HOME/proj"
echo "in: $LD_LIBRARY_PATH|${CUDA_HOME-unset}"
EOF_SESSION
	stderr_has "cuenv: error: '$v/.cuenv-receipt' is owned by uid $(id -u nobody): cuenv does not trust it" &&
	stderr_has "hint: fix it with: chown 0 '$v/.cuenv-receipt'"
