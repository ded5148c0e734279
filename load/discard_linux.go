package load

import (
	"errors"
	"io"
	"net"
	"syscall"
)

// kernelDrain discards a response body's bytes in the kernel, without copying
// them to this process: recv(2) with MSG_TRUNC, which TCP sockets on Linux
// take as "drop up to n bytes of the stream". The bytes still cross the
// TCP stack (received, acknowledged, counted against the window) as if
// read; only the copy a discarded body needs no longer costs the client
// CPU. One drain serves one connection at a time and allocates nothing
// per call.
type kernelDrain struct {
	rc   syscall.RawConn
	want int64 // bytes to discard in this call
	got  int64 // bytes discarded by it
	err  error // its error
	fn   func(fd uintptr) bool
}

// newDrain returns a drain for conn, or nil when conn is no TCP socket
// whose raw descriptor can be had.
func newDrain(conn net.Conn) *kernelDrain {
	tc, ok := conn.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	d := &kernelDrain{rc: rc}
	d.fn = d.recv
	return d
}

// errNoDrain says that the kernel refused MSG_TRUNC: copy instead.
var errNoDrain = errors.New("recv MSG_TRUNC not supported")

// skip discards up to n bytes from the socket, waiting (within the
// connection's deadline) until at least one is there. It returns how many
// it discarded: at least one, or an error (io.ErrUnexpectedEOF when the
// peer closed first, errNoDrain when the kernel cannot drain).
func (d *kernelDrain) skip(n int64) (int64, error) {
	d.want, d.got, d.err = n, 0, nil
	if err := d.rc.Read(d.fn); err != nil {
		return 0, err // the deadline, or the connection closed under it
	}
	return d.got, d.err
}

// recv is the drain's one attempt on the descriptor: false asks to wait
// until it is readable.
func (d *kernelDrain) recv(fd uintptr) bool {
	for {
		// A nil buffer: with MSG_TRUNC TCP copies nothing to it.
		r, _, e := syscall.Syscall6(syscall.SYS_RECVFROM, fd, 0, uintptr(d.want), syscall.MSG_TRUNC, 0, 0)
		switch {
		case e == syscall.EINTR:
			continue
		case e == syscall.EAGAIN:
			return false
		case e == syscall.EINVAL || e == syscall.EOPNOTSUPP || e == syscall.EFAULT:
			d.err = errNoDrain
		case e != 0:
			d.err = e
		case r == 0:
			d.err = io.ErrUnexpectedEOF
		default:
			d.got = int64(r)
		}
		return true
	}
}
