/*
 * envmap.h: a process environment as a value, and reading one.
 *
 * Core never calls getenv(): main captures the environment once
 * (ctx->envp) and each module reads what it is given, with env_get, or
 * edits a copy as a struct envmap (names compared as the platform
 * compares them: Windows' "Path" is PATH). The difference between two
 * envmaps is what the hook prints (env_diff). Low in the platform layer so
 * that the process and start-up code can read the environment without
 * the activation code above it (env.h).
 */
#ifndef CUENV_ENVMAP_H
#define CUENV_ENVMAP_H

#include "base/buf.h"
#include "plat/plat_path.h"

/*
 * A process environment: "NAME=VALUE" strings, owned. rules (NULL: the
 * running system's) say how names compare (Windows: without case, so
 * "Path" is PATH) and how PATH-style lists are split and joined.
 */
struct envmap {
	struct strv vars;
	const struct plat_path_rules *rules;
};

#define ENVMAP_INIT                                                            \
	{                                                                      \
		STRV_INIT, NULL                                                \
	}

/*
 * NAME's value in envp ("NAME=VALUE" strings, NULL-terminated; NULL: none)
 * as a pointer into it, or NULL when unset. What cmd/ reads of the
 * environment main captured (ctx->envp) instead of calling getenv().
 */
const char *env_get(char *const *envp, const char *name);
/* The same, NULL also when NAME is set to "". */
const char *env_get_nonempty(char *const *envp, const char *name);

void envmap_from(struct envmap *env, char *const *envp);
void envmap_copy(struct envmap *dst, const struct envmap *src);
void envmap_release(struct envmap *env);
/* env's rules, or the running system's when it has none. */
const struct plat_path_rules *envmap_rules(const struct envmap *env);
const char *envmap_get(const struct envmap *env, const char *name);
void envmap_set(struct envmap *env, const char *name, const char *value);
void envmap_unset(struct envmap *env, const char *name);

/* A change between two environments: value NULL means unset. */
struct env_change {
	char *name;
	char *value;
};

struct env_changes {
	struct env_change *v;
	size_t n;
};

/* Every variable whose value differs between from and to, sorted by name. */
void env_diff(const struct envmap *from, const struct envmap *to,
	      struct env_changes *out);
void env_changes_release(struct env_changes *c);

#endif
