//go:build !linux

package load

import (
	"errors"
	"net"
)

// kernelDrain would discard bodies in the kernel; elsewhere than Linux bodies
// are read and dropped.
type kernelDrain struct{}

// newDrain returns nil: no kernel drain here.
func newDrain(net.Conn) *kernelDrain { return nil }

var errNoDrain = errors.New("no kernel drain")

func (*kernelDrain) skip(int64) (int64, error) { return 0, errNoDrain }
