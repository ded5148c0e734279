package prefill

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"sync"
)

// State is a prefill's checkpoint: which units are done. It is small (one
// entry per unit of up to 50,000 objects) and JSON, kept by the caller.
type State struct {
	mu          sync.Mutex
	Fingerprint string `json:"fingerprint"` // the layout it belongs to
	Units       int    `json:"units"`       // how many units the layout has
	Done        []int  `json:"done"`        // finished unit numbers, sorted
	done        map[int]bool
	index       map[Unit]int
}

// Fingerprint identifies a layout: its containers, classes and counts.
func (l *Layout) Fingerprint() string {
	h := sha256.New()
	for _, c := range l.containers {
		fmt.Fprintf(h, "c %s\n", c)
	}
	for i, z := range l.sizes {
		fmt.Fprintf(h, "s %s %d %d %d\n", z.Name, z.SizeMin, z.SizeMax, l.counts[i])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// bind ties the state to the layout, refusing a checkpoint of another one.
func (s *State) bind(l *Layout, units []Unit) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	fp := l.Fingerprint()
	if s.Fingerprint != "" && (s.Fingerprint != fp || s.Units != len(units)) {
		return fmt.Errorf("prefill checkpoint is for another layout (%s, %d units; this one is %s, %d units): remove it to start over",
			s.Fingerprint, s.Units, fp, len(units))
	}
	s.Fingerprint, s.Units = fp, len(units)
	s.done = map[int]bool{}
	for _, i := range s.Done {
		s.done[i] = true
	}
	s.index = make(map[Unit]int, len(units))
	for i, u := range units {
		s.index[u] = i
	}
	return nil
}

func (s *State) isDone(i int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done[i]
}

// markDone marks u finished and saves the state.
func (s *State) markDone(u Unit, save func(*State) error) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.index[u]
	if !s.done[i] {
		s.done[i] = true
		s.Done = append(s.Done, i)
		sort.Ints(s.Done)
	}
	if save == nil {
		return i, nil
	}
	if err := save(s); err != nil {
		return i, fmt.Errorf("saving the prefill checkpoint: %w", err)
	}
	return i, nil
}

// MarkDone records unit i as done (a checkpoint kept by an orchestrator
// from its agents' reports). Numbers outside the layout are ignored.
func (s *State) MarkDone(i int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if i < 0 || (s.Units > 0 && i >= s.Units) || s.done[i] {
		return
	}
	if s.done == nil {
		s.done = map[int]bool{}
	}
	s.done[i] = true
	s.Done = append(s.Done, i)
	sort.Ints(s.Done)
}

// Bind ties a checkpoint to l, refusing one of another layout.
func (s *State) Bind(l *Layout) error { return s.bind(l, l.Units()) }

// Complete reports whether every unit is done.
func (s *State) Complete() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Units > 0 && len(s.Done) == s.Units
}
