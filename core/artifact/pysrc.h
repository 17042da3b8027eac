/*
 * pysrc.h: the values generated Python files assign, read from their
 * text without running Python: TensorFlow's build_info.py, torch's
 * version.py, Paddle's version/__init__.py.
 */
#ifndef CUENV_PYSRC_H
#define CUENV_PYSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/*
 * The quoted string that Python source gives key, in any of the forms
 * generated files use: key = 'v', key: Optional[str] = 'v', ('key', 'v'),
 * 'key': 'v', d['key'] = 'v', into out. false when there is none (None,
 * a number, a list).
 */
bool pysrc_value(const char *text, size_t len, const char *key,
		 struct buf *out);

#endif
