package load

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Swift's limits that large objects must respect (Swift 2.30 defaults).
const (
	MaxObjectSize       = 5368709122 // [swift-constraints] max_file_size: one segment or plain object
	MaxManifestSegments = 1000       // [filter:slo] max_manifest_segments
)

// Large-object kinds of a scenario's large_object.
const (
	LargeSLO = "slo"
	LargeDLO = "dlo"
)

// IsLarge reports whether the objects of size class z are uploaded as large
// objects: the scenario has a segment_size and z's size_min reaches it.
func (s *Scenario) IsLarge(z Size) bool {
	return s.SegmentSize > 0 && z.SizeMin >= s.SegmentSize
}

// HasLarge reports whether any size class is uploaded as large objects.
func (s *Scenario) HasLarge() bool {
	for _, z := range s.Sizes {
		if s.IsLarge(z) {
			return true
		}
	}
	return false
}

// DLO reports whether large objects are dynamic (X-Object-Manifest).
func (s *Scenario) DLO() bool { return s.LargeObject == LargeDLO }

// SegmentContainer is where the segments of container c's large objects go.
func SegmentContainer(c string) string { return c + "_segments" }

// SegmentName is the name of segment i of object obj.
func SegmentName(obj string, i int64) string {
	return obj + "/" + fmt.Sprintf("%08d", i)
}

// Segments is how many segments an object of size bytes has.
func Segments(size, segSize int64) int64 {
	return max(1, (size+segSize-1)/segSize)
}

// validateLarge checks segment_size and large_object against Swift's limits.
func (s *Scenario) validateLarge(bad func([]any, string, ...any)) {
	if s.LargeObject != "" && s.LargeObject != LargeSLO && s.LargeObject != LargeDLO {
		bad([]any{"large_object"}, "large_object must be %q or %q, got %q", LargeSLO, LargeDLO, s.LargeObject)
	}
	if s.SegmentSize < 0 || s.SegmentSize > MaxObjectSize {
		bad([]any{"segment_size"}, "segment_size must be from 1 to %d bytes (Swift's max_file_size), got %d", int64(MaxObjectSize), s.SegmentSize)
		return
	}
	for i, z := range s.Sizes {
		switch {
		case s.IsLarge(z) && !s.DLO() && Segments(z.SizeMax, s.SegmentSize) > MaxManifestSegments:
			bad([]any{"sizes", i}, "sizes[%d] %q: %d segments of %d bytes exceed Swift's max_manifest_segments (%d): give a larger segment_size",
				i, z.Name, Segments(z.SizeMax, s.SegmentSize), s.SegmentSize, MaxManifestSegments)
		case !s.IsLarge(z) && z.SizeMax > MaxObjectSize:
			bad([]any{"sizes", i}, "sizes[%d] %q: size_max %d exceeds Swift's max_file_size (%d): give a segment_size of at most size_min to upload large objects",
				i, z.Name, z.SizeMax, int64(MaxObjectSize))
		}
	}
}

// sloSegment is one entry of a static large object's manifest.
type sloSegment struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"size_bytes"`
}

// sloManifest is the manifest of container/obj of size bytes in segments
// of segSize: its segments' paths and sizes (no ETags: Swift checks sizes
// and that each segment exists).
func sloManifest(container, obj string, size, segSize int64) []byte {
	n := Segments(size, segSize)
	segs := make([]sloSegment, 0, n)
	for i := range n {
		segs = append(segs, sloSegment{Path: "/" + SegmentContainer(container) + "/" + SegmentName(obj, i),
			SizeBytes: min(segSize, size-i*segSize)})
	}
	b, _ := json.Marshal(segs) // cannot fail
	return b
}

// doer runs one request of an operation, measured from the operation's start.
type doer func(r *Request) Outcome

// putLarge uploads container/obj (size bytes) as a large object: its
// segments one after another into the segment container, each the part of
// the generated content at its offset, then the manifest. The outcome is
// the whole object's: first byte of the first segment, last byte of the
// manifest, the first failure's status or error.
func putLarge(do doer, s *Scenario, container, obj string, size int64, hdr http.Header) Outcome {
	seg := s.SegmentSize
	var first Outcome
	retries := 0
	for i := range Segments(size, seg) {
		o := do(&Request{Method: http.MethodPut, Container: SegmentContainer(container), Object: SegmentName(obj, i),
			Offset: i * seg, Size: min(seg, size-i*seg)})
		retries += o.Retries
		if i == 0 {
			first = o
		}
		if !o.OK() {
			o.FirstByte, o.Retries = first.FirstByte, retries
			return o
		}
	}
	m := &Request{Method: http.MethodPut, Container: container, Object: obj, Header: hdr.Clone()}
	if m.Header == nil {
		m.Header = http.Header{}
	}
	if s.DLO() {
		m.Header.Set("X-Object-Manifest", SegmentContainer(container)+"/"+obj+"/")
		m.Body = []byte{}
	} else {
		m.Query, m.Body = "multipart-manifest=put", sloManifest(container, obj, size, seg)
	}
	o := do(m)
	o.FirstByte, o.Retries = first.FirstByte, retries+o.Retries
	return o
}

// bulkResult is the part of a bulk delete's JSON answer benchbed reads.
type bulkResult struct {
	Status   string `json:"Response Status"`
	NotFound int    `json:"Number Not Found"`
	Deleted  int    `json:"Number Deleted"`
}

// limitedBuffer keeps the first bytes written to it (a bulk answer).
type limitedBuffer struct{ b []byte }

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := 64<<10 - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(len(p), room)]...)
	}
	return len(p), nil
}

// deleteLarge deletes a large object with its segments. An SLO goes with
// one DELETE ?multipart-manifest=delete, whose HTTP status is always 200:
// the real one is the JSON body's "Response Status" (404 when the manifest
// is missing). A DLO's manifest goes first, then its segments, from the
// first until one is missing.
func deleteLarge(do doer, s *Scenario, container, obj string) Outcome {
	if s.DLO() {
		o := do(&Request{Method: http.MethodDelete, Container: container, Object: obj})
		if !o.OK() {
			return o
		}
		for i := int64(0); ; i++ {
			so := do(&Request{Method: http.MethodDelete, Container: SegmentContainer(container), Object: SegmentName(obj, i)})
			if so.Status == http.StatusNotFound {
				return Outcome{Status: o.Status, FirstByte: o.FirstByte, LastByte: so.LastByte, Retries: o.Retries}
			}
			if !so.OK() {
				return so
			}
		}
	}
	var body limitedBuffer
	o := do(&Request{Method: http.MethodDelete, Container: container, Object: obj, Query: "multipart-manifest=delete",
		Header: http.Header{"Accept": {"application/json"}}, Sink: &body})
	if !o.OK() {
		return o
	}
	var res bulkResult
	if err := json.Unmarshal(body.b, &res); err != nil {
		o.Err = fmt.Errorf("multipart-manifest=delete: %w", errMalformed)
		return o
	}
	code, _, _ := strings.Cut(res.Status, " ")
	if o.Status, _ = strconv.Atoi(code); o.Status == 0 {
		o.Err = fmt.Errorf("multipart-manifest=delete: %w", errMalformed)
	}
	return o
}
