#!/bin/sh
# Colour (issue 23 item 10): --color=auto|always|never before the command,
# NO_COLOR (https://no-color.org) and a terminal by default. Coloured: the
# "cuenv: error:", "cuenv: warning:" and "hint:" prefixes and the headings
# of doctor, explain and needs; nothing else, and nothing into a pipe
# unless --color=always says so. On a terminal (tmux, its screen read back
# with its colours) auto colours, NO_COLOR and --color=never do not.
. "$(dirname "$0")/lib.sh"

e=$(printf '\033')
red="$e[1;31mcuenv: error:$e[m"
cyan="$e[1;36mhint:$e[m"
mkdir p && cd p || exit 1
# into a pipe: no colour by default, colour with --color=always
expect_code 9 cuenv local 99.9 &&
	stderr_has "cuenv: error: cuda 99.9 is not installed" &&
	stderr_lacks "$e" &&
	expect_code 9 cuenv --color=always local 99.9 &&
	stderr_has "$red cuda 99.9 is not installed" &&
	stderr_has "$cyan " &&
	expect_code 9 cuenv --color local 99.9 &&
	stderr_has "$red cuda 99.9" &&
	# the flag wins over NO_COLOR; the last one given counts
	expect_code 9 env NO_COLOR=1 cuenv --color=always local 99.9 &&
	stderr_has "$red" &&
	expect_code 9 cuenv --color=always --color=never local 99.9 &&
	stderr_lacks "$e" &&
	expect_code 2 cuenv --color=sometimes local 99.9 &&
	stderr_has "cuenv: error: bad --color 'sometimes': auto, always or never" &&
	# cuenv-net's commands too
	expect_code 17 cuenv --color=always install 99.9 &&
	stderr_has "$red no CUDA 99.9 in the catalogue" &&
	# the reports' headings, in bold; their text as without colour
	expect_code 0 cuenv --color=always doctor &&
	stdout_has "$e[1mselection:$e[m nothing selected" &&
	stdout_has "$e[1minfo:$e[m" &&
	cuenv doctor >plain.txt 2>&1 &&
	sed "s/$e\[[0-9;]*m//g" "$E2E_OUT" >stripped.txt &&
	check "doctor's coloured text differs from its plain text" \
		cmp -s plain.txt stripped.txt &&
	expect_code 0 cuenv --color=always explain \
		"libcupti.so.11.2: cannot open shared object file" &&
	stdout_has "$e[1mlibcupti.so.11.2:$e[m libcupti of CUDA 11.2" &&
	stdout_has "$e[1minstalled:$e[m" &&
	expect_code 0 cuenv --color=always doctor --json &&
	stdout_lacks "$e" || exit 1

# On a terminal.
need tmux
sock=$HOME/tmux.sock
cat >"$HOME/go" <<EOF
cuenv local 99.9
NO_COLOR=1 cuenv local 99.9
cuenv --color=never local 99.9
TERM=dumb cuenv local 99.9
echo done
sleep 60
EOF
tmux -S "$sock" new-session -d -x 200 -y 30 \
	"env -i HOME='$HOME' CUENV_ROOT='$CUENV_ROOT' PATH='$PATH' TERM=xterm sh '$HOME/go'" || exit 1
i=0
while [ $i -lt 40 ]; do
	tmux -S "$sock" capture-pane -e -p >"$HOME/screen" 2>/dev/null
	grep -q '^done' "$HOME/screen" && break
	sleep 0.5
	i=$((i + 1))
done
tmux -S "$sock" kill-server 2>/dev/null
cat -v "$HOME/screen"
# tmux writes the screen's colours back its own way (bold red: 1 and 31)
n=$(grep -c 'cuenv: error:.* cuda 99.9' "$HOME/screen")
c=$(grep 'cuenv: error:.* cuda 99.9' "$HOME/screen" | grep -c "$e\[")
check "not four errors on the screen ($n)" [ "$n" -eq 4 ] &&
	check "the first error is not coloured on a terminal" \
		sh -c "grep 'cuenv: error:' '$HOME/screen' | head -n 1 | grep -q '31m'" &&
	check "NO_COLOR, --color=never or TERM=dumb coloured ($c coloured)" [ "$c" -eq 1 ]
