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

enum shell { SHELL_BASH, SHELL_ZSH, SHELL_FISH, SHELL_SH };

/* Parse "bash", "zsh", "fish" or "sh"; -1 when unknown. */
int shell_parse(const char *s, enum shell *out);
const char *shell_name(enum shell sh);

/* Append s quoted for sh (bash, zsh) or fish. */
void shell_quote(enum shell sh, const char *s, struct buf *out);

/* Is name a plain identifier ([A-Za-z_][A-Za-z0-9_]*)? */
int shell_name_ok(const char *name);

/* Append code that exports name=value, or unsets it when value is NULL. */
void shell_export(enum shell sh, const char *name, const char *value,
		  struct buf *out);
/* Append code that applies every change. */
void shell_apply(enum shell sh, const struct env_changes *c, struct buf *out);
/* Append code that sets the shell (not exported) array name to items. */
void shell_array(enum shell sh, const char *name, const struct strv *items,
		 struct buf *out);
/* Append code that sets the shell (not exported) variable name. */
void shell_local(enum shell sh, const char *name, const char *value,
		 struct buf *out);

#endif
