#!/bin/sh
# cuenv add: what it refuses, with which status and message.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
make_fake_cuda "$t/a" 12.4.1 &&
	make_fake_cuda "$t/b" 12.4.1 &&
	mkdir -p "$t/empty" &&
	expect_code 7 cuenv add cuda "$t/missing" &&
	stderr_has "cannot read '$t/missing'" &&
	expect_code 3 cuenv add cuda "$t/empty" &&
	stderr_has "no CUDA runtime (libcudart.so) under '$t/empty'" &&
	stderr_has "hint: " &&
	expect_code 7 cuenv add cuda "$t/a/version.json" &&
	stderr_has "is not a folder" &&
	expect_code 2 cuenv add cuda &&
	expect_code 2 cuenv add cuda "$t/a" extra &&
	expect_code 2 cuenv add toolkit "$t/a" &&
	stderr_has "'toolkit' is not cuda or cudnn" &&
	expect_code 2 cuenv add cuda "$t/a" --cuda 12 &&
	stderr_has "--cuda is for cudnn only" &&
	expect_code 2 cuenv add cudnn "$t/a" --cuda twelve &&
	stderr_has "add: --cuda must be a whole number from 1 to 99, not 'twelve'" &&
	expect_code 2 cuenv add cuda "$t/a" --as ../../x &&
	stderr_has "invalid cuda version '../../x'" &&
	expect_code 3 cuenv add cudnn "$t/a" &&
	stderr_has "no cuDNN (libcudnn.so) under '$t/a'" &&
	expect_code 0 cuenv versions &&
	stdout_empty &&
	# Same version from another folder: refused, with the way out.
	expect_code 0 cuenv add cuda "$t/a" &&
	expect_code 16 cuenv add cuda "$t/b" &&
	stderr_has "cuda 12.4.1 is already in the store ($t/a)" &&
	stderr_has "--as" &&
	expect_code 0 cuenv add cuda "$t/b" --as 12.4.2 &&
	expect_stdout "  cuda   12.4.1                $t/a  (registered)
  cuda   12.4.2                $t/b  (registered)" cuenv versions
