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

_cuenv_flags() {
    case $1 in
    add) print -- --as --cuda ;;
    check) print -- --json --compile --device --timeout ;;
    doctor | versions) print -- --json ;;
    env) print -- --format --isolate ;;
    exec) print -- --isolate --check ;;
    gc) print -- --cache ;;
    global | local) print -- --cudnn --cupti --isolate --no-isolate --unset --force ;;
    install) print -- --cudnn --cupti --components --runtime-only --source \
        --mirror --index --jobs --no-cache --quiet --for --locked \
        --timeout --max-download --max-expansion ;;
    list-remote) print -- --all --json ;;
    mirror) print -- --cudnn --cupti --for --platform --components --runtime-only \
        --source --mirror --no-cache --verify --quiet ;;
    lock) print -- --check --components --runtime-only ;;
    modules) print -- --format ;;
    needs) print -- --python --json ;;
    update) print -- --mirror ;;
    use) print -- --cudnn --cupti --isolate --unset ;;
    esac
    print -- --help
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
    case $prev in
    --cudnn)
        if [[ $cmd == install || $cmd == mirror ]]; then
            vals=(${(f)"$(_cuenv_remote cudnn)"})
        else
            vals=(${(f)"$(_cuenv_installed cudnn)"})
        fi
        compadd -a vals; return ;;
    --cupti) vals=(${(f)"$(_cuenv_installed cuda)"}); compadd -a vals; return ;;
    --format)
        if [[ $cmd == modules ]]; then compadd lua tcl
        else compadd sh bash zsh fish json dockerfile github; fi
        return ;;
    --platform) compadd linux-x86_64 linux-sbsa linux-aarch64 linux-ppc64le windows-x86_64; return ;;
    --source) compadd redist runfile pypi; return ;;
    --as | --device | --timeout | --mirror | --index | --jobs | --components | --for)
        return ;;
    esac
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
        vals=(${=$(_cuenv_flags $cmd)})
        compadd -a vals
        return
    fi
    case $cmd in
    use | local | global) vals=(${(f)"$(_cuenv_installed cuda)"} system) ;;
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
    init) vals=(bash zsh fish direnv) ;;
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
