#!/bin/sh
# TensorFlow 1.x's cuda_dnn.cc printed cuDNN's CUDNN_VERSION itself, a
# whole number, and no colon after "compiled with" (tensorflow/
# tf-faster-rcnn#436, DCGAN-tensorflow#242): 7201 is cuDNN 7.2.1 (MAJOR *
# 1000 + MINOR * 100 + PATCH before cuDNN 9), and the sentence reads as
# the newer "compiled with: 7.6.5" form does, a cuDNN mismatch.
. "$(dirname "$0")/lib.sh"

tf1="E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded runtime CuDNN library: 7201 (compatibility version 7200) but source was compiled with 7004 (compatibility version 7000).  If using a binary install, upgrade your CuDNN library to match."

expect_code 0 cuenv explain "$tf1" &&
	stdout_has "tensorflow was built with cuDNN 7.0.4 but loaded cuDNN 7.2.1" &&
	stdout_lacks "7201" &&
	expect_code 0 cuenv explain --json "Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5110 (compatibility version 5100)" &&
	check "json: a mismatch of 5.1.10 over 5.0.5" python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"]
assert [(x["kind"], x["built"], x["loaded"]) for x in f] == \
    [("cudnn-mismatch", "5.1.10", "5.0.5")], f
' "$E2E_OUT"
