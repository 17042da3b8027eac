/*
 * plat_sys.h: facts about the running system (issue 13).
 *
 * plat_sys_platform: the platform name NVIDIA's redistrib manifests use
 * for this machine: uname(2)'s machine on Linux ("linux-x86_64",
 * "linux-sbsa" for aarch64, "linux-ppc64le"), "windows-x86_64" on Windows
 * (the only Windows platform in NVIDIA's manifests).
 * plat_sys_cpus: processors this process may run on, at least 1
 * (sysconf(_SC_NPROCESSORS_ONLN); GetActiveProcessorCount).
 */
#ifndef CUENV_PLAT_SYS_H
#define CUENV_PLAT_SYS_H

const char *plat_sys_platform(void);
unsigned plat_sys_cpus(void);

#endif
