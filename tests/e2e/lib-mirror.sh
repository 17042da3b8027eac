# lib-mirror.sh: sourced by the `cuenv mirror` tests (t95xx), after lib.sh
# and lib-install.sh.
#
#   http_start DIR   serve DIR with python3 -m http.server on 127.0.0.1
#                    (a free port): HTTP_URL, HTTP_PID, HTTP_LOG; it stops
#                    when the test ends (or with http_stop)
#   http_stop
#   as_root NAME     point CUENV_ROOT at an empty $HOME/NAME (a fresh node)

_mirror_cleanup() {
	http_stop
	_inst_cleanup
}
trap _mirror_cleanup EXIT

http_start() {
	need python3 || return 1
	HTTP_LOG=$E2E_SANDBOX/http.log
	: >"$HTTP_LOG"
	python3 -u -m http.server --bind 127.0.0.1 --directory "$1" 0 \
		>"$HTTP_LOG" 2>&1 </dev/null &
	HTTP_PID=$!
	_hi=0
	while :; do
		_port=$(sed -n 's/^Serving HTTP on [0-9.]* port \([0-9]*\).*/\1/p' \
			"$HTTP_LOG")
		[ -n "$_port" ] && break
		_hi=$((_hi + 1))
		if [ "$_hi" -gt 1000 ] || ! kill -0 "$HTTP_PID" 2>/dev/null; then
			cat "$HTTP_LOG" >&2
			fail "python3 -m http.server did not start"
			return 1
		fi
		sleep 0.01 2>/dev/null || sleep 1
	done
	HTTP_URL=http://127.0.0.1:$_port
}

http_stop() {
	if [ -n "${HTTP_PID-}" ]; then
		kill "$HTTP_PID" 2>/dev/null
		wait "$HTTP_PID" 2>/dev/null
	fi
	HTTP_PID=
}

as_root() {
	CUENV_ROOT=$HOME/$1
	export CUENV_ROOT
}
