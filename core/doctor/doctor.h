/*
 * doctor.h: `cuenv doctor`, an audit of what the selection here would
 * really load, from files and the environment alone (no GPU, nothing
 * loaded or run).
 *
 * Every finding names what is wrong, why it breaks (in the words of the
 * failures users meet: "Could not load dynamic library
 * 'libcupti.so.11.2'", "incompatible libcupti version",
 * "libcudnn.so.8: cannot open shared object file"), and the command that
 * fixes it. Findings carry a stable id for scripts:
 *
 *	selection-invalid        the .cuenv or CUENV_* variables are bad
 *	selection-not-installed  the selection names a missing version
 *	cudnn-cuda-mismatch      cuDNN built for another CUDA major
 *	nothing-selected         cuenv is not active here (info)
 *	not-activated            this shell does not carry the selection
 *	missing-soname           a library frameworks load by name is absent
 *	missing-libraries        math libraries absent (runtime-only installs)
 *	ld-library-path-shadow   a foreign folder comes before the selection
 *	foreign-ld-library-path  a foreign CUDA folder on LD_LIBRARY_PATH
 *	loader-cache             foreign CUDA libraries in /etc/ld.so.cache
 *	driver-too-old           the driver is older than the toolkit needs
 *	driver-minor-compat      ... works only by minor-version compatibility
 *	no-driver                no NVIDIA driver found (info)
 *	driver-requirement-unknown  no table row for this CUDA (info)
 *	cuda-home-mismatch       CUDA_HOME/CUDA_PATH is not PATH's nvcc's
 *	pip-wheels               NVIDIA's wheels in Python's site-packages
 *	pip-wheels-mixed         ... of two CUDA majors, files overwritten
 *	conda-prefix             CUDA libraries in $CONDA_PREFIX/lib
 *	python-loads             what a framework (torch) loads, predicted
 *	                         by the loader model (info)
 *	python-selection         the selection replaces a library it loads
 *	                         from its wheels with an older one, mixes
 *	                         cuDNN or leaves a symbol version unsatisfied
 *	python-foreign           LD_LIBRARY_PATH or the loader cache does so
 *	                         without a selection (info when only the
 *	                         state without the selection has it)
 *	python-no-driver         the framework's libcuda.so.1 is not found:
 *	                         info with no driver on the machine (its GPU
 *	                         path cannot be checked here), else a problem
 *
 * and where the loader is Windows' (doctor_in.win):
 *
 *	dll-loaded               the copy of a DLL the loader takes (info)
 *	dll-shadowed             another copy is found before the selection's
 *	dll-not-searched         the selection's folder is not searched
 *	dll-missing              the selection has no such DLL
 *	no-driver-dll            no nvcuda.dll: no NVIDIA driver (info)
 *	python-dll-directories   Python 3.8+ does not search PATH for an
 *	                         extension module's DLLs (info)
 *
 * The caller gathers every input (environment, activation, driver,
 * loader cache, Python's folders); this module reads only the folders
 * those name, so that each finding can be tested on its own.
 */
#ifndef CUENV_DOCTOR_H
#define CUENV_DOCTOR_H

#include "select/activate.h"
#include "nvidia/catalog.h"
#include "nvidia/compat.h"
#include "doctor/doctor_findings.h"
#include "artifact/ldcache.h"


/*
 * The selection in a line: "cuda 12.4.1 + cudnn 9.1.0.70 (set by
 * /p/.cuenv)", "cuda 12.9, not available (...)", "cuda = system (...)",
 * "nothing selected".
 */
void doctor_describe_selection(const struct activation *a, struct buf *out);

/*
 * The report as `cuenv doctor --json` prints it: {selection:
 * {description, resolved, active, cuda, cudnn, cupti}, findings: [{id,
 * severity, what, why, fix, paths}], problems, warnings, info}. The
 * caller owns it (json_decref).
 */
struct json_t;
struct json_t *doctor_report_json(const struct activation *a,
				  const struct findings *f);


/*
 * Audit in and append the findings to out, problems first, then
 * warnings, then information. Reads the folders the selection, the
 * environment (LD_LIBRARY_PATH, PATH, CUDA_HOME, CONDA_PREFIX), the
 * cache and site_dirs name; writes nothing.
 */
void doctor_run(const struct doctor_in *in, struct findings *out);

/*
 * The driver version in the text of /sys/module/nvidia/version
 * ("550.54.15\n") or /proc/driver/nvidia/version ("NVRM version: NVIDIA
 * UNIX x86_64 Kernel Module  550.54.15  Tue Mar ..."), into out.
 * Returns 0, or -1 when there is none.
 */
int doctor_parse_driver(const char *text, struct buf *out);

/*
 * Read the driver version from the first of paths (NULL-terminated) that
 * holds one; the file used goes into from. Returns 1 when found, else 0.
 */
int doctor_read_driver(const char *const *paths, struct buf *version,
		       struct buf *from);

/*
 * The CUDA version the driver must run: the resolved toolkit's, else the
 * version the selection names (when it is one), else NULL. Borrowed.
 */
const char *doctor_cuda_version(const struct activation *a);

#endif
