/*
 * select.h: which versions are selected here, and why.
 *
 * Order, first that answers wins: the shell's `cuenv use` (CUENV_VERSION,
 * CUENV_CUDNN_VERSION, CUENV_CUPTI_VERSION, CUENV_ISOLATE), then the
 * nearest `.cuenv` walking up from the working directory, then the global
 * default ($CUENV_ROOT/version), else nothing. One source gives the whole
 * selection: a `.cuenv` naming only cuda does not borrow cudnn from the
 * global file.
 *
 * While it looks, select_find() records the files whose appearance or
 * change would change the answer, so that the prompt hook can tell without
 * starting a process whether anything needs recomputing.
 */
#ifndef CUENV_SELECT_H
#define CUENV_SELECT_H

#include "base/err.h"
#include "store/store.h"

enum sel_origin {
	SEL_NONE,   /* nothing selected */
	SEL_SHELL,  /* cuenv use / CUENV_VERSION */
	SEL_FILE,   /* a .cuenv file */
	SEL_GLOBAL, /* $CUENV_ROOT/version */
};

struct select_in {
	const char *cwd;	 /* absolute, logical ($PWD) when known */
	const char *root;	 /* CUENV_ROOT */
	const char *env_cuda;	 /* CUENV_VERSION or NULL */
	const char *env_cudnn;	 /* CUENV_CUDNN_VERSION or NULL */
	const char *env_cupti;	 /* CUENV_CUPTI_VERSION or NULL */
	const char *env_isolate; /* CUENV_ISOLATE or NULL */
};

struct selection {
	char *cuda; /* NULL when nothing, or "system" */
	char *cudnn;
	char *cupti;
	int isolate; /* 0 or 1 */
	enum sel_origin origin;
	char *origin_path;  /* the file that decided, or the variable name */
	struct strv watch;  /* files that exist and matter if changed */
	struct strv absent; /* files that matter if they appear */
};

void selection_init(struct selection *sel);
void selection_release(struct selection *sel);
/* True when a CUDA version is selected (not nothing, not "system"). */
int selection_active(const struct selection *sel);
/* "set by /p/.cuenv", "set by CUENV_VERSION, which cuenv use sets", ... */
void selection_describe_origin(const struct selection *sel, struct buf *out);

/*
 * Find the selection for in. Returns CUENV_OK (sel->origin says whether
 * anything is selected) or CUENV_E_MANIFEST for a bad .cuenv or variable;
 * sel->watch and sel->absent are filled in either case.
 */
int select_find(const struct select_in *in, struct selection *sel,
		struct cuenv_err *err);

/* The resolved selection: borrowed pointers into the lists it came from. */
struct active {
	const struct store_version *cuda;
	const struct store_version *cudnn; /* or NULL */
	const struct store_version
		*cupti; /* CUPTI from another release, or NULL */
	int isolate;
	/*
	 * Folders that go on LD_LIBRARY_PATH ahead of the selection's: the
	 * NVIDIA wheels of the Python environment in use that the selection
	 * would shadow (activation_compute, core/select/venvlib.h); NULL for none.
	 */
	const struct strv *first_libs;
};

/*
 * The install of l whose version is spec itself (a toolkit registered as
 * 12.1 beside an installed 12.1.1: `12.1` is the registered one, `12.1.1`
 * the other), else the newest that spec is a prefix of, or NULL. For
 * cuDNN, only builds for cuda_major count (0: any).
 */
const struct store_version *select_pick(const struct store_version_list *l,
					const char *spec, unsigned cuda_major);

/*
 * The installs of l that spec names (for remove and uninstall): those
 * whose folder name is spec ("9.1.0.70-cuda12"), else those whose
 * version is spec, else those whose version spec is a prefix of (12.4:
 * 12.4.1). Returns how many; *hit is the last of them (NULL for none),
 * and their names are appended to names, joined by ", ".
 */
size_t select_named(const struct store_version_list *l, const char *spec,
		    const struct store_version **hit, struct buf *names);

/*
 * For `remove` and `uninstall` (command, named in errors): the one
 * install that `[cuda|cudnn] SPEC` (words, nwords 1 or 2) names among
 * st's, by select_named, into *found (NULL on error), listing the kind
 * into list (which owns it). CUENV_E_USAGE for a kind word other than
 * cuda or cudnn and for a SPEC naming several (listed in the message);
 * CUENV_E_NOT_INSTALLED for one naming none; store_list's errors.
 */
int select_install(struct store *st, const char *command, int nwords,
		   char **words, struct store_version_list *list,
		   const struct store_version **found, struct cuenv_err *err);

/*
 * Resolve sel (which must be active) against what is installed. CUPTI
 * (sel->cupti) comes from a CUPTI-only install (cuptis, may be NULL) or
 * else from a toolkit's. Returns
 * CUENV_OK or CUENV_E_NOT_INSTALLED with a message that says what is
 * installed and the command that installs what is missing.
 */
int select_resolve(const struct selection *sel,
		   const struct store_version_list *cudas,
		   const struct store_version_list *cudnns,
		   const struct store_version_list *cuptis, struct active *act,
		   struct cuenv_err *err);

/*
 * The hint select_resolve() gives for a CUDA that is not installed starts
 * with this, then the version: the command layer checks it against the
 * catalogue (core reads none) and says so when it cannot be installed.
 */
#define SELECT_HINT_INSTALL "install it: cuenv install "

/*
 * `cuenv latest`: the newest version of kind that spec matches (a
 * version, or a prefix: 12 gives the newest 12.x, 12.4 the newest
 * 12.4.x) among installed or, when cat is not NULL (--known), the
 * catalogue's releases, into *best (borrowed from there). CUENV_NO,
 * naming where it looked and with a hint, when none matches.
 */
struct catalog;
int select_latest(enum kit_kind kind, const char *spec,
		  const struct store_version_list *installed,
		  const struct catalog *cat, const char **best,
		  struct cuenv_err *err);

/*
 * `cuenv prefix SPEC`, before the store is read: SPEC names one of
 * cuenv's CUDAs (a version or a prefix). "system", the machine's own
 * CUDA, and what is not a version are CUENV_E_USAGE.
 */
int select_prefix_spec(const char *spec, struct cuenv_err *err);

/*
 * The prefix (borrowed from cudas) of the installed CUDA spec names, as
 * `cuenv use` resolves it against what is installed (12.4 is the newest
 * 12.4.x). Returns CUENV_OK or select_resolve's CUENV_E_NOT_INSTALLED.
 */
int select_prefix(const char *spec, const struct store_version_list *cudas,
		  const struct store_version_list *cudnns,
		  const struct store_version_list *cuptis, const char **prefix,
		  struct cuenv_err *err);

/* The store's installs of each kind, as select_users compares them. */
struct select_lists {
	const struct store_version_list *cudas;
	const struct store_version_list *cudnns;
	const struct store_version_list *cuptis;
};

/*
 * Which selections use target (for `cuenv uninstall`), each looked at on
 * its own, not only the one that wins here: the shell's (in's
 * CUENV_VERSION and friends), the nearest .cuenv from in->cwd up, and the
 * global default (in->root's version file). A selection uses target when
 * it resolves to it against l (as its CUDA, its cuDNN or its CUPTI);
 * targets are compared by kind and folder, so target may come from
 * another listing. Appends one phrase per such selection to who: "this
 * shell's CUENV_VERSION", "/p/.cuenv", "the global default (/r/version)".
 * A selection that cannot be read or resolved uses nothing. Reads those
 * files; never fails.
 */
void select_users(const struct select_in *in, const struct select_lists *l,
		  const struct store_version *target, struct strv *who);

#endif
