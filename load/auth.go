package load

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
)

// Auth gives the storage URL and token to use, and forgets a token the
// cluster refused so that the next call authenticates again. Every
// implementation is safe for concurrent use and authenticates once for all
// users (token reuse).
type Auth interface {
	// Token returns the storage URL and a token, authenticating if needed.
	Token(ctx context.Context) (storageURL, token string, err error)
	// Invalidate forgets token if it is still the current one.
	Invalidate(token string)
}

// StaticAuth is a storage URL and token given directly: no auth requests.
type StaticAuth struct {
	StorageURL string
	AuthToken  string
}

// Token implements Auth.
func (a StaticAuth) Token(context.Context) (string, string, error) {
	return a.StorageURL, a.AuthToken, nil
}

// Invalidate implements Auth; a given token cannot be renewed.
func (a StaticAuth) Invalidate(string) {}

// ErrAuth wraps every failure to authenticate.
var ErrAuth = errors.New("auth")

// cachedAuth holds the current storage URL and token, and fetches new ones
// with login, one caller at a time.
type cachedAuth struct {
	mu         sync.Mutex
	storageURL string
	token      string
	login      func(ctx context.Context) (string, string, error)
}

func (c *cachedAuth) Token(ctx context.Context) (string, string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.token != "" {
		return c.storageURL, c.token, nil
	}
	u, t, err := c.login(ctx)
	if err != nil {
		return "", "", err
	}
	c.storageURL, c.token = u, t
	return u, t, nil
}

func (c *cachedAuth) Invalidate(token string) {
	c.mu.Lock()
	if c.token == token {
		c.token = ""
	}
	c.mu.Unlock()
}

// NewV1Auth returns auth v1.0 (tempauth, swauth): GET url with X-Auth-User
// and X-Auth-Key. The key is sent only in that header, never logged.
func NewV1Auth(hc *http.Client, url, user, key string) Auth {
	return &cachedAuth{login: func(ctx context.Context) (string, string, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s: %v", ErrAuth, url, err)
		}
		req.Header.Set("X-Auth-User", user)
		req.Header.Set("X-Auth-Key", key)
		resp, err := hc.Do(req)
		if err != nil {
			return "", "", fmt.Errorf("%w: %s: %v", ErrAuth, url, err)
		}
		drain(resp.Body)
		su, tok := resp.Header.Get("X-Storage-Url"), resp.Header.Get("X-Auth-Token")
		if resp.StatusCode/100 != 2 || su == "" || tok == "" {
			return "", "", fmt.Errorf("%w: %s answered %s for user %q", ErrAuth, url, resp.Status, user)
		}
		return su, tok, nil
	}}
}

// KeystoneV3 names a Keystone v3 password login scoped to a project.
type KeystoneV3 struct {
	URL       string // the identity endpoint, e.g. http://h:5000/v3
	User      string
	Password  string
	Project   string
	Domain    string // user and project domain name (default "Default")
	Region    string // the object-store endpoint's region ("" = any)
	Interface string // endpoint interface (default "public")
}

// NewKeystoneV3Auth returns Keystone v3 password auth: POST /auth/tokens,
// the token from X-Subject-Token, the storage URL from the catalog.
func NewKeystoneV3Auth(hc *http.Client, k KeystoneV3) Auth {
	if k.Domain == "" {
		k.Domain = "Default"
	}
	if k.Interface == "" {
		k.Interface = "public"
	}
	return &cachedAuth{login: func(ctx context.Context) (string, string, error) { return k.login(ctx, hc) }}
}

func (k KeystoneV3) login(ctx context.Context, hc *http.Client) (string, string, error) {
	dom := map[string]string{"name": k.Domain}
	reqBody := map[string]any{"auth": map[string]any{
		"identity": map[string]any{"methods": []string{"password"}, "password": map[string]any{
			"user": map[string]any{"name": k.User, "domain": dom, "password": k.Password}}},
		"scope": map[string]any{"project": map[string]any{"name": k.Project, "domain": dom}},
	}}
	data, _ := json.Marshal(reqBody) // plain maps of strings always marshal
	url := strings.TrimSuffix(k.URL, "/") + "/auth/tokens"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrAuth, url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrAuth, url, err)
	}
	defer drain(resp.Body)
	tok := resp.Header.Get("X-Subject-Token")
	if resp.StatusCode != http.StatusCreated || tok == "" {
		return "", "", fmt.Errorf("%w: %s answered %s for user %q", ErrAuth, url, resp.Status, k.User)
	}
	su, err := k.storageURL(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return "", "", fmt.Errorf("%w: %s: %v", ErrAuth, url, err)
	}
	return su, tok, nil
}

// storageURL finds the object-store endpoint in a token's catalog.
func (k KeystoneV3) storageURL(r io.Reader) (string, error) {
	var doc struct {
		Token struct {
			Catalog []struct {
				Type      string `json:"type"`
				Endpoints []struct {
					Interface string `json:"interface"`
					Region    string `json:"region"`
					URL       string `json:"url"`
				} `json:"endpoints"`
			} `json:"catalog"`
		} `json:"token"`
	}
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return "", fmt.Errorf("token body: %v", err)
	}
	for _, svc := range doc.Token.Catalog {
		if svc.Type != "object-store" {
			continue
		}
		for _, ep := range svc.Endpoints {
			if ep.Interface == k.Interface && (k.Region == "" || ep.Region == k.Region) {
				return ep.URL, nil
			}
		}
	}
	return "", fmt.Errorf("no %s object-store endpoint in the catalog", k.Interface)
}

// drain reads a little of a body and closes it, so that the connection
// can be reused.
func drain(rc io.ReadCloser) {
	_, _ = io.Copy(io.Discard, io.LimitReader(rc, 64<<10))
	_ = rc.Close()
}
