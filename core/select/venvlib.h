/*
 * venvlib.h: the Python environment in use and the library folders of
 * the NVIDIA wheels in it, for activation (issue 21).
 *
 * NVIDIA's wheels (nvidia-cusparse-cu12, nvidia-cudnn-cu12, ...) carry
 * DT_RUNPATH $ORIGIN, and glibc searches LD_LIBRARY_PATH before a
 * library's DT_RUNPATH: a selection's folder on LD_LIBRARY_PATH that
 * holds a soname the wheels also ship replaces the wheel's copy for
 * every library the wheels load in turn (the selection's older
 * libnvJitLink.so.12 under the venv's libcusparse.so.12: "undefined
 * symbol: __nvJitLinkAddData_12_1"). Activation therefore puts the
 * folders of the wheels that would be shadowed ahead of the selection's,
 * so that every soname the environment's wheels ship comes from them.
 *
 * Only folders are read, no Python is run: the prompt hook calls this
 * at every change.
 */
#ifndef CUENV_VENVLIB_H
#define CUENV_VENVLIB_H

#include "base/buf.h"
#include "plat/envmap.h"

struct venv_libs {
	char *prefix;	  /* the environment in use, or NULL */
	const char *from; /* what named it: "the program", "VIRTUAL_ENV",
			     "CONDA_PREFIX", "PATH" (its python3 is a
			     venv's) */
	struct strv dirs; /* its wheels' library folders (site-packages/
			     nvidia/<wheel>/lib), in name order */
};

#define VENV_LIBS_INIT                                                         \
	{                                                                      \
		NULL, NULL, STRV_INIT                                          \
	}

void venv_libs_release(struct venv_libs *v);

/*
 * The Python environment env uses, most explicit first: program's
 * (an absolute path PREFIX/bin/NAME whose PREFIX holds pyvenv.cfg: the
 * venv's python that `cuenv exec` runs, activated or not; NULL: none),
 * then VIRTUAL_ENV,
 * then CONDA_PREFIX (each an absolute folder), then the venv whose
 * bin/python3 is the first python3 on PATH (its parent folder holds
 * pyvenv.cfg: `uv run`, a venv's python called by PATH). Fills
 * v->prefix, v->from and v->dirs: each site-packages/nvidia/<wheel>/lib
 * under it (lib/pythonX.Y/site-packages, pydirs_venv) that holds a
 * shared library. Nothing found leaves v empty. Reads folders only.
 */
void venv_libs_find(const struct envmap *env, const char *program,
		    struct venv_libs *v);

/*
 * Of v->dirs, the folders that hold a library file (lib*.so*) whose name
 * a folder of sel holds too: the ones a selection whose library folders
 * are sel would shadow from LD_LIBRARY_PATH. They go onto first, in
 * v->dirs' order, and the shared file names onto names, once each,
 * sorted. A folder of v that is one of sel (through links: the
 * selection is these very wheels, registered) is never added. Returns
 * how many folders were added.
 */
size_t venv_libs_shadowed(const struct venv_libs *v, const struct strv *sel,
			  struct strv *first, struct strv *names);

#endif
