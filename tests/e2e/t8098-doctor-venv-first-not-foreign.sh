#!/bin/sh
# ONLINE (lib-venv.sh): in a shell activated by cuenv (here cuenv exec,
# as the hook gives) inside a venv with NVIDIA wheels, activation keeps
# the wheels' folders ahead of the selection's on LD_LIBRARY_PATH (issue
# 21). doctor run there takes them for cuenv's own order, not for a
# foreign folder shadowing the selection: no ld-library-path-shadow
# problem, no --isolate fix (which would drop the order that keeps the
# venv working). Found by the loader matrix's cases through a real
# selection. A folder the user put there is still reported.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-venv.sh"

c=$HOME/toolkits/cuda-12.0
v=$HOME/venv
need cc &&
	make_wheel_venv "$v" &&
	make_old_cuda12 "$c" &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && printf 'cuda = 12.0\n' >proj/.cuenv && cd proj &&
	expect_output 0 "$NV/cuda_runtime/lib:$NV/nvjitlink/lib:$c/lib64" \
		env VIRTUAL_ENV="$v" PATH="$v/bin:$PATH" \
		cuenv exec sh -c 'echo "$LD_LIBRARY_PATH"' &&
	expect_code 0 env VIRTUAL_ENV="$v" PATH="$v/bin:$PATH" \
		cuenv exec cuenv doctor --json &&
	stdout_lacks '"ld-library-path-shadow"' &&
	stdout_lacks '"foreign-ld-library-path"' &&
	stdout_lacks 'isolate' &&
	# the same wheels' folder put there by hand, with no venv active
	expect_code 0 env LD_LIBRARY_PATH="$NV/nvjitlink/lib" \
		cuenv exec cuenv doctor --json &&
	stdout_has '"foreign-ld-library-path"'
