// Package load is benchbed's Swift client and load generator: ssbench
// scenarios, closed- and open-loop users, prefill, and the agent.
package load

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

// ParseScenario decodes an ssbench scenario with a strict JSON parser (as
// ssbench does), rejects unknown fields, fills ssbench's defaults and
// validates it. Every problem found is returned, joined.
func ParseScenario(data []byte) (*Scenario, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Scenario
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("scenario: %w", err)
	}
	if dec.More() {
		return nil, errors.New("scenario: trailing data after the JSON object")
	}
	s.fillDefaults()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return &s, nil
}

func (s *Scenario) fillDefaults() {
	if s.ContainerBase == "" {
		s.ContainerBase = DefaultContainerBase
	}
	if s.ContainerCount == 0 {
		s.ContainerCount = DefaultContainerCount
	}
	if s.ContainerConcurrency == 0 {
		s.ContainerConcurrency = DefaultContainerConcurrency
	}
	if s.BlockSize == 0 {
		s.BlockSize = DefaultBlockSize
	}
	if s.UserCount == 0 {
		s.UserCount = 1
	}
}

// Validate checks a scenario's fields and returns every problem, joined.
func (s *Scenario) Validate() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf("scenario: "+format, a...)) }
	if strings.TrimSpace(s.Name) == "" {
		bad("name is missing")
	}
	if len(s.Sizes) == 0 {
		bad("sizes is empty: at least one size class is needed")
	}
	seen := map[string]bool{}
	for i, z := range s.Sizes {
		switch {
		case z.Name == "":
			bad("sizes[%d]: name is missing", i)
		case seen[z.Name]:
			bad("sizes[%d]: size %q is declared twice", i, z.Name)
		}
		seen[z.Name] = true
		if z.SizeMin < 0 || z.SizeMax < z.SizeMin {
			bad("sizes[%d] %q: need 0 <= size_min <= size_max, got %d and %d", i, z.Name, z.SizeMin, z.SizeMax)
		}
		if z.CrudProfile != nil {
			if err := checkCrud(z.CrudProfile); err != nil {
				bad("sizes[%d] %q: crud_profile %v", i, z.Name, err)
			}
		}
	}
	total := 0
	for name, n := range s.InitialFiles {
		total += max(n, 0)
		if !seen[name] {
			bad("initial_files names size %q, which sizes does not declare", name)
		}
		if n < 0 {
			bad("initial_files[%q] = %d: must be >= 0", name, n)
		}
	}
	if total == 0 {
		bad("initial_files has no object: each operation's size is drawn in proportion to initial_files")
	}
	if err := checkCrud(s.CrudProfile); err != nil {
		bad("crud_profile %v", err)
	}
	if s.RunSeconds < 0 || s.OperationCount < 0 {
		bad("run_seconds and operation_count must be >= 0")
	}
	if s.RunSeconds == 0 && s.OperationCount == 0 {
		bad("either run_seconds or operation_count is needed")
	}
	if s.UserCount < 1 {
		bad("user_count must be >= 1, got %d", s.UserCount)
	}
	if s.ContainerCount < 1 || s.ContainerConcurrency < 1 {
		bad("container_count and container_concurrency must be >= 1")
	}
	if s.DeleteAfter != nil && *s.DeleteAfter < 0 {
		bad("delete_after must be >= 0")
	}
	return errors.Join(errs...)
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
