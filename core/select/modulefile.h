/*
 * modulefile.h: the text of environment modulefiles (`cuenv modules`),
 * for Lmod (Lua, tcl 0) or Environment Modules (Tcl, tcl 1), setting the
 * same variables as activation does for that version alone. Strings are
 * quoted for the language: no folder name can end a word or run code.
 * modulefile_write_all writes them; cmd/modules.c says what it wrote.
 */
#ifndef CUENV_MODULEFILE_H
#define CUENV_MODULEFILE_H

#include "base/buf.h"
#include "base/err.h"
#include "store/store.h"

/*
 * A CUDA toolkit's module, appended to out: PATH, LD_LIBRARY_PATH,
 * LIBRARY_PATH and CPATH prepended (without the folders the loader and
 * the shell search already), CUDA_HOME, CUDA_PATH, and CUENV_ACTIVE
 * pushed; it conflicts with any other cuda module.
 */
void modulefile_cuda(int tcl, const struct store_version *in, struct buf *out);

/*
 * A cuDNN's module, appended to out: it needs one of the cuda modules of
 * its CUDA major among cudas loaded, and puts its folders in front of
 * that CUDA's, as activation does.
 */
void modulefile_cudnn(int tcl, const struct store_version *in,
		      const struct store_version_list *cudas, struct buf *out);

/*
 * The module of in (a CUDA's or a cuDNN's, as above): its file's name
 * below the kind's folder (the CUDA version, the cuDNN's install name;
 * ".lua" added for Lmod) into name, its text into out. Returns CUENV_OK,
 * or CUENV_NO, nothing written, for a cuDNN no CUDA of its major among
 * cudas can carry.
 */
int modulefile_for(int tcl, const struct store_version *in,
		   const struct store_version_list *cudas, struct buf *name,
		   struct buf *out);

/*
 * --format: "lua" (Lmod: *tcl 0) or "tcl" (Environment Modules: *tcl 1).
 * Returns CUENV_OK, or CUENV_E_USAGE naming format, with a hint.
 */
int modulefile_format(const char *format, int *tcl, struct cuenv_err *err);

/*
 * Write the module of every CUDA of cudas into dir/cuda, then of every
 * cuDNN of cudnns into dir/cudnn (modulefile_for: a cuDNN's only where
 * cudas has a CUDA of its major), creating the folders, each file
 * replaced atomically (mode 0644). Each path written is pushed on
 * written; each cuDNN left out gets its line on skipped ("no module for
 * cudnn NAME: no CUDA M installed for it to depend on"). Returns CUENV_OK
 * or the first failure (CUENV_E_STORE), after which nothing more is
 * written.
 */
int modulefile_write_all(int tcl, const char *dir,
			 const struct store_version_list *cudas,
			 const struct store_version_list *cudnns,
			 struct strv *written, struct strv *skipped,
			 struct cuenv_err *err);

#endif
