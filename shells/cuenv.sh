# cuenv shell integration shared by bash and zsh; `cuenv init SHELL` prints
# this with the shell's own tail (cuenv.bash, cuenv.zsh), which installs
# the prompt hook. The hook runs no process unless the directory, a
# selection variable, a watched .cuenv, the global default or the store
# changed.
#
# A user's ERR trap (bash with set -E, zsh) must fire once per failing
# command, not again for cuenv's own code: a command that may fail here
# is never the last of an && or || list nor a function's last command,
# and the functions return a failure only where the user's command
# failed (the wrapper below) or in a context that does not count (bash's
# hook entry is "_cuenv_hook && :", see cuenv.bash).
cuenv() {
  local __cuenv_out __cuenv_rc
  case "${1-}" in
  use)
    __cuenv_out="$(_OLD_VIRTUAL_PATH="${_OLD_VIRTUAL_PATH-}" CUENV_SHELL=@CUENV_SHELL@ @CUENV_BIN@ "$@")" || return $?
    eval "$__cuenv_out"
    __cuenv_mark
    ;;
  add|remove|uninstall|local|global|install)
    @CUENV_BIN@ "$@" && __cuenv_rc=0 || __cuenv_rc=$?
    # Update the shell now, unless CUENV_ROOT is not the shell's own (a
    # one-shot CUENV_ROOT=/x cuenv ...): the next prompt does it then.
    if [[ ${CUENV_ROOT-} == "${__cuenv_root-}" ]]; then
      __cuenv_key=
      _cuenv_hook
    else
      __cuenv_key=
    fi
    return $__cuenv_rc
    ;;
  *)
    @CUENV_BIN@ "$@" || return $?
    ;;
  esac
}

# The shell's own CUENV_ROOT, as the hook last used it (from here on).
__cuenv_root="${__cuenv_root-${CUENV_ROOT-}}"

__cuenv_mark() {
  __cuenv_key="$PWD"$'\037'"${CUENV_ROOT-}"$'\037'"${CUENV_VERSION-}"$'\037'"${CUENV_CUDNN_VERSION-}"$'\037'"${CUENV_CUPTI_VERSION-}"$'\037'"${CUENV_ISOLATE-}"$'\037'"${VIRTUAL_ENV-}"$'\037'"${CONDA_PREFIX-}"$'\037'"${CUENV_OVER_VENV-}"
}

__cuenv_stale() {
  local f
  for f in "${__cuenv_absent[@]}"; do
    [[ -e $f ]] && return 0
  done
  for f in "${__cuenv_watch[@]}"; do
    [[ -e $f && ! $f -nt ${__cuenv_stamp-} ]] || return 0
  done
  return 1
}

# A venv's activate keeps the PATH it saved (_OLD_VIRTUAL_PATH) unexported:
# cuenv is handed it, to keep its own PATH entries the same there. The
# key holds the Python environment (VIRTUAL_ENV, CONDA_PREFIX), whose
# NVIDIA wheels activation keeps first on LD_LIBRARY_PATH.
# In a folder deleted under the shell, `cuenv export` works from $PWD as
# it was, once (it prints one warning): the watch lists it gives back
# hold only what still exists, so later prompts there start nothing.
_cuenv_hook() {
  local __cuenv_status=$? __cuenv_prev="${__cuenv_key-}"
  __cuenv_mark
  if [[ $__cuenv_key != "$__cuenv_prev" ]] || __cuenv_stale; then
    __cuenv_root="${CUENV_ROOT-}"
    eval "$(_OLD_VIRTUAL_PATH="${_OLD_VIRTUAL_PATH-}" CUENV__SAID="${__cuenv_said-}" @CUENV_BIN@ export @CUENV_SHELL@ --pid $$)"
  fi
  # bash runs the rest of PROMPT_COMMAND with the status the hook returns:
  # give back the one it found. zsh gives each precmd function the
  # user's status itself, and would count a failure here as a new one.
  [[ -n ${ZSH_VERSION-} ]] && return 0
  return $__cuenv_status
}
