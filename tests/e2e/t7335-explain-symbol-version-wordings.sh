#!/bin/sh
# A symbol asked for at a version, in the loader's relocation wording
# ("symbol S, version V not defined in file F with link time reference",
# ColossalAI#4059, PaddleSeg#3215) and the linker's ("undefined reference
# to `S@V'", darknet#8558), reads as "undefined symbol: S, version V"
# does: one symbol-version finding of the copy of libcublasLt that lacks
# it, no library missing, nothing to install. The linker's without @V
# (a library not linked) is no finding.
. "$(dirname "$0")/lib.sh"
need python3

reloc="OSError: /e/lib/python3.7/site-packages/nvidia/cublas/lib/libcublas.so.11: symbol cublasLtHSHMatmulAlgoInit version libcublasLt.so.11 not defined in file libcublasLt.so.11 with link time reference"
ld="/usr/bin/ld: /usr/local/cuda-11.7/lib64/libcublas.so: undefined reference to \`cublasLtGetStatusString@libcublasLt.so.11'"

expect_code 0 cuenv explain "$reloc" &&
	stdout_has "undefined symbol cublasLtHSHMatmulAlgoInit, version libcublasLt.so.11, asked for by /e/lib/python3.7/site-packages/nvidia/cublas/lib/libcublas.so.11" &&
	stdout_has "no library is missing" &&
	stdout_lacks "could not load" &&
	stdout_lacks "fix: cuenv install" &&
	expect_code 0 cuenv explain --json "$ld" &&
	check "json: one symbol version, no fix" python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
f = j["findings"]
assert [(x["kind"], x["library"], x["symbol"], x["version"], x["path"])
        for x in f] == [("symbol-version", "cublasLt",
                         "cublasLtGetStatusString", "libcublasLt.so.11",
                         "/usr/local/cuda-11.7/lib64/libcublas.so")], f
assert j["fix"] == [] and j["decide"] == [], j
' "$E2E_OUT" &&
	expect_code 1 cuenv explain "/usr/bin/ld: ../lib/libGptJTritonBackend.so: undefined reference to \`cublasLtMatmulDescCreate'"
