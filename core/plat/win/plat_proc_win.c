/*
 * plat_proc_win.c: plat_proc.h on Windows: CreateProcessW, wait, the
 * child's exit code (Windows has no exec).
 */
#include "plat/plat_proc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "base/buf.h"
#include "plat/plat_cmdline.h"

static wchar_t *to_wide(const char *s)
{
	int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
	wchar_t *w = n > 0 ? malloc((size_t)n * sizeof *w) : NULL;

	if (w)
		MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
	return w;
}

/* NAME=... compared by name, ASCII case folded (Path is PATH). */
static int name_cmp(const char *a, const char *b)
{
	for (;; a++, b++) {
		int x = *a == '=' ? 0 : (unsigned char)*a;
		int y = *b == '=' ? 0 : (unsigned char)*b;

		if (x >= 'a' && x <= 'z')
			x -= 32;
		if (y >= 'a' && y <= 'z')
			y -= 32;
		if (x != y || !x)
			return x - y;
	}
}

/*
 * a and b point into envp: equal names keep envp's order (qsort is not
 * stable), so the first of them is the one kept.
 */
static int entry_cmp(const void *a, const void *b)
{
	char *const *x = *(char *const *const *)a;
	char *const *y = *(char *const *const *)b;
	int d = name_cmp(*x, *y);

	return d ? d : x < y ? -1 : x > y;
}

/*
 * The UTF-16 block CreateProcessW wants: NAME=value strings sorted by
 * name without case, a name given twice kept once (its first), an empty
 * string at the end.
 */
static wchar_t *env_block(char *const *envp, const char **path)
{
	size_t n = 0, k = 0;
	char *const **v;
	struct buf b = BUF_INIT;
	wchar_t *w;
	int len;

	while (envp && envp[n])
		n++;
	v = malloc((n + 1) * sizeof *v);
	if (!v)
		return NULL;
	for (size_t i = 0; i < n; i++)
		v[i] = &envp[i];
	qsort(v, n, sizeof *v, entry_cmp);
	*path = NULL;
	for (size_t i = 0; i < n; i++) {
		if (k && !name_cmp(*v[k - 1], *v[i]))
			continue;
		v[k++] = v[i];
	}
	for (size_t i = 0; i < k; i++) {
		const char *e = *v[i];

		if (!name_cmp(e, "PATH=") && strchr(e, '='))
			*path = strchr(e, '=') + 1;
		buf_add(&b, e, strlen(e) + 1);
	}
	buf_add(&b, "\0", 1);
	if (k == 0)
		buf_add(&b, "\0", 1);
	free(v);
	len = MultiByteToWideChar(CP_UTF8, 0, b.data, (int)b.len, NULL, 0);
	w = len > 0 ? malloc((size_t)len * sizeof *w) : NULL;
	if (w)
		MultiByteToWideChar(CP_UTF8, 0, b.data, (int)b.len, w, len);
	buf_release(&b);
	return w;
}

/* argv[0] looked up in the child's PATH (not cuenv's), .exe added. */
static wchar_t *find_program(const char *prog, const char *path)
{
	wchar_t *wp = to_wide(prog), *wpath = path ? to_wide(path) : NULL;
	wchar_t *found = NULL;

	if (wp && !strpbrk(prog, "\\/:") && !wpath) {
		free(wp); /* no PATH: nothing to search */
	} else if (wp && !strpbrk(prog, "\\/:")) {
		wchar_t buf[32768];
		DWORD n = SearchPathW(wpath, wp, L".exe", 32768, buf, NULL);

		if (n && n < 32768) {
			found = malloc((n + 1) * sizeof *found);
			if (found)
				memcpy(found, buf, (n + 1) * sizeof *found);
		}
		free(wp);
	} else {
		found = wp;
	}
	free(wpath);
	return found;
}

int plat_exec(char *const *argv, char *const *envp)
{
	struct buf line = BUF_INIT;
	const char *path = NULL;
	wchar_t *block = env_block(envp, &path);
	wchar_t *app = find_program(argv[0], path), *wline;
	STARTUPINFOW si;
	PROCESS_INFORMATION pi;
	DWORD code = 1;
	int ok;

	if (!app || !block ||
	    plat_cmdline_quote(&line, (const char *const *)argv)) {
		free(app);
		free(block);
		buf_release(&line);
		errno = ENOENT;
		return -1;
	}
	wline = to_wide(line.data);
	buf_release(&line);
	memset(&si, 0, sizeof si);
	si.cb = sizeof si;
	ok = wline &&
	     CreateProcessW(app, wline, NULL, NULL, TRUE,
			    CREATE_UNICODE_ENVIRONMENT, block, NULL, &si, &pi);
	free(app);
	free(block);
	free(wline);
	if (!ok) {
		errno = GetLastError() == ERROR_FILE_NOT_FOUND ? ENOENT
							       : EACCES;
		return -1;
	}
	CloseHandle(pi.hThread);
	WaitForSingleObject(pi.hProcess, INFINITE);
	GetExitCodeProcess(pi.hProcess, &code);
	CloseHandle(pi.hProcess);
	return (int)(code & 0x7fffffff);
}

/* ---- a child read back ------------------------------------------------- */

/*
 * What the child exits with when plat_child_kill ends it (the status a
 * shell shows for SIGKILL), reported as PLAT_CHILD_KILLED.
 */
#define KILL_CODE (128 + PLAT_CHILD_KILLED)

/* The C runtime's flags for an inherited descriptor (lpReserved2). */
#define CRT_FOPEN 0x01
#define CRT_FPIPE 0x08
#define CRT_FDEV 0x40

/* One pipe: cuenv reads rd (overlapped), the child writes wr. */
struct win_pipe {
	HANDLE rd, wr; /* NULL: none, or closed */
	OVERLAPPED ov; /* ov.hEvent: set when the read in flight ends */
	int pending;   /* a ReadFile is in flight into chunk */
	char chunk[16384];
};

struct plat_child {
	int out_fd, capture_err;
	struct win_pipe p[2]; /* [0]: out_fd, [1]: stderr */
	HANDLE nul;	      /* the child's stdin and what is not read */
	HANDLE process;	      /* NULL: not started, or waited for */
	int terminated;	      /* TerminateProcess ended it */
	int next;	      /* the stream waited on first next time */
};

static int errno_of(DWORD e)
{
	switch (e) {
	case ERROR_FILE_NOT_FOUND:
	case ERROR_PATH_NOT_FOUND:
	case ERROR_INVALID_NAME:
	case ERROR_DIRECTORY:
		return ENOENT;
	case ERROR_BAD_EXE_FORMAT:
	case ERROR_EXE_MACHINE_TYPE_MISMATCH:
		return ENOEXEC;
	case ERROR_NOT_ENOUGH_MEMORY:
	case ERROR_OUTOFMEMORY:
		return ENOMEM;
	case ERROR_FILENAME_EXCED_RANGE:
		return ENAMETOOLONG;
	default:
		return EACCES;
	}
}

static void close_handle(HANDLE *h)
{
	if (*h && *h != INVALID_HANDLE_VALUE)
		CloseHandle(*h);
	*h = NULL;
}

/*
 * A pipe whose read end can wait with a deadline: anonymous pipes
 * (CreatePipe) do no overlapped I/O, so a named pipe, unique by this
 * process's id and c's address, made here and opened once for the child.
 * One instance, local clients only: a process that connected first (to
 * write into cuenv's end) makes the open below fail, and nothing is read.
 */
static int open_pipe(struct plat_child *c, int i)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	struct win_pipe *w = &c->p[i];
	char name[96];

	snprintf(name, sizeof(name), "\\\\.\\pipe\\cuenv-%lu-%p-%d",
		 (unsigned long)GetCurrentProcessId(), (void *)c, i);
	w->ov.hEvent = CreateEventW(NULL, TRUE, FALSE, NULL);
	if (!w->ov.hEvent)
		return -1;
	w->rd = CreateNamedPipeA(name,
				 PIPE_ACCESS_INBOUND | FILE_FLAG_OVERLAPPED |
					 FILE_FLAG_FIRST_PIPE_INSTANCE,
				 PIPE_TYPE_BYTE | PIPE_READMODE_BYTE |
					 PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS,
				 1, 0, 65536, 0, NULL);
	if (w->rd == INVALID_HANDLE_VALUE) {
		w->rd = NULL;
		return -1;
	}
	w->wr = CreateFileA(name, GENERIC_WRITE, 0, &sa, OPEN_EXISTING,
			    FILE_ATTRIBUTE_NORMAL, NULL);
	if (w->wr == INVALID_HANDLE_VALUE) {
		w->wr = NULL;
		return -1;
	}
	return 0;
}

struct plat_child *plat_child_new(int out_fd, int capture_err)
{
	SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
	struct plat_child *c;
	int e;

	if (out_fd < 0 || out_fd == 2 || out_fd > 63) {
		errno = EINVAL; /* 1, or a descriptor of its own */
		return NULL;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		errno = ENOMEM;
		return NULL;
	}
	c->out_fd = out_fd;
	c->capture_err = capture_err;
	c->nul = CreateFileW(L"NUL", GENERIC_READ | GENERIC_WRITE,
			     FILE_SHARE_READ | FILE_SHARE_WRITE, &sa,
			     OPEN_EXISTING, 0, NULL);
	if (c->nul != INVALID_HANDLE_VALUE && (!out_fd || !open_pipe(c, 0)) &&
	    (!capture_err || !open_pipe(c, 1)))
		return c;
	e = errno_of(GetLastError());
	plat_child_free(c);
	errno = e;
	return NULL;
}

/*
 * The C runtime's record of inherited descriptors (lpReserved2): a count,
 * one flag byte per descriptor, then one HANDLE per descriptor, packed.
 * msvcrt and the UCRT both read it at start; how libuv passes fd 3 and up.
 */
static unsigned char *crt_fds(const struct plat_child *c, WORD *size)
{
	int count = c->out_fd + 1;
	size_t n = sizeof(int) + (size_t)count * (1 + sizeof(HANDLE));
	unsigned char *b = calloc(1, n);

	if (!b)
		return NULL;
	memcpy(b, &count, sizeof(int));
	for (int fd = 0; fd < count; fd++) {
		HANDLE h = INVALID_HANDLE_VALUE;
		unsigned char flags = 0;

		if (fd <= 2 || fd == c->out_fd) {
			h = fd == c->out_fd		? c->p[0].wr
			    : fd == 2 && c->capture_err ? c->p[1].wr
							: c->nul;
			flags = CRT_FOPEN |
				(h == c->nul ? CRT_FDEV : CRT_FPIPE);
		}
		b[sizeof(int) + (size_t)fd] = flags;
		memcpy(b + sizeof(int) + (size_t)count +
			       (size_t)fd * sizeof(HANDLE),
		       &h, sizeof(HANDLE));
	}
	*size = (WORD)n;
	return b;
}

int plat_child_spawn(struct plat_child *c, char *const *argv, char *const *envp,
		     int search_path)
{
	struct buf line = BUF_INIT;
	const char *path = NULL;
	wchar_t *block = env_block(envp, &path), *app = NULL, *wline = NULL;
	STARTUPINFOEXW si;
	PROCESS_INFORMATION pi;
	LPPROC_THREAD_ATTRIBUTE_LIST attrs = NULL;
	HANDLE inherit[3];
	unsigned char *fds = NULL;
	SIZE_T attrs_size = 0;
	DWORD nh = 0;
	int e = 0;

	if (!block) {
		e = ENOMEM;
		goto out;
	}
	if (search_path)
		app = find_program(argv[0], path);
	else
		app = to_wide(argv[0]);
	if (!app || !*argv[0] ||
	    plat_cmdline_quote(&line, (const char *const *)argv)) {
		e = ENOENT;
		goto out;
	}
	wline = to_wide(line.data);
	memset(&si, 0, sizeof(si));
	si.StartupInfo.cb = sizeof(si);
	si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
	si.StartupInfo.hStdInput = c->nul;
	si.StartupInfo.hStdOutput = c->out_fd == 1 ? c->p[0].wr : c->nul;
	si.StartupInfo.hStdError = c->capture_err ? c->p[1].wr : c->nul;
	if (c->out_fd > 2) {
		fds = crt_fds(c, &si.StartupInfo.cbReserved2);
		si.StartupInfo.lpReserved2 = fds;
	}
	/* the child inherits these and no other handle of cuenv's */
	inherit[nh++] = c->nul;
	for (int i = 0; i < 2; i++)
		if (c->p[i].wr)
			inherit[nh++] = c->p[i].wr;
	InitializeProcThreadAttributeList(NULL, 1, 0, &attrs_size);
	attrs = malloc(attrs_size);
	if (!wline || (c->out_fd > 2 && !fds) || !attrs ||
	    !InitializeProcThreadAttributeList(attrs, 1, 0, &attrs_size)) {
		free(attrs);
		attrs = NULL;
		e = ENOMEM;
		goto out;
	}
	si.lpAttributeList = attrs;
	if (!UpdateProcThreadAttribute(attrs, 0,
				       PROC_THREAD_ATTRIBUTE_HANDLE_LIST,
				       inherit, nh * sizeof(HANDLE), NULL,
				       NULL) ||
	    !CreateProcessW(app, wline, NULL, NULL, TRUE,
			    CREATE_UNICODE_ENVIRONMENT |
				    EXTENDED_STARTUPINFO_PRESENT,
			    block, NULL, &si.StartupInfo, &pi)) {
		e = errno_of(GetLastError());
		goto out;
	}
	CloseHandle(pi.hThread);
	c->process = pi.hProcess;
out:
	/* the child has its ends: the pipes end when it (and they) close */
	for (int i = 0; i < 2; i++)
		close_handle(&c->p[i].wr);
	close_handle(&c->nul);
	if (attrs) {
		DeleteProcThreadAttributeList(attrs);
		free(attrs);
	}
	free(fds);
	free(app);
	free(block);
	free(wline);
	buf_release(&line);
	return e;
}

/* The end of stream i: its handle closed, reported as a read of 0. */
static int ended(struct plat_child *c, int i, int *stream, size_t *len)
{
	close_handle(&c->p[i].rd);
	*stream = i;
	*len = 0;
	return 1;
}

int plat_child_read(struct plat_child *c, long long wait_ms, int *stream,
		    const char **data, size_t *len)
{
	HANDLE ev[2];
	int which[2], n = 0;
	DWORD r, got = 0;

	for (int k = 0; k < 2; k++) {
		int i = (c->next + k) % 2;
		struct win_pipe *w = &c->p[i];

		if (!w->rd)
			continue;
		if (!w->pending) {
			if (!ReadFile(w->rd, w->chunk, sizeof(w->chunk), NULL,
				      &w->ov) &&
			    GetLastError() != ERROR_IO_PENDING)
				return ended(c, i, stream, len);
			w->pending = 1;
		}
		ev[n] = w->ov.hEvent;
		which[n++] = i;
	}
	if (!n)
		return 2;
	r = WaitForMultipleObjects((DWORD)n, ev, FALSE,
				   wait_ms < 0		  ? INFINITE
				   : wait_ms > 0x7fffffff ? 0x7fffffff
							  : (DWORD)wait_ms);
	if (r == WAIT_TIMEOUT)
		return 0;
	if (r >= WAIT_OBJECT_0 + (DWORD)n) {
		errno = EIO;
		return -1;
	}
	{
		int i = which[r - WAIT_OBJECT_0];
		struct win_pipe *w = &c->p[i];

		w->pending = 0;
		c->next = !i;
		if (!GetOverlappedResult(w->rd, &w->ov, &got, FALSE))
			return ended(c, i, stream, len); /* ERROR_BROKEN_PIPE */
		if (!got)
			return 0; /* a write of nothing */
		*stream = i;
		*data = w->chunk;
		*len = got;
		return 1;
	}
}

void plat_child_kill(struct plat_child *c)
{
	if (c->process && TerminateProcess(c->process, KILL_CODE))
		c->terminated = 1;
}

void plat_child_close(struct plat_child *c)
{
	for (int i = 0; i < 2; i++) {
		struct win_pipe *w = &c->p[i];
		DWORD got;

		if (w->rd && w->pending) {
			/* the read must end before chunk may go */
			CancelIoEx(w->rd, &w->ov);
			GetOverlappedResult(w->rd, &w->ov, &got, TRUE);
			w->pending = 0;
		}
		close_handle(&w->rd);
	}
}

int plat_child_wait(struct plat_child *c, long long wait_ms, int *exit_code,
		    int *sig)
{
	DWORD r, code = 0;

	if (!c->process)
		return -1;
	r = WaitForSingleObject(c->process, wait_ms < 0 ? INFINITE
					    : wait_ms > 0x7fffffff
						    ? 0x7fffffff
						    : (DWORD)wait_ms);
	if (r == WAIT_TIMEOUT)
		return 0;
	if (r != WAIT_OBJECT_0 || !GetExitCodeProcess(c->process, &code)) {
		close_handle(&c->process);
		return -1;
	}
	close_handle(&c->process);
	*exit_code = (int)(code & 0x7fffffff);
	*sig = 0;
	if (c->terminated && code == KILL_CODE) {
		*exit_code = -1;
		*sig = PLAT_CHILD_KILLED;
	}
	return 1;
}

void plat_child_free(struct plat_child *c)
{
	if (!c)
		return;
	plat_child_close(c);
	for (int i = 0; i < 2; i++) {
		close_handle(&c->p[i].wr);
		close_handle(&c->p[i].ov.hEvent);
	}
	close_handle(&c->nul);
	close_handle(&c->process);
	free(c);
}
