#!/bin/sh
# make demo's script as a new user sees it (offline: from the tests'
# mirror): every "$ " line can be pasted back into a shell (the exec line
# had lost its quoting), the hook is shown activating and deactivating in a
# real bash, doctor and check run, and it ends saying where the binary is
# and how to put it on PATH (its last line was an eval "$(cuenv init
# bash)" that could not work: cuenv was not on PATH).
. "$(dirname "$0")/lib.sh"

src=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
need python3
need bash
# The demo's own cuenv commands ran in a throw-away root it removed when
# it ended: the hints in its transcript cannot be run where they were
# printed (CUENV_E2E_HINTS, lib.sh), so this command's are not collected.
hints_were=${E2E_HINTS-}
E2E_HINTS=
expect_code 0 env CUENV_DEMO_OFFLINE=1 CUENV_BIN="$CUENV_BIN" sh "$src/tools/demo.sh"
rc=$?
E2E_HINTS=$hints_were
check "the demo wrote in HOME: $(ls -A "$HOME")" [ -z "$(ls -A "$HOME")" ]
[ "$rc" -eq 0 ] &&
	cp "$E2E_OUT" "$HOME/demo.out" &&
	stdout_has "\$ cuenv exec -- sh -c 'echo \"LD_LIBRARY_PATH=\$LD_LIBRARY_PATH\"'" &&
	stdout_has "LD_LIBRARY_PATH=" &&
	stdout_has "# A new bash with eval \"\$(cuenv init bash)\" in its ~/.bashrc:" &&
	grep -A1 -x '\$ echo "CUDA_HOME=\$CUDA_HOME"' "$HOME/demo.out" | grep -q "^CUDA_HOME=/.*/versions/cuda/12.4.1\$" ||
	fail "the hook did not activate the project in bash"
stdout_has "\$ cuenv doctor" &&
	stdout_has "\$ cuenv check" &&
	stdout_has "export PATH=\"$(dirname "$CUENV_BIN"):\$PATH\"" &&
	stdout_lacks "Shell setup: eval" &&
	# every shown command line parses as sh
	sed -n 's/^\$ //p' "$HOME/demo.out" >"$HOME/lines" &&
	while IFS= read -r l; do
		sh -n -c "$l" 2>/dev/null || fail "not a shell line: $l"
	done <"$HOME/lines"
