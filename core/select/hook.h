/*
 * hook.h: what `cuenv export` (run by the prompt hook) and `cuenv use`
 * print.
 *
 * Both compute the activation and emit the shell code that takes the
 * shell from its environment to it; they differ in what they say and in
 * what a bad selection does. Everything is written into bufs here: the
 * command prints what is said on stderr, then the code on stdout.
 */
#ifndef CUENV_HOOK_H
#define CUENV_HOOK_H

#include "base/buf.h"
#include "plat/envmap.h"
#include "base/err.h"
#include "plat/shell.h"

struct hook_in {
	const char *root;	     /* CUENV_ROOT */
	const char *cwd;	     /* the shell's working directory */
	const struct envmap *before; /* the shell's environment now */
	const struct envmap *start;  /* what the selection starts from */
	enum shell sh;
	long pid; /* the hook's shell (export --pid); 0 for `use` */
	/*
	 * CUENV__SAID, the digest of what the hook said last
	 * (activation_said), or NULL; looked at only when pid > 0.
	 */
	const char *last_said;
};

/*
 * Compute the activation for in->cwd from in->start and write what the
 * command prints: into says the lines for stderr ("cuenv: warning: ..."
 * for each of the activation's warnings, then the notes below), into
 * code the shell code (activation_emit, then __cuenv_said).
 *
 * For the hook (pid > 0) the code is written even when the selection is
 * bad, so that the shell deactivates and watches for the fix, with the
 * store's stamp for pid (an empty one when the store is refused as
 * untrusted: a chmod fixes that and changes no mtime the hook watches);
 * the error then goes into says ("cuenv: error: ...", "hint: ...") and
 * is cleared, except for CUENV_E_BUG, which is returned. Nothing that was said
 * last (last_said equals this run's digest) is said again. With
 * CUENV_ANNOUNCE=1 in before, a line says what changed, as direnv does:
 * "cuenv: cuda 12.4.1 + cudnn 9.1.0.70 (set by /p/.cuenv)" when a
 * selection is loaded or changes, "cuenv: cuda 12.4.1+cudnn9.1.0
 * unloaded" when one goes (nothing when CUENV_ACTIVE stays the same).
 *
 * For `use` (pid 0) a note says where the version now comes from, and
 * on an error nothing goes into code and the error is returned (err).
 *
 * For cmd (SHELL_CMD) no code is written unless `set` can carry every
 * value that changes (shell_cmd_export): CUENV_E_USAGE names the first
 * that it cannot, so that cmd is never left with half an activation
 * (the hook's code is still written, and that error returned too).
 * Reads the store; writes only the hook's stamp.
 */
int hook_emit(const struct hook_in *in, struct buf *says, struct buf *code,
	      struct cuenv_err *err);

/* What `cuenv use` was asked. */
struct hook_use {
	const char *shell; /* CUENV_SHELL, which the integration sets; or NULL */
	int nargs;	   /* how many SPECs (main allows 0 or 1) */
	const char *spec;  /* the SPEC when nargs is 1 */
	const char *cudnn; /* --cudnn V, or NULL */
	const char *cupti; /* --cupti V, or NULL */
	int isolate;	   /* --isolate */
	int unset;	   /* --unset */
};

/*
 * Check u and, for hook_emit, the shell it names into *sh and the
 * environment `use` starts from into start (empty on entry): before,
 * without the variables `use` sets (CUENV_VERSION, CUENV_CUDNN_VERSION,
 * CUENV_CUPTI_VERSION, CUENV_ISOLATE), then with what u asks for
 * (nothing for --unset: the directory's choice again). CUENV_E_USAGE
 * when the shell has no cuenv integration (the hint says how to add it
 * on this platform, or to use `cuenv exec`), for --unset with a SPEC or
 * another option, for no SPEC without --unset, and for a bad version
 * (version_check).
 */
int hook_use_start(const struct hook_use *u, const struct envmap *before,
		   enum shell *sh, struct envmap *start, struct cuenv_err *err);

#endif
