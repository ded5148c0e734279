package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Scenario is an ssbench scenario file, field for field.
type Scenario struct {
	Name                 string         `json:"name"`
	Sizes                []Size         `json:"sizes"`
	InitialFiles         map[string]int `json:"initial_files"`
	RunSeconds           float64        `json:"run_seconds,omitempty"`
	OperationCount       int            `json:"operation_count,omitempty"`
	CrudProfile          []float64      `json:"crud_profile"`
	UserCount            int            `json:"user_count,omitempty"`
	ContainerBase        string         `json:"container_base,omitempty"`
	ContainerCount       int            `json:"container_count,omitempty"`
	ContainerConcurrency int            `json:"container_concurrency,omitempty"`
	DeleteAfter          *int           `json:"delete_after,omitempty"`
	Policy               string         `json:"policy,omitempty"`
	BlockSize            int            `json:"block_size,omitempty"`
	// ContainerPutHeaders are extra headers for the containers' PUT.
	ContainerPutHeaders map[string]string `json:"container_put_headers,omitempty"`
	// SegmentSize (benchbed's extension; ssbench ignores keys it does not
	// read) makes the objects of every size class whose size_min is at
	// least this large objects of segments of this many bytes.
	SegmentSize int64 `json:"segment_size,omitempty"`
	// LargeObject is how large objects are made: "slo" (default, a static
	// manifest) or "dlo" (X-Object-Manifest).
	LargeObject string `json:"large_object,omitempty"`
	// Popularity (benchbed's extension) skews which objects reads,
	// updates and HEADs take; nil is ssbench's uniform draw.
	Popularity *Popularity `json:"popularity,omitempty"`
	// RateProfile (benchbed's extension) runs the scenario open-loop at a
	// rate that changes over time, as a fit of proxy logs found it.
	RateProfile *RateProfile `json:"rate_profile,omitempty"`
	// HeadShare (benchbed's extension) is the share of operations that are
	// HEADs of an existing object, drawn before the crud profile (0: none).
	HeadShare float64 `json:"head_share,omitempty"`
}

// Size is one size class of a scenario.
type Size struct {
	Name        string    `json:"name"`
	SizeMin     int64     `json:"size_min"`
	SizeMax     int64     `json:"size_max"`
	CrudProfile []float64 `json:"crud_profile,omitempty"`
}

// ssbench's defaults for fields a scenario may leave out.
const (
	DefaultContainerBase        = "ssbench"
	DefaultContainerCount       = 100
	DefaultContainerConcurrency = 10
	DefaultBlockSize            = 65536
)

// Parse decodes an ssbench scenario with a strict JSON parser (as
// ssbench does), rejects unknown fields, fills ssbench's defaults for the
// fields left out and validates it, refusing every value ssbench would
// refuse (or crash on). Every problem found is returned, joined; those of
// one field are *FieldError, with its path.
func Parse(data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if dec.More() {
		return nil, errors.New("scenario: trailing data after the JSON object")
	}
	var raw struct {
		Fields map[string]json.RawMessage
		Sizes  []map[string]json.RawMessage `json:"sizes"`
	}
	_ = json.Unmarshal(data, &raw.Fields)
	_ = json.Unmarshal(data, &raw)
	s.fillDefaults(raw.Fields)
	err := errors.Join(missingSizeFields(raw.Sizes), s.Validate())
	if err != nil {
		return nil, err
	}
	return &s, nil
}

// missingSizeFields refuses a size class without name, size_min or
// size_max, which ssbench needs (a KeyError there).
func missingSizeFields(sizes []map[string]json.RawMessage) error {
	var errs []error
	for i, z := range sizes {
		for _, k := range []string{"size_min", "size_max"} {
			if _, ok := z[k]; !ok {
				errs = append(errs, &FieldError{Path: []any{"sizes", i}, Msg: fmt.Sprintf("sizes[%d]: %s is missing", i, k)})
			}
		}
	}
	return errors.Join(errs...)
}

// fillDefaults sets ssbench's defaults of the fields the file left out
// (present: the file's fields). A field given as 0 is kept, to be refused.
func (s *Scenario) fillDefaults(present map[string]json.RawMessage) {
	has := func(k string) bool { _, ok := present[k]; return ok }
	if !has("container_base") {
		s.ContainerBase = DefaultContainerBase
	}
	if !has("container_count") {
		s.ContainerCount = DefaultContainerCount
	}
	if !has("container_concurrency") {
		s.ContainerConcurrency = DefaultContainerConcurrency
	}
	if s.BlockSize == 0 {
		s.BlockSize = DefaultBlockSize
	}
	if !has("user_count") {
		s.UserCount = 1 // ssbench takes it from -u then; benchbed from --users or the workload
	}
}

// Validate checks a scenario's fields and returns every problem, joined,
// each a *FieldError.
func (s *Scenario) Validate() error {
	var errs []error
	bad := func(path []any, format string, a ...any) {
		errs = append(errs, &FieldError{Path: path, Msg: fmt.Sprintf(format, a...)})
	}
	if strings.TrimSpace(s.Name) == "" {
		bad([]any{"name"}, "name is missing")
	}
	if len(s.Sizes) == 0 {
		bad([]any{"sizes"}, "sizes is empty: at least one size class is needed")
	}
	seen := s.validateSizes(bad)
	s.validateInitial(seen, bad)
	if err := checkCrud(s.CrudProfile); err != nil {
		bad([]any{"crud_profile"}, "crud_profile %v", err)
	}
	if s.RunSeconds < 0 {
		bad([]any{"run_seconds"}, "run_seconds must be >= 0, got %v", s.RunSeconds)
	}
	if s.OperationCount < 0 {
		bad([]any{"operation_count"}, "operation_count must be >= 0, got %d", s.OperationCount)
	}
	if s.RunSeconds == 0 && s.OperationCount == 0 {
		bad(nil, "either run_seconds or operation_count is needed")
	}
	if s.UserCount < 1 {
		bad([]any{"user_count"}, "user_count must be >= 1, got %d", s.UserCount)
	}
	if s.ContainerCount < 1 {
		bad([]any{"container_count"}, "container_count must be >= 1, got %d", s.ContainerCount)
	}
	if s.ContainerConcurrency < 1 {
		bad([]any{"container_concurrency"}, "container_concurrency must be >= 1, got %d", s.ContainerConcurrency)
	}
	if strings.Contains(s.ContainerBase, "/") {
		bad([]any{"container_base"}, "container_base %q: a container's name cannot hold '/'", s.ContainerBase)
	}
	if s.DeleteAfter != nil && *s.DeleteAfter < 0 {
		bad([]any{"delete_after"}, "delete_after must be >= 0, got %d", *s.DeleteAfter)
	}
	s.validateLarge(bad)
	s.validateExtensions(bad)
	return errors.Join(errs...)
}

// validateSizes checks the size classes and returns their names.
func (s *Scenario) validateSizes(bad func([]any, string, ...any)) map[string]bool {
	seen := map[string]bool{}
	for i, z := range s.Sizes {
		switch {
		case z.Name == "":
			bad([]any{"sizes", i}, "sizes[%d]: name is missing", i)
		case seen[z.Name]:
			bad([]any{"sizes", i, "name"}, "sizes[%d]: size %q is declared twice", i, z.Name)
		}
		seen[z.Name] = true
		if z.SizeMin < 0 || z.SizeMax < z.SizeMin {
			bad([]any{"sizes", i, "size_max"}, "sizes[%d] %q: need 0 <= size_min <= size_max, got %d and %d", i, z.Name, z.SizeMin, z.SizeMax)
		}
		if z.CrudProfile != nil {
			if err := checkCrud(z.CrudProfile); err != nil {
				bad([]any{"sizes", i, "crud_profile"}, "sizes[%d] %q: crud_profile %v", i, z.Name, err)
			}
		}
	}
	return seen
}

// validateInitial checks initial_files against the declared sizes.
func (s *Scenario) validateInitial(sizes map[string]bool, bad func([]any, string, ...any)) {
	total := 0
	for name, n := range s.InitialFiles {
		total += max(n, 0)
		if !sizes[name] {
			bad([]any{"initial_files", name}, "initial_files names size %q, which sizes does not declare", name)
		}
		if n < 0 {
			bad([]any{"initial_files", name}, "initial_files[%q] = %d: must be >= 0", name, n)
		}
	}
	if total == 0 {
		bad([]any{"initial_files"}, "initial_files has no object: each operation's size is drawn in proportion to initial_files")
	}
}

// checkCrud validates a [create, read, update, delete] weight vector.
func checkCrud(p []float64) error {
	if len(p) != 4 {
		return fmt.Errorf("must have 4 weights [create, read, update, delete], got %d", len(p))
	}
	sum := 0.0
	for _, w := range p {
		if w < 0 {
			return errors.New("has a negative weight")
		}
		sum += w
	}
	if sum == 0 {
		return errors.New("is all zero")
	}
	return nil
}

// ContainerName returns ssbench's name of container i (from 0):
// <container_base>_%06d_<policy or "default_policy">.
func (s *Scenario) ContainerName(i int) string {
	p := s.Policy
	if p == "" {
		p = "default_policy"
	}
	b := make([]byte, 0, len(s.ContainerBase)+len(p)+16)
	b = appendPadded(append(append(b, s.ContainerBase...), '_'), int64(i))
	return string(append(append(b, '_'), p...))
}

// ReadsInitial reports whether the scenario's benchmark reads, updates or
// deletes its initial objects: a size class with initial files whose crud
// profile has R, U or D. A create-only scenario needs none in place.
func (s *Scenario) ReadsInitial() bool {
	if s.HeadShare > 0 {
		return true
	}
	for _, p := range s.drawnCrud() {
		if len(p) == 4 && (p[1] > 0 || p[2] > 0 || p[3] > 0) {
			return true
		}
	}
	return false
}

// drawnCrud returns the crud profiles of the size classes a benchmark
// draws from (those with initial files): their own, else the scenario's.
func (s *Scenario) drawnCrud() [][]float64 {
	var out [][]float64
	for _, z := range s.Sizes {
		if s.InitialFiles[z.Name] <= 0 {
			continue
		}
		p := s.CrudProfile
		if z.CrudProfile != nil {
			p = z.CrudProfile
		}
		out = append(out, p)
	}
	return out
}
