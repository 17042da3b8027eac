/*
 * store.h: cuenv's root directory and what is installed in it.
 *
 *	$CUENV_ROOT                       default ~/.cuenv
 *	  versions/cuda/<version>/         a toolkit (or a receipt pointing at
 *	                                   a registered one elsewhere)
 *	  versions/cudnn/<ver>-cuda<M>/    a cuDNN build for CUDA major M
 *	  versions/<kind>/<name>/.cuenv-receipt   written last
 *	  version                          the global default (.cuenv format)
 *	  .staging/                        work in progress, never a version
 *	  pool/<sha256>[-subset][-rt]/     an archive's verified tree, which
 *	                                   versions hard-link into
 *	  cache/<sha256>[.part]            downloaded archives
 *	  .locks/<sha256>.lock             made before anything of that
 *	                                   archive: the record that says its
 *	                                   pool tree and cache files are
 *	                                   cuenv's; gc removes it with the
 *	                                   last of them (core/install/gc.h)
 *	  .locks/<kind>-<name>.lock        one install of a version at a
 *	                                   time; goes with the version
 *	  run/                             per-shell stamps for the hooks
 *	  .lock                            lock for writers; holds a line
 *	                                   naming its holder and pid
 *
 * Invariant: a version directory without a readable receipt is incomplete
 * and is never listed or used. Receipts are created in .staging/ and
 * renamed into place, so a version appears whole or not at all.
 *
 * A receipt is JSON: the kind, version, CUDA major, whether it was
 * registered (files live at "prefix", outside the store) or installed
 * (files live in the version directory), and the bin, lib, include and
 * CUPTI directories relative to the prefix, found once at registration so
 * that activation never has to search.
 */
#ifndef CUENV_STORE_H
#define CUENV_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/kit.h"

#define RECEIPT_NAME ".cuenv-receipt"

/*
 * One version in the store, as its receipt records it: installed by cuenv
 * (its files under versions/<kind>/<name>/) or registered (files at
 * prefix, elsewhere). Not to be confused with the install pipeline
 * (core/install/install.h), which makes these.
 */
struct store_version {
	enum kit_kind kind;
	char *version;	     /* "12.4.1", "9.1.0.70" */
	unsigned cuda_major; /* CUDA: its own; cuDNN: the one it was built for */
	char *name;	     /* directory name under versions/<kind>/ */
	char *dir;	     /* that directory (absolute) */
	char *prefix;	     /* where the files are (absolute) */
	bool registered;     /* added by path: cuenv does not own the files */
	struct strv bin;     /* absolute directories, in search order */
	struct strv lib;
	struct strv include;
	struct strv cupti;    /* lib directories that hold libcupti */
	char *cupti_version;  /* "13.0.85", "11.2", or NULL */
	struct strv notes;    /* "name version" of components, informational */
	struct strv sources;  /* installed: "name sha256 url" of each archive */
	struct strv warnings; /* detection's doubts (sources that disagree),
				 for the command to show; never saved */
	struct strv searched; /* of bin, lib, include: folders the loader or
				 the shell search already (/usr/bin,
				 /usr/lib/x86_64-linux-gnu): activation adds
				 none of them */
	struct strv linked;   /* of lib and cupti: folders shared with other
				 software (a conda prefix's lib): activation
				 uses <dir>/lib, a folder of links to their
				 CUDA libraries, instead */
	struct strv links;    /* at registration: the files (absolute) that
				 folder links to; not saved */
};

struct store_version_list {
	struct store_version **v;
	size_t n;
};

void store_version_init(struct store_version *in, enum kit_kind kind);
void store_version_release(struct store_version *in);
void store_version_free(struct store_version *in);
void store_version_list_release(struct store_version_list *l);
/* Sort l by version, then CUDA major (version_cmp_build): store_list's
 * order. */
void store_version_list_sort(struct store_version_list *l);
/* The directory name for a version: "12.4.1" or "9.1.0.70-cuda12". */
char *store_version_make_name(const struct store_version *in);
/* Is name a well-formed version directory name for kind? */
bool store_version_name_is_valid(enum kit_kind kind, const char *name);
/*
 * Is in registered from a folder that is gone (a venv deleted, a toolkit
 * uninstalled behind cuenv's back)? Its receipt stays until `cuenv
 * remove`; `versions` shows it missing and activation refuses it. Stats
 * in->prefix.
 */
bool store_version_is_missing(const struct store_version *in);
/*
 * Did cuenv install component (a redist name: "cuda_nvcc") into in from a
 * wheel of the package index (its receipt's source ends in .whl)? Then
 * what the component lacks there, installing it again from the index
 * brings no more: the index's cuda_nvcc wheels before 12.4 hold ptxas,
 * not nvcc. False for a registered toolkit and a component not recorded.
 */
bool store_version_part_from_wheel(const struct store_version *in,
				   const char *component);
/*
 * The folder CUDA_HOME and CUDA_PATH name for the toolkit in: its prefix
 * when that has bin/ or include/ of its own (every toolkit layout); in a
 * site-packages/nvidia (NVIDIA's wheels, one folder each) the wheel
 * folder whose bin/ the toolkit uses (cuda_nvcc, cu13), else the one
 * whose include/ it uses first (cuda_runtime, with cuda_runtime.h), as
 * `.../nvidia` itself has neither and builds that read CUDA_HOME/include
 * or CUDA_HOME/bin/nvcc find nothing there. Reads only in's lists; the
 * string is the caller's.
 */
char *store_version_cuda_home(const struct store_version *in);

struct store {
	char *root;
	struct strv warnings; /* receipts skipped while listing */
	int lock_fd;
	char *lock_what; /* what the lock's holder says it is doing */
	/*
	 * Called once when the store's lock is busy, before waiting for it,
	 * with the holder's description ("install cuda 12.4.1 (pid 42)").
	 */
	void (*waiting)(void *ctx, const char *holder);
	void *waiting_ctx;
};

/*
 * Set up st for root (absolute). With create, make the root and its
 * folders. Returns CUENV_OK or CUENV_E_STORE. Always release with
 * store_release.
 */
int store_open(struct store *st, const char *root, bool create,
	       struct cuenv_err *err);
void store_release(struct store *st);

/*
 * Take the store's writer lock (an fcntl open file description lock, so
 * it holds across NFS hosts and between threads), waiting for another
 * writer to finish: st->waiting, when set, is told once who holds it.
 * The lock file then names this holder (st->lock_what and the pid) for
 * whoever waits next. Released by store_release.
 */
int store_lock(struct store *st, struct cuenv_err *err);

/* What the lock's holder is doing, for those who wait ("global"). */
void store_lock_describe(struct store *st, const char *what);

/*
 * Lock the file at path (created 0644 if need be), exclusive or shared,
 * waiting or not, with an open file description lock (F_OFD_SETLK[W]):
 * it belongs to the returned fd, so threads of one process exclude each
 * other like processes do. Returns the fd holding the lock, -1 when it
 * is busy (wait 0), or -2 on error (errno set). Close the fd to unlock.
 */
int store_lock_path(const char *path, int exclusive, int wait);

/* The same for an open fd: 0, -1 when busy, -2 on error (errno set). */
int store_lock_fd(int fd, int exclusive, int wait);

/*
 * Append every complete install of kind to out, sorted by version (oldest
 * first). Unreadable receipts are skipped and described in st->warnings.
 * A missing versions folder is an empty list.
 */
int store_list(struct store *st, enum kit_kind kind,
	       struct store_version_list *out, struct cuenv_err *err);

/*
 * Take the store's lock shared with other installs (which only add to the
 * store), so that `cuenv gc` and the other writers, which take it alone,
 * wait for them. Released by store_release.
 */
int store_lock_shared(struct store *st, struct cuenv_err *err);

/* Read one receipt; dir is the version directory. in is initialised
 * either way: release it. */
int store_read_receipt(const char *dir, struct store_version *in,
		       struct cuenv_err *err);

/*
 * Record in (a registered install: in->prefix and its directories set) as
 * versions/<kind>/<name>. Fails with CUENV_E_STORE when the name is taken.
 * Fills in->name and in->dir. Caller holds the lock.
 */
int store_register(struct store *st, struct store_version *in,
		   struct cuenv_err *err);

/*
 * Move the folder staged (which holds an installed version's files, on
 * the store's file system) into place as versions/<kind>/<name>, writing
 * in's receipt into it first. Fills in->name, in->dir and in->prefix.
 * Fails with CUENV_E_STORE when the name is taken.
 */
int store_commit(struct store *st, struct store_version *in, const char *staged,
		 struct cuenv_err *err);

/*
 * store_commit for a version that is installed already and grows: the
 * folder staged (its old files and the new ones) takes the place of
 * versions/<kind>/<name> in one step (plat_rename_exchange), and the old
 * folder, then at staged, is removed. Where the system cannot swap, the
 * old folder is moved aside to old first (a crash between the two
 * renames leaves it there, in the staging folder). Either way a failure
 * leaves the old version as it was. Caller holds the version's lock.
 */
int store_commit_over(struct store *st, struct store_version *in,
		      const char *staged, const char *old,
		      struct cuenv_err *err);

/*
 * Take the version directory out of the store: renamed into
 * .staging/trash-XXXXXX first (so it vanishes at once), then deleted.
 * The trash folder's lock file (trash-XXXXXX.lock) is created and held
 * before the folder, so that when the deletion is cut short (kill -9,
 * or it fails) the sweep of the next install or `cuenv gc` can tell the
 * folder is dead and delete it. For a registered install
 * only the receipt directory goes; the files at its prefix are never
 * touched. The version's install lock, .locks/<kind>-<name>.lock, goes
 * too. Caller holds the lock alone (store_lock): installs hold it shared
 * while they have a version's lock file open.
 */
int store_delete(struct store *st, const struct store_version *in,
		 struct cuenv_err *err);

/*
 * Take an exclusive lock on the open fd without waiting: an open file
 * description lock where the kernel has them (it belongs to this
 * descriptor, so two in one process exclude each other, and it conflicts
 * with fcntl record locks too), else an fcntl record lock. Returns 0, or
 * -1 with errno (EAGAIN or EACCES: someone holds it).
 */
int store_lock_now(int fd);

/* mkdir -p: create path and its missing parents (CUENV_E_STORE). */
int store_mkdir_p(const char *path, struct cuenv_err *err);

/* Is path (followed through links) a folder? */
int store_is_dir(const char *path);

/* What a walk over a tree found (or freed). */
struct tree_stats {
	/*
	 * Bytes of its regular files; for a removal, only of those whose
	 * last link went (what the disk got back).
	 */
	uint64_t bytes;
	/* Regular files with another link: a version or a tree uses them. */
	uint64_t linked;
};

/*
 * Delete path and everything under it, at any depth (deeper than
 * PATH_MAX too), never following a symbolic link: a link is removed,
 * not what it points to, and path itself may be a file or a link.
 * Folders without write or search permission for the owner are given it
 * first. Returns 0, or -1 with errno from the first failure: what could
 * be removed is gone, the rest (and path) is still there. I/O: the
 * filesystem; two descriptors at any depth.
 */
int store_remove_tree(const char *path);

/* store_remove_tree, counting in *ts what it freed. */
int store_remove_tree_stats(const char *path, struct tree_stats *ts);

/*
 * Walk path as store_remove_tree does, changing nothing: fill *ts,
 * stopping at the first file with another link (ts->linked is then 1
 * and ts->bytes partial). 0, or -1 with errno.
 */
int store_measure_tree(const char *path, struct tree_stats *ts);

/* Path of the global default file. */
void store_global_path(const struct store *st, struct buf *out);

/*
 * Create or refresh the hook stamp for shell process pid: a file whose
 * mtime is a little before now, so that any watched file changed after
 * this computation is newer than it. Returns the path in out; on failure
 * out is left empty (the hook then simply recomputes more often).
 */
void store_stamp(struct store *st, long pid, struct buf *out);

/*
 * Remove root's hook stamps (run/<pid>.stamp) of processes that are gone:
 * gc and install call it; a new stamp does too. Best effort.
 */
void store_sweep_stamps(const char *root);

#endif
