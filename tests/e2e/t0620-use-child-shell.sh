#!/bin/sh
# A program started from a shell with the integration (a script, make, a
# plain `bash -c`) has none: `cuenv use` there cannot change anything, so
# it must fail as without the integration, not print shell code and
# claim "using cuda ... in this shell".
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
need bash &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	expect_stdout "sh: rc=2
bash: rc=2
CUDA_HOME=unset" hook_session bash <<'EOF_SESSION' &&
eval "$(cuenv init bash)"
sh -c 'cuenv use 12.4' >"$HOME/sh.out" 2>"$HOME/sh.err"; echo "sh: rc=$?"
bash --norc -c 'cuenv use 12.4' >"$HOME/bash.out" 2>"$HOME/bash.err"; echo "bash: rc=$?"
echo "CUDA_HOME=${CUDA_HOME-unset}"
EOF_SESSION
	for s in sh bash; do
		check "$s child: cuenv use printed shell code: $(head -n 3 "$HOME/$s.out")" [ ! -s "$HOME/$s.out" ]
		check "$s child: no 'no cuenv integration' error: $(cat "$HOME/$s.err")" grep -q "no cuenv integration" "$HOME/$s.err"
	done
