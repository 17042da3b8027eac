#!/bin/sh
# Like ssh's StrictModes: a root, its versions/ folders, a version folder
# or a receipt that others can write is refused for activation, with one
# error naming it and a hint whose command, run as printed, fixes it. A
# receipt another user rewrote to export their library folder changes
# nothing in the shell. In the shell, the fix takes effect at the next
# prompt. CUENV_INSECURE_ROOTS=1 turns the check off.
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
r=$CUENV_ROOT
v=$r/versions/cuda/12.4.1
# refused PATH: the error names PATH, and the hint's fix works.
refused_then_fixed() {
	expect_code 7 cuenv which nvcc &&
		stderr_has "cuenv: error: '$1' is writable by others" &&
		stderr_has "hint: fix it with: chmod go-w '$1'" &&
		assert_eq "$(grep -c 'cuenv: error' "$E2E_ERR")" 1 "error lines" &&
		fix=$(sed -n 's/^hint: fix it with: //p' "$E2E_ERR") &&
		sh -c "$fix" &&
		expect_stdout "$c/bin/nvcc" cuenv which nvcc
}
make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir -p proj evil/lib64 &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	cd proj &&
	expect_stdout "$c/bin/nvcc" cuenv which nvcc &&
	chmod 777 "$r" &&
	refused_then_fixed "$r" &&
	chmod 757 "$r/versions" &&
	refused_then_fixed "$r/versions" &&
	chmod 775 "$r/versions/cuda" &&
	refused_then_fixed "$r/versions/cuda" &&
	chmod 777 "$v" &&
	refused_then_fixed "$v" &&
	chmod 666 "$v/.cuenv-receipt" &&
	refused_then_fixed "$v/.cuenv-receipt" &&
	# In the shell: refused, and the fix as printed takes effect at the
	# next prompt, with no cd.
	chmod 777 "$r" &&
	expect_stdout "refused: unset
fixed: $c" hook_session bash <<'EOF_SESSION' &&
eval "$(cuenv init bash)"
cd "$HOME/proj"
echo "refused: ${CUDA_HOME-unset}"
sh -c "$(cuenv which nvcc 2>&1 | sed -n 's/^hint: fix it with: //p')"
echo "fixed: ${CUDA_HOME-unset}"
EOF_SESSION
	stderr_has "cuenv: error: '$r' is writable by others" &&
	# Another user rewrites the receipt that was left writable: the hook
	# activates nothing, and LD_LIBRARY_PATH is left as it was.
	chmod 666 "$v/.cuenv-receipt" &&
	sed "s|$c|$HOME/evil|" "$v/.cuenv-receipt" >"$HOME/tmp.json" &&
	cat "$HOME/tmp.json" >"$v/.cuenv-receipt" &&
	check "the receipt was not rewritten" grep -q evil "$v/.cuenv-receipt" &&
	expect_stdout "in: /mine|unset" hook_session bash <<'EOF_SESSION' &&
export LD_LIBRARY_PATH=/mine
eval "$(cuenv init bash)"
cd "$HOME/proj"
echo "in: $LD_LIBRARY_PATH|${CUDA_HOME-unset}"
EOF_SESSION
	stderr_has "cuenv: error: '$v/.cuenv-receipt' is writable by others (mode 0666)" &&
	# The opt-out, for those who really want it.
	expect_code 0 env CUENV_INSECURE_ROOTS=1 cuenv env &&
	stdout_has "$HOME/evil/lib64" &&
	chmod 777 "$r" &&
	expect_code 0 env CUENV_INSECURE_ROOTS=1 cuenv env &&
	expect_code 7 env CUENV_INSECURE_ROOTS=0 cuenv env
