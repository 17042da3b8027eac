#!/bin/sh
# CUENV_SYSTEM_ROOTS: versions from a shared system root beside the user's
# own; the user's root wins by name; writes go to the user's root only.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
sys=$HOME/system-root
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	make_fake_cuda "$t/mine-12.4" 12.4.1 &&
	# An admin fills the system root.
	CUENV_ROOT=$sys cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	touch "$HOME/marker" && sleep 0.01 &&
	export CUENV_SYSTEM_ROOTS="$sys" &&
	expect_stdout "  cuda   12.4.1                $t/cuda-12.4  (registered)  (system root)" \
		cuenv versions &&
	# Selecting and activating a system version writes nothing there.
	mkdir -p "$HOME/proj" && cd "$HOME/proj" &&
	cuenv local 12.4 2>/dev/null &&
	expect_stdout "$t/cuda-12.4/lib64/libcudart.so.12" cuenv which libcudart.so.12 &&
	# The user's own additions go to the user's root.
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	check "added into the user's root" [ -f "$CUENV_ROOT/versions/cuda/11.8.0/.cuenv-receipt" ] &&
	expect_stdout "  cuda   11.8.0                $t/cuda-11.8  (registered)
* cuda   12.4.1                $t/cuda-12.4  (registered)  (system root)" \
		cuenv versions &&
	# A version of the same name in the user's root hides the system's.
	cuenv add cuda "$t/mine-12.4" >/dev/null &&
	expect_stdout "$t/mine-12.4/lib64/libcudart.so.12" cuenv which libcudart.so.12 &&
	# Removing a system version is not the user's to do.
	cuenv remove 12.4.1 >/dev/null &&
	expect_stdout "$t/cuda-12.4/lib64/libcudart.so.12" cuenv which libcudart.so.12 &&
	expect_code 9 cuenv remove 12.4.1 &&
	# Nothing in the system root changed.
	check "the system root was written to" [ -z "$(find "$sys" -newer "$HOME/marker")" ] &&
	# --json names the folder of each version.
	expect_stdout "$sys/versions/cuda/12.4.1" sh -c 'cuenv versions --json | sed -n "s/.*\"dir\": \"\([^\"]*\)\".*/\1/p" | grep system-root'
