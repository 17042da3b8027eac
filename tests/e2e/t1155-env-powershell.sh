#!/bin/sh
# cuenv env --format powershell: one `$env:NAME = '...'` line a variable,
# single-quoted with every quote character doubled (' and the typographic
# U+2018..U+201B, which PowerShell also ends a string on), no private
# state. PowerShell is not available here: the lines are checked as text,
# written by hand from about_Quoting_Rules (tests/unit/test_shell.c has
# the grammar); no real PowerShell has run them.
. "$(dirname "$0")/lib.sh"

rq=$(printf '\342\200\231') # U+2019 RIGHT SINGLE QUOTATION MARK
t=$HOME/toolkits
c=$t/"it's \$HOME \`n $rq"
q="it''s \$HOME \`n $rq$rq"
n=$t/cudnn_cuda12-archive
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cudnn "$n" 9.1.0 12 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cudnn "$n" >/dev/null &&
	mkdir proj && cd proj && printf 'cuda = 12.4\ncudnn = 9\n' >.cuenv &&
	expect_code 0 cuenv env --format powershell &&
	cp "$E2E_OUT" "$HOME/o" &&
	expect_stdout "\$env:CPATH = '$n/include:$t/$q/include'
\$env:CUDA_HOME = '$t/$q'
\$env:CUDA_PATH = '$t/$q'
\$env:CUDNN_PATH = '$n'
\$env:CUENV_ACTIVE = '12.4.1+cudnn9.1.0'
\$env:LD_LIBRARY_PATH = '$n/lib:$t/$q/lib64'
\$env:LIBRARY_PATH = '$n/lib:$t/$q/lib64'
\$env:PATH = '$t/$q/bin:$PATH'" sort "$HOME/o" &&
	cd "$HOME" &&
	expect_code 1 cuenv env --format powershell &&
	stdout_empty &&
	stderr_has "nothing selected here"
