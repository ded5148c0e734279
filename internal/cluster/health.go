package cluster

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"benchbed/load"
	"benchbed/plan"
)

// WaitHealthy polls GET http://addr/healthcheck (at the backoff's waits) until it answers 200 or
// ctx ends; the error names host and service and gives the last answer.
func WaitHealthy(ctx context.Context, hc *http.Client, host string, l listener) error {
	u := "http://" + l.Addr + "/healthcheck"
	last := "no answer"
	var b backoff
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%s %q", resp.Status, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %s at %s is not healthy: last answer: %s", host, l.Service, u, last)
		case <-time.After(b.wait()):
		}
	}
}

// SmokeAuth is the account setup's round trip uses: the first v1 auth of the
// testbed's workloads, or nil.
func SmokeAuth(tb *plan.Testbed) *plan.Auth {
	for _, w := range tb.Workloads {
		if w.Auth != nil && (w.Auth.Kind == "" || w.Auth.Kind == "v1") {
			return w.Auth
		}
	}
	return nil
}

// RoundTrip authenticates against the proxy at addr (the auth's URL path on
// that proxy), then PUTs a container and an object, GETs the object back
// and compares it, and DELETEs it. Errors name the proxy and the step.
func RoundTrip(ctx context.Context, hc *http.Client, host, addr string, a *plan.Auth) error {
	au, err := url.Parse(a.URL)
	if err != nil {
		return fmt.Errorf("auth url of the testbed: %w", err)
	}
	au.Host = addr
	su, tok, err := load.NewV1Auth(hc, au.String(), a.User, a.Key).Token(ctx)
	if err != nil {
		return fmt.Errorf("%s: %w", host, err)
	}
	su = onProxy(su, addr)
	body := make([]byte, 4096)
	if _, err := rand.Read(body); err != nil {
		return err
	}
	obj := su + "/benchbed-setup/check-" + hex.EncodeToString(body[:6])
	steps := []struct {
		method, url string
		body        []byte
	}{
		{http.MethodPut, su + "/benchbed-setup", nil},
		{http.MethodPut, obj, body},
		{http.MethodGet, obj, nil},
		{http.MethodDelete, obj, nil},
	}
	for _, s := range steps {
		got, err := do(ctx, hc, s.method, s.url, tok, s.body)
		if err != nil {
			return fmt.Errorf("%s: %s %s: %w", host, s.method, strings.TrimPrefix(s.url, su), err)
		}
		if s.method == http.MethodGet && !bytes.Equal(got, body) {
			return fmt.Errorf("%s: GET of the object just PUT gave %d other bytes", host, len(got))
		}
	}
	return nil
}

// onProxy points a storage URL at the proxy at addr: tempauth builds it from
// its own idea of its host, which need not be the address we reached.
func onProxy(storageURL, addr string) string {
	u, err := url.Parse(storageURL)
	if err != nil {
		return storageURL
	}
	u.Host = addr
	return u.String()
}

// do sends one request and returns the body of a 2xx answer.
func do(ctx context.Context, hc *http.Client, method, u, token string, body []byte) ([]byte, error) {
	var r io.Reader
	if body != nil {
		r = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u, r)
	if err != nil {
		return nil, err
	}
	req.Header.Set("X-Auth-Token", token)
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, fmt.Errorf("answered %s", resp.Status)
	}
	return got, nil
}
