#!/bin/sh
# cuenv add cuda: detection from version.json, headers and library names;
# CUPTI; re-adding; --as; the store it leaves.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	expect_stdout "registered cuda 12.4.1 from $t/cuda-12.4 (CUPTI 12.4.1)" \
		cuenv add cuda "$t/cuda-12.4" &&
	expect_stdout "  cuda   12.4.1                $t/cuda-12.4  (registered)" \
		cuenv versions &&
	# The files stay where they are; the store holds a receipt only.
	check "nvcc is gone from the toolkit" [ -x "$t/cuda-12.4/bin/nvcc" ] &&
	check "no receipt in the store" [ -f "$CUENV_ROOT/versions/cuda/12.4.1/.cuenv-receipt" ] &&
	check "files were copied into the store" [ ! -e "$CUENV_ROOT/versions/cuda/12.4.1/bin" ] &&
	# Adding the same toolkit again is fine and changes nothing.
	expect_stdout "cuda 12.4.1 is already registered from $t/cuda-12.4" \
		cuenv add cuda "$t/cuda-12.4" &&
	# A relative path and a symlink name the same real prefix.
	ln -s cuda-12.4 "$t/cuda" &&
	(cd "$t" && expect_stdout "cuda 12.4.1 is already registered from $t/cuda-12.4" \
		cuenv add cuda ./cuda) &&
	# No version.json: the header says 11.8; CUDA 11's CUPTI soname.
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	rm "$t/cuda-11.8/version.json" &&
	expect_stdout "registered cuda 11.8 from $t/cuda-11.8 (CUPTI 11.8)" \
		cuenv add cuda "$t/cuda-11.8" &&
	# Neither version.json nor headers: the runtime's file name.
	make_fake_cuda "$t/bare" 12.2.140 &&
	rm "$t/bare/version.json" "$t/bare/include/cuda_runtime_api.h" &&
	expect_stdout "registered cuda 12.2 from $t/bare (CUPTI 12.2.140)" \
		cuenv add cuda "$t/bare" &&
	# --as wins over detection; no CUPTI is reported as such.
	make_fake_cuda "$t/nocupti" 12.6.0 &&
	rm "$t/nocupti"/lib64/libcupti* &&
	expect_stdout "registered cuda 12.6.77 from $t/nocupti (no CUPTI)" \
		cuenv add cuda "$t/nocupti" --as 12.6.77 &&
	expect_stdout "  cuda   11.8                  $t/cuda-11.8  (registered)
  cuda   12.2                  $t/bare  (registered)
  cuda   12.4.1                $t/cuda-12.4  (registered)
  cuda   12.6.77               $t/nocupti  (registered)" cuenv versions
