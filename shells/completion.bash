# bash completion for cuenv. Installed as
# /usr/share/bash-completion/completions/cuenv; or load it by hand:
#   eval "$(cuenv completion bash)"

# The commands, from `cuenv help` (so that new ones are offered too).
_cuenv_commands() {
    command cuenv help 2>/dev/null |
        awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'
}

# Installed versions of KIND (cuda or cudnn), from `cuenv versions`.
_cuenv_installed() {
    command cuenv versions 2>/dev/null |
        awk -v k="$1" '{ sub(/^[* ] /, "") } $1 == k { print $2 }'
}

# Versions the catalogue offers for KIND, from `cuenv list-remote`.
_cuenv_remote() {
    command cuenv list-remote "$1" 2>/dev/null | awk '{ print $2 }'
}

# The options of command $1, from its table in cuenv (so that they cannot
# drift): "--NAME<TAB>ARG<TAB>VALUES<TAB>HELP" lines.
_cuenv_options() {
    command cuenv completion --options "$1" 2>/dev/null
}

_cuenv_flags() {
    _cuenv_options "$1" | cut -f1
}

# The values to offer after option $2 of command $1; fails when $2 takes
# none. "@files": file names.
_cuenv_values() {
    local line values
    line=$(_cuenv_options "$1" | awk -F '\t' -v o="$2" '$1 == o && $2 != ""')
    [ -n "$line" ] || return 1
    values=$(printf '%s\n' "$line" | cut -f3)
    case $values in
    "@installed "*) _cuenv_installed "${values#@installed }" ;;
    "@remote "*) _cuenv_remote "${values#@remote }" ;;
    *) printf '%s\n' "$values" ;;
    esac
}

# COMPREPLY from compgen ARGS, one entry per line of its output: a word
# holding spaces stays one word (never COMPREPLY=($(compgen ...)), which
# splits "my toolkits" in two; shellcheck SC2207). File and folder names
# are quoted by readline (compopt -o filenames).
_cuenv_reply() {
    case $1 in
    -f | -d | -c) compopt -o filenames 2>/dev/null ;;
    esac
    COMPREPLY=()
    mapfile -t COMPREPLY < <(compgen "$@")
}

_cuenv() {
    local cur prev cmd i words
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
    if [ "$COMP_CWORD" -le 1 ]; then
        _cuenv_reply -W "$(_cuenv_commands) --help --version" -- "$cur"
        return 0
    fi
    cmd=${COMP_WORDS[1]}
    if [[ $prev == -* ]] && words=$(_cuenv_values "$cmd" "$prev"); then
        if [ "$words" = @files ]; then
            _cuenv_reply -f -- "$cur"
        else
            _cuenv_reply -W "$words" -- "$cur"
        fi
        return 0
    fi
    if [ "$cmd" = exec ]; then
        # after the command to run, complete its own words as commands/files
        for ((i = 2; i < COMP_CWORD; i++)); do
            case ${COMP_WORDS[i]} in
            --) _cuenv_reply -c -- "$cur"; return 0 ;;
            -*) ;;
            *) _cuenv_reply -f -- "$cur"; return 0 ;;
            esac
        done
    fi
    if [[ $cur == -* ]]; then
        _cuenv_reply -W "$(_cuenv_flags "$cmd")" -- "$cur"
        return 0
    fi
    case $cmd in
    use | local | global | prefix)
        words="$(_cuenv_installed cuda) system" ;;
    uninstall | remove)
        words="cuda cudnn"
        for ((i = 2; i < COMP_CWORD; i++)); do
            case ${COMP_WORDS[i]} in
            cuda | cudnn) words=$(_cuenv_installed "${COMP_WORDS[i]}") ;;
            esac
        done
        [ "$words" = "cuda cudnn" ] &&
            words="cuda cudnn $(_cuenv_installed cuda) $(_cuenv_installed cudnn)"
        ;;
    install)
        if [ "$prev" = cudnn ]; then
            words=$(_cuenv_remote cudnn)
        else
            words="cuda cudnn $(_cuenv_remote cuda)"
        fi
        ;;
    list-remote) words="cuda cudnn" ;;
    mirror)
        [ "$COMP_CWORD" -eq 2 ] && { _cuenv_reply -d -- "$cur"; return 0; }
        words=$(_cuenv_remote cuda) ;;
    add) words="cuda cudnn"
        [ "$COMP_CWORD" -gt 2 ] && { _cuenv_reply -d -- "$cur"; return 0; } ;;
    init) words="bash zsh fish pwsh cmd - direnv" ;;
    completion) words="bash zsh fish" ;;
    help) words=$(_cuenv_commands) ;;
    exec) _cuenv_reply -c -- "$cur"; return 0 ;;
    *) words= ;;
    esac
    _cuenv_reply -W "$words" -- "$cur"
    return 0
}

complete -F _cuenv cuenv
