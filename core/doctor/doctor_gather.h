/*
 * doctor_gather.h: what `cuenv doctor` reads of this machine before it
 * audits (doctor.h): the settings in its environment, the activation
 * here, the driver's version, the driver the selected CUDA needs, the
 * loader cache and its configuration, the folders Python searches, and
 * where the loader is Windows', System32 and python.exe.
 *
 * The command passes its binary's path (the catalogue and the
 * compatibility tables are found relative to it: doctor_gather_tables)
 * and prints; everything between is here, so that doctor_run's inputs
 * are made the same way in tests.
 *
 *	doctor_settings_read(envp, &s, err);
 *	doctor_gather(&where, &s, &g, err);
 *	doctor_run(&g.in, &findings);
 *	doctor_render(&out, &g.a, &findings, json);
 */
#ifndef CUENV_DOCTOR_GATHER_H
#define CUENV_DOCTOR_GATHER_H

#include "doctor/doctor.h"

/* What the environment asks of doctor, read and checked first. */
struct doctor_settings {
	const char *driver;	/* CUENV_DRIVER_VERSION, or NULL: unset */
	const char *cache_path; /* CUENV_LD_SO_CACHE or /etc/ld.so.cache */
	const char *conf_path;	/* CUENV_LD_SO_CONF or /etc/ld.so.conf */
	unsigned import_ms;	/* CUENV_IMPORT_TIMEOUT (seconds) in ms, or
				   0: pyobs.h's default */
};

/*
 * Read s from envp (its strings are borrowed from there). A
 * CUENV_DRIVER_VERSION that is set, not empty, not "none" and not a
 * driver version, or a CUENV_IMPORT_TIMEOUT that is not a number of
 * seconds from 1 to 3600, is CUENV_E_USAGE with a hint; else CUENV_OK.
 */
int doctor_settings_read(char *const *envp, struct doctor_settings *s,
			 struct cuenv_err *err);

/* Where doctor looks, besides envp's own variables. */
struct doctor_where {
	const char *root;   /* CUENV_ROOT */
	const char *cwd;    /* the folder whose selection is audited */
	char *const *envp;  /* the process's environment */
	const char *compat; /* the compatibility tables' folder, or NULL */
	const struct catalog *cat; /* what fixes may install, or NULL */
	/* the files the driver's version is read from, NULL-terminated;
	 * NULL: /sys/module/nvidia/version, /proc/driver/nvidia/version */
	const char *const *driver_files;
	/* the Python to audit (doctor --python), or NULL: python3 on PATH
	 * and the active venv or conda environment */
	const char *python;
	bool no_import; /* doctor --no-import: the model alone */
	/* the dynamic loader whose --help names its default folders, or
	 * NULL: the system's (/lib64/ld-linux-x86-64.so.2, ...) */
	const char *ldso;
};

/* Everything doctor_run is given (in), and what holds it. */
struct doctor_gathered {
	struct doctor_in in; /* points into the fields below */
	struct envmap env;
	struct activation a;
	struct cuenv_err act_err;
	struct buf driver, driver_from, cache_error;
	struct driver_req need;
	struct ldcache cache;
	struct ldconf conf;
	struct strv sites;
	char *python;
	struct strv defaults;  /* the loader's default folders */
	char *loader_lib;      /* $LIB */
	struct doctor_win win; /* in.win points here on Windows */
	char *win_root, *win_python, *win_python_version;
	struct catalog cat; /* doctor_gather_tables' */
	struct buf compat;
};

void doctor_gathered_init(struct doctor_gathered *g);
void doctor_gathered_release(struct doctor_gathered *g);

/*
 * The catalogue (what the printed fixes may install) and the
 * compatibility tables' folder (the driver table), as w->envp says
 * (manifests_catalog_env, manifests_compat_env, exe: this program), into
 * g, which owns them, with w->cat and w->compat pointed at them. One that
 * cannot be read stays NULL: the fixes then assume every release
 * installable, and the driver check says it has no table.
 */
void doctor_gather_tables(struct doctor_where *w, const char *exe,
			  struct doctor_gathered *g);

/*
 * Gather g (initialised) for w and s: the activation of w->cwd in w->root
 * (a selection that is bad or not installed is a finding, in g->in, not
 * an error), the driver (s->driver, else the first of w->driver_files
 * with a version; on Windows not read), the minimum driver for the
 * selected CUDA from w->compat (Windows' column there), the loader cache
 * and configuration and the loader's default folders (`ld.so --help`,
 * else as glibc derives them; not on Windows), the sys.path of w->python
 * (else python3's from envp's PATH) and the site-packages of its venv,
 * of $VIRTUAL_ENV and of $CONDA_PREFIX. Runs that python (and python.exe
 * on Windows) and ld.so --help. Returns CUENV_OK, or activation_compute's
 * other errors (message and hint in err).
 */
int doctor_gather(const struct doctor_where *w, const struct doctor_settings *s,
		  struct doctor_gathered *g, struct cuenv_err *err);

#endif
