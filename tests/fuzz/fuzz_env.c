/*
 * fuzz_env.c: libFuzzer target for activation and its undo (core/select/env.c):
 * __CUENV_STATE is read back from the environment, where anything may
 * have changed it. The first byte picks one of two checks; the rest is
 * lines.
 *
 * Even: a round trip. Lines "cuda=PREFIX", "bin=", "lib=", "inc=",
 * "cupti=", "searched=" (the toolkit's folders), "dnn=PREFIX", "dnnlib=",
 * "dnninc=" (a cuDNN), "xcupti=DIR" (CUPTI from another release) and
 * "isolate" describe an activation; any other "NAME=VALUE" line is a
 * variable of the starting environment. Aborts unless
 *   - env_undo of what env_activate made gives the starting environment
 *     back, exactly (README: "removes exactly cuenv's own entries and
 *     restores what it replaced");
 *   - activating again after that undo gives the same environment as the
 *     first activation.
 *
 * Odd: any environment, "NAME=VALUE" lines, __CUENV_STATE among them.
 * Aborts unless env_undo removes __CUENV_STATE and leaves alone every
 * variable the state cannot name (its name is not in the state, and the
 * state has no %XX escape that could spell it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "select/env.h"
#include "store/store.h"
#include "base/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violation(const char *what, const struct envmap *a,
		      const struct envmap *b)
{
	fprintf(stderr, "fuzz_env: invariant broken: %s\n", what);
	for (size_t i = 0; a && i < a->vars.n; i++)
		fprintf(stderr, "  before: %s\n", a->vars.v[i]);
	for (size_t i = 0; b && i < b->vars.n; i++)
		fprintf(stderr, "  after:  %s\n", b->vars.v[i]);
	abort();
}

/* The same variables with the same values, in any order. */
static int env_equal(const struct envmap *a, const struct envmap *b)
{
	if (a->vars.n != b->vars.n)
		return 0;
	for (size_t i = 0; i < a->vars.n; i++)
		if (strv_find(&b->vars, a->vars.v[i]) < 0)
			return 0;
	return 1;
}

/* "NAME=VALUE" into env, by name (a later line replaces an earlier). */
static void set_line(struct envmap *env, const char *line)
{
	const char *eq = strchr(line, '=');
	char *name;

	if (!eq || eq == line)
		return;
	name = xstrndup(line, (size_t)(eq - line));
	envmap_set(env, name, eq + 1);
	free(name);
}

static int take(const char *line, const char *key, const char **value)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || line[n] != '=')
		return 0;
	*value = line + n + 1;
	return 1;
}

static void set_prefix(struct store_version *in, const char *prefix)
{
	free(in->prefix);
	in->prefix = xstrdup(prefix);
}

static void round_trip(const struct strv *lines)
{
	struct store_version cuda, cudnn, cupti;
	struct active act = { .cuda = &cuda };
	struct envmap start = ENVMAP_INIT, env = ENVMAP_INIT,
		      first = ENVMAP_INIT;
	struct strv warnings = STRV_INIT;
	const char *v;

	store_version_init(&cuda, KIT_CUDA);
	store_version_init(&cudnn, KIT_CUDNN);
	store_version_init(&cupti, KIT_CUDA);
	cuda.version = xstrdup("12.4.1");
	cudnn.version = xstrdup("9.1.0.70");
	cupti.version = xstrdup("12.6.3");
	set_prefix(&cuda, "/opt/cuda");
	for (size_t i = 0; i < lines->n; i++) {
		const char *l = lines->v[i];

		if (take(l, "cuda", &v))
			set_prefix(&cuda, v);
		else if (take(l, "bin", &v))
			strv_push(&cuda.bin, v);
		else if (take(l, "lib", &v))
			strv_push(&cuda.lib, v);
		else if (take(l, "inc", &v))
			strv_push(&cuda.include, v);
		else if (take(l, "cupti", &v))
			strv_push(&cuda.cupti, v);
		else if (take(l, "searched", &v))
			strv_push(&cuda.searched, v);
		else if (take(l, "dnn", &v)) {
			set_prefix(&cudnn, v);
			act.cudnn = &cudnn;
		} else if (take(l, "dnnlib", &v))
			strv_push(&cudnn.lib, v);
		else if (take(l, "dnninc", &v))
			strv_push(&cudnn.include, v);
		else if (take(l, "xcupti", &v)) {
			strv_push(&cupti.cupti, v);
			act.cupti = &cupti;
		} else if (!strcmp(l, "isolate"))
			act.isolate = 1;
		else if (strncmp(l, ENV_STATE_VAR "=",
				 strlen(ENV_STATE_VAR) + 1))
			set_line(&start, l);
	}

	envmap_copy(&env, &start);
	env_activate(&env, &act, &warnings);
	if (!envmap_get(&env, ENV_STATE_VAR))
		violation("activation records its state", &start, &env);
	envmap_copy(&first, &env);
	env_undo(&env);
	if (!env_equal(&start, &env))
		violation("undo gives the starting environment back", &start,
			  &env);
	env_activate(&env, &act, &warnings);
	if (!env_equal(&first, &env))
		violation("activating again gives the same environment", &first,
			  &env);

	envmap_release(&start);
	envmap_release(&env);
	envmap_release(&first);
	strv_release(&warnings);
	store_version_release(&cuda);
	store_version_release(&cudnn);
	store_version_release(&cupti);
}

static void any_undo(const struct strv *lines)
{
	struct envmap before = ENVMAP_INIT, env = ENVMAP_INIT;
	const char *state;
	int escapes;

	for (size_t i = 0; i < lines->n; i++)
		set_line(&before, lines->v[i]);
	state = envmap_get(&before, ENV_STATE_VAR);
	escapes = state && strchr(state, '%');
	envmap_copy(&env, &before);
	env_undo(&env);
	if (envmap_get(&env, ENV_STATE_VAR))
		violation("undo removes the state", &before, &env);
	for (size_t i = 0; i < before.vars.n; i++) {
		const char *var = before.vars.v[i], *eq = strchr(var, '=');
		char *name = xstrndup(var, (size_t)(eq - var));
		const char *now = envmap_get(&env, name);

		if (strcmp(name, ENV_STATE_VAR) && !escapes &&
		    (!state || !strstr(state, name)) &&
		    (!now || strcmp(now, eq + 1)))
			violation("undo leaves alone what the state does not "
				  "name",
				  &before, &env);
		free(name);
	}
	envmap_release(&before);
	envmap_release(&env);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strv lines = STRV_INIT;
	char *text;

	if (!size || memchr(data, '\0', size))
		return -1; /* an environment holds C strings */
	text = xstrndup((const char *)data + 1, size - 1);
	strv_split(&lines, text, '\n');
	if (data[0] % 2 == 0)
		round_trip(&lines);
	else
		any_undo(&lines);
	strv_release(&lines);
	free(text);
	return 0;
}
