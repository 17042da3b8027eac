#!/bin/sh
# cuenv mirror refuses a catalogue whose component keys are not names
# ('../evil', 'a/b', a newline: they become folders and index words) or
# whose manifest's release_label is not its file name's (redistrib_12.4
# saying 12.4.1 would make 12.4 mean it): exit 3, one line naming the
# file and the value, nothing written to DIR.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
use_mirror || exit 1
cat=$HOME/cat
one_line() {
	assert_eq "$(grep -c '^cuenv: error: ' "$E2E_ERR")" 1 "error lines"
}
# The catalogue with component KEY added to 12.4.1 (cuda_cudart's entry).
with_key() {
	rm -rf "$cat" && cp -R "$FX/manifests" "$cat" &&
		python3 - "$cat/cuda/redistrib_12.4.1.json" "$1" <<'EOF_PY'
import json, sys
path, key = sys.argv[1], sys.argv[2].replace("\\n", "\n")
d = json.load(open(path))
d[key] = d["cuda_cudart"]
json.dump(d, open(path, "w"))
EOF_PY
}

CUENV_MANIFESTS=$cat
export CUENV_MANIFESTS
for key in ../evil a/b 'cuda_cudart\n' ' x'; do
	with_key "$key" &&
		expect_code 3 cuenv mirror "$m" 12.4.1 --runtime-only &&
		stderr_has "cuenv: error: bad catalogue file '$cat/cuda/redistrib_12.4.1.json': bad component name '" &&
		one_line &&
		check "a bad catalogue wrote DIR ($key)" [ ! -e "$m" ] || exit 1
done
rm -rf "$cat" && cp -R "$FX/manifests" "$cat" &&
	mv "$cat/cuda/redistrib_12.4.1.json" "$cat/cuda/redistrib_12.4.json" &&
	expect_code 3 cuenv mirror "$m" 12.4 --runtime-only &&
	stderr_has "cuenv: error: bad catalogue file '$cat/cuda/redistrib_12.4.json': release_label '12.4.1' is not 12.4, as the file name says" &&
	one_line &&
	check "a bad catalogue wrote DIR" [ ! -e "$m" ]
