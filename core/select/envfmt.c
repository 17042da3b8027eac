#include "select/env.h"
#include "select/envfmt.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

/* ENV NAME="value": \\, " and $ escaped; a newline cannot be written. */
int envfmt_dockerfile_line(const char *name, const char *value, struct buf *out,
			   struct cuenv_err *err)
{
	if (strchr(value, '\n'))
		return cuenv_fail(err, CUENV_E_USAGE,
				  "env: %s holds a newline, which a Dockerfile "
				  "ENV line cannot carry",
				  name);
	buf_printf(out, "ENV %s=\"", name);
	for (const char *p = value; *p; p++) {
		if (*p == '\\' || *p == '"' || *p == '$')
			buf_addc(out, '\\');
		buf_addc(out, *p);
	}
	buf_adds(out, "\"\n");
	return CUENV_OK;
}

/*
 * For $GITHUB_ENV: NAME=value, or for a value with a newline or a carriage
 * return the documented NAME<<DELIMITER form. The runner reads lines
 * ending in \n or \r\n and stops at the first one equal to the
 * delimiter, so the delimiter is one that occurs nowhere in the value (a
 * line "CUENV_EOF\r" would end it too).
 */
void envfmt_github_line(const char *name, const char *value, struct buf *out)
{
	struct buf d = BUF_INIT;

	if (!strchr(value, '\n') && !strchr(value, '\r')) {
		buf_printf(out, "%s=%s\n", name, value);
		return;
	}
	buf_adds(&d, "CUENV_EOF");
	for (unsigned i = 0; strstr(value, d.data); i++) {
		buf_reset(&d);
		buf_printf(&d, "CUENV_EOF_%u", i);
	}
	buf_printf(out, "%s<<%s\n%s\n%s\n", name, d.data, value, d.data);
	buf_release(&d);
}

void envfmt_json(const struct env_changes *ch, struct buf *out)
{
	json_t *j = json_object();
	char *s;

	for (size_t i = 0; i < ch->n; i++) {
		if (!strcmp(ch->v[i].name, ENV_STATE_VAR))
			continue;
		json_object_set_new(j, ch->v[i].name,
				    ch->v[i].value ? json_string(ch->v[i].value)
						   : json_null());
	}
	s = json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS);
	buf_adds(out, s);
	buf_addc(out, '\n');
	free(s);
	json_decref(j);
}

int envfmt_parse(const char *format, struct envfmt *f, struct cuenv_err *err)
{
	static const struct {
		const char *name;
		enum envfmt_kind kind;
	} others[] = { { "json", ENVFMT_JSON },
		       { "dockerfile", ENVFMT_DOCKERFILE },
		       { "github", ENVFMT_GITHUB },
		       { "cmd", ENVFMT_CMD },
		       { "powershell", ENVFMT_POWERSHELL } };

	f->name = format;
	f->sh = SHELL_SH;
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++) {
		if (!strcmp(format, others[i].name)) {
			f->kind = others[i].kind;
			return CUENV_OK;
		}
	}
	f->kind = ENVFMT_SHELL;
	if (!shell_parse(format, &f->sh) && f->sh <= SHELL_SH)
		return CUENV_OK;
	cuenv_fail(err, CUENV_E_USAGE, "env: unknown format '%s'", format);
	return cuenv_hint(err, "formats: sh, bash, zsh, fish, json, "
			       "dockerfile, github, cmd, powershell");
}

/* cmd's "NAME=value" lines or PowerShell's $env: assignments. */
static int write_windows(const struct envfmt *f, const struct env_changes *ch,
			 struct buf *out, struct cuenv_err *err)
{
	for (size_t i = 0; i < ch->n; i++) {
		const char *name = ch->v[i].name, *value = ch->v[i].value;

		if (!strcmp(name, ENV_STATE_VAR))
			continue;
		if (f->kind == ENVFMT_POWERSHELL) {
			if (shell_pwsh_export(name, value, out) &&
			    shell_name_ok(name))
				return cuenv_fail(err, CUENV_E_USAGE,
						  "env: %s holds bytes that are "
						  "not UTF-8, which PowerShell "
						  "cannot carry",
						  name);
		} else if (shell_cmd_export(name, value, out))
			return cuenv_fail(
				err, CUENV_E_USAGE,
				"env: %s holds %s, which cmd's set cannot "
				"carry",
				name,
				strchr(value, '!') ? "'!' (delayed expansion "
						     "would expand it)"
						   : "a line break");
	}
	return CUENV_OK;
}

/* Dockerfile ENV lines or $GITHUB_ENV lines: neither can unset. */
static int write_assignments(const struct envfmt *f,
			     const struct env_changes *ch, struct buf *out,
			     struct strv *warnings, struct cuenv_err *err)
{
	struct buf w = BUF_INIT;
	int rc = CUENV_OK;

	for (size_t i = 0; i < ch->n && !rc; i++) {
		const char *name = ch->v[i].name;

		if (!strcmp(name, ENV_STATE_VAR))
			continue;
		if (!ch->v[i].value) {
			buf_reset(&w);
			buf_printf(&w,
				   "%s is unset by the selection; %s "
				   "cannot unset it",
				   name, f->name);
			strv_push(warnings, w.data);
			continue;
		}
		if (f->kind == ENVFMT_DOCKERFILE)
			rc = envfmt_dockerfile_line(name, ch->v[i].value, out,
						    err);
		else
			envfmt_github_line(name, ch->v[i].value, out);
	}
	buf_release(&w);
	return rc;
}

int envfmt_write(const struct envfmt *f, const struct env_changes *ch,
		 struct buf *out, struct strv *warnings, struct cuenv_err *err)
{
	switch (f->kind) {
	case ENVFMT_JSON:
		envfmt_json(ch, out);
		return CUENV_OK;
	case ENVFMT_CMD:
	case ENVFMT_POWERSHELL:
		return write_windows(f, ch, out, err);
	case ENVFMT_DOCKERFILE:
	case ENVFMT_GITHUB:
		return write_assignments(f, ch, out, warnings, err);
	case ENVFMT_SHELL:
		break;
	}
	shell_apply(f->sh, ch, out);
	return CUENV_OK;
}
