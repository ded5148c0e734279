package prefill

import (
	"context"
	"fmt"
)

// bitmap marks the objects of one container that are present, by position
// (object k = container + position * container_count).
type bitmap []uint64

func newBitmap(n int64) bitmap            { return make(bitmap, (n+63)/64) }
func (b bitmap) set(i int64)              { b[i/64] |= 1 << (i % 64) }
func (b bitmap) has(i int64) bool         { return b[i/64]&(1<<(i%64)) != 0 }
func (l *Layout) position(o Object) int64 { return o.K / int64(len(l.containers)) }

// ContainerCheck is what a listing found in one container.
type ContainerCheck struct {
	Container string
	Expected  int64 // initial objects the container should hold
	Present   int64 // found with a size in their class's range
	WrongSize int64 // found with a size outside it (to be put again)
	Foreign   int64 // other objects (a benchmark's creations, say)
	Requests  int64 // listing pages fetched
	present   bitmap
}

// Missing is how many expected objects are absent or of the wrong size.
func (c *ContainerCheck) Missing() int64 { return c.Expected - c.Present }

// CheckContainer lists container c page by page and marks which of its
// initial objects are there with a size in range. Memory: one bit per
// object of this container.
func (l *Layout) CheckContainer(ctx context.Context, st Store, c int) (*ContainerCheck, error) {
	name := l.containers[c]
	chk := &ContainerCheck{Container: name, Expected: l.InContainer(c), present: newBitmap(l.InContainer(c))}
	marker := ""
	for {
		last := ""
		n, err := st.List(ctx, name, marker, PageSize, func(obj string, bytes int64) {
			last = obj
			chk.observe(l, c, obj, bytes)
		})
		chk.Requests++
		if err != nil {
			return nil, fmt.Errorf("listing %s after %q: %w", name, marker, err)
		}
		if n == 0 || last == "" {
			return chk, nil
		}
		marker = last
	}
}

func (chk *ContainerCheck) observe(l *Layout, c int, name string, bytes int64) {
	o, ok := l.Lookup(name)
	if !ok || o.Container != c {
		chk.Foreign++
		return
	}
	z := l.sizes[o.Class]
	dloManifest := bytes == 0 && l.large(o.Class) && l.sc.DLO() // a DLO lists as its 0-byte manifest
	if (bytes < z.SizeMin || bytes > z.SizeMax) && !dloManifest {
		chk.WrongSize++
		return
	}
	p := l.position(o)
	if !chk.present.has(p) {
		chk.present.set(p)
		chk.Present++
	}
}

// Has reports whether the listing found the object at position p.
func (chk *ContainerCheck) Has(p int64) bool { return chk.present.has(p) }

// CheckHead is verify = "head", as ssbench does: a HEAD for each object of
// positions [from, to) of container c.
func (l *Layout) CheckHead(ctx context.Context, st Store, c int, from, to int64) (*ContainerCheck, error) {
	name := l.containers[c]
	chk := &ContainerCheck{Container: name, Expected: to - from, present: newBitmap(l.InContainer(c))}
	for p := from; p < to; p++ {
		o := l.At(int64(c) + p*int64(len(l.containers)))
		size, err := st.HeadObject(ctx, name, o.Name)
		chk.Requests++
		switch {
		case err == ErrNotFound:
		case err != nil:
			return nil, fmt.Errorf("HEAD %s/%s: %w", name, o.Name, err)
		default:
			chk.observe(l, c, o.Name, size)
		}
	}
	return chk, nil
}
