/*
 * pyobs.c: a framework's import observed in a child (see pyobs.h).
 */
#include "artifact/pyobs.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "plat/plat_path.h"
#include "plat/proc.h"
#include "base/xalloc.h"

/*
 * argv[1]: the module; argv[2]: the calls. The answer goes to fd 3,
 * opened before the import so that nothing the framework does to its
 * own stdout reaches it; os._exit, so that a framework's threads or
 * atexit handlers cannot hold the child past its answer.
 */
static const char script[] =
	"import json, os, sys\n"
	"out = os.fdopen(3, 'w')\n"
	"res = {'imported': True, 'error': None,\n"
	"       'executable': os.path.realpath(sys.executable or '')}\n"
	"try:\n"
	"    import importlib\n"
	"    m = importlib.import_module(sys.argv[1])\n"
	"    for call in filter(None, sys.argv[2].split(',')):\n"
	"        f = m\n"
	"        try:\n"
	"            for part in call.lstrip('?').split('.'):\n"
	"                f = getattr(f, part)\n"
	"        except AttributeError:\n"
	"            if call.startswith('?'):\n"
	"                continue\n"
	"            raise\n"
	"        f()\n"
	"except BaseException as e:\n"
	"    res['imported'] = False\n"
	"    res['error'] = ('%s: %s' % (type(e).__name__, e))[:4000]\n"
	"maps, seen = [], set()\n"
	"for line in open('/proc/self/maps'):\n"
	"    p = line.rstrip('\\n').split(None, 5)\n"
	"    if len(p) == 6 and p[5].startswith('/') and \\\n"
	"            not p[5].endswith(' (deleted)'):\n"
	"        r = os.path.realpath(p[5])\n"
	"        if r not in seen:\n"
	"            seen.add(r)\n"
	"            maps.append(r)\n"
	"res['maps'] = maps\n"
	"json.dump(res, out)\n"
	"out.flush()\n"
	"os._exit(0)\n";

void pyobs_release(struct pyobs *o)
{
	FREE_EACH(o->why, o->error, o->executable);
	strv_release(&o->maps);
	memset(o, 0, sizeof(*o));
}

static void set_why(struct pyobs *o, char *why_take)
{
	free(o->why);
	o->why = why_take;
	o->ran = false;
}

bool pyobs_parse(const char *text, size_t len, struct pyobs *out)
{
	json_error_t je;
	json_t *j = json_loadb(text, len, 0, &je);
	json_t *maps = j ? json_object_get(j, "maps") : NULL;
	json_t *imp = j ? json_object_get(j, "imported") : NULL;
	const char *s;
	size_t i;
	json_t *m;

	if (!json_is_array(maps) || !json_is_boolean(imp)) {
		json_decref(j);
		set_why(out, xstrdup("its answer is not what cuenv asked for"));
		return false;
	}
	out->ran = true;
	out->imported = json_is_true(imp);
	s = json_string_value(json_object_get(j, "error"));
	out->error = s ? xstrdup(s) : NULL;
	s = json_string_value(json_object_get(j, "executable"));
	out->executable = s && *s ? xstrdup(s) : NULL;
	json_array_foreach(maps, i, m)
		if ((s = json_string_value(m)) && *s == '/' &&
		    strv_find(&out->maps, s) < 0)
			strv_push(&out->maps, s);
	json_decref(j);
	return true;
}

int pyobs_timeout(const char *v, unsigned *ms, struct cuenv_err *err)
{
	char *end;
	unsigned long sec;

	*ms = 0;
	if (!v || !*v)
		return CUENV_OK;
	sec = strtoul(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || sec < 1 || sec > 3600) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "CUENV_IMPORT_TIMEOUT: '%s' is not a number of "
			   "seconds from 1 to 3600",
			   v);
		cuenv_hint(err, "such as 120; unset: 120");
		return CUENV_E_USAGE;
	}
	*ms = (unsigned)sec * 1000u;
	return CUENV_OK;
}

void pyobs_run(const char *python, char *const *envp, const char *module,
	       const char *calls, unsigned timeout_ms, struct pyobs *out)
{
	char *argv[] = { (char *)python,
			 (char *)"-B",
			 (char *)"-c",
			 (char *)script,
			 (char *)module,
			 (char *)(calls ? calls : ""),
			 NULL };
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	struct buf why = BUF_INIT;

	memset(out, 0, sizeof(*out));
	if (plat_path_native()->style == PLAT_PATH_WINDOWS) {
		set_why(out, xstrdup("Windows has no /proc/self/maps"));
		return;
	}
	p.argv = argv;
	p.envp = envp;
	p.out_fd = 3;
	p.max_output = PYOBS_OUT_MAX;
	p.kill_on_overflow = 1;
	p.timeout_ms = timeout_ms ? timeout_ms : PYOBS_TIMEOUT_MS;
	if (proc_run(&p, &e))
		buf_sets(&why, e.msg.data);
	else if (p.timed_out)
		buf_printf(&why, "it did not answer within %u s",
			   (p.timeout_ms + 999) / 1000);
	else if (p.overflowed)
		buf_printf(&why, "it said more than %u bytes", PYOBS_OUT_MAX);
	else if (p.signal) { /* a crash while loading is what it does */
		out->ran = true;
		buf_printf(&why,
			   "the import killed the interpreter (signal "
			   "%d)",
			   p.signal);
		out->error = buf_detach(&why);
		goto out;
	} else if (p.exit_code)
		buf_printf(&why, "it exited with status %d", proc_status(&p));
	if (why.len)
		set_why(out, buf_detach(&why));
	else
		pyobs_parse(p.out.data ? p.out.data : "", p.out.len, out);
out:
	proc_release(&p);
	err_release(&e);
	buf_release(&why);
}
