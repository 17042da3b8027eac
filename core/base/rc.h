/*
 * rc.h: cuenv's result codes, which are also its exit statuses.
 *
 * Values are explicit, appended and never renumbered, and stay at or below
 * 125 so that they never collide with the shell's 126/127 or with signals.
 * README.md mirrors this list.
 */
#ifndef CUENV_RC_H
#define CUENV_RC_H

enum cuenv_rc {
	CUENV_OK = 0,	       /* success */
	CUENV_NO = 1,	       /* negative answer: nothing selected, ... */
	CUENV_E_USAGE = 2,     /* bad command line */
	CUENV_E_MANIFEST = 3,  /* bad catalogue, receipt or .cuenv file */
	CUENV_E_FETCH = 4,     /* download failed */
	CUENV_E_INTEGRITY = 5, /* checksum mismatch */
	CUENV_E_UNPACK = 6,    /* archive could not be extracted */
	CUENV_E_STORE = 7,     /* filesystem error in the store or a project */
	CUENV_E_GPU = 8,       /* smoke test failed or no device */
	CUENV_E_NOT_INSTALLED = 9, /* the selection names a missing version */
	/* cuenv check: the first layer that failed */
	CUENV_E_DRIVER = 10,  /* no driver, or one too old */
	CUENV_E_RUNTIME = 11, /* libcudart missing, broken, or no device */
	CUENV_E_KERNEL = 12,  /* the test kernel did not run right */
	CUENV_E_CUDNN = 13,   /* libcudnn missing, mismatched or wrong */
	CUENV_E_CUPTI = 14,   /* libcupti missing or tracing nothing */
	CUENV_E_DOCTOR = 15,  /* cuenv doctor found a problem */
	/* the store holds that version already, or the other way round */
	CUENV_E_CONFLICT = 16, /* already there; installed vs registered */
	CUENV_E_UNKNOWN = 17,  /* no such release in the catalogue */
	CUENV_E_IN_USE = 18,   /* uninstall of a selected version, unasked */
	CUENV_E_BUG = 70,      /* internal error (EX_SOFTWARE) */
};

#endif
