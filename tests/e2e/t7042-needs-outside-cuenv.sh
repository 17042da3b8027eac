#!/bin/sh
# cuenv needs: a library the files link that cuenv does not install
# (torch 2.7.1 links libcufile.so.0 and libcusparseLt.so.0) is looked for
# as ld.so finds it for the file that links it: its RPATH (torch's into
# the venv's nvidia/cufile/lib), LD_LIBRARY_PATH, the ld.so cache. Not
# found, the answer is not satisfied, whatever cuenv installed, and the
# wheel that has it is named for the CUDA major in use (issue 32 item 4).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

stubs || exit 1
export CUENV_LD_SO_CACHE="$HOME/no-ld.so.cache"
mkso "$HOME/stubs/libcufile.so.0" libcufile.so.0 'int cufile(void) { return 0; }' &&
	mkso "$HOME/fw/lib/libfw_cuda.so" libfw_cuda.so 'int fw(void) { return 0; }' \
		libcudart.so.12 libcufile.so.0 &&
	expect_code 1 cuenv needs "$HOME/fw" &&
	cat "$E2E_OUT" &&
	stdout_has "libcufile.so.0" &&
	stdout_has "    ld.so       not found here" &&
	stdout_has "the files also link libcufile.so.0, which cuenv does not install and ld.so does not find here" &&
	stdout_has "  pip install nvidia-cufile-cu12" &&
	# installed, the CUDA 12 runtime is given; cuFile still is not
	make_installed_cuda 12.4.1 &&
	expect_code 1 cuenv needs "$HOME/fw" &&
	stdout_has "installed: cuda 12.4.1 provides what cuenv installs" &&
	stdout_lacks "provides everything" &&
	stdout_has "  pip install nvidia-cufile-cu12" &&
	expect_code 1 cuenv needs --json "$HOME/fw" &&
	check "--json: not satisfied, cuFile named" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is False, d["satisfied"]
assert d["not_found_outside_cuenv"] == ["libcufile.so.0"], d
' "$E2E_OUT" &&
	# where ld.so finds it: LD_LIBRARY_PATH
	expect_code 0 env LD_LIBRARY_PATH="$HOME/stubs" cuenv needs "$HOME/fw" &&
	stdout_has "    found at    $HOME/stubs/libcufile.so.0 (LD_LIBRARY_PATH)" &&
	stdout_has "installed: cuda 12.4.1 provides everything" &&
	# and the file's own RPATH, as pip's torch finds the venv's wheels
	mkdir -p "$HOME/fw2/lib" "$HOME/fw2/dep" &&
	cp "$HOME/stubs/libcufile.so.0" "$HOME/fw2/dep/" &&
	printf 'int fw2(void) { return 0; }\n' >"$E2E_SANDBOX/tmp/fw2.c" &&
	cc -shared -fPIC -o "$HOME/fw2/lib/libfw2.so" "$E2E_SANDBOX/tmp/fw2.c" \
		-Wl,-soname,libfw2.so -Wl,--no-as-needed -Wl,--disable-new-dtags \
		-Wl,-rpath,'$ORIGIN/../dep' -L"$HOME/stubs" -l:libcudart.so.12 \
		-l:libcufile.so.0 &&
	rm "$HOME/fw2/dep/libcufile.so.0" &&
	mkdir -p "$HOME/site/dep" && cp -R "$HOME/fw2/lib" "$HOME/site/" &&
	cp "$HOME/stubs/libcufile.so.0" "$HOME/site/dep/" &&
	expect_code 0 cuenv needs "$HOME/site/lib" &&
	stdout_has "    found at    $HOME/site/lib/../dep/libcufile.so.0 (RPATH)" &&
	# a copy whose RPATH leads nowhere: not found
	expect_code 1 cuenv needs "$HOME/fw2/lib" &&
	stdout_has "    ld.so       not found here"
