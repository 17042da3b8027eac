# cuenv shell integration shared by bash and zsh; `cuenv init SHELL` prints
# this with the shell's own tail (cuenv.bash, cuenv.zsh), which installs
# the prompt hook. The hook runs no process unless the directory, a
# selection variable, a watched .cuenv, the global default or the store
# changed.
cuenv() {
  local __cuenv_out __cuenv_rc
  case "${1-}" in
  use)
    __cuenv_out="$(CUENV_SHELL=@CUENV_SHELL@ @CUENV_BIN@ "$@")" || return $?
    eval "$__cuenv_out"
    __cuenv_mark
    ;;
  add|remove|uninstall|local|global|install)
    @CUENV_BIN@ "$@"
    __cuenv_rc=$?
    __cuenv_key=
    _cuenv_hook
    return $__cuenv_rc
    ;;
  *)
    @CUENV_BIN@ "$@"
    ;;
  esac
}

__cuenv_mark() {
  __cuenv_key="$PWD"$'\037'"${CUENV_ROOT-}"$'\037'"${CUENV_VERSION-}"$'\037'"${CUENV_CUDNN_VERSION-}"$'\037'"${CUENV_CUPTI_VERSION-}"$'\037'"${CUENV_ISOLATE-}"
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

_cuenv_hook() {
  local __cuenv_status=$? __cuenv_prev="${__cuenv_key-}"
  __cuenv_mark
  if [[ $__cuenv_key != "$__cuenv_prev" ]] || __cuenv_stale; then
    eval "$(@CUENV_BIN@ export @CUENV_SHELL@ --pid $$)"
  fi
  return $__cuenv_status
}

