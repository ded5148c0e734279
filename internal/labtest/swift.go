package labtest

import (
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Swift is an account in memory behind Swift's HTTP API, with tokens
// that expire when told to.
type Swift struct {
	Mu      sync.Mutex
	Objects map[string]map[string]int64 // container -> name -> bytes
	Token   string
	auths   int
}

func (m *Swift) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.Mu.Lock()
	defer m.Mu.Unlock()
	if r.URL.Path == "/auth/v1.0" {
		m.auths++
		m.Token = "tok" + strings.Repeat("x", m.auths)
		w.Header().Set("X-Storage-Url", "http://"+r.Host+"/v1/AUTH_t")
		w.Header().Set("X-Auth-Token", m.Token)
		return
	}
	if r.Header.Get("X-Auth-Token") != m.Token {
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	parts := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/v1/AUTH_t/"), "/", 2)
	c := parts[0]
	switch {
	case len(parts) == 1 && r.Method == http.MethodPut:
		if m.Objects[c] == nil {
			m.Objects[c] = map[string]int64{}
		}
		w.WriteHeader(http.StatusCreated)
	case len(parts) == 1 && r.Method == http.MethodGet:
		m.list(w, r, c)
	case r.Method == http.MethodPut:
		n, _ := io.Copy(io.Discard, r.Body)
		m.Objects[c][parts[1]] = n
		w.WriteHeader(http.StatusCreated)
	case r.Method == http.MethodHead:
		n, ok := m.Objects[c][parts[1]]
		if !ok {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Length", strconv.FormatInt(n, 10))
	}
}

func (m *Swift) list(w http.ResponseWriter, r *http.Request, c string) {
	var names []string
	for n := range m.Objects[c] {
		if n > r.URL.Query().Get("marker") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	type obj struct {
		Name  string `json:"name"`
		Bytes int64  `json:"bytes"`
	}
	out := []obj{}
	for _, n := range names {
		out = append(out, obj{n, m.Objects[c][n]})
	}
	json.NewEncoder(w).Encode(out)
}
