#!/bin/sh
# cuenv env --format powershell: one `$env:NAME = ...` line a variable, no
# private state, and every byte ASCII (PowerShell reads a script without a
# BOM in the console's code page, where the UTF-8 bytes of U+0452, D1 92,
# read as U+00D1 U+2019, and U+2019 ends a single-quoted string): an ASCII
# value single-quoted with ' doubled, any other double-quoted with ` $ and
# " escaped by a backtick and each character past ASCII written as
# $([char]0x0452). PowerShell is not available here: the lines are checked
# as text, written by hand from about_Quoting_Rules and
# about_Special_Characters (tests/unit/plat/test_shell.c reads them back with a
# model of that grammar); no real PowerShell has run them.
. "$(dirname "$0")/lib.sh"

rq=$(printf '\342\200\231') # U+2019 RIGHT SINGLE QUOTATION MARK
dj=$(printf '\321\222')     # U+0452 CYRILLIC SMALL LETTER DJE
t=$HOME/toolkits
c=$t/"it's \$HOME \`n $rq $dj\""
q="it's \`\$HOME \`\`n \$([char]0x2019) \$([char]0x0452)\`\""
n=$t/cudnn_cuda12-archive
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv env --format powershell &&
	cp "$E2E_OUT" "$HOME/o" &&
	expect_stdout "\$env:CPATH = \"$n/include:$t/$q/include\"
\$env:CUDA_HOME = \"$t/$q\"
\$env:CUDA_PATH = \"$t/$q\"
\$env:CUDNN_PATH = '$n'
\$env:CUENV_ACTIVE = '12.4.1+cudnn9.1.0'
\$env:LD_LIBRARY_PATH = \"$n/lib:$t/$q/lib64\"
\$env:LIBRARY_PATH = \"$n/lib:$t/$q/lib64\"
\$env:PATH = \"$t/$q/bin:$PATH\"" sort "$HOME/o" &&
	check "a byte of the output is not ASCII" \
		[ "$(LC_ALL=C tr -d '\000-\177' <"$HOME/o" | wc -c)" -eq 0 ] &&
	cd "$HOME" &&
	expect_code 1 cuenv env --format powershell &&
	stdout_empty &&
	stderr_has "nothing selected here"
