package netproxy

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// ConnectHTTPPort is the port of the HTTP proxy inside a command's network
// namespace (confine.NetHTTPPort), which Connect asks.
const ConnectHTTPPort = 3128

// Connect is `safezone-proxy connect HOST PORT`, ssh's ProxyCommand inside
// a command's network namespace (the launcher names it in ssh's
// configuration and in GIT_SSH_COMMAND): it asks the proxy at
// 127.0.0.1:ConnectHTTPPort for a tunnel to HOST:PORT (HTTP CONNECT,
// RFC 9110 section 9.3.6; the proxy resolves the name and applies the
// policy) and then copies stdin to the tunnel and the tunnel to stdout
// until either side ends. A refusal prints the proxy's reason (the 403's
// body: the rule and how to allow the host) on stderr, with exit status 1,
// which ssh reports as the connection closed.
func Connect(host, port string, stdin io.Reader, stdout, stderr io.Writer) int {
	p, err := strconv.Atoi(port)
	if host == "" || strings.ContainsAny(host, " \r\n") || err != nil || p < 1 || p > 65535 {
		fmt.Fprintf(stderr, "safezone: connect: bad destination %q port %q\n", host, port)
		return 2
	}
	dest := net.JoinHostPort(host, port)
	c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(ConnectHTTPPort)))
	if err != nil {
		fmt.Fprintf(stderr, "safezone: connect %s: safezone's network proxy does not answer in this command's network namespace: %v\n", dest, err)
		return 1
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", dest, dest); err != nil {
		fmt.Fprintf(stderr, "safezone: connect %s: %v\n", dest, err)
		return 1
	}
	br := bufio.NewReader(c)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil {
		fmt.Fprintf(stderr, "safezone: connect %s: the proxy's answer: %v\n", dest, err)
		return 1
	}
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		resp.Body.Close()
		why := strings.TrimSpace(string(body))
		if why == "" {
			why = resp.Status
		}
		fmt.Fprintf(stderr, "safezone: connect %s: %s\n", dest, why)
		return 1
	}
	go func() {
		io.Copy(c, stdin)
		if tc, ok := c.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
	}()
	// Until the server ends the tunnel (or ssh stops reading): what the
	// proxy sent after its answer comes first, from br.
	io.Copy(stdout, br)
	return 0
}
