#!/bin/sh
# gc removes only what the store's records say it made: a pool tree or a
# cache file is cuenv's when .locks/<sha256>.lock, which the install that
# fetched the archive creates first, is there. A root made over a folder
# that already had pool/<64 hex>/ or cache/<64 hex> of someone else's
# keeps them through `gc` and `gc --cache`.
. "$(dirname "$0")/lib.sh"

sha=$(printf '%064d' 42)
c=$HOME/toolkits/cuda-12.4
mkdir -p "$CUENV_ROOT/pool/$sha" "$CUENV_ROOT/cache" "$CUENV_ROOT/.locks" &&
	echo data >"$CUENV_ROOT/pool/$sha/file" &&
	echo data >"$CUENV_ROOT/cache/$sha" &&
	echo data >"$CUENV_ROOT/cache/$sha.part" &&
	touch -d '2 days ago' "$CUENV_ROOT/cache/$sha.part" &&
	make_fake_cuda "$c" 12.4.1 &&
	cuenv add cuda "$c" >/dev/null &&
	expect_stdout "removed 0 unused components (0.0 MB)
removed 0 cached archives (0.0 MB)" cuenv gc --cache &&
	file_is "$CUENV_ROOT/pool/$sha/file" data &&
	file_is "$CUENV_ROOT/cache/$sha" data &&
	file_is "$CUENV_ROOT/cache/$sha.part" data &&
	check "gc made a record" [ ! -e "$CUENV_ROOT/.locks/$sha.lock" ] &&
	# Once a record names them, they are the store's.
	: >"$CUENV_ROOT/.locks/$sha.lock" &&
	expect_stdout "removed 1 unused component (0.0 MB)
removed 1 cached archive (0.0 MB)
removed 1 partial download (0.0 MB)" cuenv gc --cache &&
	expect_stdout "" ls -A "$CUENV_ROOT/pool" &&
	expect_stdout "" ls -A "$CUENV_ROOT/cache"
