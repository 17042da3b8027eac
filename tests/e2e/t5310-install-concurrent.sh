#!/bin/sh
# Two installs of the same version at once: the second waits for the
# first (and says so), then finds the version installed; both exit 0,
# each archive is downloaded once, and the version is whole: receipt,
# files, one pool copy hard-linked once into it.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
use_mirror &&
	p=$(comp 12.4.1 libcublas path) &&
	serve_faults "{\"$p\": {\"trickle\": 1000000}}" &&
	{ cuenv install 12.4.1 >"$HOME/a.out" 2>"$HOME/a.err" & a=$!; } &&
	# The first one holds the version's lock once its staging folder exists.
	n=0 &&
	while [ -z "$(ls "$CUENV_ROOT/.staging" 2>/dev/null)" ] && [ "$n" -lt 200 ]; do
		sleep 0.05
		n=$((n + 1))
	done &&
	{ cuenv install 12.4.1 >"$HOME/b.out" 2>"$HOME/b.err" & b=$!; }
wait "$a"
ra=$?
wait "$b"
rb=$?
assert_eq "$ra" 0 "the first install's status" &&
	assert_eq "$rb" 0 "the second install's status" &&
	check "the first install did not install" grep -q "^installed cuda 12.4.1 in $v (" "$HOME/a.out" &&
	file_is "$HOME/b.out" "cuda 12.4.1 is already installed ($v)" &&
	check "the second install did not say it waited" \
		grep -qx "cuenv: another install of 12.4.1 is running; waiting for it" "$HOME/b.err" &&
	check "no receipt" [ -f "$v/.cuenv-receipt" ] &&
	expect_stdout 6 sh -c "grep -c ' 200\$' '$SERVER_LOG'" &&
	expect_stdout "2 2 2" sh -c "echo \$(stat -c %h '$v/lib/libcublasLt.so.12.4.5.8' '$v/lib/libcudart.so.12.4.127' '$v/bin/nvcc')" &&
	expect_stdout 6 sh -c "ls '$CUENV_ROOT/pool' | wc -l" &&
	staging_empty &&
	printf 'cuda = 12.4.1\n' >.cuenv &&
	expect_stdout "cuenv-fixture libcudart 12.4.127 (CUDA 12.4.1)" \
		dlid "$(cuenv which libcudart.so.12)"
