#!/bin/sh
# cuenv needs on ELF files built here the way frameworks ask for CUDA: a
# folder like site-packages/tensorflow whose libraries need
# libcudart.so.11.0 and libcudnn.so.8 (DT_NEEDED) and dlopen
# libcupti.so.11.2 (a string: the profiler, "may load", preferred, never
# required) and libcudnn.so.8 (a string with no other cuDNN beside it:
# loaded, required, issue 22).
# With nothing installed it says which file
# asks for which, which releases give each, and prints the real
# catalogue's install line (exit 1); --json says the same. Links out of
# the folder are not followed, non-ELF files are skipped quietly and a
# corrupt one with a warning, and then no answer is given (exit 7).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

tf=$HOME/site-packages/tensorflow
fw=$tf/libtensorflow_framework.so.2
py=$tf/python/_pywrap_tensorflow_internal.so
fake_tensorflow "$tf" &&
	# outside the folder, reached only through a link: never read
	mkso "$HOME/outside/libevil.so" libevil.so 'const char s[] = "libcudnn.so.7";' &&
	ln -s "$HOME/outside/libevil.so" "$tf/python/evil.so" &&
	ln -s "$HOME/outside" "$tf/outside" &&
	expect_code 1 cuenv needs "$tf" &&
	cat "$E2E_OUT" &&
	expect_output 1 "libcudart.so.11.0      CUDA 11.x
    needed by   $fw
libcupti.so.11.2       CUDA 11.2 (may load: named, not linked)
    named by    $fw
libcudnn.so.8          cuDNN 8.x
    needed by   $py
    loaded by   $fw

installed: nothing provides everything
  nothing is installed
$(sed -n 's/^catalogue: /catalogue: /p' "$E2E_OUT")
install them with:
  cuenv install 11.2 --cudnn 8" cuenv needs "$tf" &&
	stdout_has "catalogue: cuda 11.2.2 (runfile) + cudnn 8." &&
	stdout_lacks "libcudnn.so.7" &&
	stderr_empty &&
	# The same from the files named one by one.
	expect_code 1 cuenv needs "$fw" "$py" &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	stderr_empty &&
	# For scripts.
	expect_code 1 cuenv needs --json "$tf" &&
	check "--json does not say it" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is False, d
assert d["installed"] is None, d
assert d["catalogue"]["install"] == "cuenv install 11.2 --cudnn 8", d
assert d["catalogue"]["cuda"] == "11.2.2", d
assert d["files_read"] == 2, d
s = dict((x["soname"], x) for x in d["sonames"])
assert sorted(s) == ["libcudart.so.11.0", "libcudnn.so.8", "libcupti.so.11.2"], s
assert s["libcupti.so.11.2"]["named_by"] == [sys.argv[2]], s
assert s["libcudart.so.11.0"]["needed_by"] == [sys.argv[2]], s
assert s["libcudart.so.11.0"]["releases"] == "CUDA 11.x", s
assert s["libcupti.so.11.2"]["releases"] == "CUDA 11.2", s
assert s["libcupti.so.11.2"]["required"] is False, s
assert s["libcudart.so.11.0"]["required"] is True, s
' "$E2E_OUT" "$fw" &&
	# a broken copy: skipped with a warning, and the answer is not given
	head -c 200 "$fw" >"$tf/python/broken.so" &&
	expect_code 7 cuenv needs "$tf" &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	stderr_has "cuenv: warning: skipped: corrupt ELF file '$tf/python/broken.so'" &&
	stderr_has "cuenv: error: could not read '$tf/python/broken.so': the answer leaves it out" &&
	rm "$tf/python/broken.so" &&
	# A library of CUDA 12 that dlopens 11.2's CUPTI: CUPTI from another
	# release, as `cuenv install --cupti` adds it.
	mkso "$HOME/prof/libprof.so" libprof.so 'const char s[] = "libcupti.so.11.2";' libcudart.so.12 &&
	expect_code 1 cuenv needs "$HOME/prof" &&
	stdout_has "libcudart.so.12        CUDA 12.x" &&
	stdout_has "+ CUPTI of cuda 11.2.2" &&
	check "no install line with --cupti 11.2: $(cat "$E2E_OUT")" \
		grep -q '^  cuenv install 12[0-9.]* --cupti 11\.2$' "$E2E_OUT"
