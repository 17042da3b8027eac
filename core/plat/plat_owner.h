/*
 * plat_owner.h: who owns a file and who else may write it (issue 13), for
 * trust.c's "owned by me or the system, not writable by others".
 *
 * POSIX (plat_owner_posix.c): the uid of stat(2) (links followed; lstat(2)
 * for plat_owner_lget), the group/other write bits and the sticky bit;
 * plat_owner_self() is geteuid().
 * Windows (plat_owner_win.c): GetNamedSecurityInfoW's owner SID and DACL.
 * The owner maps to an id: PLAT_UID_SYSTEM (0) for SYSTEM, the
 * Administrators group and TrustedInstaller, plat_owner_self() for the
 * user of this process's token, PLAT_UID_OTHER for anyone else. The DACL
 * gives others_write when an allow entry that is not inherit-only grants
 * a write right (write data, append, write attributes/EA, delete,
 * change permissions or owner, generic write/all) to a SID other than
 * those three and CREATOR OWNER; a NULL DACL (everyone may do anything)
 * counts too. Deny entries are not weighed against allow entries (a
 * write allowed and then denied still counts as writable: stricter).
 * Windows has no sticky bit (sticky is 0), and plat_owner_lget is
 * plat_owner_get there: trust.c walks no links on Windows.
 */
#ifndef CUENV_PLAT_OWNER_H
#define CUENV_PLAT_OWNER_H

/* A user id: a uid on POSIX; on Windows, the mapped ids above. */
typedef unsigned long plat_uid;

#define PLAT_UID_SYSTEM 0ul
#define PLAT_UID_OTHER 4294967294ul

struct plat_owner {
	plat_uid uid;	  /* the owner */
	unsigned perm;	  /* POSIX permission bits; Windows: 0755, or 0777
			    when others may write */
	int others_write; /* group or others may write (S_IWGRP|S_IWOTH) */
	int sticky;	  /* S_ISVTX: in a folder, only an entry's owner,
			     the folder's and root may rename or remove it */
	int link;	  /* plat_owner_lget: path is a symbolic link */
};

/* This process's user (geteuid()). */
plat_uid plat_owner_self(void);

/* path's owner, links followed. 0, or -1 with errno (ENOENT: nothing). */
int plat_owner_get(const char *path, struct plat_owner *o);
/* The same for path itself when it is a link (o->link set). */
int plat_owner_lget(const char *path, struct plat_owner *o);

#endif
