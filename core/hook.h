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

#include "buf.h"
#include "env.h"
#include "err.h"
#include "shell.h"

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

#endif
