/*
 * envfmt.h: the variables of `cuenv env` written for what is not a shell
 * (core/shell.h writes those): Dockerfile ENV lines, $GITHUB_ENV lines
 * and a JSON object.
 */
#ifndef CUENV_ENVFMT_H
#define CUENV_ENVFMT_H

#include "buf.h"
#include "env.h"
#include "err.h"

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
