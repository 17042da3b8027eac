/*
 * plat_path.h: path syntax, POSIX or Windows (issue 13).
 *
 * Pure functions on UTF-8 strings: nothing here touches the file system,
 * resolves "..", or follows links. Every function takes the rules to
 * apply, so that both syntaxes are tested on either system;
 * plat_path_native() is the running system's.
 *
 * Windows (Microsoft's "File path formats on Windows systems" and
 * "Naming Files, Paths, and Namespaces"):
 *   C:\x, C:/x          absolute: drive, then a separator
 *   \\server\share\x    absolute: UNC; the root is \\server\share
 *   \\?\C:\x, \\.\COM1  absolute: device paths; after \\?\ the path is
 *                       taken literally ('/' is not a separator there)
 *   C:x, C:             drive-relative: relative to C:'s current folder
 *   \x                  root-relative: relative to the current drive
 * Both '\' and '/' separate; '\' is written. PATH-style lists use ';'.
 * Names compare case-insensitively (ASCII letters folded; NTFS's own
 * upcase table also folds other letters, which this does not).
 * POSIX: '/' separates, a path starting with '/' is absolute, ':' joins
 * lists, names compare byte for byte.
 */
#ifndef CUENV_PLAT_PATH_H
#define CUENV_PLAT_PATH_H

#include <stddef.h>

#include "base/buf.h"

enum plat_path_style { PLAT_PATH_POSIX, PLAT_PATH_WINDOWS };

struct plat_path_rules {
	enum plat_path_style style;
	char sep;      /* the separator written: '/' or '\\' */
	char list_sep; /* between entries of PATH-style lists: ':' or ';' */
	int fold_case; /* compare names case-insensitively */
};

extern const struct plat_path_rules plat_path_posix;
extern const struct plat_path_rules plat_path_windows;
/* The running system's rules. */
const struct plat_path_rules *plat_path_native(void);

enum plat_path_kind {
	PLAT_PATH_RELATIVE,	  /* x, ..\x */
	PLAT_PATH_ABSOLUTE,	  /* /x, C:\x */
	PLAT_PATH_UNC,		  /* \\server\share\x (absolute) */
	PLAT_PATH_DEVICE,	  /* \\?\..., \\.\... (absolute) */
	PLAT_PATH_DRIVE_RELATIVE, /* C:x, C: (Windows; not absolute) */
	PLAT_PATH_ROOT_RELATIVE,  /* \x (Windows; not absolute) */
};

/* Is c a separator? */
int plat_path_is_sep(const struct plat_path_rules *r, char c);
/* What kind of path; *root_len (if not NULL) = the length of its root:
 * "/", "C:\", "C:", "\", "\\server\share\", "\\?\"; 0 when relative. */
enum plat_path_kind plat_path_kind(const struct plat_path_rules *r,
				   const char *path, size_t *root_len);
/* Absolute: names the same file whatever the current folder and drive. */
int plat_path_is_abs(const struct plat_path_rules *r, const char *path);

/*
 * a, then b below it, joined by one separator (malloc'd). An absolute b
 * is returned as it is; on Windows a root-relative b keeps a's drive or
 * UNC share, and a drive-relative b on a's drive goes below a (on another
 * drive it is returned as it is: its folder there is not known).
 */
char *plat_path_join(const struct plat_path_rules *r, const char *a,
		     const char *b);

/*
 * Separators made r->sep, runs of them made one (a UNC path's leading
 * pair kept), "." components dropped, a trailing separator dropped (not
 * a root's). ".." is kept: undoing it needs the file system (links).
 * Windows device paths (\\?\) are returned as they are. malloc'd; ""
 * gives ".".
 */
char *plat_path_normalize(const struct plat_path_rules *r, const char *path);

/* The root (as normalize writes it: "" when relative) into *root
 * (malloc'd; may be NULL), the names below it pushed onto parts ("." and
 * empty ones left out). */
void plat_path_split(const struct plat_path_rules *r, const char *path,
		     char **root, struct strv *parts);

/* The folder holding path (normalized, malloc'd), or NULL at a root or
 * for a path of one relative name: for walking up to the root. */
char *plat_path_parent(const struct plat_path_rules *r, const char *path);

/* The last name of path, after its last separator under the running
 * system's rules (Windows: '\\' too): "/a/b.json" -> "b.json". */
const char *plat_path_last(const char *path);

/*
 * dir (a buf) made its parent under the running system's rules, for
 * walking up to the root: 0, dir unchanged, at a root or a relative name.
 */
int plat_path_up(struct buf *dir);

/* Do a and b name the same path, written alike up to separators and
 * (with r->fold_case) ASCII case? Both are normalized first. */
int plat_path_equal(const struct plat_path_rules *r, const char *a,
		    const char *b);

/*
 * Append dir and name joined by exactly one separator: '/', or on Windows
 * '\\', which also replaces the '/'s of name ("extras/CUPTI/lib64"). dir
 * may be b->data itself, which extends b by one path component.
 */
void buf_path(struct buf *b, const char *dir, const char *name);

#endif
