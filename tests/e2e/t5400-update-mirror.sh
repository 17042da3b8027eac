#!/bin/sh
# cuenv update from a mirror, on disk (file://) and over HTTP: it adds the
# manifests the catalogue lacks ("added cuda 12.4.0"), which list-remote
# and install then know; run again, it has nothing new and says so with
# exit 0 (the file:// run returned an uninitialised status before, which
# gcc -fanalyzer flagged; -O2 happened to make it 0).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures || exit 1
# A catalogue that lacks 12.4.0 and cuDNN 9.1.0
mkdir -p "$HOME/cat" &&
	cp -R "$FX/manifests/." "$HOME/cat/" &&
	rm "$HOME/cat/cuda/redistrib_12.4.0.json" \
		"$HOME/cat/cudnn/redistrib_9.1.0.json" &&
	CUENV_MANIFESTS=$HOME/cat && export CUENV_MANIFESTS &&
	expect_code 0 cuenv list-remote cuda &&
	stdout_lacks "12.4.0" &&
	expect_code 0 cuenv update --mirror "file://$FX/mirror" &&
	stdout_has "added cuda 12.4.0" &&
	stdout_has "added cudnn 9.1.0" &&
	stdout_lacks "added cuda 12.4.1" &&
	stdout_has "2 new manifests" &&
	file_is "$CUENV_ROOT/manifests/cuda/redistrib_12.4.0.json" \
		"$(cat "$FX/manifests/cuda/redistrib_12.4.0.json")" &&
	expect_code 0 cuenv list-remote cuda --all &&
	stdout_has "12.4.0" &&
	# Nothing new: exit 0, every time
	expect_code 0 cuenv update --mirror "file://$FX/mirror" &&
	expect_stdout "the catalogue is up to date" \
		cuenv update --mirror "file://$FX/mirror/" &&
	expect_code 0 cuenv update --mirror "file://$FX/mirror" &&
	# A mirror that lists nothing at all
	mkdir -p "$HOME/empty/compute/cuda/redist" \
		"$HOME/empty/compute/cudnn/redist" &&
	expect_stdout "the catalogue is up to date" \
		cuenv update --mirror "file://$HOME/empty" &&
	# The same over HTTP (a listing as NVIDIA's server writes one), into
	# a fresh root
	for k in cuda cudnn; do
		mkdir -p "$HOME/m/compute/$k/redist" &&
			cp "$FX/mirror/compute/$k/redist/"redistrib_*.json \
				"$HOME/m/compute/$k/redist/" &&
			(cd "$HOME/m/compute/$k/redist" &&
				for f in redistrib_*.json; do
					printf '<a href="%s">%s</a>\n' "$f" "$f"
				done >index.html) || break
	done &&
	serve_start "$HOME/m" &&
	CUENV_ROOT=$HOME/root2 && export CUENV_ROOT &&
	expect_code 0 cuenv update --mirror "$SERVER_URL" &&
	stdout_has "added cuda 12.4.0" &&
	stdout_has "2 new manifests" &&
	expect_stdout "the catalogue is up to date" \
		cuenv update --mirror "$SERVER_URL"
