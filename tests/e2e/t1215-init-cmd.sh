#!/bin/sh
# cuenv init cmd: a doskey macro file whose `cuenv` macro runs
# `cuenv use ...` (CUENV_SHELL=cmd) through for /f and sets each line;
# with CUENV_SHELL=cmd, use prints only `"NAME=value"` SET arguments
# (__CUENV_STATE among them, so that --unset undoes exactly what use
# added), all or none. tests/windows/e2e-init.sh runs the macro's body
# in wine's cmd.exe.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
bin=$(readlink -f "$(command -v cuenv)")
make_fake_cuda "$t/cuda-11.8.0" 11.8.0 &&
	make_fake_cuda "$t/a!b" 12.4.1 &&
	cuenv add cuda "$t/cuda-11.8.0" >/dev/null &&
	cuenv add cuda "$t/a!b" >/dev/null &&
	expect_stdout "cuenv=if /i not \"\$1\"==\"use\" (\"$bin\" \$*) else for /f \"delims=\" %i in ('set \"CUENV_SHELL=cmd\" ^& \"$bin\" \$*') do @set %i" \
		cuenv init cmd &&
	# doskey reads $ as its own: doubled in the binary's path.
	mkdir -p "$HOME/a\$b (x86)" && cp "$bin" "$HOME/a\$b (x86)/cuenv" &&
	expect_code 0 "$HOME/a\$b (x86)/cuenv" init cmd &&
	stdout_has "^& \"$HOME/a\$\$b (x86)/cuenv\" \$*') do" &&
	# cmd's `set` cannot take a '%' from doskey's line: refused.
	mkdir -p "$HOME/100%" && cp "$bin" "$HOME/100%/cuenv" &&
	expect_code 2 "$HOME/100%/cuenv" init cmd &&
	stdout_empty &&
	stderr_has "holds % or a quote" &&
	p0=$PATH &&
	expect_code 0 env CUENV_SHELL=cmd cuenv use 11.8 &&
	stdout_has "\"PATH=$t/cuda-11.8.0/bin:$p0\"" &&
	stdout_has "\"CUDA_PATH=$t/cuda-11.8.0\"" &&
	stdout_has "\"CUENV_VERSION=11.8\"" &&
	stdout_has "\"__CUENV_STATE=1;" &&
	stdout_lacks "__cuenv_" &&
	stdout_lacks "export" &&
	[ "$(grep -cv '^"[A-Za-z_][A-Za-z0-9_]*=.*"$' "$E2E_OUT")" = 0 ] &&
	# --unset: the variables use set are deleted ("NAME=").
	state=$(sed -n 's/^"__CUENV_STATE=\(.*\)"$/\1/p' "$E2E_OUT") &&
	expect_code 0 env CUENV_SHELL=cmd CUENV_VERSION=11.8 \
		"PATH=$t/cuda-11.8.0/bin:$p0" CUDA_PATH="$t/cuda-11.8.0" \
		CUDA_HOME="$t/cuda-11.8.0" CUENV_ACTIVE=11.8.0 \
		"__CUENV_STATE=$state" cuenv use --unset &&
	stdout_has "\"PATH=$p0\"" &&
	stdout_has "\"CUDA_PATH=\"" &&
	stdout_has "\"CUENV_VERSION=\"" &&
	stdout_has "\"__CUENV_STATE=\"" &&
	# A '!' cannot pass through set: nothing is printed, exit 2.
	expect_code 2 env CUENV_SHELL=cmd cuenv use 12.4 &&
	stdout_empty &&
	stderr_has "which cmd's set cannot carry" &&
	expect_code 0 cuenv export cmd &&
	stdout_lacks "__cuenv_"
