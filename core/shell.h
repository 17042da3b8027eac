/*
 * shell.h: writing shell code that is safe to eval.
 *
 * Whatever cuenv prints for `eval` must stay correct for any bytes a path
 * or value can hold: spaces, quotes, $, backticks, globs, newlines. Every
 * value is emitted single-quoted, where no shell expands anything; the
 * only character needing care is the quote itself (and, for fish, the
 * backslash). Names are cuenv's own and checked with shell_name_ok().
 */
#ifndef CUENV_SHELL_H
#define CUENV_SHELL_H

#include "buf.h"
#include "env.h"

/*
 * SHELL_PWSH (PowerShell) and SHELL_CMD (Windows' cmd.exe) are the
 * Windows integrations' (cuenv init pwsh, cuenv init cmd): for them
 * shell_export writes shell_pwsh_export's and shell_cmd_export's lines;
 * shell_quote is shell_pwsh_quote for PowerShell and sh's for cmd. cmd has no prompt hook, so shell_array and
 * shell_local write nothing for it.
 */
enum shell {
	SHELL_BASH,
	SHELL_ZSH,
	SHELL_FISH,
	SHELL_SH,
	SHELL_PWSH,
	SHELL_CMD
};

/* Parse "bash", "zsh", "fish", "sh", "pwsh" or "cmd"; -1 when unknown. */
int shell_parse(const char *s, enum shell *out);
const char *shell_name(enum shell sh);

/* Append s quoted for sh (bash, zsh), fish or PowerShell. */
void shell_quote(enum shell sh, const char *s, struct buf *out);

/* Append s to out as one sh word, quoted only when it needs to be (so
 * that a hint naming a path pastes as printed). */
void shell_quote_word(struct buf *out, const char *s);

/* Is name a plain identifier ([A-Za-z_][A-Za-z0-9_]*)? */
int shell_name_ok(const char *name);

/*
 * Append code that exports name=value, or unsets it when value is NULL.
 * For SHELL_CMD, a value shell_cmd_export cannot carry writes nothing:
 * callers check with shell_cmd_export first.
 */
void shell_export(enum shell sh, const char *name, const char *value,
		  struct buf *out);
/* Append code that applies every change. */
void shell_apply(enum shell sh, const struct env_changes *c, struct buf *out);
/*
 * Append code that sets the shell (not exported) array name to items
 * (PowerShell: a global variable holding an array; cmd: nothing).
 */
void shell_array(enum shell sh, const char *name, const struct strv *items,
		 struct buf *out);
/* Append code that sets the shell (not exported) variable name
 * (PowerShell: a global variable; cmd: nothing). */
void shell_local(enum shell sh, const char *name, const char *value,
		 struct buf *out);

/*
 * Windows' cmd.exe, for batch files:
 *   for /f "delims=" %%i in ('cuenv env --format cmd') do set %%i
 * Each line is one SET argument, `"NAME=value"` (`"NAME="` unsets). The
 * line reaches cmd as a FOR variable's value, which is substituted after
 * cmd has expanded %VAR% and handled ^ & | < > ( ) and quotes (see
 * shell.c), so all of those are carried as they are. Returns 0, or -1
 * with nothing appended when the line cannot carry the value: a newline
 * or carriage return (FOR /F splits lines there) or '!' (with delayed
 * expansion on, cmd would expand or drop it). An empty value unsets, as
 * in cmd itself.
 */
int shell_cmd_export(const char *name, const char *value, struct buf *out);

/*
 * PowerShell: `$env:NAME = '...'` (a verbatim string: every quote
 * character doubled, including U+2018, U+2019, U+201A and U+201B, which
 * PowerShell also takes as single quotes), or
 * `Remove-Item Env:NAME -ErrorAction SilentlyContinue` when value is NULL.
 */
void shell_pwsh_quote(const char *s, struct buf *out);
void shell_pwsh_export(const char *name, const char *value, struct buf *out);

#endif
