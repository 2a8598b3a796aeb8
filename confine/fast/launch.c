/*
 * safezone's fast launcher: the confined command's namespace, mounts,
 * Landlock ruleset and exec, in one process (see package confine, "The
 * fast launcher"). It takes the arguments of the Go launcher's bash and
 * exec modes (confine.Main), and does what the Go launcher's two stages do
 * for a ruleset with a mount namespace (it always makes one; NoRead paths
 * that exist it also hides like Hide ones):
 *
 *   1. check that the state descriptor is a pipe (bash mode);
 *   2. unshare(CLONE_NEWUSER | CLONE_NEWNS), before any other thread
 *      exists, and map the caller's user and group IDs to themselves;
 *   3. build the command's view of the file system (confine's mountAll):
 *      private tmpfs with kept sockets bound back, overlays, replaced
 *      files, then, outer paths first, pins and read-only binds and
 *      stand-ins (mode 000) over the hidden paths;
 *   4. enter the working directory again through the new mounts;
 *   5. a Landlock ruleset: read everywhere (hidden paths are stand-ins)
 *      but the NoRead paths, and again beneath the Read paths below them
 *      (the private home directory's toolchains),
 *      write beneath the Write paths, device ioctls on the data devices
 *      (ABI 5), abstract sockets and signals scoped (ABI 6);
 *   6. no capabilities for root in the namespace (SECBIT_NOROOT),
 *      no_new_privs, landlock_restrict_self;
 *   7. exec the shell with the command (bash mode) or the program.
 *
 * On any failure it prints "safezone: confine: ...; the command was not
 * run" and exits 126, having run nothing. It is built by the hook from this
 * source with the system's C compiler (confine.BuildFast); where it cannot
 * be, the Go launcher runs instead.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

extern char **environ;

/* System call numbers of the mount API and Landlock: the same on every
 * architecture (they came after the unified numbering, 424 and up). */
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_fsopen
#define SYS_fsopen 430
#endif
#ifndef SYS_fsconfig
#define SYS_fsconfig 431
#endif
#ifndef SYS_fsmount
#define SYS_fsmount 432
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef SYS_landlock_add_rule
#define SYS_landlock_add_rule 445
#endif
#ifndef SYS_landlock_restrict_self
#define SYS_landlock_restrict_self 446
#endif

/* linux/mount.h */
#define OPEN_TREE_CLONE 1
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#define MOVE_MOUNT_T_EMPTY_PATH 0x00000040
#define FSOPEN_CLOEXEC 0x00000001
#define FSCONFIG_SET_FLAG 0
#define FSCONFIG_SET_STRING 1
#define FSCONFIG_CMD_CREATE 6
#define FSMOUNT_CLOEXEC 0x00000001
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
#define MOUNT_ATTR_NODEV 0x00000004
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
struct sz_mount_attr {
	uint64_t attr_set, attr_clr, propagation, userns_fd;
};

/* linux/openat2.h */
struct sz_open_how {
	uint64_t flags, mode, resolve;
};
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS 0x04

/* linux/landlock.h */
#define LL_CREATE_RULESET_VERSION (1U << 0)
#define LL_RULE_PATH_BENEATH 1
#define LL_EXECUTE (1ULL << 0)
#define LL_WRITE_FILE (1ULL << 1)
#define LL_READ_FILE (1ULL << 2)
#define LL_READ_DIR (1ULL << 3)
#define LL_REMOVE_DIR (1ULL << 4)
#define LL_REMOVE_FILE (1ULL << 5)
#define LL_MAKE_CHAR (1ULL << 6)
#define LL_MAKE_DIR (1ULL << 7)
#define LL_MAKE_REG (1ULL << 8)
#define LL_MAKE_SOCK (1ULL << 9)
#define LL_MAKE_FIFO (1ULL << 10)
#define LL_MAKE_BLOCK (1ULL << 11)
#define LL_MAKE_SYM (1ULL << 12)
#define LL_REFER (1ULL << 13)
#define LL_TRUNCATE (1ULL << 14)
#define LL_IOCTL_DEV (1ULL << 15)
#define LL_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LL_SCOPE_SIGNAL (1ULL << 1)
#define LL_WRITE_V1 (LL_WRITE_FILE | LL_REMOVE_DIR | LL_REMOVE_FILE | LL_MAKE_CHAR | LL_MAKE_DIR | LL_MAKE_REG | \
		     LL_MAKE_SOCK | LL_MAKE_FIFO | LL_MAKE_BLOCK | LL_MAKE_SYM)
#define LL_FILE_RIGHTS (LL_EXECUTE | LL_WRITE_FILE | LL_READ_FILE | LL_TRUNCATE | LL_IOCTL_DEV)
struct sz_ruleset_attr {
	uint64_t handled_fs, handled_net, scoped;
};
struct __attribute__((packed)) sz_path_beneath {
	uint64_t allowed;
	int32_t parent_fd;
};

/* linux/securebits.h, linux/capability.h */
#define SECBIT_NOROOT (1 << 0)
#define SECBIT_NOROOT_LOCKED (1 << 1)
#define SECBIT_NO_SETUID_FIXUP (1 << 2)
#define SECBIT_NO_SETUID_FIXUP_LOCKED (1 << 3)
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif

/* The exit status of a launcher that did not run the command. */
#define EXIT_CANNOT_RUN 126

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "safezone: confine: %s; the command was not run\n", msg);
	_exit(EXIT_CANNOT_RUN);
}

/* ---- the ruleset: confine.Ruleset's JSON ---- */

struct list {
	char **v;
	int n;
};

struct ruleset {
	struct list write, noread, read, readonly, hide, tmpfs, keep, overlay;
	struct list replace_from, replace_to; /* Replace: key, value */
	struct list readl; /* the Read and Write paths beneath a NoRead path */
	char *report_dir, *report_call; /* Report: NULL for none */
	/* Net: has_net set for a network namespace of the command's own;
	 * net_proxy NULL for one with no way out (net_note says why). */
	int has_net;
	char *net_proxy, *net_socket, *net_policy, *net_note;
};

static void push(struct list *l, char *s)
{
	l->v = realloc(l->v, sizeof(char *) * (l->n + 1));
	if (!l->v)
		die("out of memory");
	l->v[l->n++] = s;
}

struct json {
	const char *s;
	size_t i, n;
};

static void ws(struct json *j)
{
	while (j->i < j->n && (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r'))
		j->i++;
}

static int want(struct json *j, char c)
{
	ws(j);
	if (j->i < j->n && j->s[j->i] == c) {
		j->i++;
		return 1;
	}
	return 0;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* utf8 appends the UTF-8 encoding of the code point c to out at *k. */
static void utf8(char *out, size_t *k, unsigned c)
{
	if (c < 0x80) {
		out[(*k)++] = (char)c;
	} else if (c < 0x800) {
		out[(*k)++] = (char)(0xC0 | (c >> 6));
		out[(*k)++] = (char)(0x80 | (c & 0x3F));
	} else if (c < 0x10000) {
		out[(*k)++] = (char)(0xE0 | (c >> 12));
		out[(*k)++] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[(*k)++] = (char)(0x80 | (c & 0x3F));
	} else {
		out[(*k)++] = (char)(0xF0 | (c >> 18));
		out[(*k)++] = (char)(0x80 | ((c >> 12) & 0x3F));
		out[(*k)++] = (char)(0x80 | ((c >> 6) & 0x3F));
		out[(*k)++] = (char)(0x80 | (c & 0x3F));
	}
}

static unsigned hex4(struct json *j)
{
	unsigned v = 0;
	for (int k = 0; k < 4; k++) {
		int h = j->i < j->n ? hexval(j->s[j->i++]) : -1;
		if (h < 0)
			die("bad ruleset: a bad \\u escape");
		v = v << 4 | (unsigned)h;
	}
	return v;
}

/* str reads a JSON string (Go's encoding/json output: escapes \" \\ \/ \b
 * \f \n \r \t \uXXXX, surrogate pairs) and returns it, NUL-terminated; a
 * NUL byte in it is an error. */
static char *str(struct json *j)
{
	if (!want(j, '"'))
		die("bad ruleset: want a string at byte %zu", j->i);
	char *out = malloc(j->n - j->i + 1);
	size_t k = 0;
	if (!out)
		die("out of memory");
	while (j->i < j->n && j->s[j->i] != '"') {
		char c = j->s[j->i++];
		if (c != '\\') {
			out[k++] = c;
			continue;
		}
		if (j->i >= j->n)
			break;
		c = j->s[j->i++];
		switch (c) {
		case '"': case '\\': case '/': out[k++] = c; break;
		case 'b': out[k++] = '\b'; break;
		case 'f': out[k++] = '\f'; break;
		case 'n': out[k++] = '\n'; break;
		case 'r': out[k++] = '\r'; break;
		case 't': out[k++] = '\t'; break;
		case 'u': {
			unsigned c1 = hex4(j);
			if (c1 >= 0xD800 && c1 < 0xDC00 && j->i + 6 <= j->n && j->s[j->i] == '\\' && j->s[j->i + 1] == 'u') {
				j->i += 2;
				unsigned c2 = hex4(j);
				c1 = 0x10000 + ((c1 - 0xD800) << 10) + (c2 - 0xDC00);
			}
			if (c1 == 0)
				die("bad ruleset: a NUL byte in a path");
			utf8(out, &k, c1);
			break;
		}
		default:
			die("bad ruleset: a bad escape");
		}
	}
	if (!want(j, '"'))
		die("bad ruleset: an unterminated string");
	out[k] = 0;
	return out;
}

/* raw reads a JSON object and returns its text as written (Net's Policy,
 * which the launcher passes to the proxy daemon unread). */
static char *raw(struct json *j)
{
	ws(j);
	size_t start = j->i;
	int depth = 0;
	if (j->i >= j->n || j->s[j->i] != '{')
		die("bad ruleset: want an object at byte %zu", j->i);
	do {
		if (j->i >= j->n)
			die("bad ruleset: an unterminated object");
		char c = j->s[j->i];
		if (c == '"') {
			free(str(j));
			continue;
		}
		depth += c == '{' || c == '[';
		depth -= c == '}' || c == ']';
		j->i++;
	} while (depth > 0);
	return strndup(j->s + start, j->i - start);
}

static void strlist(struct json *j, struct list *l)
{
	if (!want(j, '['))
		die("bad ruleset: want a list at byte %zu", j->i);
	if (want(j, ']'))
		return;
	do
		push(l, str(j));
	while (want(j, ','));
	if (!want(j, ']'))
		die("bad ruleset: an unterminated list");
}

/* valid reports whether p is an absolute, clean path (confine's
 * Ruleset.Validate). */
static int valid(const char *p)
{
	size_t n = strlen(p);
	if (n == 0 || p[0] != '/')
		return 0;
	if (n == 1)
		return 1;
	if (p[n - 1] == '/' || strstr(p, "//") || strstr(p, "/./") || strstr(p, "/../"))
		return 0;
	if (n >= 2 && strcmp(p + n - 2, "/.") == 0)
		return 0;
	if (n >= 3 && strcmp(p + n - 3, "/..") == 0)
		return 0;
	return 1;
}

static int within(const char *p, const char *root);

/* beneath_any reports whether p lies strictly beneath a path of l. */
static int beneath_any(const char *p, const struct list *l)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(p, l->v[i]) && within(p, l->v[i]))
			return 1;
	return 0;
}

/* holds_any reports whether a path of l lies strictly beneath p. */
static int holds_any(const char *p, const struct list *l)
{
	for (int i = 0; i < l->n; i++)
		if (strcmp(p, l->v[i]) && within(l->v[i], p))
			return 1;
	return 0;
}

static void parse(const char *text, struct ruleset *rs)
{
	struct json j = {text, 0, strlen(text)};
	memset(rs, 0, sizeof *rs);
	if (!want(&j, '{'))
		die("bad ruleset: want an object");
	if (!want(&j, '}')) {
		do {
			char *key = str(&j);
			if (!want(&j, ':'))
				die("bad ruleset: want ':'");
			if (!strcmp(key, "write"))
				strlist(&j, &rs->write);
			else if (!strcmp(key, "noread"))
				strlist(&j, &rs->noread);
			else if (!strcmp(key, "read"))
				strlist(&j, &rs->read);
			else if (!strcmp(key, "readonly"))
				strlist(&j, &rs->readonly);
			else if (!strcmp(key, "hide"))
				strlist(&j, &rs->hide);
			else if (!strcmp(key, "tmpfs"))
				strlist(&j, &rs->tmpfs);
			else if (!strcmp(key, "keep"))
				strlist(&j, &rs->keep);
			else if (!strcmp(key, "overlay"))
				strlist(&j, &rs->overlay);
			else if (!strcmp(key, "replace")) {
				if (!want(&j, '{'))
					die("bad ruleset: replace wants an object");
				if (!want(&j, '}')) {
					do {
						push(&rs->replace_from, str(&j));
						if (!want(&j, ':'))
							die("bad ruleset: want ':'");
						push(&rs->replace_to, str(&j));
					} while (want(&j, ','));
					if (!want(&j, '}'))
						die("bad ruleset: an unterminated object");
				}
			} else if (!strcmp(key, "report")) {
				if (!want(&j, '{'))
					die("bad ruleset: report wants an object");
				if (!want(&j, '}')) {
					do {
						char *k = str(&j);
						if (!want(&j, ':'))
							die("bad ruleset: want ':'");
						if (!strcmp(k, "dir"))
							rs->report_dir = str(&j);
						else if (!strcmp(k, "call"))
							rs->report_call = str(&j);
						else
							die("bad ruleset: unknown field \"report.%s\"", k);
						free(k);
					} while (want(&j, ','));
					if (!want(&j, '}'))
						die("bad ruleset: an unterminated object");
				}
				if (!rs->report_dir || !valid(rs->report_dir))
					die("bad ruleset: report's directory is not an absolute, clean path");
				if (!rs->report_call)
					rs->report_call = "";
			} else if (!strcmp(key, "net")) {
				rs->has_net = 1;
				if (!want(&j, '{'))
					die("bad ruleset: net wants an object");
				if (!want(&j, '}')) {
					do {
						char *k = str(&j);
						if (!want(&j, ':'))
							die("bad ruleset: want ':'");
						if (!strcmp(k, "proxy"))
							rs->net_proxy = str(&j);
						else if (!strcmp(k, "socket"))
							rs->net_socket = str(&j);
						else if (!strcmp(k, "note"))
							rs->net_note = str(&j);
						else if (!strcmp(k, "policy"))
							rs->net_policy = raw(&j);
						else
							die("bad ruleset: unknown field \"net.%s\"", k);
						free(k);
					} while (want(&j, ','));
					if (!want(&j, '}'))
						die("bad ruleset: an unterminated object");
				}
			} else
				die("bad ruleset: unknown field \"%s\"", key);
			free(key);
		} while (want(&j, ','));
		if (!want(&j, '}'))
			die("bad ruleset: an unterminated object");
	}
	ws(&j);
	if (j.i != j.n)
		die("bad ruleset: data after the JSON object");
	struct list *all[] = {&rs->write, &rs->noread, &rs->read, &rs->readonly, &rs->hide, &rs->tmpfs, &rs->keep, &rs->overlay,
			      &rs->replace_from, &rs->replace_to};
	for (size_t a = 0; a < sizeof all / sizeof all[0]; a++)
		for (int i = 0; i < all[a]->n; i++)
			if (!valid(all[a]->v[i]))
				die("bad ruleset: \"%s\" is not an absolute, clean path", all[a]->v[i]);
	if (rs->net_proxy && *rs->net_proxy) {
		if (!rs->net_socket || !valid(rs->net_proxy) || !valid(rs->net_socket))
			die("bad ruleset: net's proxy or socket is not an absolute, clean path");
		int hidden = 0;
		for (int i = 0; i < rs->hide.n; i++)
			hidden |= within(rs->net_socket, rs->hide.v[i]);
		if (!hidden)
			die("bad ruleset: net's socket %s is not hidden", rs->net_socket);
		if (!rs->net_policy)
			rs->net_policy = "null";
	} else if (rs->net_socket && *rs->net_socket)
		die("bad ruleset: net has a socket without a proxy");
	else
		rs->net_proxy = NULL;
	/* The NoRead paths that exist are hidden too: a stand-in no one may
	 * open. They lie outside the Write paths (confine's Ruleset), so
	 * nothing could write them anyway. All stay NoRead: Landlock's read
	 * rights, granted on the complement of the way to them
	 * (read_complement), keep what is put at their names later unreadable
	 * for as long as any process of the command lives (issue 27: `aws
	 * configure` after a confined command left a process behind; a rename
	 * over a hidden file, which detaches its stand-in in this namespace). */
	struct list *readable[] = {&rs->read, &rs->write};
	for (int a = 0; a < 2; a++)
		for (int i = 0; i < readable[a]->n; i++)
			if (beneath_any(readable[a]->v[i], &rs->noread))
				push(&rs->readl, readable[a]->v[i]);
	/* A NoRead path that holds a Read one (the home directory) is no
	 * stand-in: Landlock alone keeps the rest of it unreadable. */
	for (int i = 0; i < rs->noread.n; i++) {
		struct stat st;
		if (holds_any(rs->noread.v[i], &rs->readl))
			continue;
		if (lstat(rs->noread.v[i], &st) == 0)
			push(&rs->hide, rs->noread.v[i]);
	}
}

/* ---- paths ---- */

static int within(const char *p, const char *root)
{
	size_t n = strlen(root);
	return strcmp(p, root) == 0 || strcmp(root, "/") == 0 || (strncmp(p, root, n) == 0 && p[n] == '/');
}

/* open_nofollow opens p as an O_PATH descriptor, failing (ELOOP) if an
 * element of it is a symlink; errno is set on failure. */
static int open_nofollow(const char *p)
{
	struct sz_open_how how = {O_PATH | O_CLOEXEC | O_NOFOLLOW, 0, RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
	return (int)syscall(SYS_openat2, AT_FDCWD, p, &how, sizeof how);
}


/* ---- the mounts (confine's mountAll) ---- */

struct mounter {
	struct ruleset *rs;
	struct list pinned;
	int stand; /* the stand-in tmpfs; -1 until needed */
};

static int new_tmpfs(const char *mode)
{
	int fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -1;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", mode, 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0) {
		int e = errno;
		close(fs);
		errno = e;
		return -1;
	}
	int m = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	int e = errno;
	close(fs);
	errno = e;
	return m;
}

/* bind_self mounts a copy of the mount tree at p onto p, read-only if ro. */
static void bind_self(const char *p, int ro)
{
	int fd = open_nofollow(p);
	if (fd < 0)
		die("%s %s: %s", ro ? "read-only path" : "pin", p, strerror(errno));
	int tree = (int)syscall(SYS_open_tree, fd, "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH | AT_RECURSIVE);
	if (tree < 0)
		die("open_tree %s: %s", p, strerror(errno));
	if (ro) {
		struct sz_mount_attr attr = {MOUNT_ATTR_RDONLY, 0, 0, 0};
		if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) < 0)
			die("mount_setattr %s: %s", p, strerror(errno));
	}
	if (syscall(SYS_move_mount, tree, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		die("move_mount %s: %s", p, strerror(errno));
	close(tree);
	close(fd);
}

/* move_clone clones name beneath dirfd (itself when name is "") as a
 * read-only bind mount and moves it over dst. */
static void move_clone(int dirfd, const char *name, int dst, const char *what)
{
	unsigned flags = OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | (*name ? 0 : AT_EMPTY_PATH);
	int tree = (int)syscall(SYS_open_tree, dirfd, name, flags);
	if (tree < 0)
		die("open_tree %s: %s", what, strerror(errno));
	struct sz_mount_attr attr = {MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0, 0, 0};
	if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof attr) < 0)
		die("mount_setattr %s: %s", what, strerror(errno));
	if (syscall(SYS_move_mount, tree, "", dst, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		die("move_mount %s: %s", what, strerror(errno));
	close(tree);
}

/* next returns, newly allocated, the path one element deeper than d on the
 * way to p, which lies beneath d. */
static char *next(const char *d, const char *p)
{
	size_t start = strcmp(d, "/") == 0 ? 1 : strlen(d) + 1;
	const char *slash = strchr(p + start, '/');
	size_t n = slash ? (size_t)(slash - p) : strlen(p);
	return strndup(p, n);
}

static int pinned(struct mounter *m, const char *d)
{
	for (int i = 0; i < m->pinned.n; i++)
		if (!strcmp(m->pinned.v[i], d))
			return 1;
	return 0;
}

/* pin makes every directory between the outermost Write path holding p and
 * p (that Write path included, / and p excluded) a mount point. */
static void pin(struct mounter *m, const char *p)
{
	const char *root = NULL;
	for (int i = 0; i < m->rs->write.n; i++) {
		const char *w = m->rs->write.v[i];
		if (within(p, w) && (!root || strlen(w) < strlen(root)))
			root = w;
	}
	if (!root)
		return;
	char *d = strdup(root);
	while (strcmp(d, p) != 0) {
		if (strcmp(d, "/") != 0 && !pinned(m, d)) {
			bind_self(d, 0);
			push(&m->pinned, strdup(d));
		}
		char *n = next(d, p);
		free(d);
		d = n;
	}
	free(d);
}

static void placeholder(int dirfd, const char *rel, int dir)
{
	char *path = strdup(rel);
	for (char *s = strchr(path, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		if (mkdirat(dirfd, path, 0700) < 0 && errno != EEXIST)
			die("kept path %s: %s", rel, strerror(errno));
		*s = '/';
	}
	if (dir) {
		if (mkdirat(dirfd, path, 0700) < 0)
			die("kept path %s: %s", rel, strerror(errno));
	} else {
		int f = openat(dirfd, path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		if (f < 0)
			die("kept path %s: %s", rel, strerror(errno));
		close(f);
	}
	free(path);
}

/* tmpfs mounts an empty tmpfs over the directory d (1777 where d is sticky,
 * 0700 else), with the Keep paths beneath d bound back in place. */
static void tmpfs(struct mounter *m, const char *d)
{
	int fd = open_nofollow(d);
	if (fd < 0) {
		if (errno == ENOENT)
			return;
		die("private directory %s: %s", d, strerror(errno));
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode))
		die("private directory %s: not a directory", d);
	int nkeep = 0, *kfd = calloc(m->rs->keep.n + 1, sizeof(int));
	const char **krel = calloc(m->rs->keep.n + 1, sizeof(char *));
	int *kdir = calloc(m->rs->keep.n + 1, sizeof(int));
	for (int i = 0; i < m->rs->keep.n; i++) {
		const char *k = m->rs->keep.v[i];
		if (!strcmp(k, d) || !within(k, d))
			continue;
		int f = open_nofollow(k);
		if (f < 0) {
			if (errno == ENOENT)
				continue;
			die("kept path %s: %s", k, strerror(errno));
		}
		struct stat ks;
		if (fstat(f, &ks) < 0)
			die("kept path %s: %s", k, strerror(errno));
		kfd[nkeep] = f;
		krel[nkeep] = k + strlen(d) + (strcmp(d, "/") ? 1 : 0);
		kdir[nkeep] = S_ISDIR(ks.st_mode);
		nkeep++;
	}
	int mfd = new_tmpfs((st.st_mode & S_ISVTX) ? "1777" : "0700");
	if (mfd < 0)
		die("private directory %s: tmpfs: %s", d, strerror(errno));
	for (int i = 0; i < nkeep; i++)
		placeholder(mfd, krel[i], kdir[i]);
	if (syscall(SYS_move_mount, mfd, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		die("private directory %s: move_mount: %s", d, strerror(errno));
	close(mfd);
	for (int i = 0; i < nkeep; i++) {
		char *p;
		if (asprintf(&p, "%s/%s", strcmp(d, "/") ? d : "", krel[i]) < 0)
			die("out of memory");
		int dst = open_nofollow(p);
		if (dst < 0)
			die("kept path %s: %s", p, strerror(errno));
		int tree = (int)syscall(SYS_open_tree, kfd[i], "", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_EMPTY_PATH);
		if (tree < 0 || syscall(SYS_move_mount, tree, "", dst, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
			die("kept path %s: %s", p, strerror(errno));
		close(tree);
		close(dst);
		close(kfd[i]);
		free(p);
	}
	free(kfd);
	free(krel);
	free(kdir);
	close(fd);
}

/* overlay mounts over the directory d an overlayfs of d with an upper
 * layer on a fresh tmpfs (userxattr: Linux 5.11, in a user namespace). */
static void overlay(const char *d)
{
	int fd = open_nofollow(d);
	if (fd < 0) {
		if (errno == ENOENT)
			return;
		die("overlaid directory %s: %s", d, strerror(errno));
	}
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode))
		die("overlaid directory %s: not a directory", d);
	int up = new_tmpfs("0755");
	if (up < 0)
		die("overlaid directory %s: tmpfs: %s", d, strerror(errno));
	if (mkdirat(up, "upper", 0755) < 0 || mkdirat(up, "work", 0755) < 0)
		die("overlaid directory %s: %s", d, strerror(errno));
	int fs = (int)syscall(SYS_fsopen, "overlay", FSOPEN_CLOEXEC);
	if (fs < 0)
		die("overlaid directory %s: fsopen overlay: %s", d, strerror(errno));
	char lower[64], upper[64], work[64];
	snprintf(lower, sizeof lower, "/proc/self/fd/%d", fd);
	snprintf(upper, sizeof upper, "/proc/self/fd/%d/upper", up);
	snprintf(work, sizeof work, "/proc/self/fd/%d/work", up);
	if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "lowerdir", lower, 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "upperdir", upper, 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "workdir", work, 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_SET_FLAG, "userxattr", NULL, 0) < 0 ||
	    syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		die("overlaid directory %s: fsconfig: %s", d, strerror(errno));
	int mfd = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV);
	if (mfd < 0)
		die("overlaid directory %s: fsmount: %s", d, strerror(errno));
	if (syscall(SYS_move_mount, mfd, "", fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
		die("overlaid directory %s: move_mount: %s", d, strerror(errno));
	close(mfd);
	close(fs);
	close(up);
	close(fd);
}

/* replace binds the regular file with over the regular file p, read-only. */
static void replace(struct mounter *m, const char *p, const char *with)
{
	int dst = open_nofollow(p);
	if (dst < 0) {
		if (errno == ENOENT)
			return;
		die("replaced file %s: %s", p, strerror(errno));
	}
	int src = open_nofollow(with);
	if (src < 0)
		die("replaced file %s: replacement %s: %s", p, with, strerror(errno));
	struct stat a, b;
	if (fstat(dst, &a) < 0 || fstat(src, &b) < 0 || !S_ISREG(a.st_mode) || !S_ISREG(b.st_mode))
		die("replaced file %s: not a regular file", p);
	pin(m, p);
	move_clone(src, "", dst, p);
	close(src);
	close(dst);
}

static void hide(struct mounter *m, const char *p, int dir)
{
	if (m->stand < 0) {
		m->stand = new_tmpfs("0755");
		if (m->stand < 0)
			die("hidden path %s: tmpfs: %s", p, strerror(errno));
		if (mkdirat(m->stand, "d", 0) < 0)
			die("stand-in directory: %s", strerror(errno));
		int f = openat(m->stand, "f", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0);
		if (f < 0)
			die("stand-in file: %s", strerror(errno));
		close(f);
		if (fchmodat(m->stand, "d", 0, 0) < 0 || fchmodat(m->stand, "f", 0, 0) < 0)
			die("stand-in: %s", strerror(errno));
	}
	int dst = open_nofollow(p);
	if (dst < 0)
		die("hidden path %s: %s", p, strerror(errno));
	move_clone(m->stand, dir ? "d" : "f", dst, p);
	close(dst);
}

struct target {
	const char *path;
	int hide;
};

static int cmptarget(const void *a, const void *b)
{
	return strcmp(((const struct target *)a)->path, ((const struct target *)b)->path);
}

static void mount_all(struct ruleset *rs)
{
	if (mount("", "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		die("make / private: %s", strerror(errno));
	struct mounter m = {rs, {0, 0}, -1};
	for (int i = 0; i < rs->tmpfs.n; i++)
		tmpfs(&m, rs->tmpfs.v[i]);
	for (int i = 0; i < rs->overlay.n; i++)
		overlay(rs->overlay.v[i]);
	/* Replace, sorted by path (Go sorts the keys). */
	int nr = rs->replace_from.n;
	int *order = malloc(sizeof(int) * (nr + 1));
	for (int i = 0; i < nr; i++)
		order[i] = i;
	for (int i = 1; i < nr; i++)
		for (int k = i; k > 0 && strcmp(rs->replace_from.v[order[k - 1]], rs->replace_from.v[order[k]]) > 0; k--) {
			int t = order[k];
			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (int i = 0; i < nr; i++)
		replace(&m, rs->replace_from.v[order[i]], rs->replace_to.v[order[i]]);
	free(order);
	int nt = rs->readonly.n + rs->hide.n;
	struct target *ts = calloc(nt + 1, sizeof *ts);
	for (int i = 0; i < rs->readonly.n; i++)
		ts[i] = (struct target){rs->readonly.v[i], 0};
	for (int i = 0; i < rs->hide.n; i++)
		ts[rs->readonly.n + i] = (struct target){rs->hide.v[i], 1};
	/* Outer paths first, so that a pin or a read-only directory never
	 * covers a mount made below it before. */
	qsort(ts, nt, sizeof *ts, cmptarget);
	for (int i = 0; i < nt; i++) {
		const char *what = ts[i].hide ? "hidden path" : "read-only path";
		int fd = open_nofollow(ts[i].path);
		if (fd < 0) {
			/* A hidden path the launcher, with every capability the
			 * command could have and more, cannot reach (a socket in
			 * another user's directory), the command cannot either. */
			if (errno == ENOENT || (ts[i].hide && errno == EACCES))
				continue;
			die("%s %s: %s", what, ts[i].path, strerror(errno));
		}
		struct stat st;
		if (fstat(fd, &st) < 0)
			die("%s %s: %s", what, ts[i].path, strerror(errno));
		close(fd);
		pin(&m, ts[i].path);
		if (ts[i].hide)
			hide(&m, ts[i].path, S_ISDIR(st.st_mode));
		else
			bind_self(ts[i].path, 1);
	}
	free(ts);
	if (m.stand >= 0)
		close(m.stand);
}

/* ---- Landlock ---- */

static const char *ioctl_devices[] = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/ptmx",
				      "/dev/pts/ptmx", "/dev/dri", "/dev/kfd", "/dev/kvm", "/dev/fuse", "/dev/net", "/dev/snd"};

static void add_rule(int rfd, int fd, uint64_t rights, int dir, const char *what)
{
	if (!dir)
		rights &= LL_FILE_RIGHTS;
	struct sz_path_beneath attr = {rights, fd};
	if (syscall(SYS_landlock_add_rule, rfd, LL_RULE_PATH_BENEATH, &attr, 0) < 0)
		die("landlock_add_rule %s: %s", what, strerror(errno));
}

/* grant adds rights beneath p; a path that is missing or a symlink grants
 * nothing (the ruleset holds resolved paths). */
static void grant(int rfd, const char *p, uint64_t rights)
{
	int fd = open_nofollow(p);
	if (fd < 0) {
		if (errno == ENOENT || errno == ELOOP || errno == ENOTDIR)
			return;
		die("path %s: %s", p, strerror(errno));
	}
	struct stat st;
	if (fstat(fd, &st) < 0)
		die("path %s: %s", p, strerror(errno));
	if (!S_ISLNK(st.st_mode))
		add_rule(rfd, fd, rights, S_ISDIR(st.st_mode), p);
	close(fd);
}

/* label_of is p's label: -1 for a NoRead path (NoRead wins at the same
 * path), 1 for a Read path beneath a NoRead one (rs->readl), 0 for none. */
static int label_of(const char *p, const struct ruleset *rs)
{
	for (int i = 0; i < rs->noread.n; i++)
		if (!strcmp(rs->noread.v[i], p))
			return -1;
	for (int i = 0; i < rs->readl.n; i++)
		if (!strcmp(rs->readl.v[i], p))
			return 1;
	return 0;
}

/* child_names lists the names of the directory dir that lead to a NoRead
 * or Read path: the way on where dir cannot be listed. */
static void child_names(const char *dir, const struct ruleset *rs, struct list *out)
{
	const struct list *ls[] = {&rs->noread, &rs->readl};
	size_t n = strlen(dir);
	for (int a = 0; a < 2; a++)
		for (int i = 0; i < ls[a]->n; i++) {
			const char *v = ls[a]->v[i];
			if (!within(v, dir) || !strcmp(v, dir))
				continue;
			const char *rest = v + (strcmp(dir, "/") ? n + 1 : 1);
			char *name = strndup(rest, strcspn(rest, "/"));
			if (!name)
				die("out of memory");
			int dup = 0;
			for (int k = 0; k < out->n; k++)
				dup |= !strcmp(out->v[k], name);
			if (dup)
				free(name);
			else
				push(out, name);
		}
}

/* read_complement is confine's grantReadComplement: in the directory
 * dirfd (at path dir), readable or not as its nearest labelled path says,
 * it grants read on every entry that leads to no NoRead or Read path when
 * the directory is readable, grants a labelled entry that holds no other
 * whole when its own label lets it be read, and recurses into the entries
 * that hold labelled paths. A name that does not exist is granted
 * nothing, so what is created there later stays unreadable; a symlink on
 * the way is an error (the ruleset holds resolved paths); a directory
 * that cannot be listed grants nothing but the way. */
static void read_complement(int rfd, int dirfd, const char *dir, int readable, const struct ruleset *rs)
{
	struct list names = {0};
	int lfd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d = lfd < 0 ? NULL : fdopendir(lfd);
	if (d) {
		struct dirent *e;
		while ((e = readdir(d)))
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				push(&names, strdup(e->d_name));
		closedir(d);
	} else {
		if (lfd >= 0)
			close(lfd);
		child_names(dir, rs, &names);
	}
	for (int i = 0; i < names.n; i++) {
		char *p;
		if (!names.v[i] || asprintf(&p, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", names.v[i]) < 0)
			die("out of memory");
		int lab = label_of(p, rs);
		int way = holds_any(p, &rs->noread) || holds_any(p, &rs->readl);
		int state = lab ? lab > 0 : readable;
		if (!state && !way) {
			free(p);
			continue;
		}
		int fd = openat(dirfd, names.v[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				die("read complement: %s: %s", p, strerror(errno));
			free(p);
			continue;
		}
		struct stat st;
		if (fstat(fd, &st) < 0)
			die("read complement: %s: %s", p, strerror(errno));
		if (way) {
			if (S_ISLNK(st.st_mode))
				die("read complement: %s, on the way to a denied or read path, is a symlink; the ruleset must hold resolved paths", p);
			if (S_ISDIR(st.st_mode))
				read_complement(rfd, fd, p, state, rs);
			else if (state)
				add_rule(rfd, fd, LL_READ_FILE, 0, p); /* nothing lies beneath a file */
		} else if (!S_ISLNK(st.st_mode))
			add_rule(rfd, fd, LL_READ_FILE, S_ISDIR(st.st_mode), p);
		close(fd);
		free(p);
	}
	for (int i = 0; i < names.n; i++)
		free(names.v[i]);
	free(names.v);
}

static int ruleset_fd(struct ruleset *rs, int abi)
{
	uint64_t write = LL_WRITE_V1;
	if (abi >= 2)
		write |= LL_REFER;
	if (abi >= 3)
		write |= LL_TRUNCATE;
	struct sz_ruleset_attr attr = {LL_READ_FILE | write, 0, 0};
	size_t size = sizeof(uint64_t);
	if (abi >= 5)
		attr.handled_fs |= LL_IOCTL_DEV;
	if (abi >= 6) {
		attr.scoped = LL_SCOPE_SIGNAL | LL_SCOPE_ABSTRACT_UNIX_SOCKET;
		size = sizeof attr;
	}
	int rfd = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	if (rfd < 0)
		die("landlock_create_ruleset: %s", strerror(errno));
	for (int i = 0; i < rs->write.n; i++)
		grant(rfd, rs->write.v[i], write);
	/* Read everywhere but the way to the NoRead paths, and again beneath
	 * the Read paths below them: the hidden paths are stand-ins no one may
	 * open. */
	int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		die("open /: %s", strerror(errno));
	int readable = label_of("/", rs) >= 0;
	if (rs->noread.n == 0)
		add_rule(rfd, root, LL_READ_FILE, 1, "/");
	else
		read_complement(rfd, root, "/", readable, rs);
	close(root);
	if (abi >= 5) {
		for (size_t i = 0; i < sizeof ioctl_devices / sizeof ioctl_devices[0]; i++)
			grant(rfd, ioctl_devices[i], LL_IOCTL_DEV);
		DIR *dev = opendir("/dev");
		if (dev) {
			struct dirent *e;
			while ((e = readdir(dev)))
				if (!strncmp(e->d_name, "nvidia", 6)) {
					char p[300];
					snprintf(p, sizeof p, "/dev/%s", e->d_name);
					grant(rfd, p, LL_IOCTL_DEV);
				}
			closedir(dev);
		}
	}
	return rfd;
}

/* ---- the network (confine's net_linux.go) ---- */

/* The ports of the proxies inside the namespace (confine.NetHTTPPort,
 * NetSOCKSPort) and the lowest descriptor of the lifetime pipe's write end
 * in the command (confine's lifetimeFD). */
#define NET_HTTP_PORT 3128
#define NET_SOCKS_PORT 1080
#define LIFETIME_FD 100

static ssize_t read_retry(int fd, void *b, size_t n)
{
	ssize_t r;
	do
		r = read(fd, b, n);
	while (r < 0 && errno == EINTR);
	return r;
}

/* send_fds sends msg with the descriptors fds (SCM_RIGHTS) on the socket s. */
static int send_fds(int s, const char *msg, size_t len, const int *fds, int n)
{
	char cbuf[CMSG_SPACE(sizeof(int) * 64)];
	if (n > 64)
		n = 64;
	struct iovec iov = {(void *)msg, len};
	struct msghdr mh = {0};
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (n > 0) {
		memset(cbuf, 0, sizeof cbuf);
		mh.msg_control = cbuf;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)n);
		struct cmsghdr *c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)n);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)n);
	}
	ssize_t r;
	do
		r = sendmsg(s, &mh, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	return r < 0 ? -1 : 0;
}

/* dial_unix connects to the socket at path; one too long for a socket's
 * address through a descriptor of its directory, as
 * /proc/self/fd/N/NAME (confine.SocketAddr). */
static int dial_unix(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int dfd = -1;
	if (strlen(path) < sizeof sa.sun_path)
		strcpy(sa.sun_path, path);
	else {
		char *dir = strdup(path), *slash = strrchr(dir, '/');
		*slash = 0;
		dfd = open(*dir ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
		free(dir);
		if (dfd < 0)
			return -1;
		if ((size_t)snprintf(sa.sun_path, sizeof sa.sun_path, "/proc/self/fd/%d/%s", dfd, strrchr(path, '/') + 1) >=
		    sizeof sa.sun_path) {
			close(dfd);
			errno = ENAMETOOLONG;
			return -1;
		}
	}
	int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0), r = -1;
	if (fd >= 0)
		do
			r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
		while (r < 0 && errno == EINTR);
	int e = errno;
	if (dfd >= 0)
		close(dfd);
	if (r < 0) {
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* dial_proxy connects to the daemon's socket, starting the daemon (PROXY
 * daemon SOCKET, detached: its own session, reparented to init) when
 * nothing answers there, and waiting up to 30 s for it (confine's
 * dialProxy). */
static int dial_proxy(const struct ruleset *rs)
{
	int fd = dial_unix(rs->net_socket);
	if (fd >= 0)
		return fd;
	if (access(rs->net_proxy, X_OK) < 0)
		die("cannot start the network proxy %s: %s", rs->net_proxy, strerror(errno));
	int pp[2];
	if (pipe2(pp, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	pid_t child = fork();
	if (child < 0)
		die("fork: %s", strerror(errno));
	if (child == 0) {
		setsid();
		pid_t d = fork();
		if (d == 0) {
			int null = open("/dev/null", O_RDWR);
			if (null >= 0) {
				dup2(null, 0);
				dup2(null, 1);
				dup2(null, 2);
			}
			if (chdir("/") == 0)
				execl(rs->net_proxy, rs->net_proxy, "daemon", rs->net_socket, (char *)NULL);
			_exit(127);
		}
		(void)!write(pp[1], &d, sizeof d);
		_exit(d < 0);
	}
	close(pp[1]);
	pid_t daemon = -1;
	if (read_retry(pp[0], &daemon, sizeof daemon) != sizeof daemon || daemon <= 0)
		die("cannot start the network proxy %s", rs->net_proxy);
	close(pp[0]);
	waitpid(child, NULL, 0);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long wait_us = 1000;
	for (;;) {
		if ((fd = dial_unix(rs->net_socket)) >= 0)
			return fd;
		if (kill(daemon, 0) < 0 && errno == ESRCH)
			die("the network proxy %s ended at its start: run `%s daemon %s` to see why", rs->net_proxy,
			    rs->net_proxy, rs->net_socket);
		usleep((useconds_t)wait_us);
		wait_us = wait_us * 2 > 50000 ? 50000 : wait_us * 2;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 30)
			die("the network proxy %s does not answer on %s: %s", rs->net_proxy, rs->net_socket, strerror(errno));
	}
}

/* ask_proxy asks the daemon to serve the command (confine's askProxy): it
 * sends the policy with the launcher's standard error, the read end of the
 * pipe whose write end it returns in *alive, and one end of a socket pair,
 * whose other end it returns. */
static int ask_proxy(const struct ruleset *rs, int *alive)
{
	int conn = dial_proxy(rs);
	int sp[2], p[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0 || pipe2(p, O_CLOEXEC) < 0)
		die("socketpair: %s", strerror(errno));
	int fds[3] = {2, p[0], sp[0]};
	if (send_fds(conn, rs->net_policy, strlen(rs->net_policy), fds, 3) < 0)
		die("asking the network proxy %s to serve the command: %s", rs->net_socket, strerror(errno));
	close(conn);
	close(sp[0]);
	close(p[0]);
	*alive = p[1];
	return sp[1];
}

static int loopback_up(void)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	strcpy(ifr.ifr_name, "lo");
	int r = ioctl(s, SIOCGIFFLAGS, &ifr);
	if (r == 0) {
		ifr.ifr_flags |= IFF_UP;
		r = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	int e = errno;
	close(s);
	errno = e;
	return r;
}

static int listen_loopback(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int one = 1;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof sa) < 0 || listen(fd, 512) < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

static int connect_loopback(int v6, int port)
{
	int fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	int r;
	if (v6) {
		struct sockaddr_in6 sa = {.sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port)};
		sa.sin6_addr = in6addr_loopback;
		do
			r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
		while (r < 0 && errno == EINTR);
	} else {
		struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
		sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		do
			r = connect(fd, (struct sockaddr *)&sa, sizeof sa);
		while (r < 0 && errno == EINTR);
	}
	if (r < 0) {
		int e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/* helper is confine's netHelper, forked in the namespace before the mounts
 * and Landlock: on each request from the daemon on fd ("C4:PORT",
 * "C6:PORT": connect to 127.0.0.1 or ::1 at PORT; "L4:PORT": listen on
 * 127.0.0.1:PORT) it sends the socket back ("F" with it, or "E" and why).
 * It keeps fd and alive only, drops every capability, and ends when the
 * daemon closes its end. alive is its copy of the write end of the
 * launcher's pipe (ask_proxy's), which it closes when the launcher's
 * process (the command, once exec'd) ends, as a pidfd of it says: the
 * daemon then stops writing on the command's standard error, as it does
 * when the Go launcher's supervisor stops waiting. */
static void helper(int fd, int alive, pid_t parent)
{
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
	}
	/* fd and alive to 3 and 4, everything else above closed. */
	int a = fcntl(fd, F_DUPFD_CLOEXEC, 10), b = fcntl(alive, F_DUPFD_CLOEXEC, 10);
	if (a < 0 || b < 0 || dup2(a, 3) < 0 || dup2(b, 4) < 0)
		_exit(1);
	syscall(SYS_close_range, 5, ~0U, 0);
	fd = 3;
	alive = 4;
	int pidfd = (int)syscall(SYS_pidfd_open, parent, 0);
	if (pidfd < 0 || getppid() != parent) {
		close(alive);
		alive = -1;
	}
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	struct {
		uint32_t version;
		int pid;
	} hdr = {0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0};
	uint32_t none[6] = {0};
	syscall(SYS_capset, &hdr, none);
	char b2[64];
	int n = snprintf(b2, sizeof b2, "H%d", (int)getpid());
	(void)!write(fd, b2, (size_t)n);
	for (;;) {
		struct pollfd pf[2] = {{fd, POLLIN, 0}, {alive >= 0 ? pidfd : -1, POLLIN, 0}};
		if (poll(pf, 2, -1) < 0)
			continue;
		if (pf[1].revents) {
			close(alive);
			close(pidfd);
			alive = -1;
		}
		if (!pf[0].revents)
			continue;
		ssize_t r = read_retry(fd, b2, sizeof b2 - 1);
		if (r <= 0)
			_exit(0);
		b2[r] = 0;
		char op, fam;
		int port, c;
		if (sscanf(b2, "%c%c:%d", &op, &fam, &port) != 3 || port < 1 || port > 65535 || (op != 'C' && op != 'L')) {
			(void)!write(fd, "Ebad request", 12);
			continue;
		}
		c = op == 'L' ? listen_loopback(port) : connect_loopback(fam == '6', port);
		if (c < 0) {
			char e[128];
			int m = snprintf(e, sizeof e, "E%s", strerror(errno));
			(void)!write(fd, e, (size_t)m);
			continue;
		}
		send_fds(fd, "F", 1, &c, 1);
		close(c);
	}
}

/* net_up is confine's netUp, in the new network namespace: loopback up;
 * the daemon's list of ports read and a listener made on 127.0.0.1 for
 * each; the proxies' listening sockets; the helper; all of them sent to
 * the daemon through nsfd with the read end of the lifetime pipe (whose
 * write end stays open at LIFETIME_FD or above for the command to
 * inherit), and the daemon's 'R' awaited. */
static void net_up(int nsfd, int alive)
{
	if (loopback_up() < 0)
		die("bringing up the loopback interface of the command's network namespace: %s", strerror(errno));
	char b[4096];
	ssize_t n = read_retry(nsfd, b, sizeof b - 1);
	if (n <= 0 || b[0] != 'P')
		die("the network proxy did not answer (%s): it ended while asked, or refused the request (its error, if any, is above)",
		    n < 0 ? strerror(errno) : "EOF");
	b[n] = 0;
	int fds[64], nf = 0;
	int ports[2] = {NET_HTTP_PORT, NET_SOCKS_PORT};
	for (int i = 0; i < 2; i++)
		if ((fds[nf++] = listen_loopback(ports[i])) < 0)
			die("listening on 127.0.0.1:%d in the command's network namespace: %s", ports[i], strerror(errno));
	int hp[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, hp) < 0)
		die("socketpair: %s", strerror(errno));
	pid_t parent = getpid();
	pid_t h = fork();
	if (h < 0)
		die("starting the network helper: %s", strerror(errno));
	if (h == 0)
		helper(hp[1], alive, parent);
	close(hp[1]);
	close(alive);
	fds[nf++] = hp[0];
	int lp[2];
	if (pipe2(lp, O_CLOEXEC) < 0)
		die("pipe: %s", strerror(errno));
	fds[nf++] = lp[0];
	char fwd[4096] = "L";
	size_t fl = 1;
	for (char *save = NULL, *f = strtok_r(b + 1, ",", &save); f && nf < 64; f = strtok_r(NULL, ",", &save)) {
		char *end;
		long port = strtol(f, &end, 10);
		if (*end || port < 1 || port > 65535 || port == NET_HTTP_PORT || port == NET_SOCKS_PORT)
			continue;
		int fd = listen_loopback((int)port);
		if (fd < 0)
			continue;
		fds[nf++] = fd;
		fl += (size_t)snprintf(fwd + fl, sizeof fwd - fl, "%s%ld", fl > 1 ? "," : "", port);
		if (fl >= sizeof fwd - 8)
			break;
	}
	int w = fcntl(lp[1], F_DUPFD, LIFETIME_FD);
	close(lp[1]);
	if (w < 0)
		die("the lifetime pipe: %s", strerror(errno));
	if (send_fds(nsfd, fwd, fl, fds, nf) < 0)
		die("handing the listening sockets to the network proxy: %s", strerror(errno));
	for (int i = 0; i < nf; i++)
		close(fds[i]);
	n = read_retry(nsfd, b, sizeof b - 1);
	if (n < 0)
		die("waiting for the network proxy: %s", strerror(errno));
	if (n == 0)
		die("the network proxy did not serve the command (its error is above)");
	if (b[0] != 'R')
		die("the network proxy answered \"%.*s\"", (int)n, b);
	close(nsfd);
}

/* proxy_env is confine's withProxyVars: the proxies inside the namespace
 * in the variables programs read, in place of any the environment had,
 * and git's ssh command through the proxy. */
static void proxy_env(const char *proxy)
{
	static const char *names[] = {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "npm_config_proxy",
				      "npm_config_https_proxy", "npm_config_noproxy"};
	/* Remove every case variant: environ is scanned for each. */
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		size_t ln = strlen(names[k]);
		for (int again = 1; again;) {
			again = 0;
			for (char **e = environ; *e; e++)
				if (!strncasecmp(*e, names[k], ln) && (*e)[ln] == '=') {
					char name[64];
					snprintf(name, sizeof name, "%.*s", (int)ln, *e);
					unsetenv(name);
					again = 1;
					break;
				}
		}
	}
	char h[64], s[64];
	snprintf(h, sizeof h, "http://127.0.0.1:%d", NET_HTTP_PORT);
	snprintf(s, sizeof s, "socks5h://127.0.0.1:%d", NET_SOCKS_PORT);
	const char *local = "localhost,127.0.0.1,::1";
	setenv("HTTP_PROXY", h, 1);
	setenv("http_proxy", h, 1);
	setenv("HTTPS_PROXY", h, 1);
	setenv("https_proxy", h, 1);
	setenv("ALL_PROXY", s, 1);
	setenv("all_proxy", s, 1);
	setenv("NO_PROXY", local, 1);
	setenv("no_proxy", local, 1);
	setenv("npm_config_proxy", h, 1);
	setenv("npm_config_https_proxy", h, 1);
	setenv("npm_config_noproxy", local, 1);
	setenv("NODE_USE_ENV_PROXY", "1", 1);
	/* GIT_SSH_COMMAND: the one set (else ssh, unless GIT_SSH names git's
	 * ssh) with -o 'ProxyCommand=PROXY connect %h %p' (confine's
	 * SSHProxyCommand: the path single-quoted, % doubled; then the whole
	 * option single-quoted again for the shell git runs it with). */
	const char *git = getenv("GIT_SSH_COMMAND");
	if ((!git || !*git) && getenv("GIT_SSH"))
		return;
	if (!git || !*git)
		git = "ssh";
	size_t n = strlen(proxy);
	char *pq = malloc(n * 4 + 3), *k = pq;
	*k++ = '\'';
	for (const char *c = proxy; *c; c++) {
		if (*c == '\'')
			k = stpcpy(k, "'\\''");
		else if (*c == '%')
			k = stpcpy(k, "%%");
		else
			*k++ = *c;
	}
	*k++ = '\'';
	*k = 0;
	char *opt;
	if (asprintf(&opt, "ProxyCommand=%s connect %%h %%p", pq) < 0)
		die("out of memory");
	char *oq = malloc(strlen(opt) * 4 + 3);
	k = oq;
	*k++ = '\'';
	for (const char *c = opt; *c; c++)
		if (*c == '\'')
			k = stpcpy(k, "'\\''");
		else
			*k++ = *c;
	*k++ = '\'';
	*k = 0;
	char *v;
	if (asprintf(&v, "%s -o %s", git, oq) < 0)
		die("out of memory");
	setenv("GIT_SSH_COMMAND", v, 1);
}

/* ---- the namespace ---- */

static void write_file(const char *p, const char *s)
{
	int fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		die("cannot create a user and mount namespace to keep the read-only paths read-only: %s: %s", p,
		    strerror(errno));
	close(fd);
}

static void enter_namespace(int net)
{
	uid_t uid = getuid();
	gid_t gid = getgid();
	if (unshare(CLONE_NEWUSER | CLONE_NEWNS | (net ? CLONE_NEWNET : 0)) < 0)
		die("cannot create a user, mount%s namespace%s: unshare: %s", net ? " and network" : " and",
		    net ? "" : " to keep the read-only paths read-only", strerror(errno));
	char map[64];
	write_file("/proc/self/setgroups", "deny");
	snprintf(map, sizeof map, "%u %u 1", (unsigned)uid, (unsigned)uid);
	write_file("/proc/self/uid_map", map);
	snprintf(map, sizeof map, "%u %u 1", (unsigned)gid, (unsigned)gid);
	write_file("/proc/self/gid_map", map);
}

/* ---- the command ---- */

static int b64val(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* unbase64 decodes s (standard alphabet, padded); NULL if it is not that. */
static char *unbase64(const char *s)
{
	size_t n = strlen(s);
	if (n % 4)
		return NULL;
	char *out = malloc(n / 4 * 3 + 1);
	size_t k = 0;
	for (size_t i = 0; i < n; i += 4) {
		int v[4];
		for (int j = 0; j < 4; j++)
			v[j] = s[i + j] == '=' ? -2 : b64val(s[i + j]);
		/* Padding only at the end, and only as "x=" or "==" there. */
		int bad = v[0] < 0 || v[1] < 0 || v[2] == -1 || v[3] == -1 || (v[2] == -2 && v[3] != -2) ||
			  ((v[2] == -2 || v[3] == -2) && i + 4 < n);
		if (bad) {
			free(out);
			return NULL;
		}
		out[k++] = (char)(v[0] << 2 | v[1] >> 4);
		if (v[2] >= 0)
			out[k++] = (char)((v[1] & 15) << 4 | v[2] >> 2);
		if (v[3] >= 0)
			out[k++] = (char)((v[2] & 3) << 6 | v[3]);
	}
	out[k] = 0;
	if (memchr(out, 0, k))
		return free(out), NULL;
	return out;
}

/* bash_script is confine's bashScript. */
static char *bash_script(int statefd, const char *cmd)
{
	size_t nl = 0;
	for (const char *c = cmd; *c; c++)
		nl += *c == '\n';
	char *run = malloc(nl + 128);
	strcpy(run, "__safezone_cmd=$1; \\builtin shift;");
	size_t k = strlen(run);
	memset(run + k, '\n', nl);
	run[k + nl] = 0;
	strcat(run, " \\eval \"$__safezone_cmd\"");
	if (statefd < 0) {
		strcat(run, " && :");
		return run;
	}
	char *s;
	if (asprintf(&s,
		     "\\builtin . /dev/fd/%d 2>/dev/null; %s %d<&- && :; \\builtin set -- \"$?\"; "
		     "\\builtin printf '\\0%%s\\0' \"${PWD-}\" 2>/dev/null >/dev/fd/%d; \\builtin exit \"$1\"",
		     statefd, run, statefd, statefd) < 0)
		die("out of memory");
	free(run);
	return s;
}

/* shell_level_down lowers SHLVL by one in the environment (confine's
 * shellLevelDown). */
static void shell_level_down(void)
{
	const char *v = getenv("SHLVL");
	if (!v || !*v)
		return;
	char *end;
	long n = strtol(v, &end, 10);
	if (*end || n <= 0)
		return;
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", n - 1);
	setenv("SHLVL", buf, 1);
}

/* pipe_arg is confine's pipeArg: the descriptor number arg, which must be
 * open on a pipe (an anonymous one, never a name another process could
 * open). */
static int pipe_arg(const char *name, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);
	if (!*arg || *end || n < 3 || n > 1 << 20)
		die("%s \"%s\" is not a descriptor number above 2", name, arg);
	struct stat st;
	if (fstat((int)n, &st) < 0)
		die("%s %ld: %s", name, n, strerror(errno));
	if (!S_ISFIFO(st.st_mode))
		die("%s %ld: is not a pipe", name, n);
	return (int)n;
}

/* self_start puts this process's start time, field 22 of /proc/self/stat
 * (proc(5)), in out: counted after the last ')', since the command name
 * may hold spaces and parentheses. */
static void self_start(char *out, size_t size)
{
	char buf[1024];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("reporting refusals: /proc/self/stat: %s", strerror(errno));
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (n <= 0)
		die("reporting refusals: /proc/self/stat: %s", n < 0 ? strerror(errno) : "empty");
	buf[n] = 0;
	char *p = strrchr(buf, ')');
	if (!p)
		die("reporting refusals: /proc/self/stat has no command name");
	p++;
	for (int field = 3; field < 22; field++) {
		p = strchr(p + 1, ' ');
		if (!p)
			die("reporting refusals: /proc/self/stat has no field 22");
	}
	p++;
	size_t k = strspn(p, "0123456789");
	if (k == 0 || k >= size)
		die("reporting refusals: /proc/self/stat: field 22 is not a number");
	memcpy(out, p, k);
	out[k] = 0;
}

/* unreported says, on standard error, that this command's refusals will
 * not be reported, and why (errno's). */
static void unreported(const char *path)
{
	fprintf(stderr, "safezone: this command's refusals are not reported: %s: %s\n", path, strerror(errno));
}

/* reg writes the launcher's registration in dir (confine's Ruleset.Report,
 * as its register): the file named by the process ID, holding the path of
 * this executable, a newline, its start time, a newline and call, written
 * beside it and renamed. */
static void reg(const char *dir, const char *call)
{
	char exe[4096], name[4200], tmp[4210], start[32];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n < 0)
		die("reporting refusals: /proc/self/exe: %s", strerror(errno));
	exe[n] = 0;
	self_start(start, sizeof start);
	size_t sl = strlen(start);
	start[sl++] = '\n';
	/* A registration that cannot be written (a read-only state directory,
	 * as inside another sandbox) costs the report, not the command: the
	 * collector drops the records of a launcher it does not know. */
	if (mkdir(dir, 0700) < 0 && errno != EEXIST) {
		unreported(dir);
		return;
	}
	snprintf(name, sizeof name, "%s/%ld", dir, (long)getpid());
	snprintf(tmp, sizeof tmp, "%s.new", name);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		unreported(tmp);
		return;
	}
	size_t cl = strlen(call);
	if (write(fd, exe, (size_t)n) != n || write(fd, "\n", 1) != 1 || write(fd, start, sl) != (ssize_t)sl ||
	    write(fd, call, cl) != (ssize_t)cl) {
		unreported(tmp);
		close(fd);
		unlink(tmp);
		return;
	}
	close(fd);
	if (rename(tmp, name) < 0) {
		unreported(name);
		unlink(tmp);
	}
}

static const char usage[] =
	"usage: safezone-launch bash RULESET STATEFD SHELL ARG0 COMMAND | exec RULESET PROGRAM [ARG...]";

int main(int argc, char **argv)
{
	/* As the Go launcher's Main: argv[1] may be confine.Subcommand. */
	if (argc > 1 && !strcmp(argv[1], "__confine")) {
		argv++;
		argc--;
	}
	if (argc < 3)
		die("%s", usage);
	const char *mode = argv[1];
	struct ruleset rs;
	parse(argv[2], &rs);
	int statefd = -1;
	const char *path = NULL;
	char **args = NULL;
	if (!strcmp(mode, "bash")) {
		if (argc != 7)
			die("%s", usage);
		const char *statearg = argv[3], *shell = argv[4], *arg0 = argv[5];
		char *cmd = unbase64(argv[6]);
		if (!cmd)
			die("the command is not base64");
		if (strcmp(statearg, "-"))
			statefd = pipe_arg("STATEFD", statearg);
		if (shell[0] != '/')
			die("SHELL \"%s\" is not an absolute path", shell);
		path = shell;
		args = calloc(6, sizeof(char *));
		args[0] = (char *)shell;
		args[1] = "-c";
		args[2] = bash_script(statefd, cmd);
		args[3] = (char *)arg0;
		args[4] = cmd;
		shell_level_down();
	} else if (!strcmp(mode, "exec")) {
		if (argc < 4)
			die("%s", usage);
		path = argv[3];
		args = argv + 3;
	} else
		die("%s", usage);

	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LL_CREATE_RULESET_VERSION);
	if (abi < 0) {
		if (errno == ENOSYS)
			die("confinement unavailable: the kernel has no Landlock (Linux 5.13 or later built with "
			    "CONFIG_SECURITY_LANDLOCK)");
		if (errno == EOPNOTSUPP)
			die("confinement unavailable: Landlock is disabled (add landlock to the kernel's lsm= boot parameter)");
		die("confinement unavailable: landlock_create_ruleset: %s (a seccomp filter may block it)", strerror(errno));
	}

	/* This process restricts itself, and the kernel's records will name
	 * it: register it before the mounts, which may make the directory
	 * read-only. */
	if (rs.report_dir)
		reg(rs.report_dir, rs.report_call);
	/* The network (confine's supervise and netUp): the daemon asked before
	 * the namespace exists (its socket and the program are outside), the
	 * namespace's loopback, listeners and helper after. */
	int nsfd = -1, alive = -1;
	if (rs.has_net && !rs.net_proxy && rs.net_note)
		fprintf(stderr, "safezone: %s\n", rs.net_note);
	if (rs.has_net && rs.net_proxy)
		nsfd = ask_proxy(&rs, &alive);
	enter_namespace(rs.has_net);
	if (rs.has_net && !rs.net_proxy && loopback_up() < 0)
		die("bringing up the loopback interface of the command's network namespace: %s", strerror(errno));
	if (nsfd >= 0) {
		net_up(nsfd, alive);
		proxy_env(rs.net_proxy);
	}
	mount_all(&rs);
	/* The working directory still points into the mounts as they were:
	 * enter it again by its path, through the new mounts. */
	char wd[4096];
	if (!getcwd(wd, sizeof wd) || chdir(wd) < 0)
		die("re-entering the working directory: %s", strerror(errno));
	int rfd = ruleset_fd(&rs, (int)abi);
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0)
		die("prctl(PR_CAP_AMBIENT_CLEAR_ALL): %s", strerror(errno));
	if (geteuid() == 0 &&
	    prctl(PR_SET_SECUREBITS, SECBIT_NOROOT | SECBIT_NOROOT_LOCKED | SECBIT_NO_SETUID_FIXUP | SECBIT_NO_SETUID_FIXUP_LOCKED,
		  0, 0, 0) < 0)
		die("prctl(PR_SET_SECUREBITS): %s", strerror(errno));
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		die("prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	/* LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON (ABI 7): log what Landlock
	 * refuses the program this execs, and those it starts. */
	unsigned long llflags = rs.report_dir && abi >= 7 ? 2UL : 0UL;
	if (syscall(SYS_landlock_restrict_self, rfd, llflags) < 0) {
		if (errno == E2BIG)
			die("landlock_restrict_self: too many nested Landlock domains (16 at most)");
		die("landlock_restrict_self: %s", strerror(errno));
	}
	close(rfd);
	if (!strcmp(mode, "exec") && !strchr(path, '/'))
		execvp(path, args);
	else
		execve(path, args, environ);
	die("exec %s: %s", path, strerror(errno));
}
