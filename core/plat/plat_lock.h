/*
 * plat_lock.h: locks on a whole open file (issue 13), for store.c.
 *
 * A lock belongs to the open file (the descriptor from plat_open), not to
 * the process: two threads holding two descriptors of one file exclude
 * each other as two processes do, and closing the descriptor drops it.
 * POSIX (plat_lock_posix.c): fcntl open file description locks
 * (F_OFD_SETLK/F_OFD_SETLKW, Linux >= 3.15), classic fcntl record locks on
 * a kernel without them (EINVAL), as store.c did; shared = F_RDLCK,
 * exclusive = F_WRLCK. Windows (plat_lock_win.c): LockFileEx on the
 * file's handle (locks belong to the handle there too), the whole
 * 2^64-byte range, LOCKFILE_EXCLUSIVE_LOCK for exclusive and
 * LOCKFILE_FAIL_IMMEDIATELY without wait.
 */
#ifndef CUENV_PLAT_LOCK_H
#define CUENV_PLAT_LOCK_H

/*
 * Lock fd's file, shared or exclusive; wait for it or not. 0, or -1 with
 * errno: EAGAIN when another holder has it and !wait (POSIX's EACCES is
 * said as EAGAIN), anything else a failure. EINTR is retried.
 */
int plat_lock(int fd, int exclusive, int wait);

#endif
