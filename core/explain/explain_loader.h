/*
 * explain_loader.h: what the loader model (loader.h) says on this
 * machine about explain's findings that name a copy of a library, and
 * the fixes it checks (issue 21).
 *
 *  - "PATH: undefined symbol: S, version libY.so.N" (EXPLAIN_SYMBOL):
 *    PATH (a venv's nvidia/cusparse/lib/libcusparse.so.12) is dlopen'd
 *    in the model with the environment cuenv runs in (LD_LIBRARY_PATH,
 *    the ld.so cache, the default folders): which libY.so.N it resolves
 *    to, from which source, and whether that copy defines S@libY.so.N;
 *    then which copies here do (beside PATH through its own RUNPATH,
 *    the environment's wheels, LD_LIBRARY_PATH, the store, the cache).
 *  - a cuDNN mismatch ("built with V1, loaded V2": torch, TensorFlow,
 *    JAX; the same major, at least V1): the framework that printed it,
 *    in the site-packages the text names (else the environment in use),
 *    is predicted as pyload does (torch's DT_NEEDED, TensorFlow's and
 *    JAX's dlopen of libcudnn.so.M from their DSO loader): which copy it
 *    loads, from where, its version against V1; the copies here that
 *    are new enough.
 *
 * For a cuDNN mismatch whose site-packages has its python on this
 * machine (PREFIX/bin/pythonX.Y of PREFIX/lib/pythonX.Y/site-packages),
 * the framework is imported in a child of that python (pyobs.h) with
 * the environment programs get here, LD_LIBRARY_PATH as judged: what it
 * mapped is fact and its error the verdict; the model predicts only the
 * rest, as doctor does.
 *
 * A fix is printed only when the model, run again in the environment
 * the command leaves, picks a copy that satisfies: turning the selection
 * off, LD_LIBRARY_PATH without the folder of the bad copy, selecting an
 * installed version whose copy satisfies (for a cuDNN mismatch, an
 * installed cuDNN of V1's major, at least V1, with a CUDA of the major it
 * was built for). No fix uninstalls anything. When PATH is not on this
 * machine (a log from elsewhere) the finding says so and keeps the
 * text's reading. Reads the files it resolves; runs nothing but that
 * import.
 */
#ifndef CUENV_EXPLAIN_LOADER_H
#define CUENV_EXPLAIN_LOADER_H

#include "explain/explain.h"

/* The machine the model runs on; all borrowed. */
struct explain_model_in {
	const char *library_path; /* LD_LIBRARY_PATH cuenv runs with, or
				     NULL */
	const char *base_path;	  /* the same with cuenv's selection undone,
				     when a selection is in force in it;
				     NULL ("" for an empty one) otherwise */
	const char *drop;	  /* the command that turns that selection
				     off here ("cuenv local system") */
	const char *select;	  /* the command that selects a version
				     here, less the version ("cuenv local") */
	const char *cuda;	  /* the CUDA version selected, or NULL */
	const struct ldcache *cache;
	const struct strv *defaults;	  /* the loader's default folders */
	const char *platform, *lib;	  /* $PLATFORM, $LIB */
	const struct needs_installed *in; /* the store's versions, or NULL */
	const char *site;   /* the site-packages of the environment in use,
			     for a text that names none, or NULL */
	char *const *envp;  /* the environment programs get here, for the
			      import observed in the site's python; NULL:
			      nothing is run (--no-import) */
	unsigned import_ms; /* its deadline (0: PYOBS_TIMEOUT_MS) */
};

/*
 * Run the model for each EXPLAIN_SYMBOL finding of ex and each cuDNN
 * mismatch torch printed, filling their model fields (explain.h), and
 * put the fixes the model checks first in fx->lines, each once.
 */
void explain_model(struct explain *ex, struct explain_fix *fx,
		   const struct explain_model_in *mi);

#endif
