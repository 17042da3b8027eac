#!/bin/sh
# cuenv mirror never writes through a link below DIR: a link at compute,
# compute/cuda, compute/cuda/redist, a component's folder, .cuenv-mirror
# or cuenv-catalogue (to a folder outside, holding what the mirror would
# have there) is refused with exit 7, naming it, with and without
# --verify, and nothing outside DIR is created or changed. In an
# archive's place, a folder is refused and never counted "already there"
# (verified() returned an error code that read as "verified"), and a link
# to a 9-byte file is replaced by the archive, the file left as it was.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"
. "$e2e/lib-mirror.sh"

m=$HOME/m
out=$HOME/outside
use_mirror || exit 1
cudart=$(comp 12.4.1 cuda_cudart path)
sha=$(comp 12.4.1 cuda_cudart sha256)
# What is outside DIR: every name, and every file's bytes.
outside() {
	(cd "$out" && find . | LC_ALL=C sort &&
		find . -type f -exec sha256sum {} + | LC_ALL=C sort)
}
fresh() {
	rm -rf "$m" "$out" && cp -R "$HOME/good" "$m" && mkdir "$out" &&
		echo sentinel >"$out/sentinel"
}

expect_code 0 cuenv mirror "$HOME/good" 12.4.1 --runtime-only || exit 1
for at in compute compute/cuda compute/cuda/redist \
	"$(dirname "${cudart#/}")" "$(dirname "$(dirname "${cudart#/}")")" \
	.cuenv-mirror cuenv-catalogue; do
	for verify in "" --verify; do
		fresh &&
			mv "$m/$at" "$out/moved" &&
			ln -s "$out/moved" "$m/$at" &&
			before=$(outside) &&
			expect_code 7 cuenv mirror "$m" 12.4.1 --runtime-only $verify &&
			stderr_has "cuenv: error: '$m/" &&
			stderr_has "' is a symbolic link, not a folder: cuenv does not write through it" &&
			assert_eq "$(grep -c '^cuenv: error: ' "$E2E_ERR")" 1 "error lines" &&
			assert_eq "$(outside)" "$before" "what is outside DIR ($at $verify)" &&
			check "the link at $at was replaced" [ -L "$m/$at" ] || exit 1
	done
done

# A folder where the archive should be: refused, never "already there".
for verify in "" --verify; do
	fresh &&
		rm "$m$cudart" &&
		mkdir "$m$cudart" &&
		expect_code 7 cuenv mirror "$m" 12.4.1 --runtime-only $verify &&
		stderr_has "cuenv: error: '$m$cudart' is a folder where the mirror keeps a file: cuenv does not replace it" &&
		stdout_lacks "already there" &&
		check "the folder went" [ -d "$m$cudart" ] || exit 1
done

# A link to a 9-byte file where the archive should be: replaced (the link
# itself), the file it pointed to untouched.
for verify in "" --verify; do
	fresh &&
		printf 'not this\n' >"$out/nine" &&
		rm "$m$cudart" &&
		ln -s "$out/nine" "$m$cudart" &&
		before=$(outside) &&
		expect_code 0 cuenv mirror "$m" 12.4.1 --runtime-only $verify &&
		stdout_has "replaced 1 damaged file" &&
		check "the archive is still a link" [ ! -L "$m$cudart" ] &&
		assert_eq "$(sha256sum "$m$cudart" | cut -d' ' -f1)" "$sha" "cuda_cudart's sha256" &&
		assert_eq "$(outside)" "$before" "what is outside DIR (link $verify)" || exit 1
done
