package templates

// The files a testbed names (the testbed itself, var files, templates,
// scenario files, file()) are read with a size limit and only when they are
// regular files, so that /dev/zero, a FIFO or a huge file is a clear error
// rather than a hang or an out-of-memory crash.

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// MaxFileSize is the largest file benchbed reads as a testbed input: 16 MiB.
const MaxFileSize = 16 << 20

// ErrNotSmallFile is returned (wrapped in an *os.PathError) for a file that
// is not regular or is larger than MaxFileSize.
var ErrNotSmallFile = errors.New("not a regular file of at most 16 MiB")

// ReadBounded returns the contents of the regular file p, of at most MaxFileSize
// bytes. It checks the file it opened (not the path again) and stops
// reading after MaxFileSize bytes, so a file that grows meanwhile is refused
// too.
func ReadBounded(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || st.Size() > MaxFileSize {
		return nil, &os.PathError{Op: "read", Path: p, Err: ErrNotSmallFile}
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	if len(b) > MaxFileSize {
		return nil, &os.PathError{Op: "read", Path: p, Err: ErrNotSmallFile}
	}
	return b, nil
}

// CheckBounded reports, without reading it, why p cannot be read by ReadBounded: it
// does not exist, is not a regular file, or is larger than MaxFileSize.
func CheckBounded(p string) error {
	st, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() || st.Size() > MaxFileSize {
		return &os.PathError{Op: "read", Path: p, Err: ErrNotSmallFile}
	}
	return nil
}
