#!/bin/sh
# cuenv update --frameworks writes no field it cannot write as one: an
# index whose torch 2.1.2 wheel is named with a tab and a newline (a
# second row, pytorch 2.99, after them) is refused (exit 3, the name shown
# escaped on one line), the table is not written, and `install --for
# torch==2.99` has no row to answer from. Old cuenv wrote the name as it
# was: the table gained the row, and install --for answered 11.2 + 8.1.1.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"
. "$e2e/lib-install.sh"

need python3
idx=$HOME/index
t=$CUENV_ROOT/manifests/compat/frameworks.tsv
torch_index "$idx" &&
	python3 - "$idx/simple/torch/index.json" <<'EOF_PY' &&
import json, sys
page = json.load(open(sys.argv[1]))
for f in page["files"]:
    if f["filename"].startswith("torch-2.1.2-"):
        f["filename"] += ("\tPyPI default wheel\npytorch\t2.99\t11.2\t8.1.1\t"
                          "injected x86_64.whl")
json.dump(page, open(sys.argv[1], "w"))
EOF_PY
	use_mirror &&
	serve_start "$idx" PYPI &&
	expect_code 3 cuenv update --frameworks --index "$PYPI_URL/simple" &&
	stderr_has "cuenv: error: " &&
	stderr_has 'manylinux1_x86_64.whl\x09PyPI default wheel\x0apytorch\x092.99' &&
	check "the error is more than one line: $(cat "$E2E_ERR")" \
		[ "$(grep -c 'cuenv: error: ' "$E2E_ERR")" = "$(wc -l <"$E2E_ERR")" ] &&
	check "a table was written: $(cat "$t" 2>/dev/null)" [ ! -e "$t" ] &&
	# offline (lib.sh's CUENV_PYPI_INDEX): only the tables answer
	expect_code 17 cuenv install --for torch==2.99 --dry-run &&
	stderr_has "cuenv: error: no torch 2.99 with CUDA in the framework table" &&
	stdout_lacks "would install"
