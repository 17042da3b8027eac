#!/bin/sh
# cuenv needs --import: the frameworks the interpreter imports say what
# they were built with (fake tensorflow and torch packages here, on
# PYTHONPATH: TensorFlow's sysconfig.get_build_info(), torch.version.cuda
# and torch.backends.cudnn.version()). One that does not import is
# reported absent, one whose import raises anything else a problem (exit
# 1); what a framework prints while importing does not
# garble the answer. Their versions narrow the choice: TensorFlow 2.6
# alone gets 11.2 and cuDNN 8, with PyTorch 2.1+cu118 beside it 11.8 and
# cuDNN 8.7; an installed 11.2 satisfies the first and not the second.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-needs.sh"

need python3
p=$HOME/py
mkdir -p "$p/tf/tensorflow" "$p/both" "$p/cpu/torch" "$p/broken/jax" &&
	cat >"$p/tf/tensorflow/__init__.py" <<'EOF_PY' &&
import sys
print("TensorFlow says hello on stdout")
print("and on stderr", file=sys.stderr)
__version__ = "2.6.0"
class sysconfig:
    @staticmethod
    def get_build_info():
        return {"cuda_version": "11.2", "cudnn_version": "8",
                "is_cuda_build": True}
EOF_PY
	cp -R "$p/tf/tensorflow" "$p/both/" &&
	mkdir -p "$p/both/torch" &&
	cat >"$p/both/torch/__init__.py" <<'EOF_PY' &&
__version__ = "2.1.0+cu118"
class version:
    cuda = "11.8"
class backends:
    class cudnn:
        @staticmethod
        def version():
            return 8700
EOF_PY
	cat >"$p/cpu/torch/__init__.py" <<'EOF_PY' &&
__version__ = "2.1.0+cpu"
class version:
    cuda = None
class backends:
    class cudnn:
        @staticmethod
        def version():
            return None
EOF_PY
	echo 'raise ImportError("jaxlib is not installed")' >"$p/broken/jax/__init__.py" &&
	expect_code 1 env PYTHONPATH="$p/tf" cuenv needs --import --python &&
	cat "$E2E_OUT" &&
	stdout_has "frameworks (python3 3." &&
	stdout_has "  tensorflow  2.6.0, built with CUDA 11.2, cuDNN 8" &&
	stdout_has "  torch       absent: ModuleNotFoundError: No module named 'torch'" &&
	stdout_has "  jax         absent: ModuleNotFoundError: No module named 'jax'" &&
	stdout_lacks "hello" &&
	stderr_empty &&
	stdout_has "  cuenv install 11.2 --cudnn 8" &&
	expect_code 1 env PYTHONPATH="$p/both:$p/broken" cuenv needs --import --python python3 &&
	cat "$E2E_OUT" &&
	stdout_has "  torch       2.1.0+cu118, built with CUDA 11.8, cuDNN 8.7.0" &&
	stdout_has "  jax         its import fails: ImportError: jaxlib is not installed" &&
	stdout_has "  cuenv install 11.8 --cudnn 8.7" &&
	expect_code 0 env PYTHONPATH="$p/cpu" cuenv needs --import --python=python3 &&
	stdout_has "  torch       2.1.0+cpu, built without CUDA" &&
	# issue 21 item 1: a torch whose import raises is broken, not absent
	mkdir -p "$p/skew/torch" &&
	echo 'raise ImportError("libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12")' \
		>"$p/skew/torch/__init__.py" &&
	expect_code 1 env PYTHONPATH="$p/skew" cuenv needs --import --python python3 &&
	stdout_has "  torch       its import fails: ImportError: libcusparse.so.12: undefined symbol: __nvJitLinkAddData_12_1, version libnvJitLink.so.12" &&
	# With the framework's files too, against an installed 11.2 + cuDNN 8.1
	fake_tensorflow "$HOME/site-packages/tensorflow" &&
	make_installed_cuda 11.2.2 &&
	ln -s libcudart.so.11.2.2 "$CUENV_ROOT/versions/cuda/11.2.2/lib64/libcudart.so.11.0" &&
	make_fake_cudnn "$HOME/cudnn-8.1" 8.1.1 11 &&
	expect_code 0 cuenv add cudnn "$HOME/cudnn-8.1" &&
	expect_code 0 env PYTHONPATH="$p/tf" cuenv needs --import --python python3 "$HOME/site-packages/tensorflow" &&
	stdout_has "installed: cuda 11.2.2 + cudnn 8.1.1 (cuda11) provides everything" &&
	expect_code 1 env PYTHONPATH="$p/both" cuenv needs --import --python "$HOME/site-packages/tensorflow" &&
	stdout_has "  cuda 11.2.2 + cudnn 8.1.1 (cuda11): lacks CUDA 11.8+ (torch), cuDNN 8.7.0+ (torch)" &&
	# the files dlopen 11.2's CUPTI, which 11.8 lacks
	stdout_has "  cuenv install 11.8 --cudnn 8.7 --cupti 11.2" &&
	expect_code 1 env PYTHONPATH="$p/both" cuenv needs --json --import --python "$HOME/site-packages/tensorflow" &&
	check "--json does not carry the frameworks" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = d["frameworks"]
assert f["python"] == "python3", f
assert f["tensorflow"] == {"version": "2.6.0", "cuda": "11.2", "cudnn": "8"}, f
assert f["torch"] == {"version": "2.1.0+cu118", "cuda": "11.8", "cudnn": "8.7.0"}, f
assert "ModuleNotFoundError" in f["jax"]["absent"], f
assert d["catalogue"]["install"] == "cuenv install 11.8 --cudnn 8.7 --cupti 11.2", d
' "$E2E_OUT" &&
	# Interpreters that cannot run, or say nothing.
	expect_code 2 cuenv needs --import --python=/nonexistent/python3 &&
	stderr_has "cuenv: error: cannot run '/nonexistent/python3': No such file or directory" &&
	expect_code 0 cuenv needs --import --python=/bin/false &&
	stderr_has "cuenv: warning: /bin/false failed while importing the frameworks (exit 1)" &&
	stdout_has "  tensorflow  absent: no answer from /bin/false"
