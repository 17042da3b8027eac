#include "envfmt.h"

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
