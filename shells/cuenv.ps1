# cuenv for PowerShell (Windows PowerShell 5.1, PowerShell 7). Load it in
# $PROFILE with:  cuenv init pwsh | Out-String | Invoke-Expression
#
# The same integration as bash's (shells/cuenv.sh): a `cuenv` function, so
# that `cuenv use` can change this session, and a prompt hook that runs
# `cuenv export pwsh`, whose lines take the session from its environment
# to the selection's and record in $env:__CUENV_STATE what cuenv added, so
# that the next one undoes exactly that. The hook runs no process unless
# the folder, a selection variable, a watched .cuenv, the global default
# or the store changed. It keeps $? and $LASTEXITCODE for the prompt.
#
# UNTESTED ON A REAL POWERSHELL (none where cuenv is developed): the lines
# are checked as text against PowerShell's documented grammar only.

$global:__cuenv_bin = @CUENV_BIN@

# The hook's variables exist from here on (for Set-StrictMode users).
foreach ($__cuenv_n in '__cuenv_key', '__cuenv_said', '__cuenv_stamp',
    '__cuenv_watch', '__cuenv_absent', '__cuenv_root', '__cuenv_prompt_hooked') {
    if (-not (Get-Variable -Name $__cuenv_n -Scope Global -ErrorAction SilentlyContinue)) {
        Set-Variable -Name $__cuenv_n -Scope Global -Value $null
    }
}
Remove-Variable -Name __cuenv_n -ErrorAction SilentlyContinue

# cuenv's lines as one string (cuenv writes UTF-8), with NAME=VALUE in
# its environment only, as sh's `NAME=VALUE cuenv ...` does.
function global:__cuenv_run([string]$name, [string]$value, [object[]]$argv) {
    $old = [Environment]::GetEnvironmentVariable($name)
    $enc = $null
    try {
        $enc = [Console]::OutputEncoding
        [Console]::OutputEncoding = New-Object System.Text.UTF8Encoding $false
    } catch {
    }
    [Environment]::SetEnvironmentVariable($name, $value)
    try {
        (& $global:__cuenv_bin @argv) -join "`n"
    } finally {
        [Environment]::SetEnvironmentVariable($name, $old)
        if ($null -ne $enc) {
            try { [Console]::OutputEncoding = $enc } catch { }
        }
    }
}

function global:cuenv {
    $cmd = if ($args.Count) { [string]$args[0] } else { '' }
    if ($cmd -ceq 'use') {
        $out = __cuenv_run 'CUENV_SHELL' 'pwsh' $args
        $rc = $global:LASTEXITCODE
        if ($rc -eq 0 -and $out) {
            Invoke-Expression $out
        }
        __cuenv_mark
        $global:LASTEXITCODE = $rc
    } elseif ($cmd -cin 'add', 'remove', 'uninstall', 'local', 'global', 'install') {
        & $global:__cuenv_bin @args
        $rc = $global:LASTEXITCODE
        # Update the session now, unless CUENV_ROOT is not its own (a
        # one-shot one): the next prompt does it then.
        $global:__cuenv_key = $null
        if ("$env:CUENV_ROOT" -ceq "$global:__cuenv_root") {
            __cuenv_hook
        }
        $global:LASTEXITCODE = $rc
    } else {
        & $global:__cuenv_bin @args
    }
}

# The session's own CUENV_ROOT, as the hook last used it (from here on).
if ($null -eq $global:__cuenv_root) {
    $global:__cuenv_root = "$env:CUENV_ROOT"
}

function global:__cuenv_mark {
    $global:__cuenv_key = @($PWD.ProviderPath, $env:CUENV_ROOT,
        $env:CUENV_VERSION, $env:CUENV_CUDNN_VERSION,
        $env:CUENV_CUPTI_VERSION, $env:CUENV_ISOLATE) -join [char]0x1f
}

# bash's [[ -e $f ]] and [[ $f -nt $stamp ]] (a missing stamp: stale).
function global:__cuenv_stale {
    foreach ($f in @($global:__cuenv_absent)) {
        if ($f -and (Test-Path -LiteralPath $f)) {
            return $true
        }
    }
    $stamp = $null
    if ($global:__cuenv_stamp) {
        $stamp = Get-Item -LiteralPath $global:__cuenv_stamp -Force -ErrorAction SilentlyContinue
    }
    foreach ($f in @($global:__cuenv_watch)) {
        if (-not $f) {
            continue
        }
        $i = Get-Item -LiteralPath $f -Force -ErrorAction SilentlyContinue
        if (-not $i -or -not $stamp -or $i.LastWriteTimeUtc -gt $stamp.LastWriteTimeUtc) {
            return $true
        }
    }
    return $false
}

function global:__cuenv_hook {
    $prev = $global:__cuenv_key
    __cuenv_mark
    if ($global:__cuenv_key -cne $prev -or (__cuenv_stale)) {
        $global:__cuenv_root = "$env:CUENV_ROOT"
        $out = __cuenv_run 'CUENV__SAID' "$global:__cuenv_said" @('export', 'pwsh', '--pid', "$PID")
        if ($out) {
            Invoke-Expression $out
        }
    }
}

# The hook runs first, so that the user's prompt sees the new variables,
# with $? and $LASTEXITCODE as the user's command left them (set again
# just before it runs, and after, for the session: starship's way). It
# wraps the prompt defined when this is loaded (load it after a prompt
# theme) and only once: loading this again does not wrap it twice.
if (-not $global:__cuenv_prompt_hooked) {
    $global:__cuenv_prompt_hooked = $true
    $global:__cuenv_prompt_old = $function:prompt
    if (-not $global:__cuenv_prompt_old) {
        $global:__cuenv_prompt_old = {
            "PS $($executionContext.SessionState.Path.CurrentLocation)$('>' * ($nestedPromptLevel + 1)) "
        }
    }
    function global:prompt {
        $ok = $global:?
        $code = $global:LASTEXITCODE
        __cuenv_hook
        $old = $global:__cuenv_prompt_old
        $global:LASTEXITCODE = $code
        if (-not $ok) {
            Write-Error '' -ErrorAction Ignore
        }
        $text = & $old
        $global:LASTEXITCODE = $code
        if (-not $ok) {
            Write-Error '' -ErrorAction Ignore
        }
        $text
    }
}
