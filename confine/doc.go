// Package confine runs a Bash command inside a kernel sandbox built from
// safezone's policy, for the commands whose own reads and writes the hook
// cannot see (npm test, make, python3 x.py, sh build.sh).
//
// The hook computes a [Ruleset] (plain data: where writes are allowed,
// whose contents cannot be read, which paths inside the writable ones stay
// read-only), checks [Available], and replaces the command with
// [Rewrite]'s. The rewritten command runs the original one, byte for byte,
// through the safezone binary as the launcher ([Main], reached through
// [Subcommand]): the launcher restricts itself and execs bash with the
// command. The launcher does no policy work, and never runs a command
// unconfined: if it cannot apply the ruleset it was given, it prints why
// on stderr and exits with [ExitCannotRun].
//
// # Linux: Landlock
//
// The kernel's Landlock (Documentation/userspace-api/landlock.rst;
// landlock_create_ruleset(2), landlock_add_rule(2),
// landlock_restrict_self(2)) enforces the ruleset. It can only grant:
//
//   - writes (write, create, remove, link, rename across directories from
//     ABI 2, truncate from ABI 3) are granted beneath each Write path;
//   - reads of file contents are granted by complement: every entry of /
//     but the ones leading to a denied path, and so on down, so that only
//     the denied paths, and the directories on the way to them, get no
//     rule; inside a denied directory only the Read paths are granted
//     (the home directory: the toolchains and their configuration), and a
//     denied path below one of those is carved out again the same way;
//   - from ABI 5, device ioctls on files opened under the ruleset are
//     granted only on the data devices, the pseudo-terminal multiplexer,
//     GPUs, KVM, FUSE, tun and sound (ioctlDevices): not on terminals,
//     where TIOCSTI could type into the user's terminal.
//
// Directory listings, execution, Unix sockets and the network are not
// restricted by Landlock; a ruleset's Net takes the network away (see
// below).
//
// The launcher enforces the ruleset on the one thread that then calls
// execve(2): PR_SET_NO_NEW_PRIVS and landlock_restrict_self(2) without
// LANDLOCK_RESTRICT_SELF_TSYNC act on the calling thread alone, the new
// program inherits that thread's credentials, and the other threads of the
// Go runtime end at the execve. No all-threads machinery (psx) is needed;
// the tests check that the program, and what it starts, are confined.
//
// The complement has a cost: an entry created after the command started in
// a directory on the way to a denied path (beside ~/.ssh in $HOME, say) is
// unreadable by that command; the next command lists the directory anew.
// A typical ruleset (the project, the temporary directories, the devices
// and ~/.cache writable; a dozen secrets under $HOME unreadable) takes
// about 45 rules, 3 directory listings and half a millisecond.
//
// # Read-only paths: a private mount namespace
//
// Landlock cannot take a right away beneath a path it granted, so the
// ReadOnly paths of a ruleset (.git/config, .git/hooks, .claude inside the
// project) are bind-mounted read-only in a mount namespace of the
// command's own, where the directories above them are pinned (made mount
// points, which cannot be renamed). That takes a user namespace, which a
// multi-threaded process (a Go one) cannot enter: the launcher starts
// itself again in new namespaces, that second stage mounts, restricts and
// execs, and the launcher waits and exits as the command did. This costs a
// second start of the binary and the creation of the namespaces: about
// twice the confined command without read-only paths. Where user
// namespaces are unavailable, [Status.ReadOnly] says why: the hook must
// then leave ReadOnly empty and say that those paths are guarded by its
// analysis alone.
//
// # The network: a namespace of the command's own
//
// A ruleset with Net adds a network namespace to the second stage's
// clone (its loopback brought up with CAP_NET_ADMIN in its own user
// namespace), so the command reaches no address of the machine's by
// itself. Its only ways out are listening sockets the second stage makes
// on the namespace's 127.0.0.1 and hands, over a socket pair, to the
// proxy daemon (safezone-proxy, package netproxy) outside: a socket stays
// in the namespace it was made in, so the daemon accepts the command's
// connections there and dials out from the machine's network after its
// policy allowed them. A helper process (HelperMode) stays in the
// namespace, without capabilities and outside Landlock's domain, to
// connect inside for the daemon: the servers the command starts are
// forwarded from the machine's 127.0.0.1. See net_linux.go. The fast
// launcher (fast/launch.c) does the same in its one process: it asks the
// daemon before it unshares (with CLONE_NEWNET too), then makes the
// listeners and forks the helper in the new namespace; its helper closes
// the launcher's pipe when the command's first process ends (a pidfd),
// where the Go launcher's supervisor closes it by ending. A Net without a
// proxy (safezone-proxy not installed) is a namespace with its loopback
// and no way out at all; the launcher prints its Note first.
//
// # What the kernel refused: Report
//
// A ruleset with Report has the launcher (both of them) register its
// process ID, start time, executable and the call in Report.Dir just
// before it restricts itself, and restrict with LANDLOCK_RESTRICT_SELF_LOG_NEW_EXEC_ON
// (Landlock ABI 7): the kernel then sends an audit record for each access
// Landlock refuses the command or a program it starts, naming the domain,
// and, at its first refusal, the process that made it. Package refusals
// reads them and traces them to the call. The launcher only registers and
// sets the flag. A registration it cannot write (a read-only state
// directory, as inside another sandbox) costs the report, not the command:
// the launcher says so on standard error and runs it, confined as ever; the
// collector drops the records of a launcher it does not know.
//
// # Other systems
//
// Only Linux has a backend. Elsewhere [Available] reports why not and the
// launcher refuses to run anything. A macOS backend would enforce the same
// Ruleset with a Seatbelt profile.
package confine
