package orchestrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"

	"benchbed/load"
	"benchbed/load/prefill"
	"benchbed/results"
)

// prefill creates (or verifies, putting what is missing) the initial
// objects of the workloads the testbed's prefill block names, once per
// run, from this machine through the workload's auth. Its checkpoint is
// kept in the run directory, so a resumed sweep goes on where it stopped.
func (s *Sweeper) prefill(ctx context.Context) error {
	pf := s.tb.Prefill
	if pf == nil {
		s.logf("no prefill block: the workloads' initial objects are assumed present")
		return nil
	}
	for _, w := range s.tb.Workloads {
		if len(pf.Workloads) > 0 && !contains(pf.Workloads, w.Name) {
			continue
		}
		sc, err := load.ParseScenario(w.ScenarioJSON)
		if err != nil {
			return fmt.Errorf("workload %s: %w", w.Name, err)
		}
		l, err := prefill.NewLayout(sc)
		if err != nil {
			return fmt.Errorf("workload %s: %w", w.Name, err)
		}
		if err := s.prefillWorkload(ctx, w.Name, workloadAuth(w), l, pf.Concurrency, pf.Verify); err != nil {
			return fmt.Errorf("prefill of %s: %w", w.Name, err)
		}
	}
	return nil
}

func (s *Sweeper) prefillWorkload(ctx context.Context, name string, spec load.AuthSpec, l *prefill.Layout, conc int, verify string) error {
	hc := &http.Client{Transport: load.NewTransport(max(conc, 16))}
	defer hc.CloseIdleConnections()
	auth, err := spec.NewAuth(hc)
	if err != nil {
		return err
	}
	ckpt, err := s.run.Path("prefill-" + results.SafeName(name) + ".json")
	if err != nil {
		return err
	}
	st := &prefill.State{}
	if b, err := os.ReadFile(ckpt); err == nil {
		if err := json.Unmarshal(b, st); err != nil {
			return fmt.Errorf("%s: %w", ckpt, err)
		}
	}
	var cnt prefill.Counters
	err = prefill.Run(ctx, l, &swiftStore{hc: hc, auth: auth}, prefill.Options{Concurrency: conc, Verify: verify,
		State: st, Save: func(st *prefill.State) error { return writeJSON(ckpt, st) }}, &cnt)
	t := cnt.Snapshot()
	s.logf("prefill %s: %d objects: %d put, %d already there, %d missing", name, l.Total(), t.Put, t.Skipped, t.Failed)
	return err
}

func contains(list []string, x string) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// swiftStore is prefill's Store over Swift's HTTP API, re-authenticating
// once on a 401.
type swiftStore struct {
	hc   *http.Client
	auth load.Auth
}

var _ prefill.Store = (*swiftStore)(nil)

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// do sends one request to the storage URL + path (query appended) and
// returns the response of a non-401 answer.
func (st *swiftStore) do(ctx context.Context, method, p, query string, size int64) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		su, tok, err := st.auth.Token(ctx)
		if err != nil {
			return nil, err
		}
		var body io.Reader
		if method == http.MethodPut {
			body = io.LimitReader(zeros{}, size)
		}
		req, err := http.NewRequestWithContext(ctx, method, su+p+query, body)
		if err != nil {
			return nil, err
		}
		req.ContentLength = size
		req.Header.Set("X-Auth-Token", tok)
		resp, err := st.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized || attempt > 0 {
			return resp, nil
		}
		resp.Body.Close()
		st.auth.Invalidate(tok)
	}
}

func objPath(container, name string) string {
	p := "/" + url.PathEscape(container)
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	return p
}

// check turns a non-2xx answer into an error and closes the body.
func check(resp *http.Response, err error, what string) error {
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: %s", what, resp.Status)
	}
	return nil
}

// PutContainer implements prefill.Store.
func (st *swiftStore) PutContainer(ctx context.Context, c string) error {
	resp, err := st.do(ctx, http.MethodPut, objPath(c, ""), "", 0)
	return check(resp, err, "PUT "+c)
}

// PutObject implements prefill.Store.
func (st *swiftStore) PutObject(ctx context.Context, c, name string, size int64) error {
	resp, err := st.do(ctx, http.MethodPut, objPath(c, name), "", size)
	return check(resp, err, "PUT "+c+"/"+name)
}

// HeadObject implements prefill.Store.
func (st *swiftStore) HeadObject(ctx context.Context, c, name string) (int64, error) {
	resp, err := st.do(ctx, http.MethodHead, objPath(c, name), "", 0)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return 0, prefill.ErrNotFound
	case resp.StatusCode/100 != 2:
		return 0, fmt.Errorf("HEAD %s/%s: %s", c, name, resp.Status)
	}
	return resp.ContentLength, nil
}

// List implements prefill.Store.
func (st *swiftStore) List(ctx context.Context, c, marker string, limit int, fn func(string, int64)) (int, error) {
	q := "?format=json&limit=" + strconv.Itoa(limit) + "&marker=" + url.QueryEscape(marker)
	resp, err := st.do(ctx, http.MethodGet, objPath(c, ""), q, 0)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return 0, nil
	}
	if resp.StatusCode/100 != 2 {
		return 0, fmt.Errorf("listing %s: %s", c, resp.Status)
	}
	var objs []struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&objs); err != nil && !errors.Is(err, io.EOF) {
		return 0, fmt.Errorf("listing %s: %w", c, err)
	}
	for _, o := range objs {
		fn(o.Name, o.Bytes)
	}
	return len(objs), nil
}
