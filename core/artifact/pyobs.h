/*
 * pyobs.h: what a Python environment's framework really loads, observed.
 *
 * The loader model (pyload.h) predicts what `import torch` maps; the
 * real program can say it. pyobs_run() runs the environment's own
 * interpreter in a child, with the environment the user's programs would
 * get, has it import one package and call that framework's own
 * documented preload where it has one (torch.backends.cudnn.version,
 * onnxruntime.preload_dlls, jax.devices), and reads back how the import
 * ended and the files the child's /proc/self/maps shows. What is mapped
 * is a fact; what the framework would dlopen later (on a GPU) is left to
 * the model, from that state.
 *
 * The child: `PYTHON -B -c SCRIPT MODULE CALLS`, stdin /dev/null, its
 * stdout and stderr read and dropped (a framework's import prints), its
 * answer as JSON on descriptor 3; killed at the deadline. -B: it writes
 * no bytecode; what the framework's import itself writes (a cache of its
 * own) is the framework's, and the README says that doctor runs it.
 * Nothing is observed where there is no /proc/self/maps (Windows).
 */
#ifndef CUENV_PYOBS_H
#define CUENV_PYOBS_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/err.h"

#define PYOBS_TIMEOUT_MS 120000u /* default deadline of one import */
#define PYOBS_OUT_MAX (4u << 20) /* the answer: maps of a large process */

struct pyobs {
	bool ran;	  /* the child answered */
	char *why;	  /* why it did not: "timed out after 120 s" */
	bool imported;	  /* the import and the calls succeeded */
	char *error;	  /* else: "ImportError: libcublasLt.so.12: ..." */
	char *executable; /* the child's sys.executable, real path, or NULL */
	struct strv maps; /* the files mapped, real paths, each once, in
			     address order */
};

void pyobs_release(struct pyobs *o);

/*
 * CUENV_IMPORT_TIMEOUT's value v (NULL or "": the default, 0) as the
 * milliseconds pyobs_run takes, into *ms. CUENV_E_USAGE naming it when
 * it is not a number of seconds from 1 to 3600.
 */
int pyobs_timeout(const char *v, unsigned *ms, struct cuenv_err *err);

/*
 * Import module in python (a path) run with envp and call each of calls
 * (NULL or "": none; "backends.cudnn.version": attributes of the
 * module; a leading '?' makes a call optional: skipped when the module
 * lacks it), within timeout_ms (0: PYOBS_TIMEOUT_MS). Always fills out:
 * ran false, with why, when the child did not answer.
 */
void pyobs_run(const char *python, char *const *envp, const char *module,
	       const char *calls, unsigned timeout_ms, struct pyobs *out);

/*
 * Read a child's answer (the JSON pyobs_run's script writes) into out.
 * False, with out->why set, when text is not such an answer.
 */
bool pyobs_parse(const char *text, size_t len, struct pyobs *out);

#endif
