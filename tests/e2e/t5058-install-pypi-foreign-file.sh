#!/bin/sh
# A project's index page that lists another project's file (here
# evil_project-12.4.127.post7, whose post-release once made it the newest
# "nvidia-cuda-runtime-cu12 12.4.127"): the file is not of that project
# (pypi_wheel_is_of, PEP 503's names), so it is never chosen, fetched or
# installed; the project's own wheel is. Nor is a file of the project on
# another host than the index's (its post-release newer still): neither
# install nor `cuenv mirror --source pypi` takes it.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

fixtures && cp -R "$FX/pypi" "$HOME/pypi" &&
	page=$HOME/pypi/simple/nvidia-cuda-runtime-cu12/index.json &&
	evil=evil_project-12.4.127.post7-py3-none-manylinux2014_x86_64.whl &&
	printf 'PK not a wheel' >"$HOME/pypi/packages/$evil" &&
	python3 - "$page" "$HOME/pypi/packages/$evil" <<'EOS' &&
import hashlib, json, os, sys
page, evil = sys.argv[1], sys.argv[2]
d = json.load(open(page))
data = open(evil, "rb").read()
d["files"].append({"filename": os.path.basename(evil),
                   "url": "../../packages/" + os.path.basename(evil),
                   "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
                   "size": len(data), "yanked": False})
d["files"].append({"filename": "nvidia_cuda_runtime_cu12-12.4.127.post9-py3-none-manylinux2014_x86_64.whl",
                   "url": "http://127.0.0.2:9/packages/x.whl",
                   "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
                   "size": len(data), "yanked": False})
json.dump(d, open(page, "w"))
EOS
	serve_start "$HOME/pypi" PYPI &&
	# the fixture index's wheels are x86_64's, whatever runs the test
	CUENV_PLATFORM=linux-x86_64 && export CUENV_PLATFORM &&
	expect_code 0 env CUENV_MANIFESTS="$FX/manifests" \
		CUENV_PYPI_INDEX="$PYPI_URL/simple" \
		cuenv install 12.4 --source pypi --components cuda_cudart &&
	stdout_has "installed cuda 12.4.1" &&
	check "the other project's file was fetched" \
		sh -c "! grep -q '$evil' '$PYPI_LOG'" &&
	check "the project's own wheel was not fetched" \
		grep -q 'GET /packages/nvidia_cuda_runtime_cu12-12.4.127-' "$PYPI_LOG" &&
	expect_code 0 env CUENV_MANIFESTS="$FX/manifests" \
		CUENV_PYPI_INDEX="$PYPI_URL/simple" \
		cuenv mirror "$HOME/m" 12.4 --source pypi --components cuda_cudart \
			--platform linux-x86_64 &&
	check "the mirror stored another project's or host's file" \
		sh -c "! ls -R '$HOME/m' | grep -q 'evil_project\|post9'" &&
	check "the mirror lacks the wheel" \
		sh -c "ls '$HOME/m/pypi/packages' | grep -q '^nvidia_cuda_runtime_cu12-12.4.127-py3'"
