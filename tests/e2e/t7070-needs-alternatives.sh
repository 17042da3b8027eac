#!/bin/sh
# A name found in a file's bytes is one it may load, never a requirement:
# onnxruntime-gpu's CUDA provider links libcudart.so.13 (DT_NEEDED) and
# its cuDNN-frontend code names libcudart.so.12, libnvrtc.so.12 and
# libnvrtc.so.13 as fallbacks it tries among others. With CUDA 13
# registered, needs is satisfied (exit 0) and says which of the names it
# may load are not there; old cuenv required them all, said "nothing
# provides everything" and exited 1. What the file does need still
# counts: with only CUDA 12 installed it is not satisfied.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

ort=$HOME/site-packages/onnxruntime/capi
need cc
mkso "$HOME/stubs/libcudart.so.13" libcudart.so.13 'int cudart13(void) { return 0; }' &&
	mkso "$ort/libonnxruntime_providers_cuda.so" libonnxruntime_providers_cuda.so '
const char *alt(int i)
{
	static const char *const names[] = { "libcudart.so.12",
		"libnvrtc.so.12", "libnvrtc.so.13", "libnvrtc.so" };
	return names[i];
}' libcudart.so.13 &&
	make_installed_cuda 12.8.1 &&
	expect_code 1 cuenv needs "$ort" &&
	stdout_has "  cuda 12.8.1: lacks libcudart.so.13" &&
	make_installed_cuda 13.0.2 &&
	expect_code 0 cuenv needs "$ort" &&
	cat "$E2E_OUT" &&
	stdout_has "libcudart.so.13        CUDA 13.x
    needed by   $ort/libonnxruntime_providers_cuda.so" &&
	stdout_has "libnvrtc.so.12         CUDA 12.x (may load: named, not linked)" &&
	stdout_has "installed: cuda 13.0.2 provides what the files need; not libcudart.so.12, libnvrtc.so.12, libnvrtc.so.13, which they may load" &&
	expect_code 0 cuenv needs --json "$ort" &&
	check "--json does not say it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is True, d
assert d["installed"]["cuda"] == "13.0.2", d
s = dict((x["soname"], x["required"]) for x in d["sonames"])
assert s == {"libcudart.so.13": True, "libcudart.so.12": False,
             "libnvrtc.so.12": False, "libnvrtc.so.13": False}, s
' "$E2E_OUT"
