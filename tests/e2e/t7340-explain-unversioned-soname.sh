#!/bin/sh
# A library missing under a name without a version (cudf#14536's
# libcudart.so, Paddle's libcudnn.so, cuDNN 8 asking libnvrtc.so) names
# no release: explain says the CUDA cannot be known and prints the
# command that decides, as for a cuDNN soname; with the build's CUDA in
# the text, that CUDA is the one asked for.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
need python3
need cc

# a package whose module links the CUDA runtime: a framework that
# `cuenv needs --python` reads, so that command decides
site=$HOME/site
cuda_site "$site" || exit 1

# The machine's loader cache is not the test's.
CUENV_LD_SO_CACHE=$HOME/no-such-cache
export CUENV_LD_SO_CACHE

expect_code 0 env PYTHONPATH="$site" cuenv explain "OSError: libcudart.so: cannot open shared object file: No such file or directory" &&
	stdout_has "CUDA: cannot be known from this text" &&
	stdout_has "libcudart.so has no version in its name" &&
	stdout_has "decide: cuenv needs --python" &&
	stdout_lacks "fix:" &&
	stdout_lacks "nothing installed here decides" &&
	expect_code 0 env PYTHONPATH="$site" cuenv explain --json "Could not load library libcudnn_cnn_infer.so.8. Error: libnvrtc.so: cannot open shared object file: No such file or directory" &&
	check "json: the CUDA unknown, the deciding command" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert [(f["kind"], f["library"], f["soname"]) for f in j["findings"]] == \
    [("library", "nvrtc", None)], j["findings"]
assert j["cuda_known"] is False, j
assert j["decide"] == [["cuenv", "needs", "--python"]], j["decide"]
assert j["fix"] == [], j["fix"]
assert j["undecided"] is None, j
' "$E2E_OUT" &&
	# without the framework, that command would answer nothing
	expect_code 0 cuenv explain --json "OSError: libnvrtc.so: cannot open shared object file" &&
	check "json: nothing decides, what can be given" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["decide"] == [], j["decide"]
assert "links a CUDA library" in j["undecided"], j
assert "cuenv needs onnxruntime-gpu==1.18.0" in j["undecided"], j
' "$E2E_OUT" &&
	expect_code 0 cuenv explain --json "torch 2.0.1+cu118
OSError: libnvrtc.so: cannot open shared object file" &&
	check "json: the text's CUDA is known" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
assert j["cuda_known"] is True and j["decide"] == [], j
assert j["context"]["cuda"] == "11.8", j["context"]
' "$E2E_OUT"
