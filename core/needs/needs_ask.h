/*
 * needs_ask.h: `cuenv needs --python`: the frameworks an interpreter
 * would import, found by their files in its sys.path, and (--import)
 * what the frameworks it imports say they were built with.
 *
 * needs_python_find asks the interpreter for its sys.path only (a
 * start-up, no import), then finds the frameworks there as doctor does
 * (pyload_find: torch, TensorFlow, JAX's CUDA plugin, Paddle by their
 * files, and any package whose ELF files link a CUDA library): their
 * folders are then read as PATHs are, so a framework whose import
 * fails is read all the same.
 *
 * With --import, the interpreter runs needs_python_script (core/needs/needs.h) with its
 * stdin, stdout and stderr on /dev/null and answers on descriptor 3, so
 * that what an import prints cannot be taken for the answer. Importing
 * TensorFlow takes seconds; a hung import is killed, and an answer
 * larger than NEEDS_ASK_OUT_MAX stops the child.
 */
#ifndef CUENV_NEEDS_ASK_H
#define CUENV_NEEDS_ASK_H

#include "base/buf.h"
#include "base/err.h"
#include "needs/needs.h"

#define NEEDS_ASK_OUT_MAX (1 << 20)

/*
 * Find the frameworks in the sys.path of python (a path, or a name
 * looked up in envp's PATH) and its virtualenv's site-packages, into
 * py->found: each with the folders of its site it has files in
 * (site/torch; jax_plugins and jax_cuda12_plugin), in the order
 * pyload_find gives them. An interpreter that is neither a file nor on
 * PATH is an error (CUENV_E_USAGE, hinting --python); one that does not
 * say its sys.path leaves sites empty, with a line in warnings.
 */
int needs_python_find(struct needs_python *py, const char *python,
		      char *const *envp, struct strv *warnings,
		      struct cuenv_err *err);
#define NEEDS_ASK_SECONDS 300

/*
 * Run py->exe (a path, or a name looked up in envp's PATH) with envp,
 * killed after timeout_s seconds, and read its answer into py. Until it
 * answers, every framework is absent with "no answer from EXE". Only an
 * interpreter that cannot be started is an error (CUENV_E_USAGE, with a
 * hint naming --python); one that fails, hangs or answers nonsense adds
 * a line to warnings and its frameworks stay absent. Returns CUENV_OK
 * otherwise, or proc_run's code when the child could not be read.
 */
int needs_ask_python(struct needs_python *py, char *const *envp,
		     unsigned timeout_s, struct strv *warnings,
		     struct cuenv_err *err);

/*
 * The wheel tag of the interpreter exe (a path, or a name looked up in
 * envp's PATH): "cp311" for CPython 3.11, into out. Returns 0, or -1 when
 * it cannot be run or answers nonsense (out empty). Runs a child process
 * (30 s at most).
 */
int needs_python_tag(const char *exe, char *const *envp, struct buf *out);

/*
 * The wheel tag of CPython version v as pip's --python-version takes
 * it ("3.11", "311", "3"): "cp311", into out. CUENV_OK, or CUENV_E_USAGE
 * naming v when it is none.
 */
int needs_python_version_tag(const char *v, struct buf *out,
			     struct cuenv_err *err);

#endif
