/*
 * proc_checks.h: proc.c on plat_proc_win.c, and plat_sys' facts about
 * this process, under wine; included by test_core.c after fs_checks.h
 * (uses check, check_str and check_int). The child is proc_child.exe
 * (tests/windows/proc_child.c), built beside test_core.exe; cmd.exe is
 * found on the child's Path.
 */
#include "../../core/plat/proc.h"

static double now_s(void)
{
	return (double)GetTickCount64() / 1000.0;
}

/* proc_child.exe beside this program: plat_sys_exe_path's folder. */
static char *child_exe(void)
{
	char *self = plat_sys_exe_path();
	struct buf b = BUF_INIT;

	if (!self)
		return NULL;
	buf_adds(&b, self);
	while (b.len && b.data[b.len - 1] != '\\')
		b.len--;
	b.data[b.len] = '\0';
	buf_adds(&b, "proc_child.exe");
	free(self);
	return buf_detach(&b);
}

/* Run proc_child.exe with actions (NULL-terminated) into p. */
static int run_child(struct proc *p, const char *exe,
		     const char *const *actions, struct cuenv_err *err)
{
	char *argv[16];
	size_t n = 0;

	argv[n++] = (char *)exe;
	while (*actions && n < 15)
		argv[n++] = (char *)*actions++;
	argv[n] = NULL;
	p->argv = argv;
	buf_reset(&err->msg);
	return proc_run(p, err);
}

/*
 * out without the variables wine's loader adds to every process it
 * starts (WINE*, SystemDrive, SystemRoot; Windows adds none), when this
 * runs under wine.
 */
static void drop_wine_vars(struct buf *out)
{
	HMODULE nt = GetModuleHandleA("ntdll.dll");
	struct buf kept = BUF_INIT;

	if (!nt || !GetProcAddress(nt, "wine_get_version"))
		return;
	for (const char *l = out->data; *l;) {
		size_t n = strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0);

		if (strncmp(l, "WINE", 4) && strncmp(l, "SystemDrive=", 12) &&
		    strncmp(l, "SystemRoot=", 11))
			buf_add(&kept, l, n);
		l += n;
	}
	buf_reset(out);
	buf_add(out, kept.data, kept.len);
	buf_release(&kept);
}

static void proc_checks(void)
{
	static char *const no_path[] = { "X=1", NULL };
	struct cuenv_err err = CUENV_ERR_INIT;
	char *exe = child_exe(), *self = plat_sys_exe_path();
	char sys[MAX_PATH];
	struct buf path = BUF_INIT;
	char *env[4] = { NULL };
	double t0, took;

	check(self && strlen(self) > 14 &&
		      !strcmp(self + strlen(self) - 14, "\\test_core.exe") &&
		      plat_path_is_abs(plat_path_native(), self),
	      "plat_sys_exe_path", self, "C:\\...\\test_core.exe");
	free(self);
	GetSystemDirectoryA(sys, sizeof sys);
	self = plat_sys_system_dir();
	check(self && !_stricmp(self, sys) && strlen(self) > 9 &&
		      !_stricmp(self + strlen(self) - 9, "\\system32"),
	      "plat_sys_system_dir", self, "C:\\windows\\system32");
	free(self);
	buf_printf(&path, "Path=%s", sys);
	env[0] = path.data;

	{ /* stdout and stderr apart, read at once */
		static const char *const a[] = { "out",	   "to-out", "err",
						 "to-err", "out",    "|more",
						 NULL };
		struct proc p = PROC_INIT;

		p.out_fd = 1;
		p.capture_err = 1;
		check_int("child runs", run_child(&p, exe, a, &err), 0);
		check_str("child's stdout", p.out.data, "to-out|more");
		check_str("child's stderr", p.err.data, "to-err");
		check_int("its exit code", p.exit_code, 0);
		check_int("no signal", p.signal, 0);
		proc_release(&p);
	}
	{ /* more than a pipe holds, on stdout, then stderr, then stdout */
		static const char *const a[] = { "flood",  "300000", "eflood",
						 "300000", "out",    "!",
						 NULL };
		struct proc p = PROC_INIT;

		p.out_fd = 1;
		p.capture_err = 1;
		p.timeout_ms = 20000;
		check_int("flood runs", run_child(&p, exe, a, &err), 0);
		check_int("300001 bytes of stdout", (long long)p.out.len,
			  300001);
		check_int("300000 bytes of stderr", (long long)p.err.len,
			  300000);
		check_int("not timed out", p.timed_out, 0);
		check_int("flood's exit code", p.exit_code, 0);
		proc_release(&p);
	}
	{ /* cmd /c echo, found on the child's Path */
		char *argv[] = { "cmd", "/c", "echo hi& echo oops 1>&2", NULL };
		struct proc p = PROC_INIT;

		p.argv = argv;
		p.envp = env;
		p.search_path = 1;
		p.out_fd = 1;
		p.capture_err = 1;
		check_int("cmd runs", proc_run(&p, &err), 0);
		check_str("cmd's stdout", p.out.data, "hi\r\n");
		check_str("cmd's stderr", p.err.data, "oops \r\n");
		proc_release(&p);
		p = (struct proc)PROC_INIT;
		p.argv = argv;
		p.envp = no_path;
		p.search_path = 1;
		check_int("cmd without a Path", proc_run(&p, &err),
			  CUENV_E_STORE);
		check_int("is ENOENT", p.start_errno, ENOENT);
		check_str("its message", err.msg.data,
			  "cannot run 'cmd': No such file or directory");
		err_release(&err);
		err = (struct cuenv_err)CUENV_ERR_INIT;
		proc_release(&p);
	}
	{ /* the bound: the first bytes kept, the rest drained */
		static const char *const a[] = { "flood", "200000", "exit", "5",
						 NULL };
		struct proc p = PROC_INIT;

		p.out_fd = 1;
		p.max_output = 1000;
		check_int("bounded child runs", run_child(&p, exe, a, &err), 0);
		check_int("1000 bytes kept", (long long)p.out.len, 1000);
		check_int("not overflowed", p.overflowed, 0);
		check_int("read to its end", p.exit_code, 5);
		proc_release(&p);
	}
	{ /* past the bound with kill_on_overflow: killed, overflowed */
		static const char *const a[] = { "forever", NULL };
		struct proc p = PROC_INIT;

		t0 = now_s();
		p.out_fd = 1;
		p.max_output = 4096;
		p.kill_on_overflow = 1;
		p.timeout_ms = 20000;
		check_int("endless child runs", run_child(&p, exe, a, &err), 0);
		check_int("overflowed", p.overflowed, 1);
		check_int("not timed out", p.timed_out, 0);
		check_int("4096 bytes kept", (long long)p.out.len, 4096);
		check_int("killed: exit_code", p.exit_code, -1);
		check_int("killed: signal", p.signal, PLAT_CHILD_KILLED);
		check_int("killed: status", proc_status(&p), 137);
		check(now_s() - t0 < 10, "killed at once", "late", "< 10 s");
		proc_release(&p);
	}
	{ /* the deadline: killed, timed out, what it said kept */
		static const char *const a[] = { "out", "started", "sleep",
						 "30000", NULL };
		struct proc p = PROC_INIT;

		t0 = now_s();
		p.out_fd = 1;
		p.capture_err = 1;
		p.timeout_ms = 300;
		check_int("sleeper runs", run_child(&p, exe, a, &err), 0);
		took = now_s() - t0;
		check_int("timed out", p.timed_out, 1);
		check_int("not overflowed", p.overflowed, 0);
		check_int("sleeper: signal", p.signal, PLAT_CHILD_KILLED);
		check_int("sleeper: status", proc_status(&p), 137);
		check_str("sleeper's output", p.out.data, "started");
		check(took >= 0.28 && took < 10, "killed at the deadline",
		      took < 0.28 ? "early" : "late", "0.3 s");
		proc_release(&p);
	}
	{ /* a child that closed its output and hangs: killed on time */
		static const char *const a[] = { "out",	  "bye",   "close",
						 "sleep", "30000", NULL };
		struct proc p = PROC_INIT;

		t0 = now_s();
		p.out_fd = 1;
		p.capture_err = 1;
		p.timeout_ms = 300;
		check_int("closer runs", run_child(&p, exe, a, &err), 0);
		check_str("closer's output", p.out.data, "bye");
		check_int("closer timed out", p.timed_out, 1);
		check_int("closer: signal", p.signal, PLAT_CHILD_KILLED);
		check(now_s() - t0 < 10, "closer killed on time", "late",
		      "< 10 s");
		proc_release(&p);
	}
	{ /* the deadline with nothing read back: only the wait */
		static const char *const a[] = { "sleep", "30000", NULL };
		static const char *const q[] = { "exit", "0", NULL };
		struct proc p = PROC_INIT;

		t0 = now_s();
		p.timeout_ms = 300;
		check_int("silent sleeper runs", run_child(&p, exe, a, &err),
			  0);
		check_int("silent sleeper timed out", p.timed_out, 1);
		check(now_s() - t0 < 10, "silent sleeper killed", "late",
		      "< 10 s");
		proc_release(&p);
		p = (struct proc)PROC_INIT;
		p.timeout_ms = 10000;
		check_int("quick child runs", run_child(&p, exe, q, &err), 0);
		check_int("quick child not timed out", p.timed_out, 0);
		proc_release(&p);
	}
	{ /* exit codes through */
		static const char *const codes[] = { "0", "1", "42", "255",
						     "1000" };

		for (size_t i = 0; i < N(codes); i++) {
			const char *a[] = { "exit", codes[i], NULL };
			struct proc p = PROC_INIT;

			run_child(&p, exe, a, &err);
			check_int(codes[i], p.exit_code, atoi(codes[i]));
			check_int("status", proc_status(&p), atoi(codes[i]));
			proc_release(&p);
		}
	}
	{ /* the environment: exactly what was given, sorted; none at all */
		static const char *const a[] = { "env", NULL };
		char *const given[] = { "FOO=bar baz", "zed=\xc3\xa9",
					"ALPHA=", "Foo=second", NULL };
		struct proc p = PROC_INIT;

		p.out_fd = 1;
		p.envp = given;
		/* this process's own variables must not reach it */
		SetEnvironmentVariableA("CUENV_TEST_PARENT", "1");
		run_child(&p, exe, a, &err);
		SetEnvironmentVariableA("CUENV_TEST_PARENT", NULL);
		drop_wine_vars(&p.out);
		check_str("child's environment", p.out.data,
			  "ALPHA=\nFOO=bar baz\nzed=\xc3\xa9\n");
		proc_release(&p);
		p = (struct proc)PROC_INIT;
		p.out_fd = 1;
		run_child(&p, exe, a, &err);
		drop_wine_vars(&p.out);
		check_str("NULL envp: an empty environment", p.out.data, "");
		proc_release(&p);
	}
	{ /* an answer on the child's own descriptor (lpReserved2) */
		static const char *const a[] = {
			"out", "noise", "fd", "3", "answer", "err", "e", NULL
		};
		struct proc p = PROC_INIT;

		p.out_fd = 3;
		check_int("fd 3 child runs", run_child(&p, exe, a, &err), 0);
		check_str("fd 3's answer", p.out.data, "answer");
		check_str("stderr not read", p.err.data, "");
		check_int("fd 3 child's exit", p.exit_code, 0);
		proc_release(&p);
	}
	{ /* an inheritable handle of ours not named for it stays ours */
		SECURITY_ATTRIBUTES sa = { sizeof(sa), NULL, TRUE };
		HANDLE ev = CreateEventW(&sa, TRUE, FALSE, NULL);
		STARTUPINFOA si;
		PROCESS_INFORMATION pi;
		char num[32], line[MAX_PATH + 64];
		const char *a[] = { "handle", num, NULL };
		struct proc p = PROC_INIT;
		DWORD code = 0;

		snprintf(num, sizeof num, "%llu",
			 (unsigned long long)(uintptr_t)ev);
		run_child(&p, exe, a, &err);
		check_int("cuenv's other handles not inherited (11)",
			  p.exit_code, 11);
		proc_release(&p);
		/* the check can fail: CreateProcess without a list gives it */
		snprintf(line, sizeof line, "\"%s\" handle %s", exe, num);
		memset(&si, 0, sizeof si);
		si.cb = sizeof si;
		if (CreateProcessA(exe, line, NULL, NULL, TRUE, 0, NULL, NULL,
				   &si, &pi)) {
			WaitForSingleObject(pi.hProcess, INFINITE);
			GetExitCodeProcess(pi.hProcess, &code);
			CloseHandle(pi.hProcess);
			CloseHandle(pi.hThread);
		}
		check_int("inherited without a list (10)", code, 10);
		CloseHandle(ev);
	}
	{ /* a program that is not there */
		char *argv[] = { "C:\\no\\such\\prog.exe", NULL };
		struct proc p = PROC_INIT;

		p.argv = argv;
		p.out_fd = 1;
		p.capture_err = 1;
		check_int("missing program", proc_run(&p, &err), CUENV_E_STORE);
		check_int("missing: ENOENT", p.start_errno, ENOENT);
		check_int("missing: exit_code", p.exit_code, -1);
		proc_release(&p);
	}
	{ /* plat_sys from the child: its parent is this program */
		static const char *const a[] = { "parent", NULL };
		static const char *const t[] = { "tty", NULL };
		struct proc p = PROC_INIT;

		p.out_fd = 1;
		run_child(&p, exe, a, &err);
		check_str("the child's parent", p.out.data, "test_core");
		proc_release(&p);
		/* its stderr a pipe, then the null device: no terminal */
		p = (struct proc)PROC_INIT;
		p.out_fd = 1;
		p.capture_err = 1;
		run_child(&p, exe, t, &err);
		check_str("stderr a pipe: no tty", p.out.data, "0 0");
		proc_release(&p);
		p = (struct proc)PROC_INIT;
		p.out_fd = 1;
		run_child(&p, exe, t, &err);
		check_str("stderr NUL: no tty", p.out.data, "0 0");
		proc_release(&p);
	}
	buf_release(&path);
	free(exe);
	err_release(&err);
}

/* plat_getcwd: the folder SetCurrentDirectoryW made current, in UTF-8. */
static void cwd_checks(void)
{
	wchar_t tmp[MAX_PATH], dir[MAX_PATH], old[MAX_PATH];
	char want[4 * MAX_PATH], *got;
	int64_t t1 = plat_sys_clock_ms(), t2;
	LARGE_INTEGER f, c1, c2;

	GetCurrentDirectoryW(MAX_PATH, old);
	GetTempPathW(MAX_PATH, tmp);
	/* "cuenv cwd é" */
	_snwprintf(dir, MAX_PATH, L"%lscuenv cwd \x00e9", tmp);
	CreateDirectoryW(dir, NULL);
	check(SetCurrentDirectoryW(dir), "SetCurrentDirectoryW", "0", "1");
	WideCharToMultiByte(CP_UTF8, 0, dir, -1, want, sizeof want, NULL, NULL);
	got = plat_getcwd();
	check_str("plat_getcwd", got, want);
	free(got);
	SetCurrentDirectoryW(old);
	RemoveDirectoryW(dir);
	/* 100 ms by the performance counter; GetTickCount64 ticks 10-16 ms */
	QueryPerformanceFrequency(&f);
	QueryPerformanceCounter(&c1);
	do {
		Sleep(10);
		QueryPerformanceCounter(&c2);
	} while ((c2.QuadPart - c1.QuadPart) * 1000 / f.QuadPart < 100);
	t2 = plat_sys_clock_ms();
	check_int("plat_sys_clock_ms after 100 ms",
		  t2 - t1 >= 80 && t2 - t1 < 5000 ? 100 : t2 - t1, 100);
}
