package prefill

import (
	"fmt"
	"hash/fnv"
	"sort"
	"strconv"
	"strings"

	"benchbed/load"
	"benchbed/plan/scenario"
)

// Layout maps object numbers to ssbench's names, containers and sizes.
type Layout struct {
	sizes      []scenario.Size // the size classes with initial files, in scenario order
	counts     []int64         // initial files per class, same order
	containers []string        // container names, by number
	total      int64
	maxCount   int64
	sc         *scenario.Scenario // for its large objects
}

// large reports whether class i's objects are large objects.
func (l *Layout) large(i int) bool { return l.sc != nil && l.sc.IsLarge(l.sizes[i]) }

// Object is one initial object.
type Object struct {
	K         int64  // its number, from 0
	Container int    // its container's number
	Class     int    // its size class, an index into the layout's classes
	Index     int64  // its index within the class, from 1
	Name      string // ssbench's name: <size name>_%06d
	Size      int64  // the bytes benchbed puts
}

// NewLayout builds the layout of s's initial files.
func NewLayout(s *scenario.Scenario) (*Layout, error) {
	l := &Layout{sc: s}
	for _, z := range s.Sizes {
		n, ok := s.InitialFiles[z.Name]
		if !ok || n <= 0 {
			continue
		}
		l.sizes = append(l.sizes, z)
		l.counts = append(l.counts, int64(n))
		l.total += int64(n)
		l.maxCount = max(l.maxCount, int64(n))
	}
	if s.ContainerCount < 1 {
		return nil, fmt.Errorf("prefill: container_count %d", s.ContainerCount)
	}
	for i := 0; i < s.ContainerCount; i++ {
		l.containers = append(l.containers, s.ContainerName(i))
	}
	return l, nil
}

// Total is the number of initial objects.
func (l *Layout) Total() int64 { return l.total }

// Containers returns the container names, by number.
func (l *Layout) Containers() []string { return l.containers }

// before returns how many objects the rounds before round r hold: the jobs
// ssbench yields before any class's index r+1.
func (l *Layout) before(r int64) int64 {
	var n int64
	for _, c := range l.counts {
		n += min(c, r)
	}
	return n
}

// At returns object k (0 <= k < Total).
func (l *Layout) At(k int64) Object {
	// The largest round r with before(r) <= k; rounds are 0-based.
	r := int64(sort.Search(int(l.maxCount), func(r int) bool { return l.before(int64(r)+1) > k }))
	off := k - l.before(r)
	class := 0
	for i, c := range l.counts {
		if c > r {
			if off == 0 {
				class = i
				break
			}
			off--
		}
	}
	return l.object(k, class, r+1)
}

func (l *Layout) object(k int64, class int, index int64) Object {
	name := scenario.ObjectName(l.sizes[class].Name, index)
	return Object{
		K: k, Container: int(k % int64(len(l.containers))), Class: class, Index: index,
		Name: name, Size: l.sizeOf(class, name),
	}
}

// sizeOf is a deterministic size in the class's [size_min, size_max] (ssbench
// draws it at random; any size in the range is accepted when verifying).
func (l *Layout) sizeOf(class int, name string) int64 {
	z := l.sizes[class]
	span := z.SizeMax - z.SizeMin + 1
	if span <= 1 {
		return z.SizeMin
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(name))
	return z.SizeMin + int64(h.Sum64()%uint64(span))
}

// Lookup returns the object named name, or false when name is no initial
// object of this layout (an object a benchmark run created, say).
func (l *Layout) Lookup(name string) (Object, bool) {
	i := strings.LastIndexByte(name, '_')
	if i < 0 || len(name)-i-1 < 6 {
		return Object{}, false
	}
	digits := name[i+1:]
	if len(digits) > 6 && digits[0] == '0' {
		return Object{}, false // %06d never pads past six digits
	}
	index, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || index < 1 {
		return Object{}, false
	}
	for class, z := range l.sizes {
		if z.Name == name[:i] && index <= l.counts[class] {
			return l.object(l.numberOf(class, index), class, index), true
		}
	}
	return Object{}, false
}

// numberOf is the inverse of At: the number of the class's index-th object.
func (l *Layout) numberOf(class int, index int64) int64 {
	return load.InitialNumber(l.counts, class, index)
}

// InContainer returns how many objects container c holds.
func (l *Layout) InContainer(c int) int64 {
	n := int64(len(l.containers))
	if int64(c) >= l.total%n {
		return l.total / n
	}
	return l.total/n + 1
}

// Class returns the size class of the index.
func (l *Layout) Class(i int) scenario.Size { return l.sizes[i] }
