package prefill

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	"benchbed/load"
	"benchbed/plan/scenario"
)

// HTTPStore is a Store over Swift's HTTP API, re-authenticating once on a
// 401. Object bodies are generated, never held.
type HTTPStore struct {
	HTTP   *http.Client
	Auth   load.Auth
	Policy string // X-Storage-Policy of new containers ("" = the cluster's default)
}

var _ Store = (*HTTPStore)(nil)

// NewHTTPStore returns a store whose connection pool fits conns requests
// in flight.
func NewHTTPStore(spec load.AuthSpec, conns int, policy string) (*HTTPStore, error) {
	hc := &http.Client{Transport: load.NewTransport(max(conns, 16))}
	auth, err := spec.NewAuth(hc)
	if err != nil {
		return nil, err
	}
	return &HTTPStore{HTTP: hc, Auth: auth, Policy: policy}, nil
}

// do sends one request to the storage URL + path + query and returns the
// response of the first answer that is not a 401 (or of the second try).
func (st *HTTPStore) do(ctx context.Context, method, path, query string, size int64, hdr http.Header) (*http.Response, error) {
	for attempt := 0; ; attempt++ {
		su, tok, err := st.Auth.Token(ctx)
		if err != nil {
			return nil, err
		}
		var body io.Reader
		if method == http.MethodPut && size > 0 {
			body = load.Content(0, size) // what verified reads expect
		}
		req, err := http.NewRequestWithContext(ctx, method, su+path+query, body)
		if err != nil {
			return nil, err
		}
		req.ContentLength = size
		for k, v := range hdr {
			req.Header[k] = v
		}
		req.Header.Set("X-Auth-Token", tok)
		resp, err := st.HTTP.Do(req)
		if err != nil {
			return nil, err
		}
		if resp.StatusCode != http.StatusUnauthorized || attempt > 0 {
			return resp, nil
		}
		drainClose(resp)
		st.Auth.Invalidate(tok)
	}
}

func drainClose(resp *http.Response) {
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	_ = resp.Body.Close()
}

func swiftPath(container, object string) string {
	p := "/" + url.PathEscape(container)
	if object != "" {
		p += "/" + url.PathEscape(object)
	}
	return p
}

// expect turns an answer other than 2xx into an error and closes the body.
func expect(resp *http.Response, err error, what string) error {
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	drainClose(resp)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s: HTTP %s", what, resp.Status)
	}
	return nil
}

// PutContainer implements Store.
func (st *HTTPStore) PutContainer(ctx context.Context, c string) error {
	var hdr http.Header
	if st.Policy != "" {
		hdr = http.Header{"X-Storage-Policy": {st.Policy}}
	}
	resp, err := st.do(ctx, http.MethodPut, swiftPath(c, ""), "", 0, hdr)
	return expect(resp, err, "PUT "+c)
}

// PutObject implements Store.
func (st *HTTPStore) PutObject(ctx context.Context, c, name string, size int64) error {
	resp, err := st.do(ctx, http.MethodPut, swiftPath(c, name), "", size, nil)
	return expect(resp, err, "PUT "+c+"/"+name)
}

// PutLarge implements LargeStore: a large object of s's kind, with its
// segments, retried as the load engine retries (503, transport errors).
func (st *HTTPStore) PutLarge(ctx context.Context, s *scenario.Scenario, c, name string, size int64) error {
	o := load.PutLargeObject(ctx, &load.Client{HTTP: st.HTTP, Auth: st.Auth, MaxRetries: 3}, s, c, name, size)
	if !o.OK() {
		return fmt.Errorf("PUT large object %s/%s: %s", c, name, o.ErrorKey())
	}
	return nil
}

// HeadObject implements Store.
func (st *HTTPStore) HeadObject(ctx context.Context, c, name string) (int64, error) {
	resp, err := st.do(ctx, http.MethodHead, swiftPath(c, name), "", 0, nil)
	if err != nil {
		return 0, fmt.Errorf("HEAD %s/%s: %w", c, name, err)
	}
	drainClose(resp)
	switch {
	case resp.StatusCode == http.StatusNotFound:
		return 0, ErrNotFound
	case resp.StatusCode/100 != 2:
		return 0, fmt.Errorf("HEAD %s/%s: HTTP %s", c, name, resp.Status)
	}
	return resp.ContentLength, nil
}

// List implements Store: one JSON listing page, decoded as it streams.
func (st *HTTPStore) List(ctx context.Context, c, marker string, limit int, fn func(string, int64)) (int, error) {
	q := "?format=json&limit=" + strconv.Itoa(limit)
	if marker != "" {
		q += "&marker=" + url.QueryEscape(marker)
	}
	resp, err := st.do(ctx, http.MethodGet, swiftPath(c, ""), q, 0, nil)
	if err != nil {
		return 0, fmt.Errorf("listing %s: %w", c, err)
	}
	defer drainClose(resp)
	switch {
	case resp.StatusCode == http.StatusNotFound, resp.StatusCode == http.StatusNoContent:
		return 0, nil
	case resp.StatusCode/100 != 2:
		return 0, fmt.Errorf("listing %s: HTTP %s", c, resp.Status)
	}
	return decodeListing(resp.Body, fn)
}

// decodeListing streams the entries of a JSON listing array to fn.
func decodeListing(r io.Reader, fn func(string, int64)) (int, error) {
	dec := json.NewDecoder(r)
	tok, err := dec.Token()
	if err == io.EOF {
		return 0, nil
	}
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '[' {
		return 0, fmt.Errorf("listing: not a JSON array (%v)", err)
	}
	n := 0
	for dec.More() {
		var e struct {
			Name  string `json:"name"`
			Bytes int64  `json:"bytes"`
		}
		if err := dec.Decode(&e); err != nil {
			return n, fmt.Errorf("listing entry %d: %w", n, err)
		}
		fn(e.Name, e.Bytes)
		n++
	}
	return n, nil
}
