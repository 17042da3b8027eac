#!/bin/sh
# A receipt edited to name a folder with ':' in it ("/home/u/tool:kit",
# or a lib folder "lib:x") is refused like any bad receipt: going in and
# out of the project again and again never puts a relative entry
# ("kit/bin") into PATH or LD_LIBRARY_PATH, nothing piles up, and leaving
# gives back exactly the variables from before. t2145 runs this in zsh.
: "${hook_shell:=bash}"
. "$(dirname "$0")/lib.sh"

t=$HOME/tool:kit
receipt() { # VERSION PREFIX LIB
	mkdir -p "$CUENV_ROOT/versions/cuda/$1" &&
		cat >"$CUENV_ROOT/versions/cuda/$1/.cuenv-receipt" <<EOF
{"schema": 1, "kind": "cuda", "version": "$1", "cuda_major": 12,
 "registered": true, "prefix": "$2",
 "bin": ["bin"], "lib": ["$3"], "include": ["include"], "cupti": []}
EOF
}
need "$hook_shell" &&
	make_fake_cuda "$t" 12.4.1 &&
	make_fake_cuda "$HOME/clean" 12.6.0 &&
	mkdir -p "$HOME/clean/lib:x" &&
	receipt 12.4.1 "$t" lib64 &&
	receipt 12.6.0 "$HOME/clean" "lib:x" &&
	mkdir p q &&
	printf 'cuda = 12.4\n' >p/.cuenv &&
	printf 'cuda = 12.6\n' >q/.cuenv &&
	expect_stdout "p: $PATH|unset
out: $PATH|unset
q: $PATH|unset
out: $PATH|unset
p: $PATH|unset
out: $PATH|unset
q: $PATH|unset
out: $PATH|unset" hook_session "$hook_shell" <<'EOF_SESSION' &&
eval "$(cuenv init $0)"
show() { echo "$1: $PATH|${LD_LIBRARY_PATH-unset}"; }
cd p
show p
cd ..
show out
cd q
show q
cd ..
show out
cd p
show p
cd ..
show out
cd q
show q
cd ..
show out
EOF_SESSION
	stderr_has "bad receipt '$CUENV_ROOT/versions/cuda/12.4.1/.cuenv-receipt'" &&
	stderr_has "bad directory list in receipt '$CUENV_ROOT/versions/cuda/12.6.0/.cuenv-receipt'" &&
	cd p && expect_code 9 cuenv which nvcc
