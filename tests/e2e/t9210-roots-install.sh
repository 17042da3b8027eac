#!/bin/sh
# Two roots with real installs: an admin's system root, filled by two
# installs running at once, and a user's root beside it. The user sees
# both; the user's install goes to the user's root only; the system
# root is left exactly as it was.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

sys=$HOME/system-root
use_mirror &&
	# Two processes install into the shared root at once.
	{ CUENV_ROOT=$sys cuenv install 12.4.1 --quiet >"$HOME/a.log" 2>&1 & a=$!; } &&
	{ CUENV_ROOT=$sys cuenv install 11.2 --cudnn 8.1 --quiet >"$HOME/b.log" 2>&1 & b=$!; }
wait "$a"
ra=$?
wait "$b"
rb=$?
check "the first shared install failed: $(cat "$HOME/a.log")" [ "$ra" -eq 0 ] &&
	check "the second shared install failed: $(cat "$HOME/b.log")" [ "$rb" -eq 0 ] &&
	check "12.4.1 is not whole" [ -f "$sys/versions/cuda/12.4.1/.cuenv-receipt" ] &&
	check "11.2.2 is not whole" [ -f "$sys/versions/cuda/11.2.2/.cuenv-receipt" ] &&
	check "cuDNN 8.1 is not whole" [ -f "$sys/versions/cudnn/8.1.1.33-cuda11/.cuenv-receipt" ] &&
	check "the shared root kept staging leftovers" [ -z "$(ls "$sys/.staging")" ] &&
	touch "$HOME/marker" && sleep 0.01 &&
	CUENV_SYSTEM_ROOTS=$sys && export CUENV_SYSTEM_ROOTS &&
	# The user installs another version: into the user's root.
	cuenv install 11.8 --quiet >/dev/null &&
	check "11.8 not in the user's root" [ -f "$CUENV_ROOT/versions/cuda/11.8.0/.cuenv-receipt" ] &&
	check "11.8 went to the system root" [ ! -e "$sys/versions/cuda/11.8.0" ] &&
	expect_stdout "  cuda   11.2.2                $sys/versions/cuda/11.2.2  (system root)
  cuda   11.8.0                $CUENV_ROOT/versions/cuda/11.8.0
  cuda   12.4.1                $sys/versions/cuda/12.4.1  (system root)
  cudnn  8.1.1.33 (cuda11)     $sys/versions/cudnn/8.1.1.33-cuda11  (system root)" \
		cuenv versions &&
	# The system's 11.2 with its cuDNN is usable from the user's shell.
	mkdir -p "$HOME/proj" && cd "$HOME/proj" &&
	cuenv local 11.2 --cudnn 8.1 2>/dev/null &&
	expect_stdout "$sys/versions/cudnn/8.1.1.33-cuda11/lib64/libcudnn.so.8" \
		cuenv which libcudnn.so.8 &&
	# Installing 12.4 again finds the system's and does nothing.
	check "the system root changed" [ -z "$(find "$sys" -newer "$HOME/marker")" ]
