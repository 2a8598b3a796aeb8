package confine

import (
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// StopProxyDaemon ends the proxy daemon listening on the socket sock, if
// any (the peer of a connection to it), waits up to 10 s until it has
// ended, and removes the socket.
func StopProxyDaemon(sock string) {
	defer os.Remove(sock)
	addr, done, err := SocketAddr(sock)
	if err != nil {
		return
	}
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		done()
		return
	}
	defer unix.Close(fd)
	err = unix.Connect(fd, &unix.SockaddrUnix{Name: addr})
	done()
	if err != nil {
		return
	}
	cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
	if err != nil || cred.Pid <= 0 {
		return
	}
	pidfd, err := unix.PidfdOpen(int(cred.Pid), 0)
	if err != nil {
		return
	}
	defer unix.Close(pidfd)
	unix.Kill(int(cred.Pid), unix.SIGKILL)
	unix.Poll([]unix.PollFd{{Fd: int32(pidfd), Events: unix.POLLIN}}, int((10 * time.Second).Milliseconds()))
}
