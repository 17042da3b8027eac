#compdef cuenv
# zsh completion for cuenv. Installed as
# /usr/share/zsh/vendor-completions/_cuenv; or load it by hand (after
# compinit):  eval "$(cuenv completion zsh)"

# The commands, from `cuenv help` (so that new ones are offered too).
_cuenv_commands() {
    local -a cmds
    cmds=(${(f)"$(command cuenv help 2>/dev/null |
        awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')"})
    print -l -- $cmds
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
    [[ -n $line ]] || return 1
    values=$(print -r -- "$line" | cut -f3)
    case $values in
    "@installed "*) _cuenv_installed "${values#@installed }" ;;
    "@remote "*) _cuenv_remote "${values#@remote }" ;;
    *) print -r -- "$values" ;;
    esac
}

_cuenv() {
    local cur=${words[CURRENT]} prev=${words[CURRENT-1]} cmd=${words[2]}
    local -a vals
    local i
    if (( CURRENT == 2 )); then
        vals=(${(f)"$(_cuenv_commands)"} --help --version)
        compadd -a vals
        return
    fi
    if [[ $prev == -* ]] && vals=(${=$(_cuenv_values $cmd $prev)}); then
        if [[ $vals == @files ]]; then _files; else (( ${#vals} )) && compadd -a vals; fi
        return
    fi
    if [[ $cmd == exec ]]; then
        for (( i = 3; i < CURRENT; i++ )); do
            case ${words[i]} in
            --) _command_names; return ;;
            -*) ;;
            *) _files; return ;;
            esac
        done
    fi
    if [[ $cur == -* ]]; then
        vals=(${(f)"$(_cuenv_flags $cmd)"})
        compadd -a vals
        return
    fi
    case $cmd in
    use | local | global | prefix) vals=(${(f)"$(_cuenv_installed cuda)"} system) ;;
    uninstall | remove)
        if [[ $prev == cuda || $prev == cudnn ]]; then
            vals=(${(f)"$(_cuenv_installed $prev)"})
        else
            vals=(cuda cudnn ${(f)"$(_cuenv_installed cuda)"} ${(f)"$(_cuenv_installed cudnn)"})
        fi ;;
    install)
        if [[ $prev == cudnn ]]; then
            vals=(${(f)"$(_cuenv_remote cudnn)"})
        else
            vals=(cuda cudnn ${(f)"$(_cuenv_remote cuda)"})
        fi ;;
    list-remote) vals=(cuda cudnn) ;;
    mirror) if (( CURRENT == 3 )); then _files -/; return; fi
        vals=(${(f)"$(_cuenv_remote cuda)"}) ;;
    add) if (( CURRENT > 3 )); then _files -/; return; fi; vals=(cuda cudnn) ;;
    init) vals=(bash zsh fish pwsh cmd - direnv) ;;
    completion) vals=(bash zsh fish) ;;
    help) vals=(${(f)"$(_cuenv_commands)"}) ;;
    exec) _command_names; return ;;
    esac
    (( ${#vals} )) && compadd -a vals
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _cuenv "$@"
else
    compdef _cuenv cuenv
fi
