package remote

import (
	"net"
	"syscall"
)

// quickAckConn re-arms TCP_QUICKACK after every read. sshd leaves Nagle on
// for non-interactive sessions, so a small reply written behind another one
// waits for our ACK, which Linux delays by up to 40 ms: the first session of
// every connection paid that stall. Acknowledging at once removes it.
type quickAckConn struct {
	*net.TCPConn
	raw syscall.RawConn
}

// Read reads and then asks the kernel to acknowledge without delay.
func (c *quickAckConn) Read(b []byte) (int, error) {
	n, err := c.TCPConn.Read(b)
	c.raw.Control(func(fd uintptr) {
		syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
	return n, err
}

// quickAck wraps a TCP connection; other connections pass through.
func quickAck(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	return &quickAckConn{TCPConn: tc, raw: raw}
}
