# cuenv shell integration for fish. Load it with:  cuenv init fish | source
#
# The hook runs no process unless the directory, a selection variable, a
# watched .cuenv, the global default or the store changed.
function cuenv
    switch "$argv[1]"
        case use
            CUENV_SHELL=fish @CUENV_BIN@ $argv | source
            set -l rc $pipestatus[1]
            __cuenv_mark
            return $rc
        case add remove uninstall local global install
            @CUENV_BIN@ $argv
            set -l rc $status
            set -g __cuenv_key
            # Not with a one-shot CUENV_ROOT=/x: the next prompt does it.
            if test "$CUENV_ROOT" = "$__cuenv_root"
                __cuenv_hook
            end
            return $rc
        case '*'
            @CUENV_BIN@ $argv
    end
end

# The shell's own CUENV_ROOT, as the hook last used it (from here on).
set -q __cuenv_root; or set -g __cuenv_root "$CUENV_ROOT"

function __cuenv_mark
    set -g __cuenv_key "$PWD"\x1f"$CUENV_ROOT"\x1f"$CUENV_VERSION"\x1f"$CUENV_CUDNN_VERSION"\x1f"$CUENV_CUPTI_VERSION"\x1f"$CUENV_ISOLATE"\x1f"$VIRTUAL_ENV"\x1f"$CONDA_PREFIX"\x1f"$CUENV_OVER_VENV"
end

function __cuenv_stale
    for f in $__cuenv_absent
        test -e "$f"; and return 0
    end
    for f in $__cuenv_watch
        test -e "$f"; or return 0
        test "$f" -nt "$__cuenv_stamp"; and return 0
    end
    return 1
end

function __cuenv_hook --on-event fish_prompt --on-variable PWD
    set -l prev "$__cuenv_key"
    __cuenv_mark
    if test "$__cuenv_key" != "$prev"; or __cuenv_stale
        set -g __cuenv_root "$CUENV_ROOT"
        CUENV__SAID="$__cuenv_said" @CUENV_BIN@ export fish --pid $fish_pid | source
    end
end
