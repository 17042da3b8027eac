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

#include "base/buf.h"
#include "plat/envmap.h"
#include "base/err.h"

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
 * PowerShell, in ASCII only (a script read in any console code page means
 * the same): s as a verbatim string '...' (' doubled) when it is ASCII,
 * else as an expandable string "..." with ` $ and " escaped by a backtick
 * and every other character as $([char]0x0452) (UTF-16 code units).
 * Returns 0, or -1 when s is not UTF-8 (each such byte written as
 * U+FFFD, what PowerShell's own decoding would make of it).
 * shell_pwsh_export: `$env:NAME = <that>`, or `Remove-Item Env:NAME
 * -ErrorAction SilentlyContinue` when value is NULL; -1 also for a name
 * no shell can carry (nothing written).
 */
int shell_pwsh_quote(const char *s, struct buf *out);
int shell_pwsh_export(const char *name, const char *value, struct buf *out);

/* ---- cuenv init ---------------------------------------------------------- */

/* The integration's templates (shells/), embedded in the binary. */
struct shell_templates {
	const char *sh; /* bash and zsh share it, before their own */
	const char *bash, *zsh, *fish;
	const char *direnv; /* a direnv library (bash) */
	const char *pwsh;   /* PowerShell */
	const char *doskey; /* cmd: a doskey macro file */
};

/* Append tmpl with @CUENV_BIN@ and @CUENV_SHELL@ filled in. */
void shell_fill(struct buf *out, const char *tmpl, const char *bin,
		const char *shell);

/*
 * Append the doskey macro file tmpl names exe in, as "PATH" ($ doubled:
 * doskey reads $ as its own). A '%' cannot be quoted on cmd's command
 * line (it would expand %NAME%), nor a '"' inside quotes: an exe with
 * either (or a line end) is CUENV_E_USAGE, nothing appended.
 */
int shell_fill_doskey(struct buf *out, const char *tmpl, const char *exe,
		      struct cuenv_err *err);

/*
 * The shell a process name or $SHELL names, for `cuenv init -`: "bash",
 * "-zsh" (a login shell), "/usr/bin/fish" give "bash", "zsh", "fish"
 * (static); anything else NULL.
 */
const char *shell_word(const char *s);

/*
 * For `cuenv init -`, as pyenv's: the shell that parent (the name of
 * the process that runs cuenv, or NULL) is, else the one env_shell
 * ($SHELL, or NULL) is, else NULL.
 */
const char *shell_detect(const char *parent, const char *env_shell);

/*
 * Append what `cuenv init name` prints, naming the binary exe: the
 * integration for bash, zsh, fish, pwsh or cmd, or the direnv library.
 * name "-" is the shell detected (shell_detect's answer, or NULL).
 * CUENV_E_USAGE, nothing appended, for a missing name (NULL: the hint
 * offers `init -` where detected is not NULL), an unknown or
 * undetectable shell, or an exe cmd cannot name.
 */
int shell_init_script(const struct shell_templates *t, const char *name,
		      const char *exe, const char *detected, struct buf *out,
		      struct cuenv_err *err);

/* ---- cuenv completion ---------------------------------------------------- */

/* The completion scripts (shells/completion.*), embedded in the binary. */
struct shell_completions {
	const char *bash, *zsh, *fish;
};

/*
 * `cuenv completion NAME`: the script for name (bash, zsh or fish) into
 * *text, borrowed from c. CUENV_E_USAGE with a hint for a missing name
 * (NULL) or another shell.
 */
int shell_completion_script(const struct shell_completions *c, const char *name,
			    const char **text, struct cuenv_err *err);

#endif
