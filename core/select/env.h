/*
 * env.h: computing the environment an activation gives, and undoing it.
 *
 * Activation prepends the selection's directories to PATH,
 * LD_LIBRARY_PATH, LIBRARY_PATH and CPATH and sets CUDA_HOME, CUDA_PATH,
 * CUDNN_PATH and CUENV_ACTIVE. On Windows, whose loader searches PATH for
 * DLLs, the library folders go on PATH after the toolkit's bin, and
 * LD_LIBRARY_PATH, LIBRARY_PATH and CPATH are left alone. Everything it does is recorded in one
 * variable, __CUENV_STATE, so that undoing it later removes exactly
 * cuenv's own entries and restores what it replaced, whatever the user
 * did in between:
 *
 *   - an entry cuenv prepended is removed (its first occurrence);
 *   - an entry of the user's that cuenv moved to the front (so as never to
 *     duplicate it) or stripped (--isolate) goes back where it was;
 *   - a variable cuenv set is restored to its old value, or unset, but
 *     only while it still holds the value cuenv gave it;
 *   - a path variable that did not exist before is unset once empty.
 *
 * The state is one line: "1" then ";"-separated records of ","-separated
 * fields, each %XX-escaped:
 *	P,VAR,ENTRY	 ENTRY was prepended to VAR
 *	R,VAR,I,ENTRY	 ENTRY was taken out of VAR at index I
 *	U,VAR | E,VAR	 VAR was unset | set but empty before
 *	S,VAR,VALUE	 cuenv set VAR to VALUE
 *	O,VAR,OLD	 ... and VAR held OLD before
 */
#ifndef CUENV_ENV_H
#define CUENV_ENV_H

#include "base/buf.h"
#include "plat/envmap.h"
#include "plat/plat_path.h"
#include "select/select.h"

#define ENV_STATE_VAR "__CUENV_STATE"
/*
 * The PATH a Python venv's activate saved, which its deactivate puts
 * back: activation prepends PATH's new entries to it as well, and undo
 * takes each entry it prepended to PATH out of it once, so that a venv
 * activated or deactivated inside or outside a project leaves cuenv's
 * PATH as the selection has it (issue 21 item 8). Bash and zsh keep it
 * unexported: their hook passes it to cuenv.
 */
#define ENV_VENV_PATH "_OLD_VIRTUAL_PATH"

/*
 * What select_find reads, from env: the working folder and root as given,
 * and the selection cuenv use sets (CUENV_VERSION, CUENV_CUDNN_VERSION,
 * CUENV_CUPTI_VERSION, CUENV_ISOLATE). in borrows env's strings.
 */
void env_select_in(const struct envmap *env, const char *cwd, const char *root,
		   struct select_in *in);

/*
 * Undo the activation recorded in env's __CUENV_STATE (if any) and remove
 * that variable. A malformed state is ignored (nothing is undone).
 */
void env_undo(struct envmap *env);

/*
 * Apply act on top of env (which should have been undone first) and
 * record it in __CUENV_STATE. Foreign directories on LD_LIBRARY_PATH that
 * hold CUDA libraries are stripped when act->isolate, otherwise named in
 * warnings ("DIR (libcupti.so.11.2)").
 */
void env_activate(struct envmap *env, const struct active *act,
		  struct strv *warnings);

/*
 * If dir holds a CUDA library (libcudart, libcupti, libcudnn, libcublas,
 * libnvrtc, ..., or a Windows DLL such as cudart64_110.dll), put one name
 * in example and return 1.
 */
int env_dir_has_cuda_libs(const char *dir, struct buf *example);

/*
 * The first executable regular file called name in env's PATH (absolute
 * entries only), as a heap path, or NULL. On Windows a name without an
 * extension is also tried with each of PATHEXT's (default .COM;.EXE;
 * .BAT;.CMD), as cmd.exe does.
 */
char *env_which(const struct envmap *env, const char *name);

#endif
