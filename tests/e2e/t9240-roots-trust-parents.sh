#!/bin/sh
# Like ssh's StrictModes, every folder from / down to a root is checked:
# a root inside a folder another user owns is refused by `env`, `exec`
# and the hook, with one error naming that folder and a fix that works as
# printed. So that user cannot rename the root away and put a tree with
# their own nvcc in its place once a script's `eval "$(cuenv env)"`,
# `cuenv exec` or the hook has put the root's bin on PATH: nothing is put
# there. A root that is a link is checked on both sides (the link's
# folders and its target's), and so is a CUENV_SYSTEM_ROOTS entry; a
# sticky folder such as /tmp passes above an entry of the user's. Needs
# root, to give folders to nobody, and setpriv, to act as nobody.
. "$(dirname "$0")/lib.sh"

[ "$(id -u)" = 0 ] || skip "needs root (chown nobody)"
id nobody >/dev/null 2>&1 || skip "no user nobody"
need setpriv
nobody=$(id -u nobody)
c=$HOME/toolkits/cuda-12.4
theirs=$HOME/theirs
export CUENV_ROOT="$theirs/root"
v=$CUENV_ROOT/versions/cuda/12.4.1
# The attack, as the other user: rename the root away and put a tree
# with their own nvcc in its place. restore undoes it.
cat >"$HOME/plant" <<EOF &&
#!/bin/sh
exec setpriv --reuid=$nobody --regid=$(id -g nobody) --clear-groups sh -c \
	'rm -rf "$theirs/old" && mv "$CUENV_ROOT" "$theirs/old" &&
	cp -R "$theirs/evil" "$CUENV_ROOT"'
EOF
	chmod 755 "$HOME/plant" || exit 1
restore() {
	if [ -e "$theirs/old" ]; then
		rm -rf "$CUENV_ROOT" && mv "$theirs/old" "$CUENV_ROOT"
	fi
}
# The other user must reach their folder inside the sandbox.
chmod 711 "$E2E_SANDBOX" &&
	make_installed_cuda 12.4.1 &&
	mkdir -p "$HOME/proj" &&
	printf 'cuda = 12.4\n' >"$HOME/proj/.cuenv" &&
	cd "$HOME/proj" &&
	expect_stdout "$v/bin/nvcc" cuenv which nvcc &&
	cp -R "$CUENV_ROOT" "$theirs/evil" &&
	printf '#!/bin/sh\necho EVIL\n' >"$theirs/evil/versions/cuda/12.4.1/bin/nvcc" &&
	chown -R nobody "$theirs" "$theirs/evil" &&
	chown -R 0 "$CUENV_ROOT" &&
	# The root is root's, the folder above it is not: refused.
	expect_code 7 cuenv env &&
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody: cuenv does not trust '$CUENV_ROOT' beneath it" &&
	stderr_has "hint: fix it with: chown 0 '$theirs'" &&
	assert_eq "$(grep -c 'cuenv: error' "$E2E_ERR")" 1 "error lines" &&
	stdout_empty &&
	expect_code 7 cuenv check &&
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody" &&
	# A script run as root: its eval activates nothing, so the planted
	# nvcc is not on its PATH.
	expect_stdout "unset 0" sh -c 'eval "$(cuenv env 2>/dev/null)"
		"$HOME/plant"
		echo "${CUDA_HOME-unset} $(nvcc 2>/dev/null | grep -c EVIL)"' &&
	restore &&
	# exec: refused before the command runs.
	expect_code 7 cuenv exec sh -c '"$HOME/plant"; nvcc' &&
	stdout_lacks EVIL &&
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody" &&
	restore &&
	# The hook: nothing activated at the prompt, so nothing to plant into
	# before the next one.
	expect_stdout "first: unset
then: 0" hook_session bash <<'EOF_SESSION' &&
eval "$(cuenv init bash)"
cd "$HOME/proj"
echo "first: ${CUDA_HOME-unset}"
"$HOME/plant"; echo "then: $(nvcc 2>/dev/null | grep -c EVIL)"
EOF_SESSION
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody" &&
	restore &&
	# The fix, as printed.
	expect_code 7 cuenv which nvcc &&
	fix=$(sed -n 's/^hint: fix it with: //p' "$E2E_ERR") &&
	sh -c "$fix" &&
	expect_stdout "$v/bin/nvcc" cuenv which nvcc

# A link to a root inside their folder: the target's folders are checked.
good=$HOME/good
mkdir -p "$HOME/mine" "$good" "$theirs/in" &&
	make_fake_cuda "$c" 12.4.1 &&
	CUENV_ROOT=$good cuenv add cuda "$c" >/dev/null &&
	chown nobody "$theirs" &&
	cp -R "$good" "$theirs/in/root" &&
	ln -s "$theirs/in/root" "$HOME/mine/link" &&
	expect_code 7 env CUENV_ROOT="$HOME/mine/link" cuenv which nvcc &&
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody: cuenv does not trust '$HOME/mine/link' beneath it" &&
	# A link in their folder to a root of the user's: the link's folder.
	ln -s "$good" "$theirs/link" &&
	expect_code 7 env CUENV_ROOT="$theirs/link" cuenv which nvcc &&
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody" &&
	expect_stdout "$c/bin/nvcc" env CUENV_ROOT="$good" cuenv which nvcc &&
	# A CUENV_SYSTEM_ROOTS entry there: the same.
	expect_code 7 env CUENV_ROOT="$good" CUENV_SYSTEM_ROOTS="$theirs/in/root" cuenv which nvcc &&
	stderr_has "cuenv: error: '$theirs' is owned by uid $nobody: cuenv does not trust '$theirs/in/root' beneath it" &&
	# A sticky folder others may write, like /tmp, above a folder of the
	# user's: taken.
	mkdir -p "$HOME/tmp" && chmod 1777 "$HOME/tmp" &&
	cp -R "$good" "$HOME/tmp/root" &&
	expect_stdout "$c/bin/nvcc" env CUENV_ROOT="$HOME/tmp/root" cuenv which nvcc &&
	chmod 777 "$HOME/tmp" &&
	expect_code 7 env CUENV_ROOT="$HOME/tmp/root" cuenv which nvcc &&
	stderr_has "cuenv: error: '$HOME/tmp' is writable by others (mode 0777)"
