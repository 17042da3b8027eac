#!/bin/sh
# cuenv needs reads what real frameworks carry: TensorFlow names no CUDA
# soname in its ELF files (its loader builds the names at run time), but
# every wheel ships tensorflow/python/platform/build_info.py. The files
# here are copied byte for byte in form from real wheels (TF 2.6.5 Linux,
# TF 2.10.1 win_amd64, torch 2.1.2's version.py and METADATA, cupy-cuda12x
# METADATA) and give, per the publishers' tables: TF 2.6.5 CUDA 11.2 and
# cuDNN 8; TF 2.10.1 on Windows cudnn64_8.dll and the CUDA 11 runtime
# (CUDA 11.2, cuDNN 8): its build_info.py says cudart64_112.dll, which no
# release ships, so NVIDIA's name cudart64_110.dll wins and the
# contradiction is said (issue 22); torch 2.1.2 CUDA 12.1 and cuDNN 8.9.2.26; cupy-cuda12x
# any CUDA 12. Old cuenv said "no CUDA library is named by these files"
# and exited 0.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

tf=$HOME/tf265/tensorflow
win=$HOME/tf2101win/tensorflow
sp=$HOME/venv/lib/python3.11/site-packages
mkdir -p "$tf/python/platform" "$win/python/platform" "$sp/torch" \
	"$sp/torch-2.1.2.dist-info" "$sp/cupy_cuda12x-13.3.0.dist-info" &&
	cat >"$tf/python/platform/build_info.py" <<'EOF_PY' &&
# Copyright 2020 The TensorFlow Authors. All Rights Reserved.
"""Auto-generated module providing information about the build."""
from __future__ import absolute_import
from __future__ import division
from __future__ import print_function

import collections

build_info = collections.OrderedDict([('cpu_compiler', '/dt7/usr/bin/gcc'), ('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), ('cuda_version', '11.2'), ('cudnn_version', '8'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', True)])
EOF_PY
	cat >"$win/python/platform/build_info.py" <<'EOF_PY' &&
"""Auto-generated module providing information about the build."""
import collections

build_info = collections.OrderedDict([('cpu_compiler', 'C:/Program Files (x86)/Microsoft Visual Studio/2019/Community/VC/Tools/MSVC/14.29.30133/bin/HostX64/x64/cl.exe'), ('cuda_compute_capabilities', ['sm_35', 'sm_50', 'sm_60', 'sm_70', 'sm_75', 'compute_80']), ('cuda_version', '64_112'), ('cudart_dll_name', 'cudart64_112.dll'), ('cudnn_dll_name', 'cudnn64_8.dll'), ('cudnn_version', '64_8'), ('is_cuda_build', True), ('is_rocm_build', False), ('is_tensorrt_build', False), ('msvcp_dll_names', 'msvcp140.dll,msvcp140_1.dll'), ('nvcuda_dll_name', 'nvcuda.dll')])
EOF_PY
	cat >"$sp/torch/version.py" <<'EOF_PY' &&
from typing import Optional

__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip']
__version__ = '2.1.2+cu121'
debug = False
cuda: Optional[str] = '12.1'
git_version = 'a8e7c98cb95ff97bb30a728c6b2a1ce6bff946eb'
hip: Optional[str] = None
EOF_PY
	cat >"$sp/torch-2.1.2.dist-info/METADATA" <<'EOF_META' &&
Metadata-Version: 2.1
Name: torch
Version: 2.1.2
Summary: Tensors and Dynamic neural networks in Python with strong GPU acceleration
Requires-Python: >=3.8.0
Requires-Dist: filelock
Requires-Dist: nvidia-cuda-nvrtc-cu12 (==12.1.105) ; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: nvidia-cuda-runtime-cu12 (==12.1.105) ; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: nvidia-cuda-cupti-cu12 (==12.1.105) ; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: nvidia-cublas-cu12 (==12.1.3.1) ; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: nvidia-nccl-cu12 (==2.18.1) ; platform_system == "Linux" and platform_machine == "x86_64"
Requires-Dist: triton (==2.1.0) ; platform_system == "Linux" and platform_machine == "x86_64"
Provides-Extra: opt-einsum

Requires-Dist: nvidia-cudnn-cu12 (==99.0) ; a line in the description
EOF_META
	cat >"$sp/cupy_cuda12x-13.3.0.dist-info/METADATA" <<'EOF_META' &&
Metadata-Version: 2.1
Name: cupy-cuda12x
Version: 13.3.0
Requires-Dist: numpy <2.3,>=1.22
Requires-Dist: fastrlock >=0.5
EOF_META
	# TensorFlow 2.6.5, a folder
	expect_code 1 cuenv needs "$HOME/tf265" &&
	cat "$E2E_OUT" &&
	stdout_has "tensorflow built for CUDA 11.2+, cuDNN 8.x
    says        $tf/python/platform/build_info.py" &&
	stdout_lacks "no CUDA library is named" &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	# the file itself, named
	expect_code 1 cuenv needs "$tf/python/platform/build_info.py" &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	expect_code 1 cuenv needs --json "$HOME/tf265" &&
	check "--json lacks the report" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["satisfied"] is False, d
r = d["reports"]
assert len(r) == 1 and r[0]["framework"] == "tensorflow", r
assert r[0]["cuda_min"] == "11.2" and r[0]["cudnn_min"] == "8", r
assert d["catalogue"]["install"] == "cuenv install 11.2 --cudnn 8", d
' "$E2E_OUT" &&
	# TensorFlow 2.10.1 for Windows: the DLLs it loads by name
	expect_code 1 cuenv needs "$HOME/tf2101win" &&
	stdout_has "tensorflow built for CUDA 11.2+, cuDNN 8.x" &&
	stdout_has "    loads       cudart64_110.dll
                cudnn64_8.dll
                nvcuda.dll" &&
	stdout_lacks "loads       cudart64_112.dll" &&
	stdout_has "    but         says cudart64_112.dll, which no release ships: CUDA 11.2's is cudart64_110.dll (NVIDIA's table)" &&
	# A venv's site-packages: torch (version.py and its METADATA pins)
	# and cupy-cuda12x, whose name says CUDA 12.
	expect_code 1 cuenv needs "$HOME/venv" &&
	cat "$E2E_OUT" &&
	stdout_has "cupy-cuda12x 13.3.0 built for CUDA 12.x" &&
	stdout_has "torch 2.1.2+cu121 built for CUDA 12.1+
    says        $sp/torch/version.py" &&
	stdout_has "torch 2.1.2 built for CUDA 12.1+, cuDNN 8.9.2+" &&
	stdout_lacks "99.0" &&
	check "no install line for CUDA 12.1 + cuDNN 8.9.2: $(cat "$E2E_OUT")" \
		grep -q '^  cuenv install 12\.1 --cudnn 8\.9\.2' "$E2E_OUT"
