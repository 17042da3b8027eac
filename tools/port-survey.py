#!/usr/bin/env python3
"""tools/port-survey.py: count the POSIX/Linux calls in core/ and cmd/, per
module and per platform interface they would move behind (the table in
docs/windows-port.md). Comments are skipped; a regex count, not a parser:
it tells where the work is, not an exact call graph.

Columns: fs (files, folders, links, *at calls, open flags; "at" is the *at
subset), path (separators, realpath, getcwd, /proc/self/exe), mode (owners,
permission bits, file types, uids), proc (spawn, exec, wait, pipes, poll,
signals), lock (fcntl record/OFD locks), env (environ, getenv), dl
(dlopen), sys (uname, sysconf, statvfs, mmap, isatty, clocks, /proc, /sys,
ld.so).
"""
import collections
import glob
import re
groups = collections.OrderedDict([
 ('fs', r'\b(openat|mkdirat|linkat|symlinkat|renameat2?|unlinkat|fstatat|readlinkat|faccessat|fchmodat|utimensat|fdopendir|opendir|readdir|closedir|open|creat|fsync|fdatasync|rename|unlink|rmdir|mkdir|chmod|fchmod|symlink|link|readlink|lstat|stat|fstat|ftruncate|access)\s*\(|\b(O_CLOEXEC|O_NOFOLLOW|O_DIRECTORY|O_PATH|O_EXCL|O_TMPFILE|AT_FDCWD|AT_SYMLINK_NOFOLLOW|AT_REMOVEDIR)\b'),
 ('at', r'\b(openat|mkdirat|linkat|symlinkat|renameat2?|unlinkat|fstatat|readlinkat|faccessat|fchmodat|utimensat|fdopendir)\s*\('),
 ('path', r"'/'|\"/\"|\b(realpath|getcwd|chdir)\s*\(|/proc/self/exe"),
 ('mode', r'\b(st_mode|st_uid|st_gid|S_IS\w+|S_IX\w+|S_IW\w+|getuid|geteuid)\b'),
 ('proc', r'\b(fork|execv|execvp|execve|posix_spawnp?|posix_spawn_file_actions_\w+|waitpid|pipe2?|dup2?|poll|kill|sigaction|signal|getppid|WIFEXITED|WEXITSTATUS)\b'),
 ('lock', r'\b(F_OFD_SETLKW?|F_SETLKW?|F_GETLK|flock)\b'),
 ('env', r'\b(environ|getenv|setenv|unsetenv)\b'),
 ('dl', r'\b(dlopen|dlsym|dlclose|dlerror|dladdr)\b'),
 ('sys', r'\b(uname|sysconf|statvfs|fstatvfs|mmap|munmap|isatty|ioctl|clock_gettime|nanosleep)\b|"/proc/|"/sys/|ld\.so'),
])
files = sorted(glob.glob('core/*.c')+glob.glob('cmd/*.c'))
rows=[]
tot=collections.Counter()
for f in files:
    if f.endswith('digest_bcrypt.c'): continue
    src=open(f).read()
    src=re.sub(r'/\*.*?\*/','',src,flags=re.S)
    src=re.sub(r'//[^\n]*','',src)
    c={g:len(re.findall(rx,src)) for g,rx in groups.items()}
    s=sum(v for k,v in c.items() if k!='at')
    tot.update(c)
    rows.append((s,f,c))
rows.sort(key=lambda r:-r[0])
print('| module | lines | ' + ' | '.join(groups) + ' | total |')
print('|---|---:|' + '---:|'*len(groups) + '---:|')
for s,f,c in rows:
    if s==0: continue
    n=sum(1 for _ in open(f))
    print(f'| {f} | {n} | ' + ' | '.join(str(c[g] or '') for g in groups) + f' | {s} |')
print('| **all** | | ' + ' | '.join(f'**{tot[g]}**' for g in groups) + f' | **{sum(v for k,v in tot.items() if k!="at")}** |')
print('untouched:', ' '.join(f for s,f,c in rows if s==0))
