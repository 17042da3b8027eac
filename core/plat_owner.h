/*
 * plat_owner.h: who owns a file and who else may write it (issue 13), for
 * trust.c's "owned by me or the system, not writable by others".
 *
 * POSIX (plat_owner_posix.c): the uid of stat(2) (links followed) and the
 * group/other write bits; plat_owner_self() is geteuid().
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
};

/* This process's user (geteuid()). */
plat_uid plat_owner_self(void);

/* path's owner, links followed. 0, or -1 with errno (ENOENT: nothing). */
int plat_owner_get(const char *path, struct plat_owner *o);

#endif
