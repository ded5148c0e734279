package scenario

import "fmt"

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
