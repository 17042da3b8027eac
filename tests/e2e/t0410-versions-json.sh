#!/bin/sh
# cuenv versions --json: one object with "cuda", "cudnn" and "cupti" arrays.
. "$(dirname "$0")/lib.sh"

t=$HOME/toolkits
need jq &&
	expect_stdout '{
  "cuda": [],
  "cudnn": [],
  "cupti": []
}' cuenv versions --json &&
	make_fake_cuda "$t/cuda-12.4" 12.4.1 &&
	make_fake_cuda "$t/cuda-11.8" 11.8.0 &&
	rm "$t/cuda-11.8"/lib64/libcupti* &&
	make_fake_cudnn "$t/cudnn_cuda12-archive" 9.1.0 12 &&
	cuenv add cuda "$t/cuda-12.4" >/dev/null &&
	cuenv add cuda "$t/cuda-11.8" >/dev/null &&
	cuenv add cudnn "$t/cudnn_cuda12-archive" >/dev/null &&
	cuenv global 12.4 --cudnn 9 2>/dev/null &&
	expect_code 0 cuenv versions --json &&
	stderr_empty &&
	cp "$E2E_OUT" "$HOME/v.json" &&
	check "not JSON: $(cat "$HOME/v.json")" jq -e . "$HOME/v.json" >/dev/null &&
	expect_stdout "11.8.0 false false $t/cuda-11.8 true 11
12.4.1 true 12.4.1 $t/cuda-12.4 true 12" \
		jq -r '.cuda[] | "\(.version) \(.active) \(.cupti) \(.prefix) \(.registered) \(.cuda_major)"' "$HOME/v.json" &&
	expect_stdout "9.1.0 9.1.0-cuda12 12 true $t/cudnn_cuda12-archive" \
		jq -r '.cudnn[] | "\(.version) \(.name) \(.cuda_major) \(.active) \(.prefix)"' "$HOME/v.json" &&
	expect_stdout "object" jq -r '.cuda[0].components | type' "$HOME/v.json"
