/*
 * doctor_int.h: what the parts of `cuenv doctor` share, private to
 * core/doctor*.c: the audit under way, a finding being written, the
 * checks doctor_run() calls in order, and the helpers that write the
 * sentences and commands of findings.
 *
 *	core/doctor/doctor.c         the checks' order, the audit's life (the
 *	                      selection's folders, which environment
 *	                      programs get)
 *	core/doctor/doctor_findings.c  findings and the helpers that write them
 *	core/doctor/doctor_select.c  the selection itself, its sonames, its cuDNN
 *	core/doctor/doctor_path.c    LD_LIBRARY_PATH, the loader cache, CUDA_HOME
 *	core/doctor/doctor_driver.c  the driver against what the toolkit needs
 *	core/doctor/doctor_pip.c     NVIDIA's pip wheels and conda's libraries
 *	core/doctor/doctor_venv.c    a Python environment's frameworks, through
 *	                      the loader model (core/artifact/pyload.h)
 *	core/doctor/doctor_dll.c     Windows' loader: the DLLs a program loads
 *
 * Each check reads struct audit and appends findings to au->out; only
 * doctor.c writes the audit's other fields, before the checks that read
 * them.
 */
#ifndef CUENV_DOCTOR_INT_H
#define CUENV_DOCTOR_INT_H

#include "doctor/doctor_findings.h"

/* ---- the checks, in the order doctor_run() calls them ------------------- */

void doctor_check_selection(struct audit *au); /* doctor_select.c */
void doctor_check_sonames(struct audit *au);
void doctor_check_cudnn(struct audit *au);
void doctor_check_dlls(struct audit *au);    /* doctor_dll.c */
void doctor_check_ld_path(struct audit *au); /* doctor_path.c */
void doctor_check_cache(struct audit *au);
void doctor_check_driver(struct audit *au);    /* doctor_driver.c */
void doctor_check_cuda_home(struct audit *au); /* doctor_path.c */
void doctor_check_wheels(struct audit *au);    /* doctor_pip.c */
void doctor_check_conda(struct audit *au);
void doctor_check_python(struct audit *au); /* doctor_venv.c */
/* Does site hold a framework the loader model predicts (pyload.h)? */
bool doctor_python_modelled(const struct audit *au, const char *site);

#endif
