/* plat_owner_posix.c: plat_owner.h on POSIX: stat(2) and geteuid(2). */
#include "plat/plat_owner.h"

#include <sys/stat.h>
#include <unistd.h>

plat_uid plat_owner_self(void)
{
	return (plat_uid)geteuid();
}

static void fill(const struct stat *st, struct plat_owner *o)
{
	o->uid = (plat_uid)st->st_uid;
	o->perm = (unsigned)(st->st_mode & 07777);
	o->others_write = (st->st_mode & (S_IWGRP | S_IWOTH)) != 0;
	o->sticky = (st->st_mode & S_ISVTX) != 0;
	o->link = S_ISLNK(st->st_mode);
}

int plat_owner_get(const char *path, struct plat_owner *o)
{
	struct stat st;

	if (stat(path, &st))
		return -1;
	fill(&st, o);
	return 0;
}

int plat_owner_lget(const char *path, struct plat_owner *o)
{
	struct stat st;

	if (lstat(path, &st))
		return -1;
	fill(&st, o);
	return 0;
}
