package prefill

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
)

// memStore is an in-memory Swift account with failure injection.
type memStore struct {
	mu         sync.Mutex
	objs       map[string]map[string]int64
	puts       atomic.Int64
	heads      atomic.Int64
	lists      atomic.Int64
	failFirst  map[string]bool // object names whose first PUT fails
	failAlways map[string]bool // object names whose PUTs always fail
	onPut      func(n int64)   // called after each successful PUT with the count
}

func newMemStore() *memStore { return &memStore{objs: map[string]map[string]int64{}} }

func (m *memStore) PutContainer(_ context.Context, c string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.objs[c] == nil {
		m.objs[c] = map[string]int64{}
	}
	return nil
}

var errInjected = errors.New("503 Service Unavailable")

func (m *memStore) PutObject(ctx context.Context, c, name string, size int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	m.mu.Lock()
	if m.failAlways[name] {
		m.mu.Unlock()
		return errInjected
	}
	if m.failFirst[name] {
		delete(m.failFirst, name)
		m.mu.Unlock()
		return errInjected
	}
	if m.objs[c] == nil {
		m.mu.Unlock()
		return errors.New("404 container " + c)
	}
	m.objs[c][name] = size
	m.mu.Unlock()
	n := m.puts.Add(1)
	if m.onPut != nil {
		m.onPut(n)
	}
	return nil
}

func (m *memStore) HeadObject(_ context.Context, c, name string) (int64, error) {
	m.heads.Add(1)
	m.mu.Lock()
	defer m.mu.Unlock()
	size, ok := m.objs[c][name]
	if !ok {
		return 0, ErrNotFound
	}
	return size, nil
}

func (m *memStore) List(_ context.Context, c, marker string, limit int, fn func(string, int64)) (int, error) {
	m.lists.Add(1)
	m.mu.Lock()
	names := make([]string, 0, len(m.objs[c]))
	for n := range m.objs[c] {
		if n > marker {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) > limit {
		names = names[:limit]
	}
	sizes := make([]int64, len(names))
	for i, n := range names {
		sizes[i] = m.objs[c][n]
	}
	m.mu.Unlock()
	for i, n := range names {
		fn(n, sizes[i])
	}
	return len(names), nil
}

func (m *memStore) count() (n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.objs {
		n += len(c)
	}
	return n
}
