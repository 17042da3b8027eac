#!/bin/sh
# cuenv needs against what is installed: a TensorFlow-like folder that
# needs libcudart.so.11.0 and libcudnn.so.8 and dlopens libcupti.so.11.2
# is not satisfied by CUDA 12.4 (which lacks all three: exit 1, each
# named), and is by a fake 11.2 with a cuDNN 8 for CUDA 11 (exit 0, the
# files found, and the `cuenv local` line that selects them; once
# selected, it says so). A CUDA 12 library that dlopens 11.2's CUPTI
# (a name in its bytes: it may load it) is satisfied by 12.4, and better
# by 12.4 plus a CUPTI-only 11.2 version.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

tf=$HOME/site-packages/tensorflow
v=$CUENV_ROOT/versions
c112=$v/cuda/11.2.2
dnn=$HOME/cudnn-8.1
fake_tensorflow "$tf" &&
	make_installed_cuda 12.4.1 &&
	expect_code 1 cuenv needs "$tf" &&
	stdout_has "installed: nothing provides everything" &&
	stdout_has "  cuda 12.4.1: lacks libcudart.so.11.0, libcupti.so.11.2 (may load), libcudnn.so.8" &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	# CUDA 11.2 as installed: cudart's soname is libcudart.so.11.0 for
	# every 11.x, CUPTI's libcupti.so.11.2.
	make_installed_cuda 11.2.2 &&
	ln -s libcudart.so.11.2.2 "$c112/lib64/libcudart.so.11.0" &&
	expect_code 1 cuenv needs "$tf" &&
	stdout_has "  cuda 12.4.1: lacks libcudart.so.11.0, libcupti.so.11.2 (may load), libcudnn.so.8" &&
	stdout_has "  cuda 11.2.2: lacks libcudnn.so.8" &&
	make_fake_cudnn "$dnn" 8.1.1 11 &&
	expect_code 0 cuenv add cudnn "$dnn" &&
	expect_code 0 cuenv needs "$tf" &&
	stdout_has "libcudart.so.11.0      CUDA 11.x" &&
	stdout_has "    found in    $c112/lib64/libcudart.so.11.0" &&
	stdout_has "    found in    $c112/lib64/libcupti.so.11.2" &&
	stdout_has "    found in    $dnn/lib/libcudnn.so.8" &&
	stdout_has "installed: cuda 11.2.2 + cudnn 8.1.1 (cuda11) provides everything" &&
	stdout_has "select it with:
  cuenv local 11.2.2 --cudnn 8.1.1" &&
	stdout_lacks "cuenv install" &&
	mkdir proj && cd proj &&
	expect_code 0 cuenv local 11.2 --cudnn 8.1 &&
	expect_code 0 cuenv needs "$tf" &&
	stdout_has "installed: cuda 11.2.2 + cudnn 8.1.1 (cuda11) provides everything (the active selection)" &&
	stdout_lacks "select it with" &&
	expect_code 0 cuenv needs --json "$tf" &&
	check "--json does not say it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is True, d
assert d["installed"] == {"cuda": "11.2.2", "cudnn": "8.1.1", "cupti": None, "active": True}, d
assert d["catalogue"] is None, d
' "$E2E_OUT" &&
	cd .. &&
	# CUDA 12 with 11.2's CUPTI beside it (cuenv install 12.4 --cupti 11.2)
	# A name in the bytes is one the file may load: 12.4 alone satisfies
	# it (exit 0) and says what it lacks; with 11.2's CUPTI installed,
	# that combination is preferred.
	mkso "$HOME/prof/libprof.so" libprof.so 'const char s[] = "libcupti.so.11.2";' libcudart.so.12 &&
	expect_code 0 cuenv needs "$HOME/prof" &&
	stdout_has "installed: cuda 12.4.1 provides what the files need; not libcupti.so.11.2, which they may load" &&
	mkdir -p "$v/cupti/11.2.2/extras/CUPTI/lib64" &&
	fake_elf libcupti.so.11.2 "$v/cupti/11.2.2/extras/CUPTI/lib64/libcupti.so.11.2" &&
	cat >"$v/cupti/11.2.2/.cuenv-receipt" <<EOF_RECEIPT &&
{
  "schema": 1,
  "kind": "cupti",
  "version": "11.2.2",
  "cuda_major": 11,
  "registered": false,
  "bin": [],
  "lib": [],
  "include": [],
  "cupti": ["extras/CUPTI/lib64"]
}
EOF_RECEIPT
	expect_code 0 cuenv needs "$HOME/prof" &&
	stdout_has "installed: cuda 12.4.1 + cupti 11.2.2 provides everything" &&
	stdout_has "  cuenv local 12.4.1 --cupti 11.2.2" &&
	stdout_has "    found in    $v/cupti/11.2.2/extras/CUPTI/lib64/libcupti.so.11.2"
