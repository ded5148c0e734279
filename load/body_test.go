package load

import (
	"bytes"
	"io"
	"testing"
)

func TestBodyRepeatsThePattern(t *testing.T) {
	const n = 3*blockSize + 123
	want := bytes.Repeat(pattern, 4)[:n]
	var viaRead bytes.Buffer
	if _, err := io.CopyBuffer(&viaRead, struct{ io.Reader }{newBody(n)}, make([]byte, 1000)); err != nil {
		t.Fatal(err)
	}
	var viaWriteTo bytes.Buffer
	if k, err := newBody(n).WriteTo(&viaWriteTo); err != nil || k != n {
		t.Fatalf("WriteTo: %d, %v", k, err)
	}
	if !bytes.Equal(viaRead.Bytes(), want) || !bytes.Equal(viaWriteTo.Bytes(), want) {
		t.Fatal("bodies differ from the repeated pattern")
	}
	if bytes.Equal(pattern[:100], make([]byte, 100)) {
		t.Error("the pattern is zeros")
	}
}

func TestWritingABodyAllocatesNothing(t *testing.T) {
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := writePattern(io.Discard, 0, 10*blockSize+7); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("writing a body allocates %v times", allocs)
	}
}
