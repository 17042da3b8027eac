#!/bin/sh
# cuenv update --mirror file://DIR where DIR holds a FIFO named like a
# manifest (redistrib_99.1.0.json): refused at once, naming its URL, and
# nothing added to the catalogue (it opened the FIFO blocking before, and
# hung until a writer came). Run under timeout, so a hang fails (124).
# A manifest redistrib_12.4.json that says release_label 12.4.99 (which
# would make `install 12.4` pick 12.4.99 with no pin): refused, naming
# the file and the label, nothing added.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need mkfifo || exit 0
fixtures || exit 1
export CUENV_MANIFESTS="$FX/manifests"
r=$HOME/m/compute/cuda/redist
mkdir -p "$r" "$HOME/m/compute/cudnn/redist" &&
	mkfifo "$r/redistrib_99.1.0.json" &&
	expect_code 4 timeout "$(load_bound 20)" cuenv update --mirror "file://$HOME/m" &&
	stderr_has "cuenv: error: cannot download 'file://$r/redistrib_99.1.0.json': not a regular file" &&
	check "a manifest was added" [ ! -e "$CUENV_ROOT/manifests/cuda/redistrib_99.1.0.json" ] &&
	rm "$r/redistrib_99.1.0.json" &&
	python3 - "$FX/manifests/cuda/redistrib_12.4.1.json" "$r/redistrib_12.4.json" <<'EOF_PY' &&
import json, sys
d = json.load(open(sys.argv[1]))
d["release_label"] = "12.4.99"
json.dump(d, open(sys.argv[2], "w"))
EOF_PY
	expect_code 3 timeout "$(load_bound 20)" cuenv update --mirror "file://$HOME/m" &&
	stderr_has "cuenv: error: bad catalogue file 'file://$r/redistrib_12.4.json': release_label '12.4.99' is not 12.4, as the file name says" &&
	check "a manifest was added" [ ! -e "$CUENV_ROOT/manifests/cuda/redistrib_12.4.json" ]
