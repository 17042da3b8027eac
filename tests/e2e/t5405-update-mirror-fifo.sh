#!/bin/sh
# cuenv update --mirror file://DIR where DIR holds a FIFO named like a
# manifest (redistrib_99.1.0.json): refused at once, naming its URL, and
# nothing added to the catalogue (it opened the FIFO blocking before, and
# hung until a writer came). Run under timeout, so a hang fails (124).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need mkfifo || exit 0
fixtures || exit 1
export CUENV_MANIFESTS="$FX/manifests"
r=$HOME/m/compute/cuda/redist
mkdir -p "$r" "$HOME/m/compute/cudnn/redist" &&
	mkfifo "$r/redistrib_99.1.0.json" &&
	expect_code 4 timeout 20 cuenv update --mirror "file://$HOME/m" &&
	stderr_has "cuenv: error: cannot download 'file://$r/redistrib_99.1.0.json': not a regular file" &&
	check "a manifest was added" [ ! -e "$CUENV_ROOT/manifests/cuda/redistrib_99.1.0.json" ]
