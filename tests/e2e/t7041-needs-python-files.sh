#!/bin/sh
# cuenv needs --python: the frameworks in the interpreter's sys.path are
# found by their files, as doctor finds them, and read as PATHs are;
# nothing is imported (issue 32 item 7). Here, on PYTHONPATH: a
# TensorFlow (by its framework library), a package whose module links
# cuDNN 8 (found by its ELF files alone), one whose module links only a
# library auditwheel moved into PKG.libs (which links the CUDA 12
# runtime), with its dist-info pinning cuDNN 9.1; a folder with none
# of these is "no framework": nothing asked (exit 0), never satisfied.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

need python3
site=$HOME/site
empty=$HOME/empty
mkdir -p "$site" "$empty/plain" &&
	echo 'x = 1' >"$empty/plain/__init__.py" &&
	fake_tensorflow "$site/tensorflow" &&
	# an import would leave a mark; none may be left
	echo "open('$HOME/imported', 'w').write('tf')" >>"$site/tensorflow/__init__.py" &&
	mkdir -p "$site/onnxish" &&
	echo "open('$HOME/imported', 'w').write('onnxish')" >"$site/onnxish/__init__.py" &&
	mkso "$site/onnxish/capi/_provider.so" _provider.so \
		'int provider(void) { return 0; }' libcudnn.so.8 &&
	mkso "$site/wheeled.libs/libwheeled-0a1b2c3d.so.1" libwheeled-0a1b2c3d.so.1 \
		'int core(void) { return 0; }' libcudart.so.12 &&
	cp "$site/wheeled.libs/libwheeled-0a1b2c3d.so.1" "$HOME/stubs/" &&
	mkdir -p "$site/wheeled" && : >"$site/wheeled/__init__.py" &&
	mkso "$site/wheeled/_ext.so" _ext.so 'int ext(void) { return 0; }' \
		libwheeled-0a1b2c3d.so.1 &&
	mkdir -p "$site/wheeled-1.0.dist-info" &&
	printf 'wheeled/__init__.py,,\nwheeled/_ext.so,,\n' \
		>"$site/wheeled-1.0.dist-info/RECORD" &&
	printf 'Metadata-Version: 2.1\nName: wheeled\nVersion: 1.0\nRequires-Dist: nvidia-cudnn-cu12==9.1.0.70\n' \
		>"$site/wheeled-1.0.dist-info/METADATA" &&
	expect_code 1 env PYTHONPATH="$site" cuenv needs --python &&
	cat "$E2E_OUT" &&
	stdout_has "frameworks in the sys.path of " &&
	stdout_has "  tensorflow   $site/tensorflow" &&
	stdout_has "  onnxish      $site/onnxish" &&
	stdout_has "  wheeled      $site/wheeled" &&
	stdout_has "               $site/wheeled.libs" &&
	stdout_has "               $site/wheeled-1.0.dist-info/METADATA" &&
	stdout_has "libcudart.so.11.0" &&
	stdout_has "libcudart.so.12" &&
	stdout_has "libcudnn.so.8" &&
	stdout_has "wheeled 1.0 built for cuDNN 9.1.0+" &&
	check "no framework was imported" test ! -e "$HOME/imported" &&
	# TensorFlow's CUDA 11 and the wheel's CUDA 12 cannot be one release
	stdout_has "no CUDA release in the catalogue gives all of them" &&
	expect_code 1 env PYTHONPATH="$site" cuenv needs --python python3 --json &&
	check "--json names the interpreter, its sys.path and the frameworks" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["python"]
assert p["interpreter"].endswith("python3"), p
assert sys.argv[2] in p["sites"], p
names = [f["name"] for f in p["found"]]
assert names == ["tensorflow", "onnxish", "wheeled"], names
assert d["satisfied"] is False, d["satisfied"]
' "$E2E_OUT" "$site" &&
	# one framework alone: what it needs is installable
	rm -rf "$site/tensorflow" "$site/wheeled" "$site/wheeled.libs" \
		"$site/wheeled-1.0.dist-info" &&
	expect_code 1 env PYTHONPATH="$site" cuenv needs --python &&
	stdout_has "  onnxish      $site/onnxish" &&
	stdout_has "  cuenv install " &&
	# nothing with CUDA libraries: no answer, and said so
	expect_code 0 env PYTHONPATH="$empty" cuenv needs --python &&
	stdout_has "no framework in the sys.path of " &&
	stdout_has "name the build that failed instead" &&
	stdout_lacks "satisfied" &&
	stdout_lacks "nothing here is asked" &&
	expect_code 0 env PYTHONPATH="$empty" cuenv needs --python --json &&
	check "no framework is not satisfied" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is False and d["python"]["found"] == [], d
' "$E2E_OUT" &&
	# an interpreter that is not there, or a folder
	expect_code 2 cuenv needs --python=/nonexistent/python3 &&
	stderr_has "cuenv: error: cannot run '/nonexistent/python3': No such file or directory" &&
	# one that does not say its sys.path: warned, no framework
	expect_code 0 cuenv needs --python=/bin/false &&
	stderr_has "cuenv: warning: /bin/false did not say its sys.path" &&
	stdout_has "no framework in the sys.path of /bin/false"
