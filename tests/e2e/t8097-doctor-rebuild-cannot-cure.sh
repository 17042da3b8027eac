#!/bin/sh
# A fix never removes a working install when installing it again cannot
# cure the finding (issue 23 item 6). A CUDA 12.2.2 installed from the
# package index has no bin/nvcc (the index's cuda_nvcc wheel of 12.2 holds
# ptxas only) while another toolkit's nvcc is on PATH: doctor warns that
# CUDA_HOME and nvcc disagree, says why a reinstall brings no nvcc, and
# prints no `cuenv uninstall` (it printed `cuenv uninstall --force cuda
# 12.2.2 && cuenv install 12.2.2`, which deleted the install and then
# failed offline). The same install with cuda_nvcc from NVIDIA's archives
# has lost its nvcc: there the rebuild does cure it and stays.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib-doctor.sh"

v=$CUENV_ROOT/versions/cuda/12.2.2
# receipt URL: the receipt of 12.2.2 with cuda_nvcc fetched from URL
receipt() {
	cat >"$v/.cuenv-receipt" <<JSON
{"schema": 1, "kind": "cuda", "version": "12.2.2", "cuda_major": 12,
 "registered": false, "bin": ["bin"], "lib": ["lib64"],
 "include": ["include"], "cupti": ["lib64"],
 "components": {"cuda_cudart": "12.2.140", "cuda_nvcc": "12.2.140"},
 "sources": [
  {"name": "cuda_cudart", "sha256": "$(printf a | sha256sum | cut -c1-64)",
   "url": "https://files.pythonhosted.org/packages/nvidia_cuda_runtime_cu12-12.2.140-py3-none-manylinux1_x86_64.whl"},
  {"name": "cuda_nvcc", "sha256": "$(printf b | sha256sum | cut -c1-64)",
   "url": "$1"}]}
JSON
}

need cc &&
	doctor_cuda "$v" 12.2.2 &&
	rm "$v/bin/nvcc" &&
	printf '#!/bin/sh\nexit 0\n' >"$v/bin/ptxas" &&
	chmod 755 "$v/bin/ptxas" &&
	receipt https://files.pythonhosted.org/packages/nvidia_cuda_nvcc_cu12-12.2.140-py3-none-manylinux1_x86_64.whl &&
	doctor_cuda "$HOME/sys/cuda-13.0" 13.0.48 &&
	PATH=$PATH:$HOME/sys/cuda-13.0/bin &&
	mkdir proj && printf 'cuda = 12.2.2\n' >proj/.cuenv &&
	cd proj &&
	expect_code 0 cuenv doctor &&
	said "[cuda-home-mismatch] CUDA_HOME is $v, but the nvcc first on PATH is $HOME/sys/cuda-13.0/bin/nvcc" &&
	said "the selection's cuda_nvcc came from the package index, whose wheel of 12.2.2 holds no nvcc: installing it again brings none" &&
	said "fix: export CUDA_HOME=$HOME/sys/cuda-13.0 (the toolkit of that nvcc)" &&
	stdout_lacks "uninstall" &&
	# from NVIDIA's archives: nvcc was there, a rebuild brings it back
	receipt https://developer.download.nvidia.com/compute/cuda/redist/cuda_nvcc/linux-x86_64/cuda_nvcc-linux-x86_64-12.2.140-archive.tar.xz &&
	expect_code 0 cuenv doctor &&
	said "fix: give the selection its compiler: cuenv uninstall --force cuda 12.2.2 && cuenv install 12.2.2 (nvcc is one of the default components)" &&
	stdout_lacks "package index"
