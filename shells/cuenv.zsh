# cuenv for zsh, after cuenv.sh. Load it with:  eval "$(cuenv init zsh)"
typeset -ga __cuenv_watch __cuenv_absent
typeset -ag precmd_functions
if (( ! ${precmd_functions[(I)_cuenv_hook]} )); then
  precmd_functions=(_cuenv_hook $precmd_functions)
fi
