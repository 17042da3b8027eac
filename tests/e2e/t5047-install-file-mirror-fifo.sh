#!/bin/sh
# A mirror on disk (file://, a shared file system) with a FIFO where an
# archive should be: cuenv install --mirror refuses it at once, naming its
# URL, and installs nothing (it opened the FIFO blocking before, and hung
# until a writer came). Run under timeout, so a hang fails the test (124).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

need mkfifo || exit 0
fixtures || exit 1
export CUENV_MANIFESTS="$FX/manifests"
cudart=$(comp 12.4.1 cuda_cudart path)
mkdir -p "$HOME/m" &&
	cp -R "$FX/mirror/compute" "$HOME/m/" &&
	rm "$HOME/m$cudart" &&
	mkfifo "$HOME/m$cudart" &&
	expect_code 4 timeout "$(load_bound 20)" cuenv install 12.4.1 --mirror "file://$HOME/m" &&
	stderr_has "cuenv: error: cannot download 'file://$HOME/m$cudart': not a regular file" &&
	nothing_half_made cuda 12.4.1 &&
	# A folder there is refused the same way.
	rm "$HOME/m$cudart" &&
	mkdir "$HOME/m$cudart" &&
	expect_code 4 timeout "$(load_bound 20)" cuenv install 12.4.1 --mirror "file://$HOME/m" &&
	stderr_has "cuenv: error: cannot download 'file://$HOME/m$cudart': not a regular file" &&
	nothing_half_made cuda 12.4.1
