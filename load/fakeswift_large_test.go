package load

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
)

// fakeLarge is what the fake Swift keeps beyond sizes: where in the
// generated content each object's body starts (a segment's offset; -1 for
// a body that is no part of it), static and dynamic manifests, objects to
// serve corrupted, and the containers' policies.
type fakeLarge struct {
	start     map[string]int64    // "c/o" -> offset in the pattern (absent: 0)
	manifests map[string][]string // SLO "c/o" -> its segments "c/o"
	dlo       map[string]string   // DLO "c/o" -> its segment prefix "c/prefix"
	corrupt   map[string]bool     // "c/o" served with one byte changed
	policies  []string            // the cluster's policies (nil: any policy name is fine)
	policy    map[string]string   // container -> X-Storage-Policy it was created with
}

func newFakeLarge() fakeLarge {
	return fakeLarge{start: map[string]int64{}, manifests: map[string][]string{}, dlo: map[string]string{},
		corrupt: map[string]bool{}, policy: map[string]string{}}
}

// container checks a container PUT's X-Storage-Policy, answering 400 for a
// policy the cluster lacks (as Swift does) and 409 for another policy than
// the container has; it reports whether the PUT goes on.
func (f *fakeSwift) container(w http.ResponseWriter, r *http.Request, cont string) bool {
	if r.Method != http.MethodPut {
		return true
	}
	p := r.Header.Get("X-Storage-Policy")
	if p != "" && f.large.policies != nil && !slices.Contains(f.large.policies, p) {
		f.answer(w, http.StatusBadRequest)
		return false
	}
	if prev, ok := f.large.policy[cont]; ok && prev != p && p != "" {
		f.answer(w, http.StatusConflict)
		return false
	}
	if _, ok := f.large.policy[cont]; !ok {
		f.large.policy[cont] = p
	}
	return true
}

// putObject stores a PUT: a static manifest (?multipart-manifest=put), a
// dynamic one (X-Object-Manifest), or a body, streamed, recording where in
// the generated content it starts.
func (f *fakeSwift) putObject(w http.ResponseWriter, r *http.Request, key string) {
	f.remove(key)
	if r.URL.Query().Get("multipart-manifest") == "put" {
		var segs []sloSegment
		if err := json.NewDecoder(r.Body).Decode(&segs); err != nil || len(segs) == 0 {
			f.answer(w, http.StatusBadRequest)
			return
		}
		var keys []string
		for _, s := range segs {
			k := strings.TrimPrefix(s.Path, "/")
			if size, ok := f.objects[k]; !ok || size != s.SizeBytes {
				f.answer(w, http.StatusBadRequest) // Swift: a missing segment or a wrong size_bytes
				return
			}
			keys = append(keys, k)
		}
		f.large.manifests[key] = keys
		f.objects[key] = 0
		f.answer(w, http.StatusCreated)
		return
	}
	if p := r.Header.Get("X-Object-Manifest"); p != "" {
		f.large.dlo[key] = p
	}
	st := &startFinder{start: -2}
	n, _ := io.Copy(st, r.Body)
	if st.start == -2 { // shorter than 32 bytes
		st.start = locate(st.head)
	}
	f.objects[key] = n
	if st.start != 0 && n > 0 {
		f.large.start[key] = st.start
	}
	f.answer(w, http.StatusCreated)
}

// remove deletes key and what the fake keeps of it.
func (f *fakeSwift) remove(key string) {
	delete(f.objects, key)
	delete(f.large.start, key)
	delete(f.large.manifests, key)
	delete(f.large.dlo, key)
}

// multipartDelete is DELETE ?multipart-manifest=delete: always 200, the
// result in a bulk JSON body.
func (f *fakeSwift) multipartDelete(w http.ResponseWriter, key string, exists bool) {
	status, deleted := "200 OK", 0
	segs, isSLO := f.large.manifests[key]
	switch {
	case !exists:
		status = "404 Not Found"
	case !isSLO:
		status = "400 Bad Request"
	default:
		for _, s := range segs {
			if _, ok := f.objects[s]; ok {
				f.remove(s)
				deleted++
			}
		}
		f.remove(key)
		deleted++
	}
	w.Header().Set("Content-Type", "application/json")
	f.answer(w, http.StatusOK)
	_ = json.NewEncoder(w).Encode(map[string]any{"Response Status": status, "Number Deleted": deleted,
		"Number Not Found": 0, "Errors": []any{}})
}

// parts are the objects whose bodies make key's, in order.
func (l *fakeLarge) parts(key string, objects map[string]int64) []string {
	if segs, ok := l.manifests[key]; ok {
		return segs
	}
	if p, ok := l.dlo[key]; ok {
		var segs []string
		for k := range objects {
			if strings.HasPrefix(k, p) {
				segs = append(segs, k)
			}
		}
		slices.Sort(segs)
		return segs
	}
	return []string{key}
}

// size is key's length as a GET gives it.
func (l *fakeLarge) size(key string, size int64, objects map[string]int64) int64 {
	if _, ok := l.manifests[key]; !ok && l.dlo[key] == "" {
		return size
	}
	var n int64
	for _, p := range l.parts(key, objects) {
		n += objects[p]
	}
	return n
}

// write sends key's body: each part's stored content, one byte changed in
// the middle when key is to be served corrupted.
func (l *fakeLarge) write(w io.Writer, key string, objects map[string]int64) {
	total := l.size(key, objects[key], objects)
	if l.corrupt[key] {
		w = &flipWriter{w: w, at: total / 2}
	}
	for _, p := range l.parts(key, objects) {
		off, ok := l.start[p]
		if !ok {
			off = 0
		}
		if off < 0 {
			_, _ = io.Copy(w, io.LimitReader(zeroReader{}, objects[p]))
			continue
		}
		_, _ = (&body{off: off, n: off + objects[p]}).WriteTo(w)
	}
}

// startFinder finds where in the pattern a body starts (from its first 32
// bytes) and checks the rest against it: start is -1 for a body that is no
// part of the generated content.
type startFinder struct {
	start int64
	head  []byte
	v     Verifier
}

func (s *startFinder) Write(p []byte) (int, error) {
	n := len(p)
	if s.start == -2 {
		k := min(len(p), 32-len(s.head))
		s.head = append(s.head, p[:k]...)
		p = p[k:]
		if len(s.head) < 32 {
			return n, nil
		}
		if s.start = locate(s.head); s.start < 0 {
			return n, nil
		}
		s.v.off = s.start
		_, _ = s.v.Write(s.head)
	}
	if s.start >= 0 {
		_, _ = s.v.Write(p)
		if s.v.bad {
			s.start = -1
		}
	}
	return n, nil
}

// locate returns the offset of head in the (cyclic) pattern, or -1.
func locate(head []byte) int64 {
	ring := append(append([]byte(nil), pattern...), pattern[:len(head)]...)
	if i := bytes.Index(ring, head); i >= 0 {
		return int64(i)
	}
	return -1
}

type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// flipWriter changes the byte at offset at of what it writes.
type flipWriter struct {
	w   io.Writer
	off int64
	at  int64
}

func (f *flipWriter) Write(p []byte) (int, error) {
	if f.at >= f.off && f.at < f.off+int64(len(p)) {
		q := append([]byte(nil), p...)
		q[f.at-f.off] ^= 0xff
		p = q
	}
	f.off += int64(len(p))
	return f.w.Write(p)
}
