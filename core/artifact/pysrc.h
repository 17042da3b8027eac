/*
 * pysrc.h: the constants generated Python files and JSON records assign,
 * read from their text without running anything: TensorFlow's
 * build_info.py, torch's version.py, Paddle's version/__init__.py,
 * xformers' cpp_lib.json.
 */
#ifndef CUENV_PYSRC_H
#define CUENV_PYSRC_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

/*
 * Called for each constant: key (an identifier, or a quoted key's text)
 * and its value's text, a quoted string's (quoted) or a number's.
 */
typedef void pysrc_pair_fn(const char *key, size_t klen, const char *value,
			   size_t vlen, bool quoted, void *ctx);

/*
 * Each constant of text, in order, in the forms generated files use:
 * key = v and key: Optional[str] = v as a module's statements (at the
 * start of a line, not indented), ('key', v), 'key': v, d['key'] = v, "key": v in JSON; v a
 * quoted string on one line or a number. A comment, a docstring, a
 * value of another kind (None, a list, an object) and a string that is
 * no key's value are passed over; the keys inside an object are met in
 * their turn.
 */
void pysrc_each(const char *text, size_t len, pysrc_pair_fn *fn, void *ctx);

/*
 * The quoted string that Python source gives key, in any of the forms
 * generated files use: key = 'v', key: Optional[str] = 'v', ('key', 'v'),
 * 'key': 'v', d['key'] = 'v', into out. false when there is none (None,
 * a number, a list).
 */
bool pysrc_value(const char *text, size_t len, const char *key,
		 struct buf *out);

#endif
