#!/bin/sh
# cuenv install --dry-run says which releases it would install and stops:
# with --for, from the framework's wheel on a local index (torch 2.1.2
# whose version.py says CUDA 11.2 and whose METADATA pins
# nvidia-cudnn-cu11==8.1.1.33: the fixture catalogue's 11.2.2 and
# 8.1.1.33), and for a plain SPEC. Nothing is installed or written under
# CUENV_ROOT. Old cuenv
# had no --dry-run (exit 2).
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
torch_index "$idx" ' ; platform_system == "Linux"' &&
	use_mirror &&
	serve_start "$idx" PYPI &&
	CUENV_PYPI_INDEX=$PYPI_URL/simple &&
	export CUENV_PYPI_INDEX &&
	mkdir -p "$CUENV_ROOT" &&
	before=$(find "$CUENV_ROOT" | wc -l) &&
	expect_code 0 cuenv install --for torch==2.1 --dry-run &&
	check "not the one line: $(cat "$E2E_OUT")" [ "$(cat "$E2E_OUT")" = "would install cuda 11.2.2 + cudnn 8.1.1.33 (runfile)" ] &&
	stderr_has "cuenv: torch 2.1.2 was built with CUDA 11.2 and cuDNN 8.1.1 or later" &&
	expect_code 0 cuenv install 12.4 --cudnn 9 --dry-run &&
	check "not the one line: $(cat "$E2E_OUT")" [ "$(cat "$E2E_OUT")" = "would install cuda 12.4.1 + cudnn 9.1.0.70 (redist)" ] &&
	check "files were written: $(find "$CUENV_ROOT")" \
		[ "$(find "$CUENV_ROOT" | wc -l)" = "$before" ] &&
	stderr_lacks "installing"
