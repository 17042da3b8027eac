#!/bin/sh
# kill -9 in the middle of an uninstall (10000 files of its own to delete,
# the kill lands as soon as the version is in .staging/trash-X): the
# version is gone from the store, its trash is left holding links to the
# pool, and one `cuenv gc` frees the trash and the 6 pool trees it pinned.
# Should the uninstall finish before the kill three times, the test skips.
e2e=$(cd "$(dirname "$0")" && pwd) || exit 1
. "$e2e/lib.sh"
. "$e2e/lib-install.sh"

v=$CUENV_ROOT/versions/cuda/12.4.1
st=$CUENV_ROOT/.staging
# killed: run cuenv uninstall 12.4.1, kill -9 it once trash-X/v exists;
# prints "killed PID" or "finished".
killed() {
	python3 - "$st" <<'EOF'
import os, signal, subprocess, sys
p = subprocess.Popen(["cuenv", "uninstall", "12.4.1"],
                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
while p.poll() is None:
    if any(n.startswith("trash-") and os.path.isdir(os.path.join(sys.argv[1], n, "v"))
           for n in os.listdir(sys.argv[1])):
        os.kill(p.pid, signal.SIGKILL)
        break
p.wait()
print("killed %d" % p.pid if p.returncode == -signal.SIGKILL else "finished")
EOF
}
many() {
	python3 - "$1" <<'EOF'
import os, sys
os.makedirs(sys.argv[1])
for i in range(10000):
    open(os.path.join(sys.argv[1], "f%05d" % i), "w").close()
EOF
}
use_mirror || exit 1
n=0
while :; do
	n=$((n + 1))
	expect_code 0 cuenv install 12.4.1 && many "$v/many" || exit 1
	r=$(killed)
	case $r in killed\ *) killed_report "${r#killed }" && break ;; esac
	[ "$n" -lt 3 ] || skip "the uninstall finished before kill -9, 3 times"
done
check "the version is still there after kill -9 of its uninstall" [ ! -e "$v" ] &&
	expect_stdout 1 sh -c "ls -d '$st'/trash-*/v | wc -l" &&
	# Its lock file was made (and held) before the folder.
	expect_stdout 1 sh -c "ls '$st'/trash-*.lock | wc -l" &&
	expect_stdout 6 sh -c "ls '$CUENV_ROOT/pool' | wc -l" &&
	expect_code 0 cuenv gc &&
	stdout_has "removed 6 unused components (1.7 MB)" &&
	stdout_has "removed 1 folder left by interrupted installs or uninstalls (" &&
	expect_stdout "" ls -A "$st" &&
	expect_stdout "" ls -A "$CUENV_ROOT/pool"
