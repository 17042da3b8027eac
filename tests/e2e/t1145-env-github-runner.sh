#!/bin/sh
# cuenv env --format github, read back as GitHub's runner reads $GITHUB_ENV
# (actions/runner, SetEnvFileCommand; docs: "Setting an environment
# variable", "Multiline strings"): lines end in \n or \r\n; NAME=VALUE when
# '=' comes before any '<<'; else NAME<<DELIMITER, then the value's lines
# up to the first line equal to DELIMITER (the value is the text between,
# less the newline before the delimiter); an empty name, an empty
# delimiter, a missing delimiter or any other line is an error. Every value
# must come back exactly as `cuenv env --format json` gives it, with values
# that hold newlines, \r\n, a line "CUENV_EOF" or "CUENV_EOF\r" (which the
# runner takes for the delimiter), '=' and '<<'.
. "$(dirname "$0")/lib.sh"
need python3

t=$HOME/toolkits
c=$t/cuda-12.4
make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\n' >.cuenv || exit 1

cat >"$HOME/runner.py" <<'EOF'
import json, sys

def read_line(text, i):
    """The runner's ReadLine: (line, newline, next index); line is None at
    the end. A line ends at \n, and a \r before it belongs to the newline."""
    if i >= len(text):
        return None, None, i
    j = text.find("\n", i)
    if j < 0:
        return text[i:], None, len(text)
    if j > i and text[j - 1] == "\r":
        return text[i:j - 1], "\r\n", j + 1
    return text[i:j], "\n", j + 1

def parse(text):
    env, i = {}, 0
    while True:
        line, nl, i = read_line(text, i)
        if line is None:
            return env
        if line == "":
            continue
        eq, hd = line.find("="), line.find("<<")
        if eq >= 0 and (hd < 0 or eq < hd):
            key, value = line.split("=", 1)
            if not key:
                sys.exit("runner: name must not be empty: %r" % line)
        elif hd >= 0 and (eq < 0 or hd < eq):
            key, delim = line.split("<<", 1)
            if not key or not delim:
                sys.exit("runner: empty name or delimiter: %r" % line)
            start = end = i
            tmp, nl, i = read_line(text, i)
            while tmp != delim:
                if tmp is None:
                    sys.exit("runner: matching delimiter not found %r" % delim)
                if nl is None:
                    sys.exit("runner: EOF marker missing new line")
                end = i - len(nl)
                tmp, nl, i = read_line(text, i)
            value = text[start:end] if end > start else ""
        else:
            sys.exit("runner: invalid format %r" % line)
        env[key] = value

got = parse(open(sys.argv[1], newline="").read())
want = json.load(open(sys.argv[2]))
want.pop("__CUENV_STATE", None)
if got != want:
    for k in sorted(set(got) | set(want)):
        if got.get(k) != want.get(k):
            print("%s: runner reads %r, json says %r" % (k, got.get(k),
                  want.get(k)), file=sys.stderr)
    sys.exit(1)
print(len(got), "variables")
EOF

# both: check that the runner reads back what json says, with PATH and
# LD_LIBRARY_PATH from the caller as given.
both() {
	env PATH="$1" LD_LIBRARY_PATH="$2" cuenv env --format github \
		>"$HOME/gh" 2>"$HOME/gh.err" &&
		env PATH="$1" LD_LIBRARY_PATH="$2" cuenv env --format json \
			>"$HOME/js" &&
		python3 "$HOME/runner.py" "$HOME/gh" "$HOME/js" >/dev/null || {
		cat "$HOME/gh" "$HOME/gh.err" >&2
		fail "the runner reads other values than json gives (PATH $1)"
	}
}

cr=$(printf '\r')
nl='
'
both "$PATH" "/usr/lib/x" &&
	both "$PATH:/odd${nl}CUENV_EOF${nl}x" "/a" &&
	both "$PATH:/odd${nl}CUENV_EOF${cr}${nl}x" "/a" &&
	both "$PATH:/c${cr}${nl}CUENV_EOF_0${cr}${nl}CUENV_EOF${nl}y" "/a" &&
	both "$PATH:/a=b<<c" "/x<<y=z" &&
	both "$PATH:/a<<b" "/p${nl}q<<CUENV_EOF" &&
	both "$PATH:/r${cr}s" "/l"
