#!/bin/sh
# make dist and install.sh: the release archive built from this build is
# served in GitHub's layout by the tests' server; install.sh (no version
# given: it reads latest/download/LATEST) installs it under ~/.local with
# the same files as make install, and prints the PATH line. The archive
# served corrupted (its .sha256 then wrong for it) is refused and nothing is
# installed; on an architecture with no release (uname -m says riscv64) it
# says so before it downloads anything.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
CUENV_FIXTURES=$(cd "$e2e/../fixtures" && pwd) || exit 1
. "$CUENV_FIXTURES/serve.sh"

need make
need curl
need python3
src=$(cd "$e2e/../.." && pwd) || exit 1
bin=$(dirname "$CUENV_BIN")
v=$(cat "$src/VERSION") || exit 1
case $(uname -m) in
x86_64) arch=x86_64 ;;
aarch64) arch=aarch64 ;;
*) skip "no release archive for $(uname -m)" ;;
esac
name=cuenv-$v-linux-$arch

# A copy of the tree that make needs, with this build's binaries.
c=$HOME/clone
mkdir -p "$c/build/std" &&
	cp -p "$src/Makefile" "$src/VERSION" "$c/" &&
	cp -pR "$src/manifests" "$src/shells" "$src/tools" "$c/" &&
	for b in cuenv cuenv-net cuenv-probe cuenv.1; do
		cp -p "$bin/$b" "$c/build/std/$b" || exit 1
	done || exit 1
mk() {
	make -s -C "$c" -o build/std/cuenv -o build/std/cuenv-net \
		-o build/std/cuenv-probe -o build/std/cuenv.1 "$@"
}

rel=$HOME/releases
expect_code 0 mk dist DISTDIR="$rel/download/v$v" &&
	stdout_has "DIST    $rel/download/v$v/$name.tar.gz" &&
	check "no $name.tar.gz.sha256" \
		[ -s "$rel/download/v$v/$name.tar.gz.sha256" ] &&
	check "the .sha256 is not sha256sum's line for the archive" \
		sh -c 'cd "$1" && sha256sum -c --quiet "$2.tar.gz.sha256"' sh \
		"$rel/download/v$v" "$name" &&
	check "the staging folder was left" [ ! -e "$rel/download/v$v/$name" ] &&
	mkdir -p "$rel/latest/download" &&
	mv "$rel/download/v$v/LATEST" "$rel/latest/download/LATEST" &&
	assert_eq "$(cat "$rel/latest/download/LATEST")" "$v" "LATEST" &&
	serve_start "$rel" || exit 1

# An architecture with no release: a clear error, no request, nothing made.
mkdir -p "$HOME/riscv" &&
	printf '#!/bin/sh\n[ "$1" = -m ] && echo riscv64 || echo Linux\n' \
		>"$HOME/riscv/uname" && chmod +x "$HOME/riscv/uname" || exit 1
expect_code 1 env PATH="$HOME/riscv:$PATH" sh "$src/install.sh" \
	--base-url "$SERVER_URL" &&
	stderr_has "cuenv-install: error: no release for architecture 'riscv64' (there are x86_64 and aarch64 archives)" &&
	check "install.sh asked the server: $(cat "$SERVER_LOG")" \
		[ ! -s "$SERVER_LOG" ] &&
	check "install.sh made ~/.local" [ ! -e "$HOME/.local" ] || exit 1

# The archive corrupted on the way: its SHA-256 is not the .sha256's.
serve_faults "{\"/download/v$v/$name.tar.gz\": {\"corrupt\": true}}" &&
	expect_code 1 sh "$src/install.sh" --base-url "$SERVER_URL" &&
	stderr_has "cuenv-install: error: '$name.tar.gz' has SHA-256 " &&
	stderr_has "as its .sha256 says: nothing installed" &&
	check "install.sh made ~/.local" [ ! -e "$HOME/.local" ] &&
	serve_faults '{}' || exit 1

# The release as served: installed, the same files as make install's.
expect_code 0 sh "$src/install.sh" --base-url "$SERVER_URL" &&
	stdout_has "cuenv $v installed in $HOME/.local" &&
	stdout_has "  export PATH=\"$HOME/.local/bin:\$PATH\"" &&
	check "LATEST was not asked for" \
		grep -q '^GET /latest/download/LATEST ' "$SERVER_LOG" &&
	expect_code 0 "$HOME/.local/bin/cuenv" --version &&
	stdout_has "cuenv $v" &&
	expect_code 0 mk install PREFIX="$HOME/mi" &&
	rm "$HOME/mi/share/cuenv/installed" &&
	assert_eq "$(cd "$HOME/.local" && find . | sort)" \
		"$(cd "$HOME/mi" && find . | sort)" "installed files" || exit 1

# The catalogue is found beside the installed binary.
expect_code 0 env PATH="$HOME/.local/bin:/usr/bin:/bin" cuenv latest --known 12.4 &&
	stdout_has "12.4.1" || exit 1
