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

_cuenv_flags() {
    case $1 in
    add) echo --as --cuda ;;
    check) echo --json --compile --device --timeout ;;
    doctor | versions) echo --json ;;
    env) echo --format --isolate ;;
    exec) echo --isolate --check ;;
    gc) echo --cache ;;
    global | local) echo --cudnn --cupti --isolate --no-isolate --unset --force ;;
    install) echo --cudnn --cupti --components --runtime-only --source \
        --mirror --index --jobs --no-cache --quiet --for --locked \
        --timeout --max-download --max-expansion ;;
    list-remote) echo --all --json ;;
    mirror) echo --cudnn --cupti --for --platform --components --runtime-only \
        --source --mirror --no-cache --verify --quiet ;;
    lock) echo --check --components --runtime-only ;;
    modules) echo --format ;;
    needs) echo --python --json ;;
    update) echo --mirror ;;
    use) echo --cudnn --cupti --isolate --unset ;;
    esac
    echo --help
}

_cuenv() {
    local cur prev cmd i words
    COMPREPLY=()
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=
    [ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
    if [ "$COMP_CWORD" -le 1 ]; then
        COMPREPLY=($(compgen -W "$(_cuenv_commands) --help --version" -- "$cur"))
        return 0
    fi
    cmd=${COMP_WORDS[1]}
    case $prev in
    --cudnn)
        if [ "$cmd" = install ] || [ "$cmd" = mirror ]; then
            words=$(_cuenv_remote cudnn)
        else
            words=$(_cuenv_installed cudnn)
        fi
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return 0
        ;;
    --cupti)
        COMPREPLY=($(compgen -W "$(_cuenv_installed cuda)" -- "$cur"))
        return 0
        ;;
    --format)
        case $cmd in
        modules) words="lua tcl" ;;
        *) words="sh bash zsh fish json dockerfile github" ;;
        esac
        COMPREPLY=($(compgen -W "$words" -- "$cur"))
        return 0
        ;;
    --platform)
        COMPREPLY=($(compgen -W "linux-x86_64 linux-sbsa linux-aarch64 linux-ppc64le windows-x86_64" -- "$cur"))
        return 0
        ;;
    --source) COMPREPLY=($(compgen -W "redist runfile pypi" -- "$cur")); return 0 ;;
    --as | --device | --timeout | --mirror | --index | --jobs | --components | --for)
        return 0 ;;
    esac
    if [ "$cmd" = exec ]; then
        # after the command to run, complete its own words as commands/files
        for ((i = 2; i < COMP_CWORD; i++)); do
            case ${COMP_WORDS[i]} in
            --) COMPREPLY=($(compgen -c -- "$cur")); return 0 ;;
            -*) ;;
            *) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
            esac
        done
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W "$(_cuenv_flags "$cmd")" -- "$cur"))
        return 0
    fi
    case $cmd in
    use | local | global)
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
        [ "$COMP_CWORD" -eq 2 ] && { COMPREPLY=($(compgen -d -- "$cur")); return 0; }
        words=$(_cuenv_remote cuda) ;;
    add) words="cuda cudnn"
        [ "$COMP_CWORD" -gt 2 ] && { COMPREPLY=($(compgen -d -- "$cur")); return 0; } ;;
    init) words="bash zsh fish direnv" ;;
    completion) words="bash zsh fish" ;;
    help) words=$(_cuenv_commands) ;;
    exec) COMPREPLY=($(compgen -c -- "$cur")); return 0 ;;
    *) words= ;;
    esac
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
    return 0
}

complete -F _cuenv cuenv
