#!/bin/sh
# cuenv explain on real messages users pasted in public issue threads
# (tests/explain-corpus: one file a message, its source in sources.tsv,
# its reading written by hand in expected.tsv): each is read as that
# reading says (the library, the CUDA or "cannot be known", the class,
# the commands), --json prints one object on every exit, and every
# command printed is run as printed in a scratch root of its own against
# the test mirror (tests/explain-corpus/check.py). python3's sys.path
# holds a package that links CUDA, so `cuenv needs --python` decides
# (t7340: without one, it is not offered).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-needs.sh"
need python3

PYTHONPATH=$HOME/site
export PYTHONPATH
cuda_site "$PYTHONPATH" || exit 1

# The machine's loader cache is not the test's.
CUENV_LD_SO_CACHE=$HOME/no-such-cache
export CUENV_LD_SO_CACHE
use_mirror &&
	check "every message read as written by hand, every command run" \
		python3 "$e2e/../explain-corpus/check.py" \
		"$e2e/../explain-corpus" "$HOME/corpus"
