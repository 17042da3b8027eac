/*
 * envfmt.h: the variables of `cuenv env` in the format asked for: a
 * shell's code (core/plat/shell.h writes it), Dockerfile ENV lines,
 * $GITHUB_ENV lines, a JSON object, cmd's "NAME=value" lines or
 * PowerShell's $env: assignments. Pure: cmd/env.c prints the text.
 */
#ifndef CUENV_ENVFMT_H
#define CUENV_ENVFMT_H

#include "base/buf.h"
#include "select/env.h"
#include "base/err.h"
#include "plat/shell.h"

/* What `cuenv env --format` names. */
enum envfmt_kind {
	ENVFMT_SHELL, /* sh, bash, zsh, fish: envfmt.sh */
	ENVFMT_JSON,
	ENVFMT_DOCKERFILE,
	ENVFMT_GITHUB,
	ENVFMT_CMD,
	ENVFMT_POWERSHELL,
};

struct envfmt {
	enum envfmt_kind kind;
	enum shell sh;	  /* ENVFMT_SHELL's shell */
	const char *name; /* the word given, borrowed */
};

/*
 * Parse format ("sh", "bash", "zsh", "fish", "json", "dockerfile",
 * "github", "cmd", "powershell") into f. pwsh and cmd are the hooks'
 * shells: here PowerShell is "powershell" and "pwsh" is unknown.
 * Returns CUENV_OK or CUENV_E_USAGE, with a hint naming the formats.
 */
int envfmt_parse(const char *format, struct envfmt *f, struct cuenv_err *err);

/*
 * ch (the changes from the environment without cuenv) in format f onto
 * out. Dockerfile and $GITHUB_ENV lines cannot unset: each variable the
 * selection unsets is skipped, with a line for warnings. cmd and
 * PowerShell get no ENV_STATE_VAR (no Windows hook reads it yet).
 * Returns CUENV_OK, or CUENV_E_USAGE naming a variable the format
 * cannot carry (a newline in a Dockerfile; a line break or '!' for cmd);
 * out then holds part of the text.
 */
int envfmt_write(const struct envfmt *f, const struct env_changes *ch,
		 struct buf *out, struct strv *warnings, struct cuenv_err *err);

/*
 * ENV NAME="value" onto out, with \, " and $ escaped. Returns CUENV_OK,
 * or CUENV_E_USAGE naming the variable for a value with a newline.
 */
int envfmt_dockerfile_line(const char *name, const char *value, struct buf *out,
			   struct cuenv_err *err);

/*
 * NAME=value onto out for $GITHUB_ENV, or NAME<<DELIMITER, the value
 * and the delimiter on lines of their own for a value with a line break,
 * the delimiter one that occurs nowhere in the value.
 */
void envfmt_github_line(const char *name, const char *value, struct buf *out);

/*
 * ch (but ENV_STATE_VAR) as a JSON object of name: value (null: unset),
 * sorted by name, indented by 2, and a newline, onto out.
 */
void envfmt_json(const struct env_changes *ch, struct buf *out);

#endif
