# cuenv for bash, after cuenv.sh. Load it with:  eval "$(cuenv init bash)"
# The hook goes first in PROMPT_COMMAND (a string, or an array in bash 5.1+)
# and returns the status it found, so $? reaches what follows unchanged.
# Its entry is "_cuenv_hook && :": a failure on the left of && does not
# run the user's ERR trap (set -E), which already ran for the command.
if [[ -n ${PROMPT_COMMAND+x} && ${PROMPT_COMMAND@a} == *a* ]]; then
  [[ " ${PROMPT_COMMAND[*]} " == *" _cuenv_hook "* ]] ||
    PROMPT_COMMAND=("_cuenv_hook && :" "${PROMPT_COMMAND[@]}")
else
  case ";${PROMPT_COMMAND-};" in
  *";_cuenv_hook;"* | *";_cuenv_hook && :;"*) ;;
  *) PROMPT_COMMAND="_cuenv_hook && :${PROMPT_COMMAND:+;$PROMPT_COMMAND}" ;;
  esac
fi
