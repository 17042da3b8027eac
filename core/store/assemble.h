/*
 * assemble.h: merging pool trees into a version folder, beneath it.
 *
 * An install unpacks each archive into its own pool tree, then builds the
 * version folder from those trees with hard links. The trees come from
 * untrusted archives, and each was checked alone (unpack.h); what this
 * module adds is that they stay safe together: whatever the trees hold,
 * nothing is created, changed or followed outside the version folder.
 *
 * How:
 *   - Every entry is reached from the version folder's descriptor, one
 *     component at a time (mkdirat, then openat with O_NOFOLLOW): no path
 *     is ever resolved through a symbolic link, so a link placed by one
 *     archive can never redirect where another archive's entries go.
 *   - Nothing existing is followed or overwritten: linkat, symlinkat and
 *     mkdirat fail on an existing name (a dangling link included), and a
 *     copy (when a hard link cannot be made) is created O_EXCL|O_NOFOLLOW.
 *   - Each symbolic link is checked where it finally sits in the assembled
 *     tree, which is its path in its own tree (no folder on the way is a
 *     link): its target, resolved lexically from there, stays inside, with
 *     no ".." after a name (unpack_check_entry's rule). By induction every
 *     link in the assembled tree resolves inside it.
 *   - Two archives that disagree on the type of a path (a file where
 *     another has a folder, a folder where another has a symbolic link) are
 *     a refused archive set. The same file or link shipped twice (each
 *     component's LICENSE) keeps the first one.
 *   - A tree with nothing in it is a refused archive: it would install an
 *     empty release.
 *
 * Not thread-safe per struct; separate structs are independent (no
 * globals, unlike nftw).
 *
 *	struct assemble *a;
 *
 *	rc = assemble_open(&a, version_dir, err);
 *	for (each pool tree)
 *		if (!rc)
 *			rc = assemble_add(a, tree, label, err);
 *	assemble_free(a);
 */
#ifndef CUENV_ASSEMBLE_H
#define CUENV_ASSEMBLE_H

#include "base/err.h"

struct assemble;

/*
 * Start assembling into dest, an existing folder (normally empty; it must
 * not be a symbolic link). Sets *out to a new struct the caller frees with
 * assemble_free. Returns CUENV_OK or CUENV_E_STORE (cannot open dest),
 * leaving *out NULL then.
 */
int assemble_open(struct assemble **out, const char *dest,
		  struct cuenv_err *err);

/*
 * Merge the tree at the folder tree into the destination, with hard links
 * (a copy where a hard link cannot be made), under the rules above; label
 * names the archive the tree came from in messages (for example its file
 * name). Entries are added in byte order of their names, so the outcome
 * does not depend on the order a folder lists them in.
 *
 * Returns CUENV_OK; CUENV_E_UNPACK for a refused tree or archive set, the
 * message naming the entry and, for a conflict, both archives ("refused
 * archives: 'lib/x' is a folder in 'A' and a symbolic link in 'B'"), or
 * an empty tree ("refused archive 'B': nothing in it to install"); or
 * CUENV_E_STORE when the disk fails (the message names the path). After a
 * failure the destination holds part of the tree: the caller deletes it.
 */
int assemble_add(struct assemble *a, const char *tree, const char *label,
		 struct cuenv_err *err);

/* Close and free a, which may be NULL. The files stay. */
void assemble_free(struct assemble *a);

#endif
