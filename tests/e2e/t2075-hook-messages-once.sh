#!/bin/sh
# What the shell integration says, typed at a real prompt (tmux), in bash,
# zsh and fish (hook_shell; t2075 runs all three):
#  - `cd proj; cuenv use 13` warns once about the foreign folder that can
#    shadow 13.0.0, and a prompt after it does not repeat it; nor does the
#    prompt after a .cuenv is written repeat its warning (the stamp's
#    50 ms ran the hook twice, and each run warned);
#  - `cuenv use --unset` says where the version now comes from (it said
#    "using cuda 12.4.1 in this shell" of a .cuenv's choice);
#  - a .cuenv naming a version that is not installed is reported once,
#    not again at the next prompts (a prompt within the stamp's 50 ms ran
#    the hook again, and it printed the same error);
#  - a one-shot `CUENV_ROOT=/x cuenv uninstall ...` does not run the hook
#    under /x (it reported the .cuenv's version as not installed there and
#    deactivated it until the next prompt).
. "$(dirname "$0")/lib.sh"

c=$HOME/toolkits/cuda-12.4
f=$HOME/foreign/lib
make_fake_cuda "$c" 12.4.1 &&
	make_fake_cuda "$HOME/toolkits/cuda-13" 13.0.0 &&
	cuenv add cuda "$c" >/dev/null &&
	cuenv add cuda "$HOME/toolkits/cuda-13" >/dev/null &&
	mkdir -p "$f" proj "$HOME/other" &&
	fake_elf libcupti.so.11.2 "$f/libcupti.so.11.2" &&
	printf 'cuda = 12.4\n' >proj/.cuenv &&
	sleep 0.2 || exit 1

for sh in bash zsh fish; do
	command -v $sh >/dev/null 2>&1 || continue
	case $sh in
	fish)
		cat >"$HOME/rc" <<'RC'
function fish_prompt; echo '$ '; end
set -gx LD_LIBRARY_PATH "/user/lib:$HOME/foreign/lib:/user/last"
cuenv init fish | source
RC
		;;
	*)
		cat >"$HOME/rc" <<RC
PS1='\$ '
export LD_LIBRARY_PATH="/user/lib:\$HOME/foreign/lib:/user/last"
eval "\$(cuenv init $sh)"
RC
		;;
	esac
	tty_start $sh "$HOME/rc" &&
		tty_type 'cd proj; cuenv use 13' '' '' 'cuenv use --unset' \
			"echo 'cuda = 11' >.cuenv" '' '' '' "echo '-- fixed'" \
			"echo 'cuda = 12.4' >.cuenv" '' \
			"CUENV_ROOT=$HOME/other cuenv uninstall 1" \
			'echo "home=$CUDA_HOME"' &&
		tty_screen "$HOME/screen" &&
		tty_stop &&
		sed "s/^/$sh: /" "$HOME/screen" &&
		assert_eq "$(grep -c 'can shadow cuda 13.0.0' "$HOME/screen")" 1 \
			"$sh: warnings about 13.0.0" &&
		check "$sh: use --unset said 'using'" \
			sh -c '! grep -q "using cuda 12.4.1 in this shell" "$1"' - "$HOME/screen" &&
		check "$sh: use --unset did not say where from" grep -qF \
			"cuenv: this shell's selection dropped: cuda 12.4.1 (set by $HOME/proj/.cuenv)" \
			"$HOME/screen" &&
		assert_eq "$(grep -c 'cuda 11 is not installed' "$HOME/screen")" 1 \
			"$sh: not-installed errors" &&
		sed -n '/-- fixed/,$p' "$HOME/screen" >"$HOME/after" &&
		assert_eq "$(grep -c 'can shadow cuda 12.4.1' "$HOME/after")" 1 \
			"$sh: warnings about 12.4.1 after the fix" &&
		check "$sh: the one-shot root reached the hook" \
			sh -c '! grep -q "is not installed" "$1"' - "$HOME/after" &&
		check "$sh: deactivated by a one-shot root" \
			grep -qx "home=$c" "$HOME/after" || break
	printf 'cuda = 12.4\n' >proj/.cuenv
done

# In a script (no prompt): install, local, ... update the shell at once,
# under the root the shell had when it loaded the integration (here the
# sandbox's exported CUENV_ROOT), but not under a one-shot one.
printf 'cuda = 12.4\n' >proj/.cuenv
for sh in bash zsh fish; do
	command -v $sh >/dev/null 2>&1 || continue
	case $sh in
	fish) init='cuenv init fish | source' ;;
	*) init="eval \"\$(cuenv init $sh)\"" ;;
	esac
	expect_code 0 $sh -c "$init
cd proj
cuenv local 13.0.0
echo \"h=\$CUDA_HOME\"
CUENV_ROOT=$HOME/other cuenv uninstall 1
echo \"h=\$CUDA_HOME\"" &&
		cp "$E2E_OUT" "$HOME/out" &&
		file_is "$HOME/out" "h=$HOME/toolkits/cuda-13
h=$HOME/toolkits/cuda-13" &&
		stderr_lacks "is not installed" || break
	printf 'cuda = 12.4\n' >proj/.cuenv
done
