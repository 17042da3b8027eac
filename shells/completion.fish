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

function __cuenv_prev_is
    set -l words (commandline -opc)
    contains -- $words[-1] $argv
end

complete -c cuenv -f
complete -c cuenv -n __fish_use_subcommand -a '(__cuenv_commands)' -d command
complete -c cuenv -n __fish_use_subcommand -l version -d 'show cuenv version'
complete -c cuenv -l help -d 'show help'

# versions
complete -c cuenv -n '__cuenv_cmd_is use local global; and not __cuenv_prev_is --cudnn --cupti' -a '(__cuenv_installed cuda) system'
complete -c cuenv -n '__cuenv_cmd_is uninstall remove; and not __cuenv_prev_is cuda cudnn' -a 'cuda cudnn (__cuenv_installed cuda) (__cuenv_installed cudnn)'
complete -c cuenv -n '__cuenv_cmd_is uninstall remove; and __cuenv_prev_is cuda' -a '(__cuenv_installed cuda)'
complete -c cuenv -n '__cuenv_cmd_is uninstall remove; and __cuenv_prev_is cudnn' -a '(__cuenv_installed cudnn)'
complete -c cuenv -n '__cuenv_cmd_is install; and not __cuenv_prev_is cudnn --cudnn --cupti' -a 'cuda cudnn (__cuenv_remote cuda)'
complete -c cuenv -n '__cuenv_cmd_is install; and __cuenv_prev_is cudnn' -a '(__cuenv_remote cudnn)'
complete -c cuenv -n '__cuenv_cmd_is list-remote add' -a 'cuda cudnn'
complete -c cuenv -n '__cuenv_cmd_is init' -a 'bash zsh fish direnv'
complete -c cuenv -n '__cuenv_cmd_is completion' -a 'bash zsh fish'
complete -c cuenv -n '__cuenv_cmd_is help' -a '(__cuenv_commands)'

# flags
complete -c cuenv -n '__cuenv_cmd_is use local global' -l cudnn -x -a '(__cuenv_installed cudnn)' -d 'cuDNN version'
complete -c cuenv -n '__cuenv_cmd_is use local global install' -l cupti -x -a '(__cuenv_installed cuda)' -d 'CUPTI from CUDA version'
complete -c cuenv -n '__cuenv_cmd_is use local global env exec' -l isolate -d 'strip foreign CUDA dirs'
complete -c cuenv -n '__cuenv_cmd_is use local global' -l unset -d 'drop the selection'
complete -c cuenv -n '__cuenv_cmd_is local global' -l no-isolate -d 'keep foreign CUDA dirs'
complete -c cuenv -n '__cuenv_cmd_is local global' -l force -d 'allow versions not installed'
complete -c cuenv -n '__cuenv_cmd_is install' -l cudnn -x -a '(__cuenv_remote cudnn)' -d 'cuDNN version'
complete -c cuenv -n '__cuenv_cmd_is install lock' -l components -x -d 'redist components'
complete -c cuenv -n '__cuenv_cmd_is install lock' -l runtime-only -d 'runtime libraries only'
complete -c cuenv -n '__cuenv_cmd_is install' -l source -x -a 'redist runfile pypi'
complete -c cuenv -n '__cuenv_cmd_is install update' -l mirror -x
complete -c cuenv -n '__cuenv_cmd_is install' -l index -x
complete -c cuenv -n '__cuenv_cmd_is install' -l jobs -x
complete -c cuenv -n '__cuenv_cmd_is install' -l no-cache
complete -c cuenv -n '__cuenv_cmd_is install' -l quiet
complete -c cuenv -n '__cuenv_cmd_is install' -l for -x -d 'framework==version'
complete -c cuenv -n '__cuenv_cmd_is install' -l locked -d 'what .cuenv.lock pins'
complete -c cuenv -n '__cuenv_cmd_is install' -l timeout -x -d 'seconds per archive'
complete -c cuenv -n '__cuenv_cmd_is install' -l max-download -x -d 'bytes, size unknown'
complete -c cuenv -n '__cuenv_cmd_is install' -l max-expansion -x -d 'ratio to archive size'
complete -c cuenv -n '__cuenv_cmd_is check doctor versions needs list-remote' -l json -d 'JSON output'
complete -c cuenv -n '__cuenv_cmd_is check' -l compile
complete -c cuenv -n '__cuenv_cmd_is check' -l device -x
complete -c cuenv -n '__cuenv_cmd_is check' -l timeout -x
complete -c cuenv -n '__cuenv_cmd_is exec lock' -l check -d 'smoke test first'
complete -c cuenv -n '__cuenv_cmd_is env' -l format -x -a 'sh bash zsh fish json dockerfile github'
complete -c cuenv -n '__cuenv_cmd_is modules' -l format -x -a 'lua tcl'
complete -c cuenv -n '__cuenv_cmd_is list-remote' -l all
complete -c cuenv -n '__cuenv_cmd_is gc' -l cache -d 'also empty the download cache'
complete -c cuenv -n '__cuenv_cmd_is add' -l as -x
complete -c cuenv -n '__cuenv_cmd_is add' -l cuda -x
complete -c cuenv -n '__cuenv_cmd_is needs' -l python
complete -c cuenv -n '__cuenv_cmd_is add' -F
complete -c cuenv -n '__cuenv_cmd_is exec' -F
# mirror DIR SPEC...
complete -c cuenv -n '__cuenv_cmd_is mirror; and not __cuenv_prev_is --cudnn --cupti --platform --components --source --mirror --for' -a '(__cuenv_remote cuda)' -F
complete -c cuenv -n '__cuenv_cmd_is mirror' -l cudnn -x -a '(__cuenv_remote cudnn)' -d 'cuDNN version'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l cupti -x -a '(__cuenv_remote cuda)' -d 'CUPTI from CUDA version'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l for -x -d 'framework==version'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l platform -x -a 'linux-x86_64 linux-sbsa linux-aarch64 linux-ppc64le windows-x86_64' -d 'comma-separated'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l components -x -d 'redist components'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l runtime-only -d 'runtime libraries only'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l source -x -a 'redist runfile'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l mirror -x -d 'fetch from URL'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l no-cache -d 'not from the download cache'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l verify -d 'hash every file again'
complete -c cuenv -n '__cuenv_cmd_is mirror' -l quiet
