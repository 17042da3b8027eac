#!/bin/sh
# Requirements carry minimums, not only majors: a torch build whose
# METADATA pins nvidia-cudnn-cu13==9.26.0.51 needs cuDNN 9.26.0 or later,
# so CUDA 13 with cuDNN 9.19 does not satisfy it (torch then refuses to
# start), and the install line asks for a newer cuDNN. With --import, the
# error torch raises ("compiled against (9, 26, 0) but found runtime
# version (9, 19, 0)", copied from torch/backends/cudnn/__init__.py) is
# reported, never swallowed, and the install line has --cudnn. Old cuenv
# called the soname match "provides everything".
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

sp=$HOME/venv/lib/python3.12/site-packages
mkdir -p "$sp/torch-2.15.0.dist-info" "$HOME/py/torch" &&
	cat >"$sp/torch-2.15.0.dist-info/METADATA" <<'EOF_META' &&
Metadata-Version: 2.4
Name: torch
Version: 2.15.0
Requires-Dist: nvidia-cuda-runtime==13.0.96; platform_system == "Linux"
Requires-Dist: nvidia-cudnn-cu13==9.26.0.51; platform_system == "Linux"
Requires-Dist: nvidia-nccl-cu13==2.28.9; platform_system == "Linux"
EOF_META
	cat >"$HOME/py/torch/__init__.py" <<'EOF_PY' &&
__version__ = "2.15.0+cu130"
class version:
    cuda = "13.0"
class backends:
    class cudnn:
        @staticmethod
        def version():
            raise RuntimeError(
                "cuDNN version incompatibility: PyTorch was compiled  against "
                "(9, 26, 0) but found runtime version (9, 19, 0). PyTorch "
                "already comes bundled with cuDNN. One option to resolving "
                "this error is to ensure PyTorch can find the bundled cuDNN.")
EOF_PY
	make_installed_cuda 13.0.2 &&
	make_fake_cudnn "$HOME/cudnn-9.19" 9.19.0 13 &&
	expect_code 0 cuenv add cudnn "$HOME/cudnn-9.19" &&
	expect_code 1 cuenv needs "$HOME/venv" &&
	cat "$E2E_OUT" &&
	stdout_has "torch 2.15.0 built for CUDA 13.0+, cuDNN 9.26.0+" &&
	stdout_has "installed: nothing provides everything" &&
	stdout_has "  cuda 13.0.2 + cudnn 9.19.0 (cuda13): lacks cuDNN 9.26.0+ (torch)" &&
	check "no install line for cuDNN 9.26 or later: $(cat "$E2E_OUT")" \
		grep -q '^  cuenv install 13[0-9.]* --cudnn 9\.2[6-9]' "$E2E_OUT" &&
	# the interpreter's own word: torch's error, reported
	expect_code 1 env PYTHONPATH="$HOME/py" cuenv needs --import --python python3 &&
	cat "$E2E_OUT" &&
	stdout_has "  torch       2.15.0+cu130, built with CUDA 13.0, cuDNN 9.26.0" &&
	stdout_has "              problem: RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 26, 0) but found runtime version (9, 19, 0)." &&
	stdout_has "  cuda 13.0.2 + cudnn 9.19.0 (cuda13): lacks cuDNN 9.26.0+ (torch)" &&
	check "no install line with --cudnn: $(cat "$E2E_OUT")" \
		grep -q '^  cuenv install 13[0-9.]* --cudnn 9\.2[6-9]' "$E2E_OUT" &&
	expect_code 1 env PYTHONPATH="$HOME/py" cuenv needs --json --import --python python3 &&
	check "--json lacks the problem" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
t = d["frameworks"]["torch"]
assert t["cudnn"] == "9.26.0", t
assert "found runtime version (9, 19, 0)" in t["problem"], t
assert d["satisfied"] is False, d
' "$E2E_OUT"
