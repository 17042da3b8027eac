# lib.sh: sourced first by every end-to-end test (POSIX sh).
#
#   . "$(dirname "$0")/lib.sh"
#
# Sourcing it re-runs the calling test under `env -i` in a fresh sandbox
# made with `mktemp -d`, and removes the sandbox afterwards:
#
#   HOME        $E2E_SANDBOX/home (also the working directory at start)
#   CUENV_ROOT  $E2E_SANDBOX/root (not the default ~/.cuenv: a test that
#               wants that unsets it; t0170 does)
#   PATH        $E2E_SANDBOX/bin (the cuenv under test) then /usr/bin:/bin
#   TMPDIR      $E2E_SANDBOX/tmp
#   CUENV_PYPI_INDEX  http://127.0.0.1:9/simple, which refuses at once:
#               `install --for` and `needs NAME==V` never reach the real
#               index (a test with a local one sets it; online tests
#               unset it)
#
# From the outer environment only these get in, under their own names:
#   CUENV_BIN            the binary under test (absolute path, required)
#   E2E_HOST_CUDA_HOME   the caller's CUDA_HOME
#   E2E_HOST_PATH        the caller's PATH (to find the machine's nvcc)
#   E2E_CI_CACHE         CUENV_CI_CACHE: downloads kept between runs (the
#                        online tests'), empty when unset
#   E2E_LOAD             CUENV_E2E_LOAD (default 3): the factor of
#                        load_bound, the tests' wall-clock bounds
#   E2E_CACHE            CUENV_E2E_CACHE: where fake libraries are kept
#                        between tests (run.sh makes one per run)
#
# A test passes when it exits 0 and no helper called fail(); exit 77 is a
# skip. Sanitizer reports fail the test: ASan and LSan write theirs into
# the sandbox (log_path), UBSan's on stderr are looked for by each check,
# and both exit with their own status (86, 87).

E2E_SKIP=77

if [ -z "${E2E_SANDBOX-}" ]; then
	case ${CUENV_BIN-} in
	/*) ;;
	*)
		echo "FAIL: set CUENV_BIN to the absolute path of cuenv" >&2
		exit 1
		;;
	esac
	if [ ! -x "$CUENV_BIN" ]; then
		echo "FAIL: CUENV_BIN=$CUENV_BIN is not an executable" >&2
		exit 1
	fi
	_sb=$(mktemp -d "${TMPDIR:-/tmp}/cuenv-e2e.XXXXXX") || exit 1
	# The physical path: cuenv reports real paths.
	_sb=$(cd "$_sb" && pwd -P) || exit 1
	# Removed however the test ends (run.sh's time limit included).
	trap '[ -S "$_sb/tmux.sock" ] && tmux -S "$_sb/tmux.sock" kill-server 2>/dev/null; chmod -R u+rwx "$_sb" "$_sb.hint" 2>/dev/null; rm -rf "$_sb" "$_sb.hint" "$_sb.hint".*' EXIT
	trap 'exit 129' HUP
	trap 'exit 130' INT
	trap 'exit 143' TERM
	mkdir -p "$_sb/bin" "$_sb/home" "$_sb/tmp" "$_sb/san" || exit 1
	ln -s "$CUENV_BIN" "$_sb/bin/cuenv" || exit 1
	_cache=${CUENV_E2E_CACHE:-$_sb/cache}
	mkdir -p "$_cache" || exit 1
	env -i \
		HOME="$_sb/home" \
		CUENV_ROOT="$_sb/root" \
		CUENV_PYPI_INDEX="http://127.0.0.1:9/simple" \
		PATH="$_sb/bin:/usr/bin:/bin" \
		TMPDIR="$_sb/tmp" \
		LC_ALL=C \
		TERM=dumb \
		E2E_SANDBOX="$_sb" \
		E2E_CACHE="$_cache" \
		E2E_LOAD="${CUENV_E2E_LOAD:-3}" \
		E2E_CI_CACHE="${CUENV_CI_CACHE-}" \
		E2E_HINTS="${CUENV_E2E_HINTS-}" \
		CUENV_BIN="$CUENV_BIN" \
		E2E_HOST_CUDA_HOME="${CUDA_HOME-}" \
		E2E_HOST_PATH="${PATH-}" \
		ASAN_OPTIONS="exitcode=86:detect_leaks=1:abort_on_error=0:log_path=$_sb/san/asan" \
		UBSAN_OPTIONS="exitcode=87:print_stacktrace=1:halt_on_error=1" \
		LSAN_OPTIONS="exitcode=86:log_path=$_sb/san/lsan" \
		sh "$0" "$@"
	_rc=$?
	if [ "$_rc" -ne 0 ] && [ "$_rc" -ne "$E2E_SKIP" ]; then
		echo "FAIL: the test exited with status $_rc" >&2
	fi
	if [ -e "$_sb/.failed" ]; then
		[ "$_rc" -eq 0 ] || [ "$_rc" -eq "$E2E_SKIP" ] && _rc=1
	fi
	for _f in "$_sb"/san/*; do
		[ -e "$_f" ] || continue
		echo "FAIL: sanitizer report $_f:" >&2
		cat "$_f" >&2
		_rc=1
	done
	exit "$_rc"
fi

# ---- inside the sandbox ----------------------------------------------------

cd "$HOME" || exit 1
# What the tests create by hand is not group-writable, as cuenv's own
# files are not: activation refuses roots and receipts others can write.
umask 022

# cuenv looks for .cuenv files up to /: one above the sandbox would leak in.
_d=$E2E_SANDBOX
while [ "$_d" != / ] && [ -n "$_d" ]; do
	_d=$(dirname "$_d")
	if [ -e "$_d/.cuenv" ]; then
		echo "FAIL: $_d/.cuenv exists above the sandbox; remove it or" \
			"set TMPDIR elsewhere" >&2
		exit 1
	fi
done

E2E_OUT=$E2E_SANDBOX/.stdout
_e2e_dir=$(cd "$(dirname "$0")" && pwd)
E2E_ERR=$E2E_SANDBOX/.stderr
E2E_RC=0

# fail MSG...: report a failure (the test fails even if it goes on).
fail() {
	echo "FAIL: $*" >&2
	echo "$*" >>"$E2E_SANDBOX/.failed"
	return 1
}

# skip MSG...: stop here and report the test as skipped.
skip() {
	echo "SKIP: $*"
	exit "$E2E_SKIP"
}

# need fish|zsh|bash|jq|cc|GPU: skip unless the prerequisite is there.
need() {
	case $1 in
	GPU)
		if ! command -v nvidia-smi >/dev/null 2>&1 &&
			! PATH=$E2E_HOST_PATH command -v nvidia-smi >/dev/null 2>&1; then
			skip "no GPU: nvidia-smi not found"
		fi
		PATH=$PATH:$E2E_HOST_PATH nvidia-smi -L 2>/dev/null |
			grep -q '^GPU ' || skip "no GPU: nvidia-smi -L lists none"
		;;
	*)
		command -v "$1" >/dev/null 2>&1 ||
			skip "$1 is not installed (not on /usr/bin:/bin)"
		;;
	esac
}

# Run a command, keeping its stdout, stderr and status for the checks.
# UBSan reports go to stderr (its log_path is not honoured next to ASan's):
# one there fails the test even when the status is swallowed (the hooks).
_capture() {
	"$@" >"$E2E_OUT" 2>"$E2E_ERR"
	E2E_RC=$?
	if grep -q 'runtime error: \|ERROR: [A-Za-z]*Sanitizer' "$E2E_ERR"; then
		_show "$@"
		fail "sanitizer report on stderr: $*"
	fi
	[ "${E2E_HINTS-}" != 1 ] || _try_hints
	return 0
}

# ---- hints that work as printed ----------------------------------------------
#
# hint_lines: the commands the last command printed for the user to run,
# prefix dropped: "hint:" lines, fix lines ("fix:", doctor's "or:" and
# "and:", check's), explain's "decide:" lines and the line after needs'
# "install them with:". Explain's fix lines are steps, in order (install,
# then local): they are one line, "STEP && STEP". hint_manual LINE: LINE is a manual action of
# hints-manual.txt. hint_commands LINE: the cuenv commands LINE names, one
# a line: each alternative (", or", "; ", ", then" before words that are
# not a command) less its label ("install it: ") and what follows in
# parentheses; "(cuenv ...)" is the command itself. "X, then cuenv Y" (or
# "X, then select it: cuenv Y") is one command, X && cuenv Y: Y needs what
# X did. Templates (a placeholder: an upper-case word such as N or PATH,
# <word> or "...") are left out.
hint_lines() {
	cat "$E2E_ERR" "$E2E_OUT" 2>/dev/null | awk '
		function flush() {
			if (steps != "")
				print steps
			steps = ""
		}
		want { want = 0; sub(/^  /, ""); print; next }
		/^  fix: / {
			sub(/^  fix: /, "")
			steps = steps == "" ? $0 : steps " && " $0
			next
		}
		{ flush() }
		/^install them with:$/ { want = 1; next }
		sub(/^hint: /, "") || sub(/^ *fix: /, "") ||
			sub(/^     or: /, "") || sub(/^    and: /, "") ||
			sub(/^  decide: /, "") { print }
		END { flush() }'
}
hint_manual() {
	[ -s "$E2E_SANDBOX/.manual.re" ] ||
		grep -v '^#' "$_e2e_dir/hints-manual.txt" | grep . | cut -f1 \
			>"$E2E_SANDBOX/.manual.re"
	printf '%s\n' "$1" | grep -qEf "$E2E_SANDBOX/.manual.re"
}
hint_commands() {
	printf '%s\n' "$1" |
		sed 's/, then [a-z ]*: cuenv / \&\& cuenv /g; s/, then cuenv / \&\& cuenv /g
			s/, or /\n/g; s/, then /\n/g; s/; /\n/g' |
		grep 'cuenv ' |
		sed '/(cuenv /{s/^.*(\(cuenv [^)]*\)).*$/\1/;b;}
			s/^[^:]*: //; s/ (.*//; /^[^(]*)/s/).*//' |
		grep -E '^([A-Z_]+=[^ ]* )*cuenv ' |
		grep -vE '(^| )[A-Z][A-Z_]*( |$|,)|<[a-z]+>|\.\.\.'
}

# CUENV_E2E_HINTS=1 (make e2e-hints): after every command a test runs,
# each cuenv command its hints and fix lines name is run, as printed, in a
# copy of the sandbox as it is then ($E2E_SANDBOX.hint, made afresh for
# each command and removed after it): what a fix changes never reaches
# what the test checks next. The copy is the sandbox moved: paths into the
# sandbox in the command, the environment, links and text files are
# rewritten to the copy's. A command that fails, that leaves a sanitizer
# report, or that changes a file of the live sandbox all the same fails.
# The results go to $E2E_CACHE/hints.log, one a line:
# "ok|offline|FAILED|manual|template<TAB>test<TAB>command<TAB>line"
# (manual: hints-manual.txt; template: a line naming no command to run),
# and each line collected to $E2E_CACHE/hints.lines; run.sh sums them up
# and fails on any FAILED.
_try_hints() {
	_hl=$E2E_SANDBOX.hint.lines
	hint_lines >"$_hl" || return 0
	[ -s "$_hl" ] || {
		rm -f "$_hl"
		return 0
	}
	while IFS= read -r _h; do
		printf '%s\t%s\n' "$(basename "$0" .sh)" "$_h" \
			>>"$E2E_CACHE/hints.lines"
		if hint_manual "$_h"; then
			_hint_log manual - "$_h"
			continue
		fi
		hint_commands "$_h" >"$_hl.cmds"
		[ -s "$_hl.cmds" ] || _hint_log template - "$_h"
		while IFS= read -r _c; do
			_hint_run "$_c" "$_h"
		done <"$_hl.cmds"
	done <"$_hl"
	rm -f "$_hl" "$_hl.cmds"
}
_hint_log() {
	printf '%s\t%s\t%s\t%s\n' "$1" "$(basename "$0" .sh)" "$2" "$3" \
		>>"$E2E_CACHE/hints.log"
}
# _reloc FROM TO: stdin with every FROM replaced by TO (literally).
_reloc() {
	awk -v a="$1" -v b="$2" '{
		o = ""
		while ((i = index($0, a)) > 0) {
			o = o substr($0, 1, i - 1) b
			$0 = substr($0, i + length(a))
		}
		print o $0
	}'
}
_hint_run() {
	_hsb=$E2E_SANDBOX
	_cp=$E2E_SANDBOX.hint
	_out=$_cp.out
	rm -rf "$_cp" "$_out"
	# The test's servers keep their state under $TMPDIR/cuenv-serve.*:
	# left out of the copy (they go on serving the live sandbox's files);
	# their request logs are cut back to where they were instead, so
	# that a test counting requests sees none of the hint's.
	for _l in "$_hsb"/tmp/cuenv-serve.*/log; do
		[ -f "$_l" ] && printf '%s %s\n' "$(wc -c <"$_l")" "$_l"
	done >"$_cp.logs"
	mkdir -p "$_cp" &&
		tar -C "$_hsb" -cf - --exclude=./san --exclude='./tmp/cuenv-serve.*' \
			. 2>/dev/null | tar -C "$_cp" -xpf - 2>/dev/null
	mkdir -p "$_cp/san" "$_cp/tmp"
	# Moved: links and text files that name the sandbox name the copy.
	find "$_cp" -type l | while IFS= read -r _l; do
		_t=$(readlink "$_l")
		case $_t in
		"$_hsb" | "$_hsb"/*) ln -sfn "$_cp${_t#"$_hsb"}" "$_l" ;;
		esac
	done
	grep -rlIF -- "$_hsb" "$_cp" 2>/dev/null | while IFS= read -r _f; do
		_reloc "$_hsb" "$_cp" <"$_f" >"$_f.reloc" &&
			cat "$_f.reloc" >"$_f" && rm -f "$_f.reloc"
	done
	_cmd=$(printf '%s\n' "$1" | _reloc "$_hsb" "$_cp")
	# No mirror in this test: an install or update would go to NVIDIA's
	# servers (hints-manual.txt, "offline"). It runs against a mirror that
	# refuses at once instead; failing only at the download (exit 4) it
	# counts as "offline", checked up to the download. A test whose mirror
	# is a file:// folder it never made (t5085: nothing may be fetched)
	# is offline too, with that mirror.
	_off=
	if printf '%s\n' "$1" | grep -qE '(^|[;&|] *)cuenv (install|update)( |$)'; then
		case ${CUENV_MIRROR-} in
		'') _off=http://127.0.0.1:9 ;;
		file://*) [ -e "${CUENV_MIRROR#file://}" ] || _off=$CUENV_MIRROR ;;
		esac
	fi
	: >"$_cp.stamp"
	(
		case $PWD in
		"$_hsb" | "$_hsb"/*) cd "$_cp${PWD#"$_hsb"}" || exit 125 ;;
		esac
		for _n in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p'); do
			eval "_v=\${$_n-}"
			case $_v in
			*"$_hsb"*)
				_v=$(printf '%s\n' "$_v" | _reloc "$_hsb" "$_cp")
				export "$_n=$_v"
				;;
			esac
		done
		[ -z "$_off" ] || export CUENV_MIRROR="$_off"
		exec timeout -k 5 "$(load_bound 30)" sh -c "$_cmd"
	) >"$_out" 2>&1 </dev/null
	_hrc=$?
	# What the command changed in the live sandbox (its servers' state
	# and the sanitizers' reports aside) it should have changed in the copy.
	_leak=$(find "$_hsb" \( -path "$_hsb/san" -o -path "$_hsb/tmp/cuenv-serve.*" \
		-o -path "$E2E_CACHE" \) -prune -o -newer "$_cp.stamp" -print)
	_san=$(cat "$_cp"/san/* 2>/dev/null)
	if [ -n "$_leak" ] || [ -n "$_san" ]; then
		_r=FAILED
	elif [ "$_hrc" -eq 0 ]; then
		_r=ok
	elif [ "$_hrc" -eq 1 ] &&
		printf '%s\n' "$1" | grep -qE '^cuenv needs ' &&
		grep -qx 'install them with:' "$_out"; then
		# a command that decides (doctor's fix where nothing here can
		# do): needs' exit 1 is its answer, "missing", with the install
		# line that gives it
		_r=ok
	elif [ -n "$_off" ] && [ "$_hrc" -eq 4 ] &&
		grep -qF -e "cannot download '$_off/" \
			-e "cannot read '$_off/" "$_out"; then
		_r=offline
	elif [ "$_hrc" -eq 4 ] &&
		printf '%s\n' "$1" | grep -qE '(^|[;&|] *)cuenv install .*--source pypi' &&
		grep -qE "cannot download '[^']*/simple/[^']*': (HTTP 404|Failed to connect)" "$_out"; then
		# From the package index: the sandbox's refuses (CUENV_PYPI_INDEX,
		# 127.0.0.1:9) and a test's own serves only the wheels it uses;
		# checked up to the download, as a mirror's above.
		_r=offline
	else
		_r=FAILED
	fi
	if [ "$_r" = FAILED ]; then
		{
			printf '  %s (exit %s): %s\n' "$(basename "$0" .sh)" "$_hrc" "$1"
			sed 's/^/    /' "$_out"
			[ -z "$_leak" ] ||
				printf '    changed the live sandbox: %s\n' $_leak
			[ -z "$_san" ] || printf '%s\n' "$_san" | sed 's/^/    /'
		} >>"$E2E_CACHE/hints.out"
	fi
	_hint_log "$_r" "$1" "$2"
	while read -r _n _l; do
		truncate -s "$_n" "$_l"
	done <"$_cp.logs"
	chmod -R u+rwx "$_cp" 2>/dev/null
	rm -rf "$_cp" "$_cp.logs" "$_cp.stamp" "$_out"
}

_why() {
	case $1 in
	126) echo "could not be executed" ;;
	127) echo "command not found" ;;
	86) echo "AddressSanitizer/LeakSanitizer error" ;;
	87) echo "UndefinedBehaviorSanitizer error" ;;
	*)
		if [ "$1" -gt 128 ]; then
			echo "killed by signal $(($1 - 128))"
		else
			echo "exit status"
		fi
		;;
	esac
}

_show() {
	echo "--- command: $*" >&2
	echo "--- stdout:" >&2
	cat "$E2E_OUT" >&2
	echo "--- stderr:" >&2
	cat "$E2E_ERR" >&2
	echo "---" >&2
}

# kill9 PID: kill -9 a background command and reap it; its status is
# kill9's. A process the signal caught as it exited may have been in
# LeakSanitizer's exit check, which then leaves a torn report of its own
# ("Unable to get registers from thread"); killed_report drops that, and
# only that: a report that says ERROR (a leak, a bad access) stays, and so
# does everything of a process that ended before the signal.
kill9() {
	kill -9 "$1" 2>/dev/null
	wait "$1"
	_k=$?
	[ "$_k" -ne 137 ] || killed_report "$1"
	return "$_k"
}

killed_report() {
	for _f in "$E2E_SANDBOX"/san/*."$1"; do
		[ -e "$_f" ] || continue
		grep -q '^==[0-9]*==ERROR:' "$_f" || rm -f "$_f"
	done
}

# A status that means the command crashed or did not run at all.
_crashed() {
	[ "$E2E_RC" -ge 126 ] || [ "$E2E_RC" -eq 86 ] || [ "$E2E_RC" -eq 87 ]
}

# expect_code N cmd...: cmd must exit with status N (126, 127 and signals
# only when N names them).
expect_code() {
	_want=$1
	shift
	_capture "$@"
	[ "$E2E_RC" -eq "$_want" ] && return 0
	_show "$@"
	fail "expected exit $_want, got $E2E_RC ($(_why "$E2E_RC")): $*"
}

# expect_output N EXPECTED cmd...: status N and exactly EXPECTED on stdout
# (trailing newlines aside).
expect_output() {
	_want=$1
	_exp=$2
	shift 2
	_capture "$@"
	if [ "$E2E_RC" -ne "$_want" ]; then
		_show "$@"
		fail "expected exit $_want, got $E2E_RC ($(_why "$E2E_RC")): $*"
		return 1
	fi
	_got=$(cat "$E2E_OUT")
	[ "$_got" = "$_exp" ] && return 0
	printf '%s\n' "$_exp" >"$E2E_SANDBOX/.expected"
	printf '%s\n' "$_got" >"$E2E_SANDBOX/.got"
	echo "--- command: $*" >&2
	echo "--- stdout differs (- expected, + actual):" >&2
	diff -u "$E2E_SANDBOX/.expected" "$E2E_SANDBOX/.got" | tail -n +3 >&2
	echo "--- stderr:" >&2
	cat "$E2E_ERR" >&2
	fail "unexpected output: $*"
}

# expect_stdout EXPECTED cmd...: exit 0 and exactly EXPECTED on stdout.
expect_stdout() {
	_exp=$1
	shift
	expect_output 0 "$_exp" "$@"
}

# expect_stderr_contains TEXT cmd...: TEXT on stderr, and no crash. The
# status is left in $E2E_RC for a further check.
expect_stderr_contains() {
	_text=$1
	shift
	_capture "$@"
	if _crashed; then
		_show "$@"
		fail "crashed with $E2E_RC ($(_why "$E2E_RC")): $*"
		return 1
	fi
	grep -qF -e "$_text" "$E2E_ERR" && return 0
	_show "$@"
	fail "stderr lacks '$_text': $*"
}

# Checks on the output of the last expect_* command.
last_rc_is() {
	[ "$E2E_RC" -eq "$1" ] && return 0
	_show "(last command)"
	fail "expected exit $1, got $E2E_RC"
}
stdout_has() {
	grep -qF -e "$1" "$E2E_OUT" && return 0
	_show "(last command)"
	fail "stdout lacks '$1'"
}
stdout_lacks() {
	grep -qF -e "$1" "$E2E_OUT" || return 0
	_show "(last command)"
	fail "stdout has '$1'"
}
stderr_has() {
	grep -qF -e "$1" "$E2E_ERR" && return 0
	_show "(last command)"
	fail "stderr lacks '$1'"
}
stderr_lacks() {
	grep -qF -e "$1" "$E2E_ERR" || return 0
	_show "(last command)"
	fail "stderr has '$1'"
}
stdout_empty() {
	[ ! -s "$E2E_OUT" ] && return 0
	_show "(last command)"
	fail "stdout is not empty"
}
stderr_empty() {
	[ ! -s "$E2E_ERR" ] && return 0
	_show "(last command)"
	fail "stderr is not empty"
}

# load_bound N: N seconds times E2E_LOAD. A test's wall-clock bound (a
# deadline that must cut a transfer, a hung probe that must be killed) is
# written for an idle machine and stretched by the load factor, so that
# it measures the code and not the machine; a bound must stay well below
# the time the bug it guards against would take (an endless transfer, a
# probe sleeping 300 s).
load_bound() {
	echo $(($1 * ${E2E_LOAD:-3}))
}

# took_at_most T0 N: at most load_bound N seconds have passed since T0
# (a `date +%s`).
took_at_most() {
	_took=$(($(date +%s) - $1))
	check "it took ${_took}s, more than $(load_bound "$2")s ($2 s times the load factor ${E2E_LOAD:-3})" \
		[ "$_took" -le "$(load_bound "$2")" ]
}

# peak_rss FILE CMD...: run CMD under python3; its peak resident memory
# in KiB (its children's included: cuenv execs cuenv-net) into FILE;
# CMD's status (128 + N for signal N).
peak_rss() {
	python3 -c 'import resource, subprocess, sys
rc = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    f.write("%d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc if rc >= 0 else 128 - rc)' "$@"
}

# check MSG cmd...: fail with MSG unless cmd succeeds; for a condition in
# a chain:  a && check "x is missing" [ -f x ] && b
check() {
	_msg=$1
	shift
	"$@" && return 0
	fail "$_msg"
}

# assert_eq ACTUAL EXPECTED WHAT
assert_eq() {
	[ "$1" = "$2" ] && return 0
	fail "$3: expected '$2', got '$1'"
}

# file_is FILE EXPECTED: the file's contents, exactly (trailing newlines
# aside).
file_is() {
	if [ ! -f "$1" ]; then
		fail "$1 does not exist"
		return 1
	fi
	_got=$(cat "$1")
	[ "$_got" = "$2" ] && return 0
	printf '%s\n' "$2" >"$E2E_SANDBOX/.expected"
	printf '%s\n' "$_got" >"$E2E_SANDBOX/.got"
	diff -u "$E2E_SANDBOX/.expected" "$E2E_SANDBOX/.got" | tail -n +3 >&2
	fail "$1 differs (- expected, + actual)"
}

# nothing_named NAME: no file called NAME anywhere in the sandbox (and not
# in the working directory of the caller either).
nothing_named() {
	_found=$(find "$E2E_SANDBOX" -name "$1" 2>/dev/null)
	[ -z "$_found" ] && return 0
	fail "found '$1' (something was executed): $_found"
}

# realdir DIR: the physical path of DIR.
realdir() {
	(cd "$1" && pwd -P)
}

# ---- fake libraries and installs -------------------------------------------

# fake_elf SONAME DEST [STRING]: copy a real ELF shared object, built with
# -Wl,-soname,SONAME (and holding STRING when given), to DEST. Each kind is
# built once per run in $E2E_CACHE.
fake_elf() {
	_soname=$1
	_dest=$2
	_str=${3-}
	_key=$(printf '%s_%s' "$_soname" "$_str" | tr -c 'A-Za-z0-9._\n-' _)
	_lib=$E2E_CACHE/$_key.so
	if [ ! -f "$_lib" ]; then
		_src=$E2E_SANDBOX/tmp/fake_$$.c
		{
			echo "const char cuenv_fake_soname[] = \"$_soname\";"
			[ -n "$_str" ] &&
				echo "const char cuenv_fake_needs[] = \"$_str\";"
			echo "int cuenv_fake_version(void) { return 1; }"
		} >"$_src" &&
			cc -shared -fPIC -o "$_lib.tmp.$$" "$_src" \
				-Wl,-soname,"$_soname" &&
			mv -f "$_lib.tmp.$$" "$_lib" || {
			fail "cannot build a fake $_soname with cc"
			return 1
		}
	fi
	cp "$_lib" "$_dest"
}

# _vparts VERSION: set _maj _min _pat (missing parts are 0).
_vparts() {
	_maj=${1%%.*}
	_r=${1#"$_maj"}
	_r=${_r#.}
	_min=${_r%%.*}
	_r=${_r#"$_min"}
	_r=${_r#.}
	_pat=${_r%%.*}
	: "${_min:=0}" "${_pat:=0}"
}

# make_fake_cuda DIR VERSION: a CUDA toolkit in the classic layout, with
#   bin/nvcc                  a script printing "release X.Y"
#   lib64/libcudart.so.VERSION  ELF, soname libcudart.so.MAJOR, + links
#   lib64/libcupti.so.*       ELF, soname libcupti.so.MAJOR (11.x:
#                             libcupti.so.11.MINOR), + links
#   include/cuda_runtime_api.h  #define CUDART_VERSION
#   version.json              {"cuda":{"name":"CUDA SDK","version":...}}
make_fake_cuda() {
	_dir=$1
	_v=$2
	_vparts "$_v"
	_cmaj=$_maj
	_cmin=$_min
	mkdir -p "$_dir/bin" "$_dir/lib64" "$_dir/include" || return 1
	cat >"$_dir/bin/nvcc" <<EOF || return 1
#!/bin/sh
echo "nvcc: NVIDIA (R) Cuda compiler driver"
echo "Cuda compilation tools, release $_cmaj.$_cmin, V$_v"
echo "fake nvcc at \$0"
EOF
	chmod 755 "$_dir/bin/nvcc" &&
		fake_elf "libcudart.so.$_cmaj" "$_dir/lib64/libcudart.so.$_v" &&
		ln -sf "libcudart.so.$_v" "$_dir/lib64/libcudart.so.$_cmaj" &&
		ln -sf "libcudart.so.$_cmaj" "$_dir/lib64/libcudart.so" || return 1
	if [ "$_cmaj" -le 11 ]; then
		fake_elf "libcupti.so.$_cmaj.$_cmin" \
			"$_dir/lib64/libcupti.so.$_cmaj.$_cmin" &&
			ln -sf "libcupti.so.$_cmaj.$_cmin" "$_dir/lib64/libcupti.so" ||
			return 1
	else
		fake_elf "libcupti.so.$_cmaj" "$_dir/lib64/libcupti.so.$_v" &&
			ln -sf "libcupti.so.$_v" "$_dir/lib64/libcupti.so.$_cmaj" &&
			ln -sf "libcupti.so.$_cmaj" "$_dir/lib64/libcupti.so" ||
			return 1
	fi
	printf '#define CUDART_VERSION %d\n' $((_cmaj * 1000 + _cmin * 10)) \
		>"$_dir/include/cuda_runtime_api.h" &&
		printf '{"cuda":{"name":"CUDA SDK","version":"%s"}}\n' "$_v" \
			>"$_dir/version.json"
}

# make_fake_cudnn DIR VERSION CUDA_MAJOR: a cuDNN archive unpacked, with
# include/cudnn_version.h and lib/libcudnn.so.MAJOR (ELF). Unless DIR's
# name ends in _cudaMAJOR-archive (which says the CUDA major itself), the
# library holds the string libcublasLt.so.CUDA_MAJOR, as real ones do.
make_fake_cudnn() {
	_dir=$1
	_v=$2
	_for=$3
	_vparts "$_v"
	mkdir -p "$_dir/include" "$_dir/lib" || return 1
	printf '#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n' \
		"$_maj" "$_min" "$_pat" >"$_dir/include/cudnn_version.h" &&
		echo '#include "cudnn_version.h"' >"$_dir/include/cudnn.h" || return 1
	case $_dir in
	*_cuda"$_for"-archive) _needs= ;;
	*) _needs=libcublasLt.so.$_for ;;
	esac
	fake_elf "libcudnn.so.$_maj" "$_dir/lib/libcudnn.so.$_maj" "$_needs" &&
		ln -sf "libcudnn.so.$_maj" "$_dir/lib/libcudnn.so"
}

# make_installed_cuda VERSION: a toolkit that cuenv itself installed (files
# in the store, receipt written last), as `cuenv install` leaves it.
make_installed_cuda() {
	_vdir=$CUENV_ROOT/versions/cuda/$1
	_vparts "$1"
	make_fake_cuda "$_vdir" "$1" &&
		cat >"$_vdir/.cuenv-receipt" <<EOF
{
  "schema": 1,
  "kind": "cuda",
  "version": "$1",
  "cuda_major": $_maj,
  "registered": false,
  "bin": ["bin"],
  "lib": ["lib64"],
  "include": ["include"],
  "cupti": ["lib64"]
}
EOF
}

# ---- shells ----------------------------------------------------------------

# hook_session bash|zsh|fish: run the shell as a user would at a prompt,
# with no start-up files, reading the script on stdin line by line. bash
# and zsh run their prompt hooks (PROMPT_COMMAND, precmd) before each line;
# fish runs its PWD handlers at each cd, and `emit fish_prompt` stands for
# a prompt. The script loads the integration itself.
hook_session() {
	case $1 in
	bash) bash --norc --noprofile -i ;;
	zsh) zsh -f -i ;;
	fish) fish --no-config ;;
	*)
		fail "hook_session: unknown shell $1"
		return 1
		;;
	esac
}

# A real terminal (tmux), for what needs one: prompts a second apart, as a
# person types, and a screen to read back.
#   tty_start bash|zsh|fish RCFILE   start the shell, RCFILE as its start-up
#                                    file (it loads the integration itself)
#   tty_type LINE...                 type each LINE + Enter, 0.7 s apart
#   tty_screen FILE                  write the screen (no blank lines) to FILE
#   tty_stop                         end it (also when the test ends)
_tty_sock=$E2E_SANDBOX/tmux.sock
tty_start() {
	need tmux
	need "$1"
	case $1 in
	bash) _tty_cmd="bash --noprofile --rcfile '$2' -i" ;;
	zsh) _tty_cmd="env ZDOTDIR='$E2E_SANDBOX/zdot' zsh -i" ;;
	fish) _tty_cmd="fish --no-config -C 'source $2'" ;;
	esac
	if [ "$1" = zsh ]; then
		mkdir -p "$E2E_SANDBOX/zdot" &&
			cp "$2" "$E2E_SANDBOX/zdot/.zshrc" || return 1
	fi
	tmux -S "$_tty_sock" new-session -d -x 250 -y 50 \
		"env -i HOME='$HOME' CUENV_ROOT='$CUENV_ROOT' PATH='$PATH' TERM=xterm LC_ALL=C.UTF-8 $_tty_cmd" ||
		return 1
	sleep 1
}
tty_type() {
	for _l in "$@"; do
		tmux -S "$_tty_sock" send-keys "$_l" Enter || return 1
		sleep 0.7
	done
}
tty_screen() {
	tmux -S "$_tty_sock" capture-pane -p -S -200 | grep -v '^ *$' >"$1"
}
tty_stop() {
	tmux -S "$_tty_sock" kill-server 2>/dev/null
	return 0
}

# Fail on an error from cuenv in the last session's stderr.
no_cuenv_errors() {
	if grep -q 'cuenv: error\|cuenv: warning' "$E2E_ERR"; then
		grep "cuenv: " "$E2E_ERR" | head -n 5 >&2
		fail "cuenv reported errors or warnings"
		return 1
	fi
}

# ---- the machine's own CUDA toolkit ----------------------------------------

_has_cudart() {
	for _l in "$1"/lib64/libcudart.so* "$1"/lib/libcudart.so* \
		"$1"/targets/*/lib/libcudart.so*; do
		[ -e "$_l" ] && return 0
	done
	return 1
}

# need_real_cuda: set REAL_CUDA to the physical path of this machine's
# toolkit, found as a user's set-up says: CUDA_HOME, the /usr/local/cuda
# link, then the nvcc on PATH (possibly a wrapper script: `nvcc --dryrun`
# names the real toolkit on its TOP= line). Skip when there is none.
need_real_cuda() {
	REAL_CUDA=
	for _c in "$E2E_HOST_CUDA_HOME" /usr/local/cuda; do
		if [ -n "$_c" ] && [ -d "$_c" ] && _has_cudart "$_c"; then
			REAL_CUDA=$(realdir "$_c")
			return 0
		fi
	done
	_nvcc=$(PATH=$E2E_HOST_PATH command -v nvcc 2>/dev/null)
	if [ -n "$_nvcc" ]; then
		_top=$("$_nvcc" --dryrun -x cu /dev/null 2>&1 |
			sed -n 's/^#\$ TOP=//p' | head -n 1)
		if [ -n "$_top" ] && [ -d "$_top" ] && _has_cudart "$_top"; then
			REAL_CUDA=$(realdir "$_top")
			return 0
		fi
	fi
	skip "no CUDA toolkit on this machine (looked at CUDA_HOME," \
		"/usr/local/cuda and the nvcc on PATH)"
}
