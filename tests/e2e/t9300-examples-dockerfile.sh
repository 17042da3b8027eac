#!/bin/sh
# The cuenv steps of examples/Dockerfile (the lines after "# test: run"),
# run as shell in a clean project directory as a container build would:
# HOME unset, no terminal, CUENV_ROOT set, against the local server. As
# root with unshare, / is read-only except CUENV_ROOT and the project;
# otherwise nothing may change in the sandbox but those two. Then stage
# 2's entrypoint, `cuenv exec --check --`, and a plain `cuenv exec`.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

df=$e2e/../../examples/Dockerfile
app=$E2E_SANDBOX/app
opt=$E2E_SANDBOX/opt/cuenv
steps=$E2E_SANDBOX/steps.sh
not() { ! "$@"; }

[ -f "$df" ] || fail "no examples/Dockerfile"
# Mechanically: the line after each "# test: run", less its RUN.
awk 'm { sub(/^RUN[ \t]+/, ""); print; m = 0; next }
	/^# test: run[ \t]*$/ { m = 1 }' "$df" >"$steps"
check "examples/Dockerfile has no '# test: run' steps" [ -s "$steps" ] &&
	check "a test step does not run cuenv" not grep -qv '^cuenv ' "$steps" ||
	exit 1

# The project as the build context has it: .cuenv and its lock.
use_mirror &&
	mkdir -p "$app" "$E2E_SANDBOX/opt" &&
	printf 'cuda = 12.4\n' >"$app/.cuenv" &&
	(cd "$app" && cuenv lock >/dev/null) &&
	check "no lock was written" [ -f "$app/.cuenv.lock" ] || exit 1

# The shell that runs the steps: no HOME, stdin and stdout not a terminal.
cat >"$E2E_SANDBOX/build.sh" <<SH
set -e
cd "$app"
[ ! -t 0 ] && [ ! -t 1 ]
set -x
. "$steps"
SH
runner="sh $E2E_SANDBOX/build.sh"
ro=no
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	unshare -m sh -c 'mount -o remount,bind,ro / 2>/dev/null' 2>/dev/null; then
	ro=yes
	mkdir -p "$opt"
	# The writable places bound onto themselves first, then / read-only.
	runner="unshare -m sh -c 'for d in \"\$@\"; do mount --bind \"\$d\" \"\$d\" || exit 1; done; mount -o remount,bind,ro / && exec sh $E2E_SANDBOX/build.sh' sh $opt $app $E2E_SANDBOX/san"
fi
: >"$E2E_SANDBOX/marker"
sleep 1
eval "env -u HOME CUENV_ROOT=\"$opt\" $runner" </dev/null \
	>"$E2E_SANDBOX/build.out" 2>"$E2E_SANDBOX/build.err"
rc=$?
if [ "$rc" -ne 0 ]; then
	cat "$E2E_SANDBOX/build.out" "$E2E_SANDBOX/build.err" >&2
	fail "the Dockerfile's steps failed (exit $rc, read-only /: $ro)"
	exit 1
fi

# Nothing written in the sandbox but CUENV_ROOT and the project (the
# server's state lives in TMPDIR).
changed=$(find "$E2E_SANDBOX" -newer "$E2E_SANDBOX/marker" \
	! -path "$E2E_SANDBOX/opt" ! -path "$E2E_SANDBOX/opt/*" \
	! -path "$app" ! -path "$app/*" ! -path "$E2E_SANDBOX/tmp/*" \
	! -path "$E2E_SANDBOX/build.*" ! -path "$E2E_SANDBOX/san/*" \
	! -path "$E2E_SANDBOX" ! -path "$E2E_SANDBOX/tmp" -print)
check "written outside CUENV_ROOT and the project: $changed" [ -z "$changed" ] &&
	check "cuda 12.4.1 is not installed in CUENV_ROOT" \
		[ -f "$opt/versions/cuda/12.4.1/.cuenv-receipt" ] &&
	check "nvcc was installed (--runtime-only)" \
		[ ! -e "$opt/versions/cuda/12.4.1/bin/nvcc" ] &&
	check "no ENV lines into CUENV_ROOT in the build log" \
		grep -q "^ENV CUDA_HOME=\"$opt/versions/cuda/12.4.1\"" \
		"$E2E_SANDBOX/build.out" || exit 1

# Stage 2's /opt/cuenv, made as the Dockerfile's COPY --from=build lines
# of it say (hard links kept within each, as COPY keeps them): the
# versions, and no lock file (.lock and .locks/ were copied whole).
rt=$E2E_SANDBOX/runtime/opt/cuenv
sed -n 's|^COPY --from=build /opt/cuenv\([^ ]*\) /opt/cuenv\([^ ]*\)$|\1 \2|p' \
	"$df" >"$E2E_SANDBOX/copies"
check "the Dockerfile copies nothing of /opt/cuenv" [ -s "$E2E_SANDBOX/copies" ] &&
	while read -r from to; do
		mkdir -p "$(dirname "$rt$to")" &&
			cp -a "$opt$from" "$rt$to" || exit 1
	done <"$E2E_SANDBOX/copies" || exit 1
locks=$(find "$rt" \( -name '*.lock' -o -name .locks -o -name cache \) -print)
check "the runtime image holds lock files or the cache: $locks" [ -z "$locks" ] &&
	check "libcudart is not whole in the runtime image" \
		cat "$rt/versions/cuda/12.4.1/lib/libcudart.so.12" >/dev/null || exit 1

# Stage 2: the entrypoint, from the project directory, still without HOME.
cd "$app" || exit 1
unset HOME
opt=$rt
export CUENV_ROOT="$opt"
expect_code 0 cuenv exec -- sh -c 'echo "CUDA $CUENV_ACTIVE at $CUDA_HOME"' &&
	stdout_has "CUDA 12.4.1 at $opt/versions/cuda/12.4.1" || exit 1
# No GPU here, as at build time: --check either passes and runs the command,
# or reports on stderr and does not run it.
cuenv exec --check -- sh -c 'echo started' </dev/null \
	>"$E2E_SANDBOX/check.out" 2>"$E2E_SANDBOX/check.err"
rc=$?
if [ "$rc" -eq 0 ]; then
	check "exec --check passed but did not start the command" \
		grep -qx started "$E2E_SANDBOX/check.out"
else
	check "exec --check started the command though the check failed" \
		not grep -q started "$E2E_SANDBOX/check.out" &&
		check "exec --check failed (exit $rc) with no report" \
			[ -s "$E2E_SANDBOX/check.err" ]
fi
locks=$(find "$rt" \( -name '*.lock' -o -name .locks \) -print)
check "running the image made lock files: $locks" [ -z "$locks" ]
