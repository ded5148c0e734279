package load

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"benchbed/plan/scenario"
)

// sloSegment is one entry of a static large object's manifest.
type sloSegment struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"size_bytes"`
}

// sloManifest is the manifest of container/obj of size bytes in segments
// of segSize: its segments' paths and sizes (no ETags: Swift checks sizes
// and that each segment exists).
func sloManifest(container, obj string, size, segSize int64) []byte {
	n := scenario.Segments(size, segSize)
	segs := make([]sloSegment, 0, n)
	for i := range n {
		segs = append(segs, sloSegment{Path: "/" + scenario.SegmentContainer(container) + "/" + scenario.SegmentName(obj, i),
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
func putLarge(do doer, s *scenario.Scenario, container, obj string, size int64, hdr http.Header) Outcome {
	seg := s.SegmentSize
	var first Outcome
	retries := 0
	for i := range scenario.Segments(size, seg) {
		o := do(&Request{Method: http.MethodPut, Container: scenario.SegmentContainer(container), Object: scenario.SegmentName(obj, i),
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
		m.Header.Set("X-Object-Manifest", scenario.SegmentContainer(container)+"/"+obj+"/")
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
func deleteLarge(do doer, s *scenario.Scenario, container, obj string) Outcome {
	if s.DLO() {
		o := do(&Request{Method: http.MethodDelete, Container: container, Object: obj})
		if !o.OK() {
			return o
		}
		for i := int64(0); ; i++ {
			so := do(&Request{Method: http.MethodDelete, Container: scenario.SegmentContainer(container), Object: scenario.SegmentName(obj, i)})
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
