//go:build linux

package netproxy

import (
	"errors"
	"fmt"
	"net"
	"os"

	"golang.org/x/sys/unix"
)

// receive reads the launcher's message on the socket fd: the HTTP and the
// SOCKS listening sockets, made in the command's network namespace. ack
// answers that they are served, and closes fd.
func receive(fd int) (httpL, socksL net.Listener, ack func() error, err error) {
	buf := make([]byte, 1)
	oob := make([]byte, unix.CmsgSpace(2*4))
	var n, oobn int
	for {
		n, oobn, _, _, err = unix.Recvmsg(fd, buf, oob, unix.MSG_CMSG_CLOEXEC)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("receiving the listening sockets: %w", err)
	}
	if n == 0 {
		return nil, nil, nil, errors.New("the launcher ended before it sent the listening sockets")
	}
	msgs, err := unix.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, nil, nil, fmt.Errorf("receiving the listening sockets: bad control message (%v)", err)
	}
	fds, err := unix.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 2 {
		for _, f := range fds {
			unix.Close(f)
		}
		return nil, nil, nil, fmt.Errorf("receiving the listening sockets: got %d, want 2 (%v)", len(fds), err)
	}
	var ls [2]net.Listener
	for i, f := range fds {
		file := os.NewFile(uintptr(f), "listener")
		ls[i], err = net.FileListener(file)
		file.Close()
		if err != nil {
			return nil, nil, nil, fmt.Errorf("listener %d: %w", i, err)
		}
	}
	ack = func() error {
		defer unix.Close(fd)
		_, err := unix.Write(fd, []byte{'R'})
		return err
	}
	return ls[0], ls[1], ack, nil
}
