/*
 * plat_dl.h: the dynamic loader, as an application uses it.
 *
 * Linux: dlopen(RTLD_NOW | RTLD_LOCAL), dlsym, dlclose, dlerror
 * (plat_dl_posix.c). Windows: LoadLibraryExW with the standard search
 * order (flags 0, as TensorFlow's LoadLibrary), GetProcAddress,
 * FreeLibrary, GetLastError (plat_dl_win.c); names are UTF-8.
 *
 * A failure's why names the library and says the reason in words; on
 * Windows the error number follows, e.g. "cudart64_110.dll: the specified
 * module could not be found (error 126)" (ERROR_MOD_NOT_FOUND, the error
 * behind TensorFlow's "Could not load dynamic library"). On Linux it is
 * dlerror()'s text as it is ("libcudart.so.12: cannot open shared object
 * file: No such file or directory").
 */
#ifndef CUENV_PLAT_DL_H
#define CUENV_PLAT_DL_H

#include "base/buf.h"

/* Load name as an application would; NULL with the reason in why. */
void *plat_dl_open(const char *name, struct buf *why);

/* The address of the exported name, or NULL. */
void *plat_dl_sym(void *h, const char *name);

/* The file the loader picked for h, into file; -1 when unknown. */
int plat_dl_path(void *h, struct buf *file);

void plat_dl_close(void *h);

#endif
