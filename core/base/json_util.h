/*
 * json_util.h: the two small jansson shapes every JSON report uses.
 */
#ifndef CUENV_JSON_UTIL_H
#define CUENV_JSON_UTIL_H

#include <jansson.h>

#include "base/buf.h"

/* s as a JSON string, or null when s is NULL. A new reference. */
json_t *json_str_or_null(const char *s);

/* v's strings as a JSON array. A new reference. */
json_t *json_strv(const struct strv *v);

/*
 * Append j as the commands print a JSON report: indented by 2, then a
 * newline (nothing when jansson cannot encode it). Takes j's reference
 * (NULL: nothing), so that a report is built and printed in one call.
 */
void json_add_report_take(struct buf *out, json_t *j);

#endif
