#include "plat/envmap.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/xalloc.h"

/* ---- envmap --------------------------------------------------------------- */

void envmap_from(struct envmap *env, char *const *envp)
{
	for (; envp && *envp; envp++)
		if (strchr(*envp, '='))
			strv_push(&env->vars, *envp);
}

void envmap_copy(struct envmap *dst, const struct envmap *src)
{
	dst->rules = src->rules;
	for (size_t i = 0; i < src->vars.n; i++)
		strv_push(&dst->vars, src->vars.v[i]);
}

void envmap_release(struct envmap *env)
{
	strv_release(&env->vars);
}

const struct plat_path_rules *envmap_rules(const struct envmap *env)
{
	return env->rules ? env->rules : plat_path_native();
}

/* Is var "NAME=..." for this name (nl bytes)? */
static int is_var(const struct plat_path_rules *r, const char *var,
		  const char *name, size_t nl)
{
	int same = r->fold_case ? !strncasecmp(var, name, nl)
				: !strncmp(var, name, nl);

	return same && var[nl] == '=';
}

static long find_var(const struct envmap *env, const char *name)
{
	const struct plat_path_rules *r = envmap_rules(env);
	size_t nl = strlen(name);

	for (size_t i = 0; i < env->vars.n; i++)
		if (is_var(r, env->vars.v[i], name, nl))
			return (long)i;
	return -1;
}

const char *env_get(char *const *envp, const char *name)
{
	const struct plat_path_rules *r = plat_path_native();
	size_t nl = strlen(name);

	for (size_t i = 0; envp && envp[i]; i++)
		if (is_var(r, envp[i], name, nl))
			return envp[i] + nl + 1;
	return NULL;
}

const char *env_get_nonempty(char *const *envp, const char *name)
{
	const char *v = env_get(envp, name);

	return v && *v ? v : NULL;
}

const char *envmap_get(const struct envmap *env, const char *name)
{
	long i = find_var(env, name);

	return i < 0 ? NULL : env->vars.v[i] + strlen(name) + 1;
}

void envmap_set(struct envmap *env, const char *name, const char *value)
{
	struct buf b = BUF_INIT;
	long i = find_var(env, name);

	if (i < 0) {
		buf_printf(&b, "%s=%s", name, value);
		strv_push_take(&env->vars, buf_detach(&b));
		return;
	}
	/* The name as it was spelled (Windows' "Path" stays "Path"). */
	buf_printf(&b, "%.*s=%s", (int)strlen(name), env->vars.v[i], value);
	free(env->vars.v[i]);
	env->vars.v[i] = buf_detach(&b);
}

void envmap_unset(struct envmap *env, const char *name)
{
	long i = find_var(env, name);

	if (i >= 0)
		strv_remove(&env->vars, (size_t)i);
}

/* ---- diff ------------------------------------------------------------------ */

static int cmp_change(const void *a, const void *b)
{
	return strcmp(((const struct env_change *)a)->name,
		      ((const struct env_change *)b)->name);
}

static void push_change(struct env_changes *out, const char *name, size_t nl,
			const char *value)
{
	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	out->v[out->n].name = xstrndup(name, nl);
	out->v[out->n].value = value ? xstrdup(value) : NULL;
	out->n++;
}

void env_diff(const struct envmap *from, const struct envmap *to,
	      struct env_changes *out)
{
	for (size_t i = 0; i < to->vars.n; i++) {
		const char *s = to->vars.v[i], *eq = strchr(s, '=');
		char *name = xstrndup(s, (size_t)(eq - s));
		const char *old = envmap_get(from, name);

		if (!old || strcmp(old, eq + 1))
			push_change(out, s, (size_t)(eq - s), eq + 1);
		free(name);
	}
	for (size_t i = 0; i < from->vars.n; i++) {
		const char *s = from->vars.v[i], *eq = strchr(s, '=');
		char *name = xstrndup(s, (size_t)(eq - s));

		if (!envmap_get(to, name))
			push_change(out, s, (size_t)(eq - s), NULL);
		free(name);
	}
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), cmp_change);
}

void env_changes_release(struct env_changes *c)
{
	for (size_t i = 0; i < c->n; i++)
		FREE_EACH(c->v[i].name, c->v[i].value);
	free(c->v);
	memset(c, 0, sizeof(*c));
}
