/*
 * install_request.h: what one `cuenv install` asks for, decided before
 * anything is read from the network or written to the store.
 *
 * The environment install reads (CUENV_MIRROR, CUENV_PYPI_INDEX, the
 * CUENV_FETCH_* limits and CUENV_UNPACK_MAX_RATIO), which of its four
 * request modes a command line is (--locked, --for, a SPEC, or the
 * selection here) and the versions each mode yields, the package index
 * --source pypi and --for read, and the lines install says of a
 * release. Light: the prompt hook's binary links it.
 */
#ifndef CUENV_INSTALL_REQUEST_H
#define CUENV_INSTALL_REQUEST_H

#include <stdint.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "nvidia/compat.h"
#include "base/err.h"
#include "net/fetch.h"
#include "install/plan.h"
#include "select/select.h"

/* The index --source pypi and --for read when none is given. */
#define INSTALL_PYPI_INDEX_DEFAULT "https://pypi.org/simple"

/*
 * CUENV_FETCH_RETRIES, _STALL_SECONDS, _BACKOFF_MS, _LOW_SPEED, _TIMEOUT
 * and _MAX_BYTES of envp into fo (install and mirror), each checked as
 * install_request_env_count does; the first bad one fails.
 */
int install_request_fetch_env(char *const *envp, struct fetch_opts *fo,
			      struct cuenv_err *err);

/* What install takes from its environment, over its defaults. */
struct install_env {
	const char *mirror;	/* CUENV_MIRROR, borrowed; NULL: unset */
	const char *pypi_index; /* CUENV_PYPI_INDEX, borrowed */
	struct fetch_opts fetch;
	unsigned expand_ratio; /* CUENV_UNPACK_MAX_RATIO */
};

/*
 * install_request_fetch_env into e->fetch, then CUENV_UNPACK_MAX_RATIO
 * (at most 1000000) into e->expand_ratio, and the two addresses; e holds
 * the defaults on entry. CUENV_E_USAGE naming a bad variable.
 */
int install_request_env(char *const *envp, struct install_env *e,
			struct cuenv_err *err);

/*
 * A mirror's address for command (install, mirror, update): https://,
 * or http:// and file:// (which the user asked for, so fo then allows
 * them); anything else is CUENV_E_USAGE naming command and url.
 */
int install_request_mirror_url(const char *command, const char *url,
			       struct fetch_opts *fo, struct cuenv_err *err);

/*
 * The source an install takes when --source is not given: CUENV_SOURCE
 * from envp, else the `source =` line of the nearest .cuenv at or above
 * cwd; *source stays -1 when neither says (NVIDIA's, as the catalogue
 * prefers). Reads files. CUENV_E_USAGE naming a bad CUENV_SOURCE, or
 * the .cuenv's CUENV_E_MANIFEST.
 */
int install_request_source(char *const *envp, const char *cwd, int *source,
			   struct cuenv_err *err);

/* What one `cuenv install` asks for: the versions are borrowed. */
struct install_request {
	const char *spec, *cudnn, *cupti;
	const char *for_spec; /* --for tensorflow==2.6 */
	int source;	      /* enum source_kind, or -1 */
	int locked;	      /* --locked */
};

enum install_mode {
	INSTALL_LOCKED,	  /* what the nearest .cuenv.lock pins */
	INSTALL_FOR,	  /* a framework's build (--for) */
	INSTALL_SPEC,	  /* the SPEC given */
	INSTALL_SELECTED, /* what the .cuenv here (or cuenv use) selects */
};

/*
 * The kind word that install's nargs words may start with: `install
 * cuda SPEC` is `install SPEC`; `install cudnn V` is `install --cudnn V`
 * for the CUDA selected here (q->cudnn becomes V). *used gets how many
 * words it took: 0 (no kind word), 1 (cuda) or 2 (cudnn V). CUENV_E_USAGE,
 * with a hint, for cupti (it comes from a CUDA release), for cudnn with
 * other than one version or beside --cudnn, and for a bad version.
 */
int install_request_kind(struct install_request *q, int nargs,
			 char *const *words, int *used, struct cuenv_err *err);

/*
 * Which mode q with nargs SPEC words left is. CUENV_E_USAGE when --locked
 * comes with a SPEC, --for, --cudnn, --cupti or --source, or a SPEC with
 * --for.
 */
int install_request_mode(const struct install_request *q, int nargs,
			 enum install_mode *mode, struct cuenv_err *err);

/*
 * INSTALL_SELECTED: sel's versions into q (a --cudnn or --cupti given
 * wins). CUENV_E_USAGE, with a hint, when sel selects nothing.
 */
int install_request_selected(struct install_request *q,
			     const struct selection *sel,
			     struct cuenv_err *err);

/*
 * INSTALL_SELECTED from where it is read: what `cuenv use` (envp's
 * CUENV_VERSION, CUENV_CUDNN_VERSION and CUENV_CUPTI_VERSION) or else
 * the nearest .cuenv at or above cwd (or root's default) selects, into
 * sel (initialised), then its versions into q as
 * install_request_selected puts them. select_find's error, or
 * install_request_selected's.
 */
int install_request_select(struct install_request *q, const char *cwd,
			   const char *root, char *const *envp,
			   struct selection *sel, struct cuenv_err *err);

/*
 * --all and --json without --list: CUENV_E_USAGE, with a hint, when
 * either was given (they are --list's); else CUENV_OK.
 */
int install_request_list_only(int all, int json, struct cuenv_err *err);

/* INSTALL_FOR: the CUDA of build b, and its cuDNN unless one was given. */
void install_request_build(struct install_request *q,
			   const struct framework_build *b);

/*
 * q's versions, each a version (numbers and dots): CUENV_E_USAGE naming
 * the first that is not.
 */
int install_request_check(const struct install_request *q,
			  struct cuenv_err *err);

/*
 * The index install reads: index (--index, or CUENV_PYPI_INDEX) unless
 * NULL or empty, else INSTALL_PYPI_INDEX_DEFAULT.
 */
const char *install_request_index(const char *index);

/* Whether index is an http:// address, which fetching then allows. */
int install_request_index_http(const char *index);

/*
 * --dry-run's line: "would install cuda V[ + cudnn V][ + cupti V]
 * (SOURCE)\n" into out; source SRC_PYPI says pypi whatever the
 * catalogue's releases come from.
 */
void install_request_dry_run(const struct catalog_choice *ch, int source,
			     struct buf *out);

/* How install names rel: "cuda 12.4.1", "cudnn 9.1.0 for CUDA 12". */
void install_request_what(const struct release *rel, struct buf *out);

/*
 * After an install of rel failed with rc: when it could not fetch
 * (CUENV_E_FETCH) and err has no hint yet, say where else to look: for
 * a CUDA release from NVIDIA's archives that the package index has, the
 * command that installs it from there ("cuenv install 12.4.1 --source
 * pypi", with the --components or --runtime-only of plan, the request
 * as it was made; plan may be NULL) and, with no mirror given, --mirror;
 * for other releases not from a package index, --mirror when none was
 * given.
 */
void install_request_fetch_hint(int rc, const char *mirror,
				const struct release *rel,
				const struct plan_opts *plan,
				struct cuenv_err *err);

/*
 * --locked: CUENV_E_USAGE when the lock at path is for lock_platform
 * but this machine is platform.
 */
int install_request_lock_platform(const char *path, const char *lock_platform,
				  const char *platform, struct cuenv_err *err);

/*
 * --locked: the nearest .cuenv.lock at or above cwd, its path into path,
 * read into lk (initialised), for this machine's platform, and made for
 * what the .cuenv beside it asks (when there is one). Returns CUENV_OK;
 * CUENV_E_USAGE, with a hint, when there is none or it is for another
 * platform; CUENV_E_MANIFEST, naming both files and values, with a hint,
 * when the .cuenv asks for another cuda, cudnn or cupti; lock_read's or
 * dotfile_read's error for a bad lock or .cuenv.
 */
struct lockfile;
int install_request_lock(const char *cwd, const char *platform,
			 struct buf *path, struct lockfile *lk,
			 struct cuenv_err *err);

#endif
