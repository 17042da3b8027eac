# fish completion for cuenv. Installed as
# /usr/share/fish/vendor_completions.d/cuenv.fish; or load it by hand:
#   cuenv completion fish | source

function __cuenv_commands
    command cuenv help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'
end

# Installed versions of KIND (cuda or cudnn), from `cuenv versions`.
function __cuenv_installed
    command cuenv versions 2>/dev/null | awk -v k=$argv[1] '{ sub(/^[* ] /, "") } $1 == k { print $2 }'
end

# Versions the catalogue offers for KIND, from `cuenv list-remote`.
function __cuenv_remote
    command cuenv list-remote $argv[1] 2>/dev/null | awk '{ print $2 }'
end

# True when the command word is one of argv.
function __cuenv_cmd_is
    set -l words (commandline -opc)
    test (count $words) -ge 2; and contains -- $words[2] $argv
end

# The options of the command being completed: "--NAME<TAB>ARG<TAB>VALUES<TAB>HELP".
function __cuenv_options
    set -l words (commandline -opc)
    test (count $words) -ge 2; or return 1
    command cuenv completion --options $words[2] 2>/dev/null
end

# "--NAME<TAB>HELP", for fish's descriptions.
function __cuenv_flags
    __cuenv_options | awk -F '\t' '{ print $1 "\t" $4 }'
end

# True when the previous word is an option that takes a value.
function __cuenv_prev_takes
    set -l words (commandline -opc)
    test (count $words) -ge 3; or return 1
    __cuenv_options | awk -F '\t' -v o=$words[-1] '$1 == o && $2 != "" { f = 1 } END { exit !f }'
end

# The values to offer after that option.
function __cuenv_values
    set -l words (commandline -opc)
    set -l line (__cuenv_options | awk -F '\t' -v o=$words[-1] '$1 == o')
    set -l f (string split \t -- $line)
    set -l v $f[3]
    set -l d $f[4]
    switch "$v"
        case '@installed *'
            printf '%s\t%s\n' (__cuenv_installed (string replace '@installed ' '' -- $v)) $d
        case '@remote *'
            printf '%s\t%s\n' (__cuenv_remote (string replace '@remote ' '' -- $v)) $d
        case '@files'
            __fish_complete_path (commandline -ct)
        case '*'
            string split ' ' -- $v
    end
end

function __cuenv_prev_is
    set -l words (commandline -opc)
    contains -- $words[-1] $argv
end

complete -c cuenv -f
complete -c cuenv -n __fish_use_subcommand -a '(__cuenv_commands)' -d command
complete -c cuenv -n __fish_use_subcommand -l version -d 'show cuenv version'
complete -c cuenv -n __fish_use_subcommand -l help -d 'show help'

# versions
complete -c cuenv -n '__cuenv_cmd_is use local global prefix; and not __cuenv_prev_takes' -a '(__cuenv_installed cuda) system'
complete -c cuenv -n '__cuenv_cmd_is uninstall remove; and not __cuenv_prev_is cuda cudnn' -a 'cuda cudnn (__cuenv_installed cuda) (__cuenv_installed cudnn)'
complete -c cuenv -n '__cuenv_cmd_is uninstall remove; and __cuenv_prev_is cuda' -a '(__cuenv_installed cuda)'
complete -c cuenv -n '__cuenv_cmd_is uninstall remove; and __cuenv_prev_is cudnn' -a '(__cuenv_installed cudnn)'
complete -c cuenv -n '__cuenv_cmd_is install; and not __cuenv_prev_is cudnn; and not __cuenv_prev_takes' -a 'cuda cudnn (__cuenv_remote cuda)'
complete -c cuenv -n '__cuenv_cmd_is install; and __cuenv_prev_is cudnn' -a '(__cuenv_remote cudnn)'
complete -c cuenv -n '__cuenv_cmd_is list-remote add' -a 'cuda cudnn'
complete -c cuenv -n '__cuenv_cmd_is init' -a 'bash zsh fish pwsh cmd - direnv'
complete -c cuenv -n '__cuenv_cmd_is completion' -a 'bash zsh fish'
complete -c cuenv -n '__cuenv_cmd_is help' -a '(__cuenv_commands)'

# flags: each command's options, from its table in cuenv (so that they
# cannot drift), and the values each option takes
complete -c cuenv -n 'not __fish_use_subcommand; and string match -q -- "-*" (commandline -ct)' -a '(__cuenv_flags)'
complete -c cuenv -n '__cuenv_prev_takes' -x -a '(__cuenv_values)'
complete -c cuenv -n '__cuenv_cmd_is add' -F
complete -c cuenv -n '__cuenv_cmd_is exec' -F
# mirror DIR SPEC...: a folder, then versions the catalogue offers
complete -c cuenv -n '__cuenv_cmd_is mirror; and not __cuenv_prev_takes' -a '(__cuenv_remote cuda)' -F
